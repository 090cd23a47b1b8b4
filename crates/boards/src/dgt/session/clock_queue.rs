//! Clock commands, one outstanding at a time: resent when no acknowledgement comes, dropped
//! after a number of tries.

use std::collections::VecDeque;

use crate::dgt::wire::command::ClockCommand;
use touchmove_core::sensor::Millis;

/// A command sent and not yet acknowledged.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Outstanding {
    command: ClockCommand,
    /// How many times it has been sent.
    tries: u32,
    /// When it is resent (or dropped) without an acknowledgement.
    deadline: Millis,
}

/// A command waiting its turn, with the tries it already had (after a reconnect).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Waiting {
    command: ClockCommand,
    tries: u32,
}

/// What a timeout asks of the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockStep {
    /// Nothing is due.
    Idle,
    /// Send this command (again).
    Send(ClockCommand),
    /// This command had all its tries: give it up.
    Failed(ClockCommand),
}

/// The queue of clock commands.
#[derive(Debug, Clone, Default)]
pub struct ClockQueue {
    waiting: VecDeque<Waiting>,
    outstanding: Option<Outstanding>,
}

impl ClockQueue {
    /// Queues `command` behind the others.
    pub fn push(&mut self, command: ClockCommand) {
        self.waiting.push_back(Waiting { command, tries: 0 });
    }

    /// The next command to send, when none is outstanding; it becomes outstanding until
    /// `now + resend_ms`.
    pub fn start(&mut self, now: Millis, resend_ms: Millis) -> Option<ClockCommand> {
        if self.outstanding.is_some() {
            return None;
        }
        let next = self.waiting.pop_front()?;
        self.outstanding = Some(Outstanding {
            command: next.command.clone(),
            tries: next.tries + 1,
            deadline: now.saturating_add(resend_ms),
        });
        Some(next.command)
    }

    /// An acknowledgement came: the outstanding command is done. The command, if one was
    /// outstanding.
    pub fn acknowledge(&mut self) -> Option<ClockCommand> {
        self.outstanding
            .take()
            .map(|outstanding| outstanding.command)
    }

    /// Whether a set-and-run is outstanding or waits its turn.
    pub fn outstanding_sets(&self) -> bool {
        let set = |command: &ClockCommand| matches!(command, ClockCommand::SetAndRun { .. });
        self.outstanding.as_ref().is_some_and(|o| set(&o.command))
            || self.waiting.iter().any(|w| set(&w.command))
    }

    /// When the outstanding command is due for a resend or to be dropped.
    pub fn deadline(&self) -> Option<Millis> {
        self.outstanding
            .as_ref()
            .map(|outstanding| outstanding.deadline)
    }

    /// Resends the outstanding command if its deadline passed and it has tries left (at most
    /// `max_tries` sends in all), or gives it up.
    pub fn handle_timeout(&mut self, now: Millis, resend_ms: Millis, max_tries: u32) -> ClockStep {
        let Some(outstanding) = self.outstanding.as_mut() else {
            return ClockStep::Idle;
        };
        if now < outstanding.deadline {
            return ClockStep::Idle;
        }
        if outstanding.tries < max_tries {
            outstanding.tries += 1;
            outstanding.deadline = now.saturating_add(resend_ms);
            return ClockStep::Send(outstanding.command.clone());
        }
        match self.outstanding.take() {
            Some(given_up) => ClockStep::Failed(given_up.command),
            None => ClockStep::Idle,
        }
    }

    /// The link was reopened: the outstanding command goes back to the front of the queue,
    /// keeping the tries it had.
    pub fn requeue_outstanding(&mut self) {
        if let Some(outstanding) = self.outstanding.take() {
            self.waiting.push_front(Waiting {
                command: outstanding.command,
                tries: outstanding.tries,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_outstanding_resent_then_dropped() {
        let mut queue = ClockQueue::default();
        queue.push(ClockCommand::Version);
        queue.push(ClockCommand::EndDisplay);
        assert_eq!(queue.start(100, 2000), Some(ClockCommand::Version));
        assert_eq!(queue.start(100, 2000), None, "one outstanding at a time");
        assert_eq!(queue.deadline(), Some(2100));
        assert_eq!(queue.handle_timeout(2099, 2000, 2), ClockStep::Idle);
        assert_eq!(
            queue.handle_timeout(2100, 2000, 2),
            ClockStep::Send(ClockCommand::Version)
        );
        assert_eq!(queue.deadline(), Some(4100));
        assert_eq!(
            queue.handle_timeout(4100, 2000, 2),
            ClockStep::Failed(ClockCommand::Version)
        );
        assert_eq!(queue.deadline(), None);
        assert_eq!(queue.start(4100, 2000), Some(ClockCommand::EndDisplay));
        assert_eq!(queue.acknowledge(), Some(ClockCommand::EndDisplay));
        assert_eq!(queue.acknowledge(), None);
        assert_eq!(queue.start(4100, 2000), None, "nothing waits");
    }

    #[test]
    fn a_requeued_command_keeps_its_tries() {
        let mut queue = ClockQueue::default();
        queue.push(ClockCommand::Version);
        assert_eq!(queue.start(0, 2000), Some(ClockCommand::Version));
        queue.requeue_outstanding();
        assert_eq!(queue.deadline(), None);
        assert_eq!(queue.start(10, 2000), Some(ClockCommand::Version));
        assert_eq!(
            queue.handle_timeout(2010, 2000, 2),
            ClockStep::Failed(ClockCommand::Version)
        );
    }
}
