//! Line noise: bursts of random bytes (top bit set or clear) at random times, seeded.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use touchmove_core::sensor::Millis;

/// The longest burst, in bytes.
const MAX_BURST: usize = 8;

/// The noise source: the time of the next burst and the dice.
#[derive(Debug, Clone)]
pub(crate) struct Noise {
    rng: SmallRng,
    mean_gap_ms: f64,
    next: Millis,
}

impl Noise {
    /// Bursts at `rate` per second on average (`None` for no noise: a rate that is not a
    /// positive number), the first one after `from`.
    pub(crate) fn new(rate: f64, seed: u64, from: Millis) -> Option<Noise> {
        if !(rate.is_finite() && rate > 0.0) {
            return None;
        }
        let mut noise = Noise {
            rng: SmallRng::seed_from_u64(seed ^ 0x0015_E0A5),
            mean_gap_ms: 1000.0 / rate,
            next: from,
        };
        noise.next = from + noise.gap();
        Some(noise)
    }

    /// When the next burst is due.
    pub(crate) fn next(&self) -> Millis {
        self.next
    }

    /// The burst due now; the next one is scheduled after it.
    pub(crate) fn burst(&mut self) -> Vec<u8> {
        let length = self.rng.random_range(1..=MAX_BURST);
        let bytes = (0..length).map(|_| self.rng.random::<u8>()).collect();
        self.next += self.gap();
        bytes
    }

    /// A random gap (exponentially distributed), at least 1 ms.
    fn gap(&mut self) -> Millis {
        let uniform: f64 = self.rng.random();
        let gap = -(1.0 - uniform).ln() * self.mean_gap_ms;
        gap.clamp(1.0, 1e9) as Millis
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_noise_without_a_positive_rate() {
        assert!(Noise::new(0.0, 1, 0).is_none());
        assert!(Noise::new(f64::NAN, 1, 0).is_none());
        assert!(Noise::new(-1.0, 1, 0).is_none());
    }

    #[test]
    fn bursts_come_at_about_the_rate_with_both_kinds_of_byte() {
        let Some(mut noise) = Noise::new(10.0, 42, 0) else {
            panic!("noise at a positive rate");
        };
        let mut bytes = Vec::new();
        let mut bursts = 0;
        while noise.next() < 100_000 {
            bytes.extend(noise.burst());
            bursts += 1;
        }
        assert!((800..1200).contains(&bursts), "{bursts} bursts in 100 s");
        assert!(bytes.iter().any(|b| b & 0x80 != 0));
        assert!(bytes.iter().any(|b| b & 0x80 == 0));
    }
}
