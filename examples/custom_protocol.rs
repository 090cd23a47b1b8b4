//! A board protocol of your own, plugged into touchmove's seam: a made-up text protocol whose
//! board sends one line per report (`=` and 64 `0`/`1` characters for its occupancy, a8 to h1;
//! `-e2` for a piece lifted from e2, `+e4` for one set down on e4) and lights squares when told
//! `light e2 e4`.
//!
//! The session is sans-IO: it takes bytes and the time, and gives sensor events and bytes to
//! send. Here it is driven by hand, the way `touchmove::runner` drives a real one: a scripted byte
//! stream stands in for the serial port, and the game's decisions are printed as they come.
//! To put such a protocol on the command line (`watch --protocol lines`), its `PROTOCOL` would
//! go in a folder of `crates/boards/src/` and one line of `crates/boards/src/registry.rs`.
//!
//! ```sh
//! cargo run --example custom_protocol
//! ```

use std::collections::VecDeque;

use shakmaty::{Bitboard, Chess, Square};

use touchmove::live::{Feedback, LiveEvent, Protocol, SerialLine, SessionOptions};
use touchmove::output::text::render;
use touchmove::sensor::BoardSnapshot;
use touchmove::{BoardSession, Config, LinkEvent, LiveGame, Millis, SensorEvent, SensorKind};

/// The protocol as the host knows it.
const PROTOCOL: Protocol = Protocol {
    name: "lines",
    summary: "a made-up board that speaks one line per report",
    line: Some(SerialLine::eight_n_one(9600)),
    ble: None,
    // Reports come as they happen: no press waits for a late one, and no scan hides a rest.
    report_horizon_ms: 0,
    scan_ms: 0,
    new_session: line_session,
    probe: None,
    // Its promotions are placed as any move: the queen, unless a `promote` report says else.
    promotion_at_host: false,
};

fn line_session(_options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(LineSession::default())
}

/// The host's side of the protocol.
#[derive(Default)]
struct LineSession {
    /// Bytes of a line not yet ended.
    partial: Vec<u8>,
    events: VecDeque<LinkEvent>,
    transmit: VecDeque<Vec<u8>>,
}

impl LineSession {
    /// One line from the board.
    fn line(&mut self, line: &str) {
        let event = if let Some(bits) = line.strip_prefix('=') {
            occupancy(bits)
                .map(|occupied| SensorKind::Snapshot(Box::new(BoardSnapshot::occupancy(occupied))))
        } else if let Some(square) = line.strip_prefix('-') {
            square
                .parse::<Square>()
                .ok()
                .map(|square| SensorKind::Lift {
                    square,
                    piece: None,
                })
        } else if let Some(square) = line.strip_prefix('+') {
            square
                .parse::<Square>()
                .ok()
                .map(|square| SensorKind::Place {
                    square,
                    piece: None,
                })
        } else {
            None
        };
        // Illegal is data: a line that is no report is said, never a stop.
        self.events.push_back(match event {
            Some(kind) => LinkEvent::Sensor(kind),
            None => LinkEvent::Notice(format!("not a report: {line:?}")),
        });
    }
}

/// The occupied squares of 64 `0`/`1` characters, a8 … h8, a7 …, a1 … h1.
fn occupancy(bits: &str) -> Option<Bitboard> {
    if bits.len() != 64 {
        return None;
    }
    let mut occupied = Bitboard::EMPTY;
    for (index, bit) in bits.bytes().enumerate() {
        let rank = 7 - u32::try_from(index / 8).ok()?;
        let file = u32::try_from(index % 8).ok()?;
        if bit == b'1' {
            occupied.add(Square::new(rank * 8 + file));
        }
    }
    Some(occupied)
}

impl BoardSession for LineSession {
    fn connect(&mut self, _now: Millis) {
        // Ask for the whole board first.
        self.transmit.push_back(b"board?\n".to_vec());
    }

    fn handle_bytes(&mut self, _now: Millis, bytes: &[u8]) {
        for &byte in bytes {
            if byte == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                self.line(line.trim());
            } else {
                self.partial.push(byte);
            }
        }
    }

    fn handle_timeout(&mut self, _now: Millis) {}

    fn poll_timeout(&self) -> Option<Millis> {
        None
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transmit.pop_front()
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    fn handle_feedback(&mut self, _now: Millis, feedback: &Feedback) {
        if let Feedback::Moved { from, to, .. } = feedback {
            self.transmit
                .push_back(format!("light {from} {to}\n").into_bytes());
        }
    }
}

/// What the board says, and when (ms): it is set up, then 1. e4 e5 2. Nf3 are played, with a
/// line of noise in the middle.
fn board_says() -> Vec<(Millis, String)> {
    let start = "=".to_owned() + &"1".repeat(16) + &"0".repeat(32) + &"1".repeat(16);
    [
        (0, start.as_str()),
        (1000, "-e2"),
        (1300, "+e4"),
        (3000, "-e7"),
        (3400, "+e5"),
        (3500, "%&*"),
        (5000, "-g1"),
        (5300, "+f3"),
    ]
    .into_iter()
    .map(|(t, line)| (t, format!("{line}\n")))
    .collect()
}

fn main() {
    let mut session = (PROTOCOL.new_session)(&SessionOptions::new());
    let config = Config::default().with_report_horizon_ms(PROTOCOL.report_horizon_ms);
    let mut game = LiveGame::new(Chess::default(), config);
    println!("{}: {}", PROTOCOL.name, PROTOCOL.summary);
    session.connect(0);
    pass(&mut game, &mut *session, 0);
    for (t, bytes) in board_says() {
        // Deadlines that fall before the next bytes come first (a move decided when its slide
        // window closes).
        while let Some(deadline) = game.poll_timeout().filter(|&deadline| deadline <= t) {
            game.handle_timeout(deadline);
            pass(&mut game, &mut *session, deadline);
        }
        session.handle_bytes(t, bytes.as_bytes());
        while let Some(event) = session.poll_event() {
            match event {
                LinkEvent::Sensor(kind) => game.handle_sensor(&SensorEvent::new(t, kind)),
                LinkEvent::Notice(text) => println!("{t:>6} notice: {text}"),
                _ => {}
            }
        }
        pass(&mut game, &mut *session, t);
    }
    game.finish();
    pass(&mut game, &mut *session, 6000);
}

/// Prints what the game decided, hands what it tells the board to the session, and shows what
/// the session would write to the port.
fn pass(game: &mut LiveGame, session: &mut dyn BoardSession, now: Millis) {
    while let Some(event) = game.poll_event() {
        match event {
            LiveEvent::Started { t } => println!("{t:>6} the board shows the start: game on"),
            LiveEvent::Decision(decision) => println!("{:>6} {}", decision.t, render(&decision)),
            LiveEvent::Waiting { .. } => println!("{now:>6} waiting for the start position"),
            LiveEvent::SetUp { t } => println!("{t:>6} a new game was set up"),
            LiveEvent::PromotionAsked { t, from, to } => {
                println!("{t:>6} {from}-{to} promotes: which piece?");
            }
        }
    }
    while let Some(feedback) = game.poll_feedback() {
        session.handle_feedback(now, &feedback);
    }
    while let Some(bytes) = session.poll_transmit() {
        println!(
            "{now:>6} to the board: {}",
            String::from_utf8_lossy(&bytes).trim()
        );
    }
}
