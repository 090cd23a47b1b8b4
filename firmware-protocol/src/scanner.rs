//! The reference scanner: raw 64-bit sensor samples in, debounced CHANGE events out.
//!
//! A square's state changes only once it has read the new value long enough: for a number of
//! consecutive samples, or for a number of milliseconds ([`Debounce`]). Any sample reading the
//! old value again starts the wait afresh, so a bouncing contact costs a few milliseconds and a
//! flickering sensor produces nothing at all. An event carries the time the square first read
//! its new value, not the time it was confirmed.

use crate::message::{Action, Change};
use crate::square::Square;

/// How long a square must read a new value before its state changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Debounce {
    /// For this many consecutive samples (0 and 1: at once).
    Samples(u16),
    /// For at least this many milliseconds: from the first sample reading the new value to a
    /// later sample still reading it (0: at once).
    Millis(u32),
}

/// Debounces the samples of 64 sensors; bit `n` of a sample is square `n` (a1 = bit 0), set
/// when the square is occupied.
///
/// ```
/// use touchmove_firmware_protocol::{Action, Debounce, Scanner};
///
/// let e2 = 1u64 << 12;
/// let mut scanner = Scanner::new(Debounce::Millis(20), e2);
/// // e2 reads empty at 100 ms, bounces back at 105, reads empty from 110 on.
/// assert_eq!(scanner.sample(100, 0).count(), 0);
/// assert_eq!(scanner.sample(105, e2).count(), 0, "a bounce starts the wait afresh");
/// assert_eq!(scanner.sample(110, 0).count(), 0);
/// assert_eq!(scanner.sample(120, 0).count(), 0, "10 ms is not yet 20");
/// let confirmed: Vec<_> = scanner.sample(130, 0).collect();
/// assert_eq!(confirmed.len(), 1);
/// assert_eq!(confirmed[0].action, Action::Lifted);
/// assert_eq!(confirmed[0].square.index(), 12);
/// assert_eq!(confirmed[0].time_ms, 110, "the time it first read empty, for good");
/// assert_eq!(scanner.occupancy(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Scanner {
    /// The debouncing rule.
    debounce: Debounce,
    /// The debounced occupancy.
    stable: u64,
    /// The squares reading a value other than their debounced one, since `since`.
    pending: u64,
    /// For each pending square, the consecutive samples reading the new value.
    count: [u16; 64],
    /// For each pending square, the time of the first sample reading the new value.
    since: [u32; 64],
}

/// The changes one sample confirmed, oldest first (ties in square order).
#[derive(Debug, Clone)]
pub struct Changes<'a> {
    /// The scanner, after the sample.
    scanner: &'a Scanner,
    /// The sample's time.
    now_ms: u32,
    /// The confirmed squares not yet yielded.
    remaining: u64,
}

impl Scanner {
    /// A scanner whose debounced occupancy starts as `initial` (the first reading at boot).
    pub const fn new(debounce: Debounce, initial: u64) -> Scanner {
        Scanner {
            debounce,
            stable: initial,
            pending: 0,
            count: [0; 64],
            since: [0; 64],
        }
    }

    /// The debounced occupancy (what a SNAPSHOT reports).
    pub fn occupancy(&self) -> u64 {
        self.stable
    }

    /// Takes the sample `bits` read at `now_ms` (the board's clock; it may wrap) and returns
    /// the changes it confirms. The state is updated at once: changes not taken from the
    /// iterator are lost (a SNAPSHOT still reports them).
    pub fn sample(&mut self, now_ms: u32, bits: u64) -> Changes<'_> {
        let differing = bits ^ self.stable;
        self.pending &= differing;
        let confirmed = Square::all()
            .filter(|square| differing & square.bit() != 0)
            .filter(|&square| self.observe(square, now_ms))
            .fold(0, |mask, square| mask | square.bit());
        self.stable ^= confirmed;
        self.pending &= !confirmed;
        Changes {
            scanner: self,
            now_ms,
            remaining: confirmed,
        }
    }

    /// Counts one more sample of `square` reading its new value; whether that confirms it.
    fn observe(&mut self, square: Square, now_ms: u32) -> bool {
        let index = usize::from(square.index());
        let first = self.pending & square.bit() == 0;
        self.pending |= square.bit();
        let (Some(count), Some(since)) = (self.count.get_mut(index), self.since.get_mut(index))
        else {
            return false;
        };
        if first {
            *count = 1;
            *since = now_ms;
        } else {
            *count = count.saturating_add(1);
        }
        match self.debounce {
            Debounce::Samples(samples) => *count >= samples,
            Debounce::Millis(millis) => now_ms.wrapping_sub(*since) >= millis,
        }
    }

    /// When `square` first read the value it is changing to.
    fn since(&self, square: Square) -> u32 {
        self.since
            .get(usize::from(square.index()))
            .copied()
            .unwrap_or_default()
    }
}

impl Iterator for Changes<'_> {
    type Item = Change;

    fn next(&mut self) -> Option<Change> {
        let age = |square: &Square| self.now_ms.wrapping_sub(self.scanner.since(*square));
        let square = Square::all()
            .filter(|square| self.remaining & square.bit() != 0)
            .min_by_key(|square| (core::cmp::Reverse(age(square)), *square))?;
        self.remaining &= !square.bit();
        let placed = self.scanner.stable & square.bit() != 0;
        Some(Change {
            square,
            action: if placed {
                Action::Placed
            } else {
                Action::Lifted
            },
            piece: None,
            time_ms: self.scanner.since(square),
        })
    }
}
