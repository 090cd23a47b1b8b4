//! Latency samples and their percentiles.

use touchmove::sensor::Millis;

/// Latency samples in ms.
#[derive(Default)]
pub struct Samples(Vec<Millis>);

impl Samples {
    /// Adds one sample.
    pub fn push(&mut self, ms: Millis) {
        self.0.push(ms);
    }

    /// `median/p99` in ms (nearest rank), or `-` without samples.
    pub fn summary(&mut self) -> String {
        if self.0.is_empty() {
            return "-".to_owned();
        }
        self.0.sort_unstable();
        format!("{}/{}", self.quantile(0.5), self.quantile(0.99))
    }

    fn quantile(&self, q: f64) -> Millis {
        let rank = (q * self.0.len() as f64).ceil() as usize;
        self.0[rank.clamp(1, self.0.len()) - 1]
    }
}
