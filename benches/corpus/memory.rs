//! Memory: live heap bytes (a counting allocator), resident sizes from /proc, and the peak
//! resident size of a child process (wait4).

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use shakmaty::Chess;
use touchmove::interpreter::{Config, Interpreter};
use touchmove::sensor::SensorEvent;

/// The system allocator, counting the bytes live.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on to `System`.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on to `System`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is passed on to `System`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(new_size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

/// The heap bytes live now.
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// A `/proc/self/status` field in KiB (`VmRSS`, `VmHWM`), 0 if unreadable.
pub fn status_kib(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Memory per game in progress: `count` interpreters, each fed the first half of a game's
/// events, kept alive together. Returns (heap bytes per game, RSS growth per game in bytes).
pub fn per_game_in_progress(
    games: &[(Chess, Vec<SensorEvent>)],
    count: usize,
    config: Config,
) -> (usize, u64) {
    let heap_before = live_bytes();
    let rss_before = status_kib("VmRSS");
    let mut alive = Vec::with_capacity(count);
    for (start, events) in games.iter().cycle().take(count) {
        let mut interpreter = Interpreter::new(start.clone(), config);
        for event in &events[..events.len() / 2] {
            interpreter.handle_event(event);
            while interpreter.poll_event().is_some() {}
        }
        alive.push(interpreter);
    }
    let heap = live_bytes().saturating_sub(heap_before) / count.max(1);
    let rss = status_kib("VmRSS").saturating_sub(rss_before) * 1024 / count.max(1) as u64;
    std::hint::black_box(&alive);
    (heap, rss)
}

/// Runs `bin replay --json <log>` (output discarded) and returns its peak resident size in
/// KiB, or why it failed.
pub fn replay_peak_kib(bin: &Path, log: &Path) -> Result<u64, String> {
    let child = Command::new(bin)
        .args(["replay", "--json"])
        .arg(log)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain old data; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet reaped; both pointers are valid for the call.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if reaped != pid {
        return Err(format!("wait4 failed for {}", log.display()));
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!("replay of {} failed", log.display()));
    }
    Ok(usage.ru_maxrss as u64)
}
