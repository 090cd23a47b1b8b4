//! Fuzz-style properties: whatever arrives, nothing panics and nothing hangs.
//!
//! - Arbitrary bytes, and real fixture logs with bytes changed at random, through the log
//!   decoder in random pieces: every record or error comes out, and the decoder holds no more
//!   than a line's limit.
//! - Arbitrary sensor events and clock reports (any square, piece, press, snapshot, times from
//!   0 to the log's latest) through the interpreter under random settings and time controls:
//!   it decides, finishes, and every decision's time is in order.
//!
//! Each case runs on its own thread with a bound on its time: a case that does not end within
//! it (a loop that never finishes) fails instead of hanging the suite.

use crate::common;

use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use proptest::prelude::*;
use shakmaty::{Bitboard, Chess, Color, Piece, Role, Square};
use touchmove::clock::{ClockReading, Flag};
use touchmove::event::ClockTimes;
use touchmove::interpreter::{Config, Interpreter};
use touchmove::sensor::{BoardSnapshot, Millis, SensorEvent, SensorKind};
use touchmove::sensor_log::{LogDecoder, MAX_TIME_MS};
use touchmove_core::decode::StreamDecoder;

/// How long one case may take, on a machine as loaded as it may be: each case is a few
/// thousand events or bytes, milliseconds of work; a minute means it never ends.
const CASE_BOUND: Duration = Duration::from_secs(60);

/// Runs `work` on its own thread and fails if it does not finish within [`CASE_BOUND`].
fn bounded(work: impl FnOnce() + Send + 'static) {
    let (done, finished) = channel();
    let handle = std::thread::spawn(move || {
        work();
        let _ = done.send(());
    });
    match finished.recv_timeout(CASE_BOUND) {
        Ok(()) => handle.join().expect("the case's thread"),
        // The thread ended without sending: it panicked; join reports the panic.
        Err(RecvTimeoutError::Disconnected) => handle.join().expect("the case panicked"),
        Err(RecvTimeoutError::Timeout) => {
            panic!("a case did not finish within {CASE_BOUND:?}: a hang")
        }
    }
}

/// Decodes `bytes` pushed in pieces of `piece` bytes, polling after each.
fn decode(bytes: &[u8], piece: usize) -> usize {
    let mut decoder = LogDecoder::new();
    let mut outputs = 0;
    for chunk in bytes.chunks(piece.max(1)) {
        decoder.push(chunk);
        outputs += std::iter::from_fn(|| decoder.poll()).count();
    }
    decoder.finish();
    outputs + std::iter::from_fn(|| decoder.poll()).count()
}

fn square() -> impl Strategy<Value = Square> {
    (0u32..64).prop_map(Square::new)
}

fn piece() -> impl Strategy<Value = Option<Piece>> {
    prop::option::of((any::<bool>(), 0usize..6).prop_map(|(white, role)| Piece {
        color: Color::from_white(white),
        role: Role::ALL.get(role).copied().unwrap_or(Role::Pawn),
    }))
}

fn color() -> impl Strategy<Value = Color> {
    any::<bool>().prop_map(Color::from_white)
}

fn sensor_kind() -> impl Strategy<Value = SensorKind> {
    prop_oneof![
        8 => (square(), piece()).prop_map(|(square, piece)| SensorKind::Lift { square, piece }),
        8 => (square(), piece()).prop_map(|(square, piece)| SensorKind::Place { square, piece }),
        1 => Just(SensorKind::Adjust),
        2 => color().prop_map(SensorKind::Clock),
        1 => prop::sample::select(vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight])
            .prop_map(SensorKind::Promote),
        1 => any::<u64>().prop_map(|bits| SensorKind::Snapshot(Box::new(BoardSnapshot::occupancy(
            Bitboard(bits)
        )))),
        1 => Just(SensorKind::Snapshot(Box::new(BoardSnapshot::identified(&shakmaty::Board::new())))),
    ]
}

/// One input: a sensor event or a clock report.
#[derive(Debug, Clone)]
enum Input {
    Sensor(SensorKind),
    Reading(ClockReading),
}

fn reading() -> impl Strategy<Value = ClockReading> {
    (
        0u64..400_000,
        0u64..400_000,
        prop::option::of(color()),
        prop::option::of((color(), any::<bool>())),
    )
        .prop_map(|(white, black, running, flag)| {
            let reading = ClockReading::new(ClockTimes { white, black }, running);
            match flag {
                Some((color, fallen)) => {
                    let flag = if fallen {
                        Flag::Fallen
                    } else {
                        Flag::PeriodEnded
                    };
                    reading.with_flag(color, flag)
                }
                None => reading,
            }
        })
}

/// Times now close together, now far apart (up to the latest a log may give).
fn step() -> impl Strategy<Value = Millis> {
    prop_oneof![
        8 => 0u64..400,
        2 => 0u64..5_000,
        1 => 0u64..=MAX_TIME_MS / 4,
    ]
}

fn inputs() -> impl Strategy<Value = Vec<(Millis, Input)>> {
    prop::collection::vec(
        (
            step(),
            prop_oneof![
                9 => sensor_kind().prop_map(Input::Sensor),
                1 => reading().prop_map(Input::Reading),
            ],
        ),
        0..300,
    )
}

fn config() -> impl Strategy<Value = Config> {
    (0u64..1000, 0u64..200, any::<bool>(), 1u32..4, 0u64..1000).prop_map(
        |(slide_ms, bounce_ms, strict, illegal_limit, report_horizon_ms)| {
            Config::default()
                .with_slide_ms(slide_ms)
                .with_bounce_ms(bounce_ms)
                .with_strict(strict)
                .with_illegal_limit(illegal_limit)
                .with_report_horizon_ms(report_horizon_ms)
        },
    )
}

fn time_control() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::of(prop::sample::select(vec![
        "60+1",
        "300d5",
        "40/60+5:30",
        "1",
        "-",
        "?",
    ]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_bytes_never_panic_or_hang(
        bytes in prop::collection::vec(any::<u8>(), 0..4096),
        piece in 1usize..700,
    ) {
        bounded(move || {
            decode(&bytes, piece);
            let mut logged = b"touchmove-log 1\n".to_vec();
            logged.extend_from_slice(&bytes);
            decode(&logged, piece);
        });
    }

    #[test]
    fn fixture_logs_with_bytes_changed_never_panic_or_hang(
        which in any::<prop::sample::Index>(),
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
        piece in 1usize..300,
    ) {
        let fixtures = common::fixtures();
        let fixture = which.get(&fixtures);
        let mut bytes = fixture.text.clone().into_bytes();
        for (at, byte) in &changes {
            if !bytes.is_empty() {
                let index = at.index(bytes.len());
                if let Some(slot) = bytes.get_mut(index) {
                    *slot = *byte;
                }
            }
        }
        bounded(move || {
            decode(&bytes, piece);
        });
    }

    #[test]
    fn arbitrary_inputs_never_panic_or_hang_and_decisions_stay_in_order(
        inputs in inputs(),
        config in config(),
        time_control in time_control(),
    ) {
        bounded(move || {
            let mut interpreter = Interpreter::new(Chess::default(), config);
            if let Some(text) = time_control {
                let parsed = text.parse().expect("a time control");
                interpreter = interpreter.with_time_control(parsed);
            }
            let mut t: Millis = 0;
            let mut last = 0;
            let mut check = |interpreter: &mut Interpreter| {
                while let Some(event) = interpreter.poll_event() {
                    assert!(event.t >= last, "decisions out of time order: {event:?}");
                    last = event.t;
                }
            };
            for (step, input) in inputs {
                t = t.saturating_add(step).min(MAX_TIME_MS);
                match input {
                    Input::Sensor(kind) => interpreter.handle_event(&SensorEvent::new(t, kind)),
                    Input::Reading(reading) => interpreter.handle_clock_reading(t, &reading),
                }
                check(&mut interpreter);
            }
            interpreter.finish();
            check(&mut interpreter);
        });
    }
}

#[test]
#[should_panic(expected = "the case panicked")]
fn a_panicking_case_fails_the_bound() {
    bounded(|| panic!("a panic in the case"));
}
