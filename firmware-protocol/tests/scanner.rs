//! The reference scanner against simulated bounce and flicker, and against a window model.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use proptest::prelude::*;
use touchmove_firmware_protocol::{Action, Change, Debounce, Scanner, Square};

const E2: u64 = 1 << 12;
const E4: u64 = 1 << 28;
const START: u64 = 0xffff_0000_0000_ffff;

/// Feeds `(time, bits)` samples; returns every event with the time of the sample that
/// confirmed it.
fn run(scanner: &mut Scanner, samples: &[(u32, u64)]) -> Vec<(u32, Change)> {
    samples
        .iter()
        .flat_map(|&(now, bits)| {
            scanner
                .sample(now, bits)
                .map(move |change| (now, change))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn change(square: u8, action: Action, time_ms: u32) -> Change {
    let square = Square::new(square).expect("a square");
    Change {
        square,
        action,
        piece: None,
        time_ms,
    }
}

/// Samples every 2 ms from `start`, one per entry of `bits`.
fn every_2ms(start: u32, bits: &[u64]) -> Vec<(u32, u64)> {
    (start..).step_by(2).zip(bits.iter().copied()).collect()
}

#[test]
fn a_bouncing_lift_is_one_event_timed_at_the_start_of_the_last_run() {
    let mut scanner = Scanner::new(Debounce::Samples(3), START);
    let lifted = START & !E2;
    let samples = every_2ms(
        100,
        &[
            START, lifted, START, lifted, lifted, START, lifted, lifted, lifted, lifted,
        ],
    );
    let events = run(&mut scanner, &samples);
    assert_eq!(events, vec![(116, change(12, Action::Lifted, 112))]);
    assert_eq!(scanner.occupancy(), lifted);
}

#[test]
fn a_bouncing_place_in_milliseconds_mode() {
    let before = START & !E2;
    let after = before | E4;
    let mut scanner = Scanner::new(Debounce::Millis(10), before);
    let samples = every_2ms(
        0,
        &[
            after, before, after, after, after, after, after, after, after,
        ],
    );
    let events = run(&mut scanner, &samples);
    // The last run starts at 4 ms and has lasted 10 ms at the sample of 14 ms.
    assert_eq!(events, vec![(14, change(28, Action::Placed, 4))]);
    assert_eq!(scanner.occupancy(), after);
}

#[test]
fn a_flickering_sensor_never_produces_an_event() {
    for debounce in [Debounce::Samples(2), Debounce::Millis(3)] {
        let mut scanner = Scanner::new(debounce, START);
        let flicker: Vec<u64> = (0..500)
            .map(|i: u32| {
                if i.is_multiple_of(2) {
                    START ^ E4
                } else {
                    START
                }
            })
            .collect();
        assert_eq!(
            run(&mut scanner, &every_2ms(0, &flicker)),
            vec![],
            "{debounce:?}"
        );
        assert_eq!(scanner.occupancy(), START);
    }
}

#[test]
fn a_flickering_sensor_does_not_hide_a_real_move_elsewhere() {
    let mut scanner = Scanner::new(Debounce::Samples(3), START);
    let flicker = |i: usize| if i.is_multiple_of(2) { E4 } else { 0 };
    let bits: Vec<u64> = (0..10).map(|i| (START & !E2) ^ flicker(i)).collect();
    let events = run(&mut scanner, &every_2ms(0, &bits));
    assert_eq!(events, vec![(4, change(12, Action::Lifted, 0))]);
}

#[test]
fn simultaneous_confirmations_come_oldest_first() {
    let mut scanner = Scanner::new(Debounce::Millis(10), 0b11);
    // a1 empties at 0 ms, b1 at 4 ms; both confirmed by the sample at 20 ms.
    let events = run(&mut scanner, &[(0, 0b10), (4, 0b00), (20, 0b00)]);
    assert_eq!(
        events,
        vec![
            (20, change(0, Action::Lifted, 0)),
            (20, change(1, Action::Lifted, 4))
        ]
    );
}

#[test]
fn the_board_clock_may_wrap() {
    let mut scanner = Scanner::new(Debounce::Millis(10), 0);
    let start = u32::MAX - 3;
    let events = run(
        &mut scanner,
        &[
            (start, E4),
            (start.wrapping_add(6), E4),
            (start.wrapping_add(10), E4),
        ],
    );
    assert_eq!(events, vec![(6, change(28, Action::Placed, start))]);
}

/// The window model: with `Samples(n)`, a square's state becomes `v` at sample `k` when the
/// last `n` samples all read `v` and its state was not `v`; the event's time is the start of
/// that run of `v`.
fn window_model(n: usize, initial: bool, readings: &[bool]) -> Vec<(usize, bool, usize)> {
    let mut state = initial;
    let mut events = Vec::new();
    for k in 0..readings.len() {
        let v = readings[k];
        let full = k + 1 >= n;
        let window_start = (k + 1).saturating_sub(n.max(1));
        if full && v != state && readings[window_start..=k].iter().all(|&r| r == v) {
            let run_start = (0..=k)
                .rev()
                .take_while(|&i| readings[i] == v)
                .last()
                .unwrap_or(k);
            events.push((k, v, run_start));
            state = v;
        }
    }
    events
}

proptest! {
    #[test]
    fn samples_mode_agrees_with_the_window_model(
        n in 1u16..6,
        initial in any::<bool>(),
        runs in proptest::collection::vec((any::<bool>(), 1usize..8), 0..40),
        square in 0u8..64,
    ) {
        let readings: Vec<bool> = runs.iter().flat_map(|&(v, len)| std::iter::repeat_n(v, len)).collect();
        let bit = 1u64 << square;
        let mut scanner = Scanner::new(Debounce::Samples(n), if initial { bit } else { 0 });
        let mut events = Vec::new();
        for (k, &reading) in readings.iter().enumerate() {
            let time = k as u32 * 3;
            for change in scanner.sample(time, if reading { bit } else { 0 }) {
                prop_assert_eq!(change.square.index(), square);
                events.push((k, change.action == Action::Placed, (change.time_ms / 3) as usize));
            }
        }
        prop_assert_eq!(events, window_model(usize::from(n), initial, &readings));
    }

    #[test]
    fn noise_shorter_than_the_debounce_never_produces_events(
        n in 2u16..6,
        noise in proptest::collection::vec((any::<u64>(), 1usize..6), 0..40),
    ) {
        let mut scanner = Scanner::new(Debounce::Samples(n), START);
        let mut time = 0;
        for (mask, len) in noise {
            let len = len.min(usize::from(n) - 1);
            for _ in 0..len {
                time += 2;
                prop_assert_eq!(scanner.sample(time, START ^ mask).count(), 0);
            }
            time += 2;
            prop_assert_eq!(scanner.sample(time, START).count(), 0);
        }
        prop_assert_eq!(scanner.occupancy(), START);
    }
}
