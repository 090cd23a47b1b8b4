//! What the event streams delivered (`GET /api/stats`, documented in `docs/serve.md`): how long
//! each live event took from its cause entering the process to leaving on a stream, how many
//! events went out, how many a stream that fell behind lost; since serve started or since they
//! were last reset.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// The streams' counters and their latency histogram (µs, 3 significant digits).
#[derive(Debug)]
pub struct StreamStats {
    /// `None` only if the histogram could not be made (its bounds are valid: never).
    latency_us: Mutex<Option<Histogram<u64>>>,
    sent: AtomicU64,
    lost: AtomicU64,
    open: AtomicU64,
    opened_ever: AtomicU64,
    dropped: AtomicU64,
}

impl Default for StreamStats {
    fn default() -> StreamStats {
        // 1 µs to an hour, 3 significant digits.
        let histogram = Histogram::new_with_bounds(1, 3_600_000_000, 3).ok();
        StreamStats {
            latency_us: Mutex::new(histogram),
            sent: AtomicU64::new(0),
            lost: AtomicU64::new(0),
            open: AtomicU64::new(0),
            opened_ever: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
        }
    }
}

/// `GET /api/stats`.
#[derive(Debug, Clone, Serialize)]
pub struct StatsReport {
    /// Streams open now.
    pub streams: u64,
    /// Events sent on the streams, the backlog sent to a new stream included.
    pub events_sent: u64,
    /// Events a stream lost by falling too far behind (it was closed; its reader starts over).
    pub events_lost: u64,
    /// Live events measured (each event once per stream it left on).
    pub latency_count: u64,
    /// The median latency, ms.
    pub latency_p50_ms: f64,
    /// The 99th percentile, ms.
    pub latency_p99_ms: f64,
    /// The longest, ms.
    pub latency_max_ms: f64,
    /// LiveChess clients dropped because they fell behind (never reading) or silent, since
    /// serve started.
    pub clients_dropped: u64,
}

impl StreamStats {
    /// A live event left on a stream, `latency` after its cause entered the process.
    pub fn sent_live(&self, latency: Duration) {
        let us = u64::try_from(latency.as_micros())
            .unwrap_or(u64::MAX)
            .max(1);
        if let Some(histogram) = self
            .latency_us
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_mut()
        {
            histogram.saturating_record(us);
        }
        self.sent.fetch_add(1, Ordering::Relaxed);
    }

    /// `n` events of a new stream's backlog went out.
    pub fn sent_backlog(&self, n: u64) {
        self.sent.fetch_add(n, Ordering::Relaxed);
    }

    /// A stream fell `n` events behind and was closed.
    pub fn lost(&self, n: u64) {
        self.lost.fetch_add(n, Ordering::Relaxed);
    }

    /// A client was dropped for falling behind or silent.
    pub fn dropped(&self) {
        self.dropped.fetch_add(1, Ordering::Relaxed);
    }

    /// A stream opened.
    pub fn opened(&self) {
        self.open.fetch_add(1, Ordering::Relaxed);
    }

    /// A stream closed.
    pub fn closed(&self) {
        self.open.fetch_sub(1, Ordering::Relaxed);
    }

    /// Starts the latency figures and the counts of events sent and lost again (the count of
    /// open streams stays).
    pub fn reset(&self) {
        if let Some(histogram) = self
            .latency_us
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_mut()
        {
            histogram.reset();
        }
        self.sent.store(0, Ordering::Relaxed);
        self.lost.store(0, Ordering::Relaxed);
    }

    /// The next stream's number, from 0.
    pub fn next_stream(&self) -> u64 {
        self.opened_ever.fetch_add(1, Ordering::Relaxed)
    }

    /// The figures so far.
    pub fn report(&self) -> StatsReport {
        let histogram = self
            .latency_us
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let ms = |quantile: Option<f64>| {
            histogram.as_ref().map_or(0.0, |histogram| {
                let us = match quantile {
                    Some(quantile) => histogram.value_at_quantile(quantile),
                    None => histogram.max(),
                };
                us as f64 / 1000.0
            })
        };
        StatsReport {
            streams: self.open.load(Ordering::Relaxed),
            events_sent: self.sent.load(Ordering::Relaxed),
            events_lost: self.lost.load(Ordering::Relaxed),
            latency_count: histogram.as_ref().map_or(0, Histogram::len),
            latency_p50_ms: ms(Some(0.5)),
            latency_p99_ms: ms(Some(0.99)),
            latency_max_ms: ms(None),
            clients_dropped: self.dropped.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_gives_the_percentiles_and_counts() {
        let stats = StreamStats::default();
        for ms in 1..=100 {
            stats.sent_live(Duration::from_millis(ms));
        }
        stats.sent_backlog(5);
        stats.lost(2);
        stats.opened();
        let report = stats.report();
        assert_eq!(report.latency_count, 100);
        assert_eq!(report.events_sent, 105);
        assert_eq!(report.events_lost, 2);
        assert_eq!(report.streams, 1);
        // 3 significant digits: within 0.1 %.
        assert!((report.latency_p50_ms - 50.0).abs() < 0.1, "{report:?}");
        assert!((report.latency_p99_ms - 99.0).abs() < 0.1, "{report:?}");
        assert!((report.latency_max_ms - 100.0).abs() < 0.1, "{report:?}");
        stats.closed();
        assert_eq!(stats.report().streams, 0);
        stats.reset();
        let report = stats.report();
        assert_eq!(
            (report.latency_count, report.events_sent, report.events_lost),
            (0, 0, 0)
        );
    }
}
