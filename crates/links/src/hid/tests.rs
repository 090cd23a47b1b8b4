//! The HID transport against an emulated Chessnut board behind [`HidLink`] (no USB HID device
//! can be made here): a whole game through the real runner and the board's session, its
//! reports padded as a device pads them, the host's writes paced.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use touchmove_boards::live::{LiveEvent, LiveGame, SessionOptions};
use touchmove_core::event::EventKind;
use touchmove_core::interpreter::Config;
use touchmove_core::timing::{Timing, resolve};
use touchmove_runtime::runner::{Happened, RunnerConfig, Sink};
use touchmove_simulation::emulation::{EmulatedBoard, ProtocolScript, ScriptStart};
use touchmove_simulation::emulators::chesslink::Script;
use touchmove_simulation::emulators::chessnut::{ChessnutBoardEmulator, EmulatorConfig};
use touchmove_simulation::fidelity::san_list;
use touchmove_simulation::pgn_games::read_games;
use touchmove_simulation::simulate::{BoardKind, HandStyle};

use super::*;

/// The size of the emulated device's input reports (a frame is padded to it).
const EMULATED_REPORT_SIZE: usize = 64;

/// How fast the emulated hands play.
const SPEED: f64 = 8.0;

/// An emulated Chessnut board as a HID device: its frames are input reports, padded; the
/// host's output reports are its bytes. It fails (as an unplugged device) a second after its
/// script is done.
struct EmulatedHid {
    board: ChessnutBoardEmulator,
    started: Instant,
    done_at: Option<Instant>,
    /// When each output report was written.
    writes: Arc<Mutex<Vec<Instant>>>,
}

impl EmulatedHid {
    fn now(&self) -> Millis {
        Millis::try_from(self.started.elapsed().as_millis()).unwrap_or(Millis::MAX)
    }
}

impl HidLink for EmulatedHid {
    fn read_report(&mut self, buf: &mut [u8], timeout_ms: i32) -> io::Result<usize> {
        let deadline =
            Instant::now() + Duration::from_millis(u64::try_from(timeout_ms).unwrap_or(0));
        loop {
            let now = self.now();
            self.board.handle_timeout(now);
            if let Some(frame) = self.board.poll_transmit() {
                let mut report = frame;
                report.resize(report.len().max(EMULATED_REPORT_SIZE), 0);
                let n = report.len().min(buf.len());
                buf[..n].copy_from_slice(&report[..n]);
                return Ok(n);
            }
            if self.board.script_done() {
                let done = *self.done_at.get_or_insert_with(Instant::now);
                if done.elapsed() > Duration::from_secs(1) {
                    return Err(io::Error::other("unplugged"));
                }
            }
            let next = self
                .board
                .poll_timeout()
                .map(|at| self.started + Duration::from_millis(at))
                .map_or(deadline, |at| at.min(deadline));
            let wait = next.saturating_duration_since(Instant::now());
            if Instant::now() >= deadline {
                return Ok(0);
            }
            // The device's own time passing, not a test waiting for something.
            std::thread::sleep(wait.max(Duration::from_millis(1)));
        }
    }

    fn write_report(&mut self, report: &[u8]) -> io::Result<usize> {
        if let Ok(mut writes) = self.writes.lock() {
            writes.push(Instant::now());
        }
        let now = self.now();
        self.board.handle_bytes(now, report);
        Ok(report.len())
    }
}

/// Opens the emulated board once; after it is gone, nothing answers.
struct OnceConnector(Option<EmulatedHid>);

impl Connector for OnceConnector {
    type Port = HidPort;

    async fn connect(&mut self) -> io::Result<(HidPort, String)> {
        match self.0.take() {
            Some(device) => Ok((HidPort::new(device), "hid:emulated".to_owned())),
            None => Err(io::Error::new(io::ErrorKind::NotFound, "no board")),
        }
    }
}

/// The moves the game decided, in SAN, takebacks applied.
#[derive(Default)]
struct Moves(Vec<String>);

impl Sink for Moves {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        if let Happened::Live {
            event: LiveEvent::Decision(decision),
            ..
        } = happened
        {
            match &decision.kind {
                EventKind::Move(m) => self.0.push(m.san.to_string()),
                EventKind::Takeback { ply } => self.0.truncate((*ply as usize).saturating_sub(1)),
                _ => {}
            }
        }
        Ok(())
    }
}

#[test]
fn a_game_on_a_chessnut_board_over_usb_hid_is_followed_and_the_writes_paced() {
    let pgn = std::fs::File::open(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/games/coverage.pgn"
    ));
    let game = read_games(pgn.expect("the fixture"))
        .find_map(Result::ok)
        .expect("a game");
    let hands = HandStyle::clean(BoardKind::Identifying);
    let script = Script::from_game(&game.start, &game.moves, &hands, 3).expect("a script");
    let mut config = EmulatorConfig::new(script);
    config.playing.start = ScriptStart::OnHost;
    config.playing.speed = SPEED;
    let writes = Arc::new(Mutex::new(Vec::new()));
    let device = EmulatedHid {
        board: ChessnutBoardEmulator::new(config),
        started: Instant::now(),
        done_at: None,
        writes: Arc::clone(&writes),
    };
    let protocol = &touchmove_boards::chessnut::PROTOCOL;
    // The windows scaled to the hands' speed, as the end-to-end tests scale them.
    let deciding = protocol.deciding(resolve(
        Config::default().with_slide_ms(6).with_bounce_ms(1),
        Timing::default(),
        Timing::default(),
        protocol.timing(),
    ));
    let mut game_state = LiveGame::new(game.start.clone(), deciding);
    let mut session = (protocol.new_session)(&SessionOptions::new());
    let mut moves = Moves::default();
    let runner = RunnerConfig {
        give_up_after: Some(Duration::from_secs(1)),
        ..RunnerConfig::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let ran = runtime.block_on(touchmove_runtime::runner::run(
        &mut OnceConnector(Some(device)),
        &mut session,
        &mut game_state,
        &mut moves,
        runner,
        std::future::pending(),
    ));
    assert!(ran.is_err(), "it gives up once the board is gone");
    assert_eq!(moves.0, san_list(&game.start, &game.moves));
    let writes = writes.lock().map(|w| w.clone()).unwrap_or_default();
    assert!(
        writes.len() >= 3,
        "reports started, battery asked, lights: {writes:?}"
    );
    for pair in writes.windows(2) {
        let gap = pair[1].duration_since(pair[0]);
        assert!(gap >= Duration::from_millis(200), "writes {gap:?} apart");
    }
}
