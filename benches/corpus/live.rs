//! Live rows: each corpus game played by an emulated board (a DGT board with its DGT clock, a
//! ChessLink board, a Hall board) and watched through the protocol's real host session (from
//! the registry) and live game, both sans-IO, wired together in this process on simulated time
//! (bytes cross at once; the board scans, reports and restarts as the emulator does). What the
//! session recorded is then replayed, as `watch --record` then `replay` would: live and replay
//! must agree.

use shakmaty::fen::Epd;
use shakmaty::san::SanPlus;
use shakmaty::{ByColor, Chess, Color, EnPassantMode, Position};
use touchmove::clock::ClockReading;
use touchmove::event::{ClockTimes, EventKind, GameEvent};
use touchmove::interpreter::Config;
use touchmove::live::{BleProfile, Protocol, SessionOptions};
use touchmove::live::{BoardSession, LinkEvent, LiveEvent, LiveGame};
use touchmove::replay::Replay;
use touchmove::sensor::{Millis, SensorEvent, SensorKind};
use touchmove::sensor_log::SensorLog;
use touchmove::sensor_log::{LogHeader, LogRecord};
use touchmove::timing::{Timing, resolve};
use touchmove_simulation::emulation::{EmulatedBoard, Notice, ProtocolScript, ScriptStart, Unplug};
use touchmove_simulation::emulators::certabo::{
    CertaboBoardEmulator, EmulatorConfig as CertaboConfig,
};
use touchmove_simulation::emulators::chesslink::{
    ChessLinkBoardEmulator, EmulatorConfig as LinkConfig,
};
use touchmove_simulation::emulators::chessnut::{
    ChessnutBoardEmulator, EmulatorConfig as ChessnutConfig,
};
use touchmove_simulation::emulators::dgt::{DgtBoardEmulator, EmulatorConfig, Script};
use touchmove_simulation::emulators::hall::{
    EmulatorConfig as HallConfig, HallBoardEmulator, Script as HallScript,
};
use touchmove_simulation::emulators::pegasus::{
    EmulatorConfig as PegasusConfig, PegasusBoardEmulator,
};
use touchmove_simulation::emulators::squareoff::{
    EmulatorConfig as SquareOffConfig, SquareOffBoardEmulator,
};
use touchmove_simulation::fidelity::compare;
use touchmove_simulation::pgn_games::PgnGame;
use touchmove_simulation::resolvable::{Waiting, resolvable};
use touchmove_simulation::simulate::{BoardKind, HandStyle, SimulatedGame, simulate};

/// A live row's hands and faults.
pub struct LiveStyle {
    /// The row label.
    pub name: &'static str,
    /// The board.
    pub protocol: &'static Protocol,
    /// The simulated hands.
    pub hands: HandStyle,
    /// How long the board is unplugged (its port open: it comes back idle), once per game, at a
    /// point between a fifth and four fifths of the game chosen by the seed.
    pub unplug_ms: Option<Millis>,
    /// How long the host is down (killed, then `watch --resume`), once per game, at such a
    /// point: nothing the board says meanwhile is read; the new host reads the recording back
    /// and goes on appending to it.
    pub killed_ms: Option<Millis>,
    /// Hands that heed the lights (a Pegasus's, a Square Off's): once the host has lit squares
    /// that differ from its game for this long, the board is set back to the host's position
    /// and what was made since made again. `None`: hands that never look at the lights.
    pub set_back_after: Option<Millis>,
    /// Hands that answer a Certabo board's LEDs asking where a piece went: once lit for this
    /// long, the piece last set down, if lit, is lifted and set back. `None`: hands that never
    /// look at the LEDs so.
    pub answer_after: Option<Millis>,
    /// A Certabo board that senses occupancy only (a Sentio), rather than chips.
    pub sentio: bool,
    /// A Certabo board's frame period, when not the emulator's 250 ms: `watch` is told it as
    /// its scan period (`--scan-ms`).
    pub frame_ms: Option<Millis>,
}

impl LiveStyle {
    /// A row on `protocol` with `hands`, no fault, hands that never look at the lights, a
    /// board's own frame period.
    fn plain(name: &'static str, protocol: &'static Protocol, hands: HandStyle) -> LiveStyle {
        LiveStyle {
            name,
            protocol,
            hands,
            unplug_ms: None,
            killed_ms: None,
            set_back_after: None,
            answer_after: None,
            sentio: false,
            frame_ms: None,
        }
    }
}

/// How long the lights show a difference before a person heeding them sets the board back.
const SET_BACK_AFTER_MS: Millis = 2_000;

/// How long a Certabo board's LEDs ask where a piece went before a person looking at them
/// answers.
const ANSWER_AFTER_MS: Millis = 1_000;

/// The live rows.
pub fn styles() -> Vec<LiveStyle> {
    let clean = HandStyle::clean(BoardKind::Identifying);
    let blitz = HandStyle {
        blitz_presses: true,
        ..clean.clone()
    };
    let dgt = &touchmove::dgt::PROTOCOL;
    let row = |name, hands: &HandStyle, unplug_ms| LiveStyle {
        unplug_ms,
        ..LiveStyle::plain(name, dgt, hands.clone())
    };
    let killed = |name, killed_ms| LiveStyle {
        killed_ms: Some(killed_ms),
        ..LiveStyle::plain(name, dgt, blitz.clone())
    };
    // A ChessLink board has no clock: its moves are decided when the slide window closes or
    // the reply starts.
    let link = &touchmove::chesslink::PROTOCOL;
    let no_clock = |hands: HandStyle| HandStyle {
        clock: false,
        scans: false,
        ..hands
    };
    let chesslink = |name, hands: HandStyle, unplug_ms| LiveStyle {
        unplug_ms,
        ..LiveStyle::plain(name, link, no_clock(hands))
    };
    // A Chessnut board identifies pieces and reports the position ten times a second; it has
    // no clock, and its link drops as a Bluetooth link does.
    let chessnut = |name, hands: HandStyle, unplug_ms| LiveStyle {
        unplug_ms,
        ..LiveStyle::plain(name, &touchmove::chessnut::PROTOCOL, no_clock(hands))
    };
    // An eONE is a ChessLink board over Bluetooth LE (its emulator is the ChessLink board's,
    // its bytes crossing with their parity bit).
    let eone = |name, hands: HandStyle, unplug_ms| LiveStyle {
        unplug_ms,
        ..LiveStyle::plain(name, &touchmove::eone::PROTOCOL, no_clock(hands))
    };
    // A Pegasus senses occupancy only and has no clock and no buttons; its link drops as a
    // Bluetooth link does.
    // Its promotions wait for the piece typed at the host, which asks for it: the hands always
    // answer (never leaving a queen to a default there is not). After a drop they heed the
    // lights: a board the host cannot follow is set back to its position and the moves made
    // since made again, as a person does when the board's lights say so.
    let host_chooses = |name, protocol, hands: HandStyle, unplug_ms: Option<Millis>| {
        let hands = HandStyle {
            omit_queen_choice: false,
            ..no_clock(hands)
        };
        LiveStyle {
            unplug_ms,
            set_back_after: unplug_ms.map(|_| SET_BACK_AFTER_MS),
            ..LiveStyle::plain(name, protocol, hands)
        }
    };
    let pegasus = |name, hands, unplug_ms| {
        host_chooses(name, &touchmove::pegasus::PROTOCOL, hands, unplug_ms)
    };
    // A Square Off likewise (each change reported as it happens, its arm not driven).
    let squareoff = |name, hands, unplug_ms| {
        host_chooses(name, &touchmove::squareoff::PROTOCOL, hands, unplug_ms)
    };
    // A Certabo RFID board identifies pieces by their chips (learnt from the start position and
    // the spare queens, which the person takes off after), streaming a frame every 250 ms; no
    // clock. A Sentio board streams occupancy only: its promotions are typed at the host, and
    // its hands answer the LEDs asking where a capture went (a person looks at the board).
    let certabo = |name, hands: HandStyle, unplug_ms, sentio: bool, frame_ms| {
        let hands = HandStyle {
            omit_queen_choice: !sentio && hands.omit_queen_choice,
            ..no_clock(hands)
        };
        LiveStyle {
            unplug_ms,
            answer_after: sentio.then_some(ANSWER_AFTER_MS),
            sentio,
            frame_ms,
            ..LiveStyle::plain(name, &touchmove::certabo::PROTOCOL, hands)
        }
    };
    // A Hall board senses occupancy only; its clock buttons are pressed as the hands press a
    // clock, and no clock reports times.
    let hall_hands = |hands: HandStyle| HandStyle {
        scans: false,
        ..hands
    };
    let hall = |name, hands: HandStyle, unplug_ms| LiveStyle {
        unplug_ms,
        ..LiveStyle::plain(name, &touchmove::hall::PROTOCOL, hall_hands(hands))
    };
    let hall_clean = HandStyle::clean(BoardKind::Occupancy);
    let hall_blitz = HandStyle {
        blitz_presses: true,
        ..hall_clean.clone()
    };
    vec![
        row("live clean", &clean, None),
        row("live blitz presses", &blitz, None),
        row(
            "live messy",
            &HandStyle::messy(BoardKind::Identifying),
            None,
        ),
        row("live unplug 0.3 s", &blitz, Some(300)),
        row("live unplug 3 s", &blitz, Some(3_000)),
        row("live unplug 10 s", &blitz, Some(10_000)),
        row("live unplug 60 s", &clean, Some(60_000)),
        killed("live killed, resumed", 2_000),
        chesslink("chesslink clean", clean.clone(), None),
        chesslink(
            "chesslink messy",
            HandStyle::messy(BoardKind::Identifying),
            None,
        ),
        chesslink("chesslink unplug 3 s", clean.clone(), Some(3_000)),
        chessnut("chessnut clean", clean.clone(), None),
        chessnut(
            "chessnut messy",
            HandStyle::messy(BoardKind::Identifying),
            None,
        ),
        chessnut("chessnut drop 3 s", clean.clone(), Some(3_000)),
        eone("eone clean", clean.clone(), None),
        eone("eone messy", HandStyle::messy(BoardKind::Identifying), None),
        eone("eone drop 3 s", clean.clone(), Some(3_000)),
        pegasus(
            "pegasus clean",
            HandStyle::clean(BoardKind::Occupancy),
            None,
        ),
        pegasus(
            "pegasus messy",
            HandStyle::messy(BoardKind::Occupancy),
            None,
        ),
        pegasus(
            "pegasus drop 3 s",
            HandStyle::clean(BoardKind::Occupancy),
            Some(3_000),
        ),
        squareoff(
            "squareoff clean",
            HandStyle::clean(BoardKind::Occupancy),
            None,
        ),
        squareoff(
            "squareoff messy",
            HandStyle::messy(BoardKind::Occupancy),
            None,
        ),
        squareoff(
            "squareoff drop 3 s",
            HandStyle::clean(BoardKind::Occupancy),
            Some(3_000),
        ),
        certabo("certabo clean", clean.clone(), None, false, None),
        certabo(
            "certabo messy",
            HandStyle::messy(BoardKind::Identifying),
            None,
            false,
            None,
        ),
        certabo(
            "certabo unplug 3 s",
            clean.clone(),
            Some(3_000),
            false,
            None,
        ),
        certabo(
            "sentio clean",
            HandStyle::clean(BoardKind::Occupancy),
            None,
            true,
            None,
        ),
        certabo(
            "sentio messy",
            HandStyle::messy(BoardKind::Occupancy),
            None,
            true,
            None,
        ),
        certabo(
            "sentio unplug 3 s",
            HandStyle::clean(BoardKind::Occupancy),
            Some(3_000),
            true,
            None,
        ),
        // A Sentio's 8-number frame takes about 8 ms on the wire: the same hands on a board
        // sending a frame every 50 ms.
        certabo(
            "sentio 50 ms clean",
            HandStyle::clean(BoardKind::Occupancy),
            None,
            true,
            Some(50),
        ),
        certabo(
            "sentio 50 ms messy",
            HandStyle::messy(BoardKind::Occupancy),
            None,
            true,
            Some(50),
        ),
        certabo(
            "sentio 50 ms unplug 3 s",
            HandStyle::clean(BoardKind::Occupancy),
            Some(3_000),
            true,
            Some(50),
        ),
        hall("hall clean", hall_clean.clone(), None),
        hall("hall blitz presses", hall_blitz.clone(), None),
        hall("hall messy", HandStyle::messy(BoardKind::Occupancy), None),
        hall("hall unplug 3 s", hall_clean.clone(), Some(3_000)),
        hall("hall unplug 10 s", hall_blitz.clone(), Some(10_000)),
        hall("hall unplug 60 s", hall_clean.clone(), Some(60_000)),
        LiveStyle {
            killed_ms: Some(2_000),
            ..LiveStyle::plain(
                "hall killed, resumed",
                &touchmove::hall::PROTOCOL,
                hall_hands(hall_blitz),
            )
        },
    ]
}

/// The figures of one live row.
#[derive(Default)]
pub struct LiveRow {
    pub games: usize,
    /// Games recorded exactly (SAN equal to the source game).
    pub exact: usize,
    /// Games whose live decisions equal the replay of what the session recorded.
    pub same_as_replay: usize,
    /// Rulings made that the hands did not earn.
    pub false_rulings: usize,
    /// Rulings the hands earned (rook-first castling in the messy row), and how many were made.
    pub breaches_expected: usize,
    pub breaches_found: usize,
    /// Plies of the source games missing from the records (from the first that differs).
    pub lost: usize,
    /// Games whose record departs from the game: a ply recorded that was not the one played
    /// there (moves that came back to a position unseen, caught up as the shorter sequence).
    pub astray: usize,
    /// Of them, those that came back to the game: from a ply after they left it, in a position
    /// the game reached, with every move from there the game's.
    pub astray_rejoined: usize,
    /// Moves played as reconstructed (made while the board was not heard).
    pub reconstructed: usize,
    /// Games left waiting: the session ended with the board matching nothing (after an outage,
    /// no single shortest sequence of up to 4 plies explained it, so the game waited).
    pub waiting: usize,
    /// Of those whose record is the game's beginning, the games a later position the board
    /// rested on would have resolved (the plies played since the record were the one shortest
    /// sequence of up to 4 plies to it): none should be.
    pub waiting_resolvable: usize,
    /// The first of them, for the report.
    pub resolvable: Vec<String>,
    /// Moves whose times were checked against the clock (rows whose presses all reach the host:
    /// no outage), and how many differ from what the clock showed after their press by more than
    /// its display's second.
    pub times_checked: usize,
    pub times_off: usize,
    /// The first games not reproduced exactly, for the report.
    pub inexact: Vec<String>,
    /// The first games with a false or a missed ruling, for the report.
    pub misruled: Vec<String>,
    /// The first games whose record left the game and did not come back, for the report.
    pub gone_elsewhere: Vec<String>,
    /// The first games whose live decisions differ from the replay of their recording.
    pub unlike_replay: Vec<String>,
}

/// Whether a record that left the game after `agreed` plies came back to it: from some ply
/// after it left, the record stands in a position the game reached (the pieces, the side to
/// move, castling and en passant rights), and every move it has from there is the game's from
/// there. Plies played unseen that came back to a position (a knight out and back) are caught
/// up as the shorter sequence and leave such a record.
fn rejoined(start: &Chess, expected: &[String], recorded: &[String], agreed: usize) -> bool {
    let game = positions(start, expected);
    let record = positions(start, recorded);
    (agreed + 1..record.len()).any(|ply| {
        let rest = recorded.get(ply..).unwrap_or_default();
        game.iter().enumerate().any(|(at, position)| {
            record.get(ply) == Some(position)
                && expected
                    .get(at..)
                    .is_some_and(|then| then.starts_with(rest))
        })
    })
}

/// The position (as EPD) at the start and after each move of `sans`, as far as they play.
fn positions(start: &Chess, sans: &[String]) -> Vec<String> {
    let epd = |position: &Chess| Epd::from_position(position, EnPassantMode::Legal);
    let mut position = start.clone();
    let mut seen = vec![epd(&position).to_string()];
    for san in sans {
        let Some(m) = SanPlus::from_ascii(san.as_bytes())
            .ok()
            .and_then(|san| san.san.to_move(&position).ok())
        else {
            break;
        };
        position.play_unchecked(m);
        seen.push(epd(&position).to_string());
    }
    seen
}

/// Plays every game of `games` under `style`.
pub fn run(games: &[(String, PgnGame)], style: &LiveStyle) -> LiveRow {
    let mut row = LiveRow::default();
    for (seed, (file, game)) in games.iter().enumerate() {
        let Some(session) = play(game, style, seed as u64) else {
            continue;
        };
        row.games += 1;
        let verdict = compare(
            &game.start,
            &game.moves,
            &session.simulated.expected_rulings,
            &session.decisions,
            &Config::default(),
        );
        let agreed = verdict
            .expected
            .iter()
            .zip(&verdict.recorded)
            .take_while(|(a, b)| a == b)
            .count();
        row.lost += verdict.expected.len().saturating_sub(agreed);
        if agreed < verdict.recorded.len() {
            row.astray += 1;
            if rejoined(&game.start, &verdict.expected, &verdict.recorded, agreed) {
                row.astray_rejoined += 1;
            } else if row.gone_elsewhere.len() < 5 {
                row.gone_elsewhere
                    .push(format!("{file} game {} seed {seed}", game.number));
            }
        }
        if verdict.exact() {
            row.exact += 1;
        } else if row.inexact.len() < 5 {
            row.inexact
                .push(format!("{file} game {} seed {seed}", game.number));
        }
        let same = session.decisions == session.replayed;
        row.same_as_replay += usize::from(same);
        if !same && row.unlike_replay.len() < 5 {
            row.unlike_replay
                .push(format!("{file} game {} seed {seed}", game.number));
        }
        row.false_rulings += verdict.false_rulings.len();
        let misruled = !(verdict.false_rulings.is_empty() && verdict.missed_rulings.is_empty());
        if misruled && row.misruled.len() < 5 {
            row.misruled
                .push(format!("{file} game {} seed {seed}", game.number));
        }
        row.breaches_expected += verdict.earned_rulings;
        row.breaches_found += verdict.earned_rulings - verdict.missed_rulings.len();
        if left_waiting(&session.decisions) {
            row.waiting += 1;
            // The board may have rested on a resolving position any time after the record's
            // last step, once it was heard again.
            let since = last_step(&session.decisions).max(session.heard_from);
            let prefix = agreed == verdict.recorded.len();
            let waiting = Waiting {
                start: &game.start,
                moves: &game.moves,
                move_ends: &session.simulated.move_ends,
                events: &session.simulated.events,
                recorded: agreed,
                since,
                quiet_ms: session.quiet_ms,
                board: board_kind(style),
            };
            let resolved_at = resolvable(&waiting).filter(|_| prefix);
            if let Some(ply) = resolved_at {
                row.waiting_resolvable += 1;
                if row.resolvable.len() < 5 {
                    row.resolvable.push(format!(
                        "{file} game {} seed {seed} (recorded {agreed} plies, resolved after ply {ply})",
                        game.number
                    ));
                }
            }
        }
        let reports_times = style.protocol.name == touchmove::dgt::PROTOCOL.name;
        if reports_times && style.unplug_ms.is_none() && style.killed_ms.is_none() {
            let (checked, off) = times_against_the_clock(&session.recorded, &session.decisions);
            row.times_checked += checked;
            row.times_off += off;
        }
        row.reconstructed += session
            .decisions
            .iter()
            .filter(|decision| matches!(&decision.kind, EventKind::Move(m) if m.reconstructed))
            .count();
    }
    row
}

/// The times each recorded move ends with (its `move`, then its `clock` events), against the
/// clock's first report after its mover's press that shows the opponent's side running: how
/// many moves were checked, and how many differ by more than the display's second. The n-th
/// press of a side completes that side's n-th move (the hands press once a move).
fn times_against_the_clock(recorded: &[LogRecord], decisions: &[GameEvent]) -> (usize, usize) {
    let mut moves: Vec<(Color, Option<ClockTimes>)> = Vec::new();
    for decision in decisions {
        match &decision.kind {
            EventKind::Move(m) => moves.push((m.color, m.clock)),
            EventKind::Clock { ply, clock, .. } => {
                if let Some(times) = moves.get_mut((*ply as usize).wrapping_sub(1)) {
                    times.1 = Some(*clock);
                }
            }
            EventKind::Takeback { ply } => moves.truncate((*ply as usize).saturating_sub(1)),
            _ => {}
        }
    }
    let mut after_presses: ByColor<Vec<Option<ClockTimes>>> = ByColor::new_with(|_| Vec::new());
    let mut awaiting: ByColor<bool> = ByColor::new_with(|_| false);
    let mut last_reading: Option<(Millis, ClockReading)> = None;
    for record in recorded {
        match record {
            LogRecord::Event(SensorEvent {
                kind: SensorKind::Clock(color),
                t,
            }) => {
                // The clock's report of the press may come in its instant, before it.
                let reported = last_reading
                    .filter(|(at, reading)| at == t && reading.running == Some(!*color))
                    .map(|(_, reading)| reading.times);
                after_presses.get_mut(*color).push(reported);
                *awaiting.get_mut(*color) = reported.is_none();
            }
            LogRecord::ClockReading { reading, t } => {
                last_reading = Some((*t, *reading));
                for color in [Color::White, Color::Black] {
                    let shows = reading.running == Some(!color);
                    if *awaiting.get(color) && shows {
                        *awaiting.get_mut(color) = false;
                        if let Some(last) = after_presses.get_mut(color).last_mut() {
                            *last = Some(reading.times);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut made = ByColor::new_with(|_| 0usize);
    let (mut checked, mut off) = (0, 0);
    for (color, times) in moves {
        let nth = *made.get(color);
        *made.get_mut(color) += 1;
        let Some(Some(shown)) = after_presses.get(color).get(nth) else {
            continue;
        };
        checked += 1;
        let near = |a: u64, b: u64| a.abs_diff(b) <= 1_000;
        let agrees =
            times.is_some_and(|t| near(t.white, shown.white) && near(t.black, shown.black));
        off += usize::from(!agrees);
    }
    (checked, off)
}

/// The last of `decisions` whose kind `wanted` accepts.
fn last_of(decisions: &[GameEvent], wanted: impl Fn(&EventKind) -> bool) -> Option<&GameEvent> {
    decisions.iter().rev().find(|d| wanted(&d.kind))
}

/// Whether the last word on the board was a mismatch (no resync nor move since).
fn left_waiting(decisions: &[GameEvent]) -> bool {
    last_of(decisions, |kind| {
        matches!(
            kind,
            EventKind::Mismatch { .. } | EventKind::Resync | EventKind::Move(_)
        )
    })
    .is_some_and(|d| matches!(d.kind, EventKind::Mismatch { .. }))
}

/// When the record last followed the board: its last move, resync or takeback.
fn last_step(decisions: &[GameEvent]) -> Millis {
    last_of(decisions, |kind| {
        matches!(
            kind,
            EventKind::Resync | EventKind::Move(_) | EventKind::Takeback { .. }
        )
    })
    .map_or(0, |d| d.t)
}

/// One live session's outcome.
struct Session {
    /// What the hands did (their events, where each ply ended, the rulings they earned).
    simulated: SimulatedGame,
    /// How long the board must rest to be quiet for the interpreter.
    quiet_ms: Millis,
    /// When the host first heard the board after the outage (0 without one).
    heard_from: Millis,
    /// What the live game decided.
    decisions: Vec<GameEvent>,
    /// What replaying the session's recording decided.
    replayed: Vec<GameEvent>,
    /// What the session recorded.
    recorded: Vec<LogRecord>,
}

/// Time the session goes on after the script's last event (the board idle, checks going on).
const AFTER_SCRIPT_MS: Millis = 5_000;

/// The emulated board of `style`'s protocol playing `events`, unplugged for `unplug` if
/// asked, waiting for the host; `None` when it cannot play them.
fn emulated_board(
    style: &LiveStyle,
    game: &PgnGame,
    events: &[SensorEvent],
    seed: u64,
    unplug: Option<Unplug>,
) -> Option<Box<dyn EmulatedBoard>> {
    if style.protocol.name == touchmove::pegasus::PROTOCOL.name {
        let script = HallScript::from_occupancy(game.start.board().occupied(), events);
        let mut config = PegasusConfig::new(script);
        config.playing.start = ScriptStart::OnHost;
        config.playing.seed = seed;
        config.unplug = unplug;
        config.set_back_after = style.set_back_after;
        return Some(Box::new(PegasusBoardEmulator::new(config)));
    }
    if style.protocol.name == touchmove::squareoff::PROTOCOL.name {
        let script = HallScript::from_occupancy(game.start.board().occupied(), events);
        let mut config = SquareOffConfig::new(script);
        config.playing.start = ScriptStart::OnHost;
        config.playing.seed = seed;
        config.unplug = unplug;
        config.set_back_after = style.set_back_after;
        return Some(Box::new(SquareOffBoardEmulator::new(config)));
    }
    if style.protocol.name == touchmove::hall::PROTOCOL.name {
        let script = HallScript::from_occupancy(game.start.board().occupied(), events);
        let mut config = HallConfig::new(script);
        config.playing.start = ScriptStart::OnHost;
        config.playing.seed = seed;
        config.unplug = unplug;
        return Some(Box::new(HallBoardEmulator::new(config)));
    }
    if style.protocol.name == touchmove::certabo::PROTOCOL.name {
        let log = SensorLog {
            header: LogHeader::new(&game.start, "live bench"),
            events: events.to_vec(),
            clock_readings: Vec::new(),
            host_notes: Vec::new(),
        };
        let script = touchmove_simulation::emulators::chesslink::Script::from_log(&log, 0).ok()?;
        let mut config = CertaboConfig::new(script);
        config.playing.start = ScriptStart::OnHost;
        config.playing.seed = seed;
        config.unplug = unplug;
        config.sentio = style.sentio;
        config.answer_after = style.answer_after;
        if let Some(frame_ms) = style.frame_ms {
            config.frame_ms = frame_ms;
        }
        return Some(Box::new(CertaboBoardEmulator::new(config)));
    }
    let identifying = [
        touchmove::chesslink::PROTOCOL.name,
        touchmove::chessnut::PROTOCOL.name,
        touchmove::eone::PROTOCOL.name,
    ];
    if identifying.contains(&style.protocol.name) {
        let log = SensorLog {
            header: LogHeader::new(&game.start, "live bench"),
            events: events.to_vec(),
            clock_readings: Vec::new(),
            host_notes: Vec::new(),
        };
        let script = touchmove_simulation::emulators::chesslink::Script::from_log(&log, 0).ok()?;
        if style.protocol.name == touchmove::chessnut::PROTOCOL.name {
            let mut config = ChessnutConfig::new(script);
            config.playing.start = ScriptStart::OnHost;
            config.playing.seed = seed;
            config.unplug = unplug;
            return Some(Box::new(ChessnutBoardEmulator::new(config)));
        }
        let mut config = LinkConfig::new(script);
        config.playing.start = ScriptStart::OnHost;
        config.playing.seed = seed;
        config.unplug = unplug;
        return Some(Box::new(ChessLinkBoardEmulator::new(config)));
    }
    let script = Script::from_events(&game.start, events).ok()?;
    let mut config = EmulatorConfig::new(script);
    config.playing.start = ScriptStart::OnHost;
    config.playing.seed = seed;
    // Time enough for any corpus game: no flag falls in these rows.
    config.clock.initial_ms = 10 * 3_600_000;
    // The clock adds an increment at each press, which a move's times must show.
    config.clock.increment_ms = 2_000;
    config.unplug = unplug;
    Some(Box::new(DgtBoardEmulator::new(config)))
}

/// What `style`'s board senses: a Hall board, a Pegasus, a Square Off and a Sentio occupancy,
/// the others each piece.
fn board_kind(style: &LiveStyle) -> BoardKind {
    let occupancy = [
        touchmove::hall::PROTOCOL.name,
        touchmove::pegasus::PROTOCOL.name,
        touchmove::squareoff::PROTOCOL.name,
    ];
    if style.sentio || occupancy.contains(&style.protocol.name) {
        BoardKind::Occupancy
    } else {
        BoardKind::Identifying
    }
}

/// Plays `game` on the emulated board and watches it; `None` when it cannot be emulated.
fn play(game: &PgnGame, style: &LiveStyle, seed: u64) -> Option<Session> {
    // As the emulators play a game, keeping the rulings the hands earn: a DGT board scans
    // as the hands simulator models it; a ChessLink board's emulator scans by itself.
    let dgt = style.protocol.name == touchmove::dgt::PROTOCOL.name;
    // A Sentio board's pieces are real pieces (the emulator plays their changes, a promotion's
    // piece typed at the host); it senses their occupancy only.
    let hands_board = if style.sentio {
        BoardKind::Identifying
    } else {
        board_kind(style)
    };
    let hands = HandStyle {
        board: hands_board,
        scans: dgt,
        ..style.hands.clone()
    };
    let simulated = simulate(&game.start, &game.moves, &hands, seed).ok()?;
    let length = simulated.events.last().map_or(0, |event| event.t);
    let fault_at = length / 5 + length * (seed % 60) / 100;
    let unplug = style.unplug_ms.map(|duration| Unplug {
        at: fault_at,
        duration,
    });
    let mut kill = style.killed_ms.map(|down| (fault_at, down));
    let mut board = emulated_board(style, game, &simulated.events, seed, unplug)?;
    // As `watch` decides on this protocol's board: its report horizon and its scan period.
    let given = Timing {
        scan_ms: style.frame_ms,
        ..Timing::default()
    };
    let interpreter = style.protocol.deciding(resolve(
        Config::default(),
        given,
        Timing::default(),
        style.protocol.timing(),
    ));
    let mut watcher = Watcher::new(style.protocol, game, interpreter, Vec::new());
    // A board calibrated before (a Certabo RFID board's chips kept): its session knows it.
    if let Some(learnt) = board.calibration() {
        watcher.link.recall(&learnt);
    }
    let mut now: Millis = 0;
    watcher.link.connect(now);
    let mut done_at: Option<Millis> = None;
    // A deadline that handling does not move on would spin here: that is a bug, reported as
    // a game not reproduced rather than a bench that never ends.
    let mut stalled = 0u32;
    loop {
        if let Some((at, down)) = kill.filter(|(at, _)| now >= *at) {
            // The host is killed: what the board says is lost until a new one starts, reads
            // the recording back and opens the port again.
            if now < at.saturating_add(down) {
                while board.poll_transmit().is_some() {}
            } else {
                kill = None;
                watcher = watcher.resumed(style.protocol, game, interpreter, now);
            }
        }
        let host_down = kill.is_some_and(|(at, _)| now >= at);
        while !host_down && watcher.exchange(&mut board, now) {}
        if board.script_done() {
            done_at.get_or_insert(now);
        }
        let next = if host_down {
            [
                board.poll_timeout(),
                kill.map(|(at, down)| at.saturating_add(down)),
            ]
            .into_iter()
            .flatten()
            .min()
        } else {
            [
                board.poll_timeout(),
                watcher.link.poll_timeout(),
                watcher.game.poll_timeout(),
                kill.map(|(at, _)| at),
            ]
            .into_iter()
            .flatten()
            .min()
        };
        let end = done_at.map(|done| done.saturating_add(AFTER_SCRIPT_MS));
        match next {
            Some(next) if end.is_none_or(|end| next <= end) => {
                stalled = if next <= now { stalled + 1 } else { 0 };
                if stalled > 10_000 {
                    eprintln!("live bench: a deadline at {now} ms does not move on");
                    return None;
                }
                now = next.max(now);
            }
            _ => break,
        }
        board.handle_timeout(now);
        if kill.is_none_or(|(at, _)| now < at) {
            watcher.link.handle_timeout(now);
            watcher.game.handle_timeout(now);
            watcher.drain(now);
        }
    }
    watcher.game.finish();
    watcher.drain(now);
    let replayed = replay(game, &watcher.recorded, &interpreter);
    Some(Session {
        simulated,
        quiet_ms: interpreter.rest_ms(),
        heard_from: style.unplug_ms.or(style.killed_ms).map_or(0, |down| {
            heard_after(&watcher.recorded, fault_at.saturating_add(down))
        }),
        decisions: watcher.decisions,
        replayed,
        recorded: watcher.recorded,
    })
}

/// When the host first heard the board at or after `back` (the outage's end): the report it
/// then read (the end of the recording if none came).
fn heard_after(recorded: &[LogRecord], back: Millis) -> Millis {
    recorded
        .iter()
        .find_map(|record| match record {
            LogRecord::Event(event) if event.t >= back => Some(event.t),
            _ => None,
        })
        .unwrap_or(Millis::MAX)
}

/// `bytes` as they reach the other end of a Bluetooth link with `profile` (put on the air,
/// taken off it), or of a wire (as they are).
fn across(profile: Option<BleProfile>, bytes: Vec<u8>) -> Vec<u8> {
    let Some(profile) = profile else {
        return bytes;
    };
    let on_air = match profile.to_air {
        Some(to_air) => to_air(&bytes),
        None => bytes,
    };
    match profile.from_air {
        Some(from_air) => from_air(&on_air),
        None => on_air,
    }
}

/// The host side: the session, the live game, what it recorded and decided.
struct Watcher {
    link: Box<dyn BoardSession + Send>,
    /// A Bluetooth board's profile: its bytes cross as they go on the air (an eONE's parity
    /// bit) and come off it, as the transport and the Bluetooth stand-in pass them.
    air: Option<BleProfile>,
    game: LiveGame,
    recorded: Vec<LogRecord>,
    decisions: Vec<GameEvent>,
}

impl Watcher {
    /// A host watching `game` (its session not yet connected), its recording `recorded`.
    fn new(
        protocol: &Protocol,
        game: &PgnGame,
        config: Config,
        recorded: Vec<LogRecord>,
    ) -> Watcher {
        Watcher {
            link: (protocol.new_session)(&SessionOptions::new()),
            air: protocol.ble,
            game: LiveGame::new(game.start.clone(), config),
            recorded,
            decisions: Vec::new(),
        }
    }

    /// A new host after this one was killed, as `watch --resume` starts: the recording read
    /// back (its decisions made again), the session told where the game stands and connected
    /// at `now`; the recording goes on.
    fn resumed(self, protocol: &Protocol, game: &PgnGame, config: Config, now: Millis) -> Watcher {
        let mut next = Watcher::new(protocol, game, config, self.recorded);
        let point = next.game.replay_recording(next.recorded.clone());
        while let Some(event) = next.game.poll_event() {
            if let LiveEvent::Decision(decision) = event {
                next.decisions.push(decision);
            }
        }
        if let Some(point) = point {
            next.link.resume(&point);
        }
        next.link.connect(now);
        next
    }

    /// Moves the bytes both ways at `now` and passes what the session reports to the game, as
    /// the runner does; returns whether anything happened.
    fn exchange(&mut self, board: &mut dyn EmulatedBoard, now: Millis) -> bool {
        let mut moved = false;
        // The host's screen shows the record's position to the players.
        if let Some(interpreter) = self.game.interpreter() {
            board.screen(now, interpreter.game().position().board().occupied());
        }
        while let Some(bytes) = self.link.poll_transmit() {
            board.handle_bytes(now, &across(self.air, bytes));
            moved = true;
        }
        while let Some(bytes) = board.poll_transmit() {
            self.link.handle_bytes(now, &across(self.air, bytes));
            moved = true;
        }
        // A promotion's piece the player types at the host (a board without buttons), taken
        // as the runner takes `promote q|r|b|n`: once the game is on.
        while let Some(notice) = board.poll_notice() {
            if let (Notice::ChosenAtHost(role), true) = (notice, self.game.started()) {
                let event = SensorEvent::new(now, SensorKind::Promote(role));
                self.game.handle_sensor(&event);
                self.recorded.push(LogRecord::Event(event));
                self.drain(now);
                moved = true;
            }
        }
        while let Some(event) = self.link.poll_event() {
            moved = true;
            match event {
                LinkEvent::Sensor(kind) => {
                    let event = SensorEvent::new(now, kind);
                    self.game.handle_sensor(&event);
                    if self.game.started() {
                        self.recorded
                            .push(LogRecord::Event(self.game.recorded(&event)));
                    }
                }
                LinkEvent::ClockReading(reading) => {
                    self.game.handle_clock_reading(now, &reading);
                    if self.game.started() {
                        self.recorded
                            .push(LogRecord::ClockReading { t: now, reading });
                    }
                }
                LinkEvent::Gone => self.link.connect(now),
                LinkEvent::Identified { .. }
                | LinkEvent::Notice(_)
                | LinkEvent::Learnt(_)
                | LinkEvent::Battery { .. }
                | LinkEvent::Lost
                | LinkEvent::Back => {}
            }
            self.drain(now);
        }
        moved
    }

    /// Passes the game's decisions to the session (for the clock) and keeps them.
    fn drain(&mut self, now: Millis) {
        while let Some(event) = self.game.poll_event() {
            if let LiveEvent::Decision(decision) = event {
                self.decisions.push(decision);
            }
        }
        while let Some(feedback) = self.game.poll_feedback() {
            self.link.handle_feedback(now, &feedback);
        }
    }
}

/// The decisions of replaying `recorded`, as `replay` reads a `watch --record` log (whose
/// header states the timing the session decided with).
fn replay(game: &PgnGame, recorded: &[LogRecord], config: &Config) -> Vec<GameEvent> {
    let header = LogHeader::new(&game.start, "live bench")
        .with_timing(Timing::of_config(config))
        .with_promotion_choice_of(config);
    let mut replay = Replay::new(Config::default());
    let mut out = Vec::new();
    replay.record(LogRecord::Header(Box::new(header)), &mut |event| {
        out.push(event)
    });
    for record in recorded {
        replay.record(record.clone(), &mut |event| out.push(event));
    }
    replay.finish(&mut |event| out.push(event));
    out
}
