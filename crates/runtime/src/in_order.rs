//! Jobs run on several threads (the caller's one of them), their results taken in the jobs'
//! order: the output is the same whatever the number of threads. At most [`AHEAD`] jobs per thread run ahead of the one
//! being taken, so a long job does not let the others fill the memory. (`replay` of a round of
//! logs: each log replayed into memory, printed in the order given.)

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, PoisonError};

/// How many jobs each thread may run ahead of the one being taken.
pub const AHEAD: usize = 4;

/// Which job the threads take next, and how many results have been taken.
struct Schedule {
    next: usize,
    taken: usize,
    stopped: bool,
}

/// The schedule the threads share, and the signal that it changed.
type Shared = (Mutex<Schedule>, Condvar);

/// Runs `job(0)` .. `job(total - 1)` on `threads` threads (at least one; the calling thread is
/// one of them) and hands each result to `take` in the jobs' order, as soon as it and every
/// one before it are done. The first error of `take` stops the jobs not yet begun and is
/// returned.
///
/// The calling thread takes the results and, while the next one is not there, runs jobs
/// itself: on one thread nothing is spawned, and on several no thread sleeps while a job could
/// be run.
pub fn run_in_order<T: Send, E>(
    total: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
    mut take: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    let threads = threads.clamp(1, total.max(1));
    let window = threads.saturating_mul(AHEAD);
    let schedule: Shared = (
        Mutex::new(Schedule {
            next: 0,
            taken: 0,
            stopped: false,
        }),
        Condvar::new(),
    );
    let (done, finished) = mpsc::channel::<(usize, T)>();
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let done = done.clone();
            let (schedule, job) = (&schedule, &job);
            scope.spawn(move || {
                while let Some(index) = take_next(schedule, window, total, Wait::Yes) {
                    if done.send((index, job(index))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        let mut waiting = BTreeMap::new();
        let mut next = 0usize;
        let taken = loop {
            waiting.extend(finished.try_iter());
            if let Err(error) = take_ready(&mut waiting, &mut next, &schedule, &mut take) {
                break Err(error);
            }
            if next >= total {
                break Ok(());
            }
            if let Some(index) = take_next(&schedule, window, total, Wait::No) {
                waiting.insert(index, job(index));
                continue;
            }
            // Every job is begun, or the window is full: the next result is a worker's.
            match finished.recv() {
                Ok((index, result)) => {
                    waiting.insert(index, result);
                }
                Err(mpsc::RecvError) => break Ok(()),
            }
        };
        stop(&schedule);
        taken
    })
}

/// Hands `take` every result in `waiting` from `next` on, in order, up to the first missing.
fn take_ready<T, E>(
    waiting: &mut BTreeMap<usize, T>,
    next: &mut usize,
    schedule: &Shared,
    take: &mut impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    while let Some(result) = waiting.remove(next) {
        take(*next, result)?;
        *next = next.saturating_add(1);
        took_one(schedule);
    }
    Ok(())
}

/// Whether a thread waits for the window to open.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    /// A worker: it has nothing else to do.
    Yes,
    /// The thread taking the results: it goes and waits for one instead.
    No,
}

/// The next job for a thread, once fewer than `window` jobs are ahead of the one being taken
/// (waiting for that if `wait` says so); `None` when there is none left, the run stopped, or
/// the window is full and the thread does not wait.
fn take_next(schedule: &Shared, window: usize, total: usize, wait: Wait) -> Option<usize> {
    let (state, changed) = schedule;
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if state.stopped || state.next >= total {
            return None;
        }
        if state.next < state.taken.saturating_add(window) {
            let index = state.next;
            state.next = index.saturating_add(1);
            return Some(index);
        }
        if wait == Wait::No {
            return None;
        }
        state = changed.wait(state).unwrap_or_else(PoisonError::into_inner);
    }
}

/// No more jobs are to be begun (a result could not be taken, or the run is over).
fn stop(schedule: &Shared) {
    let (state, changed) = schedule;
    state.lock().unwrap_or_else(PoisonError::into_inner).stopped = true;
    changed.notify_all();
}

/// One more result was taken.
fn took_one(schedule: &Shared) {
    let (state, changed) = schedule;
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    state.taken = state.taken.saturating_add(1);
    changed.notify_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_job_done_first_is_taken_after_the_earlier() {
        // Job 0 waits until job 1 is done: on two threads job 1's result arrives first (no
        // timing involved: the thread of job 0 is held until then), and is taken second.
        let one_done = (Mutex::new(false), Condvar::new());
        let mut taken = Vec::new();
        let outcome: Result<(), ()> = run_in_order(
            3,
            2,
            |index| {
                let (done, changed) = &one_done;
                match index {
                    0 => {
                        let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
                        while !*done {
                            done = changed.wait(done).unwrap_or_else(PoisonError::into_inner);
                        }
                    }
                    1 => {
                        *done.lock().unwrap_or_else(PoisonError::into_inner) = true;
                        changed.notify_all();
                    }
                    _ => {}
                }
                index * 10
            },
            |index, result| {
                taken.push((index, result));
                Ok(())
            },
        );
        assert_eq!(outcome, Ok(()));
        assert_eq!(taken, vec![(0, 0), (1, 10), (2, 20)]);
    }

    #[test]
    fn results_are_taken_in_the_jobs_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            let mut taken = Vec::new();
            let outcome: Result<(), ()> = run_in_order(
                20,
                threads,
                |index| {
                    std::thread::yield_now();
                    index * 10
                },
                |index, result| {
                    taken.push((index, result));
                    Ok(())
                },
            );
            assert_eq!(outcome, Ok(()));
            let expected: Vec<(usize, usize)> = (0..20).map(|i| (i, i * 10)).collect();
            assert_eq!(taken, expected, "{threads} threads");
        }
    }

    #[test]
    fn a_result_not_taken_stops_the_run_and_is_the_outcome() {
        let mut taken = Vec::new();
        let outcome = run_in_order(
            100,
            2,
            |index| index,
            |index, _| {
                taken.push(index);
                if index == 3 { Err("full disk") } else { Ok(()) }
            },
        );
        assert_eq!(outcome, Err("full disk"));
        assert_eq!(taken, vec![0, 1, 2, 3]);
    }

    #[test]
    fn on_one_thread_every_job_runs_on_the_calling_thread() {
        let caller = std::thread::current().id();
        let mut taken = Vec::new();
        let outcome: Result<(), ()> = run_in_order(
            6,
            1,
            |index| (index, std::thread::current().id()),
            |index, (job, thread)| {
                taken.push((index, job, thread == caller));
                Ok(())
            },
        );
        assert_eq!(outcome, Ok(()));
        let expected: Vec<(usize, usize, bool)> = (0..6).map(|i| (i, i, true)).collect();
        assert_eq!(taken, expected);
    }

    #[test]
    fn the_calling_thread_is_one_of_the_threads() {
        // Job 0 is held until job 3 has run: on two threads, whichever holds job 0, the other
        // runs jobs 1 to 3 (no timing involved), and one of the two is the caller's.
        let three_done = (Mutex::new(false), Condvar::new());
        let caller = std::thread::current().id();
        let mut taken = Vec::new();
        let outcome: Result<(), ()> = run_in_order(
            4,
            2,
            |index| {
                let (done, changed) = &three_done;
                if index == 3 {
                    *done.lock().unwrap_or_else(PoisonError::into_inner) = true;
                    changed.notify_all();
                }
                if index == 0 {
                    let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
                    while !*done {
                        done = changed.wait(done).unwrap_or_else(PoisonError::into_inner);
                    }
                }
                std::thread::current().id() == caller
            },
            |index, on_caller| {
                taken.push((index, on_caller));
                Ok(())
            },
        );
        assert_eq!(outcome, Ok(()));
        let held_by_caller = taken.first().is_some_and(|&(_, on_caller)| on_caller);
        let rest = !held_by_caller;
        assert_eq!(
            taken,
            vec![(0, held_by_caller), (1, rest), (2, rest), (3, rest)]
        );
    }

    #[test]
    fn no_job_is_no_result() {
        let outcome: Result<(), ()> = run_in_order(0, 4, |_| unreachable!(), |_, ()| Err(()));
        assert_eq!(outcome, Ok(()));
    }
}
