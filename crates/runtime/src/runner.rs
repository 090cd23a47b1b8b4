//! The thin async loop around a board session and a live game: it owns the port, the clock
//! and the reconnects; every decision is made by the sans-IO parts it drives.

use std::future::Future;
use std::io;
use std::time::Duration;

use shakmaty::{Chess, Color};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep, sleep_until};

use touchmove_boards::live::{BoardSession, Feedback, LinkEvent, LiveEvent, LiveGame};
use touchmove_boards::live::{turned_feedback, turned_sensor, turned_snapshot};
use touchmove_core::clock::ClockReading;
use touchmove_core::event::{ClockTimes, LinkState, TagName, color_name};
use touchmove_core::rules::Declared;
use touchmove_core::sensor::{Millis, SensorEvent};
use touchmove_core::sensor_log::HostNote;
use touchmove_core::stream::Refusal;

/// Opens the link to the board (a serial port, a pseudo-terminal in tests).
pub trait Connector {
    /// The open link.
    type Port: AsyncRead + AsyncWrite + Unpin;
    /// Opens the link; the name says which port it is.
    fn connect(&mut self) -> impl Future<Output = io::Result<(Self::Port, String)>>;

    /// What an earlier session learnt of the board on the port `name` ([`LinkEvent::Learnt`]:
    /// a Certabo board's chips), as kept; `None` when nothing is. By default nothing is kept.
    fn learnt(&mut self, _name: &str) -> io::Result<Option<String>> {
        Ok(None)
    }

    /// Keeps `learnt` for the next session of the board on the port `name`, and says where it
    /// is kept (`None`: nowhere, the default).
    fn keep_learnt(&mut self, _name: &str, _learnt: &str) -> io::Result<Option<String>> {
        Ok(None)
    }
}

/// What the runner has to tell, as it happens, quinn-proto style: one enum, which each sink
/// matches whole (a new kind of news makes every sink decide what to do with it).
#[derive(Debug, Clone, Copy)]
pub enum Happened<'a> {
    /// A sensor report, as it arrived and after the game took it (for the recording: from the
    /// report that showed the starting position on).
    Sensor {
        /// The report.
        event: &'a SensorEvent,
        /// The game, after it took the report.
        game: &'a LiveGame,
    },
    /// A report of the clock plugged into the board, made at `t`, after the game took it (for
    /// the recording).
    ClockReading {
        /// When it was made.
        t: Millis,
        /// What the clock showed.
        reading: &'a ClockReading,
        /// The game, after it took the report.
        game: &'a LiveGame,
    },
    /// Something the game has to say.
    Live {
        /// What it said.
        event: &'a LiveEvent,
        /// The game, after it said it.
        game: &'a LiveGame,
    },
    /// The board stopped answering at `t`, or answers again.
    Link {
        /// When.
        t: Millis,
        /// Lost or back.
        state: LinkState,
    },
    /// The board told its battery at `t`.
    Battery {
        /// When.
        t: Millis,
        /// Its level.
        level: touchmove_core::stream::BatteryLevel,
    },
    /// What the host tells the people at the board about the link (the stream's `notice`).
    Notice {
        /// When.
        t: Millis,
        /// What, in words.
        text: &'a str,
    },
    /// The board said its serial number (once it was identified, after the notice that says
    /// what it is).
    Serial {
        /// The serial number.
        serial: &'a str,
    },
    /// The port called `name` was opened at `t` (a notice `connected to NAME` says it too).
    Connected {
        /// When.
        t: Millis,
        /// The port's name.
        name: &'a str,
    },
    /// The board's port could not be opened at `t`, for the reason `why` (which names the
    /// port: `/dev/ttyUSB9: no such port`); the runner keeps trying. Told once per reason
    /// until the port opens (a notice says it too).
    Unreachable {
        /// When.
        t: Millis,
        /// Why, naming the port.
        why: &'a str,
    },
    /// The runner woke for a deadline that fell due at `due`: what the game decides next was
    /// decided by the time passing, not by a report (for a sink that measures latency).
    Timeout {
        /// When the deadline fell due.
        due: std::time::Instant,
    },
    /// From `t` on the board is read the other way round (`flipped`) or as its squares are
    /// numbered; the full report that follows is the board as now read.
    Flipped {
        /// When.
        t: Millis,
        /// Turned round, or not.
        flipped: bool,
    },
    /// From `t` on `side` is exempt ([`Control::Exempt`]), every decision due by then made.
    Exempted {
        /// When.
        t: Millis,
        /// The side exempt, if any.
        side: Option<Color>,
    },
    /// The operator acted at `t` ([`Control::Declare`], [`Control::AddTime`]), before the game
    /// takes it: what the recording keeps of it.
    Operated {
        /// When.
        t: Millis,
        /// What was done, as the sensor log keeps it.
        note: &'a HostNote,
    },
    /// A [`Control::Wake`] was taken at `t` (session time), after every decision due by then.
    Woken {
        /// When.
        t: Millis,
    },
    /// The operator's action at `t` was not carried out ([`Control::AddTime`],
    /// [`Control::SetClock`] on a board whose own clock could not keep them): nothing
    /// happened to the game, and the recording keeps nothing of it.
    Refused {
        /// When.
        t: Millis,
        /// What was asked, and why it was not done.
        refusal: &'a Refusal,
    },
}

/// Where the results go: the sensor log, the terminal, the page, the PGN file.
pub trait Sink {
    /// Takes what happened. An error (an output that cannot be written) stops the runner
    /// ([`RunnerError::Output`]).
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()>;
}

/// The operator did `note` at `now`: the sink is told first (the recording keeps it before what
/// the game decides of it), then the game takes it as a replay of the recording will.
fn operate<K: Sink>(
    game: &mut LiveGame,
    sink: &mut K,
    now: Millis,
    note: &HostNote,
) -> Result<(), RunnerError> {
    tell(sink, Happened::Operated { t: now, note })?;
    game.handle_host_note(now, note);
    Ok(())
}

/// Whether the board's own clock refuses the times the operator gives or sets (`asked`, in the
/// API's words) at `now`: if so the sink is told why, and nothing else happens.
fn refused<S: BoardSession, K: Sink>(
    session: &S,
    sink: &mut K,
    now: Millis,
    asked: String,
) -> Result<bool, RunnerError> {
    let Some(why) = session.clock_refusal() else {
        return Ok(false);
    };
    let refusal = Refusal { asked, why };
    tell(
        sink,
        Happened::Refused {
            t: now,
            refusal: &refusal,
        },
    )?;
    Ok(true)
}

/// Tells `sink` what happened.
fn tell<K: Sink>(sink: &mut K, happened: Happened<'_>) -> Result<(), RunnerError> {
    sink.take(happened).map_err(RunnerError::Output)
}

/// Tells `sink` the notice `text`, now on `clock`.
fn tell_notice<K: Sink>(sink: &mut K, clock: &Clock, text: &str) -> Result<(), RunnerError> {
    tell(
        sink,
        Happened::Notice {
            t: clock.now(),
            text,
        },
    )
}

/// What a spectator's tool asks of a watched board while it runs (LiveChess's `setup` and
/// `flip`), applied by the runner between two reports.
#[derive(Debug, Clone)]
pub enum Control {
    /// A new game from this position ([`LiveGame::set_up`]).
    SetUp(Chess),
    /// The board stands turned round (`true`) or the right way round: its reports are read
    /// so from now on, starting with a full report of the board as now read (nothing if it
    /// was read so already).
    Flip(bool),
    /// Something to show on the board that does not come from the game's decisions (an
    /// engine's move to carry out, `touchmove play`).
    Feedback(Feedback),
    /// The sink has news that is no board report (an engine's move): the runner decides what
    /// the deadlines due by now decide, then calls [`Happened::Woken`] with the session's time, so
    /// that the news takes its place among the reports, in the recording as in the game.
    Wake,
    /// A result declared at the host (a key, the operator): a resignation (5.1.2), a draw
    /// agreed, a claim upheld, a default, the arbiter's decision. The game ends
    /// ([`LiveGame::handle_host_note`]) and the sink is told ([`Happened::Operated`], for the
    /// recording). Nothing happens before the game has started.
    Declare(Declared),
    /// The arbiter gives this side this much more time (ms), declared at the host: the game's
    /// clock follows ([`LiveGame::handle_host_note`]), a physical clock is set so, and the sink
    /// is told ([`Happened::Operated`], for the recording). Nothing happens before the game has
    /// started.
    AddTime(Color, Millis),
    /// The arbiter notes this on the game, at the host: the game says it (a `note` event, a PGN
    /// comment) and the sink is told ([`Happened::Operated`], for the recording). Nothing
    /// happens before the game has started.
    Note(String),
    /// The arbiter sets both players' times, at the host (6.10.2, 12.9.3): the game's clock
    /// runs on from them ([`LiveGame::handle_host_note`]), a physical clock the host set is set so,
    /// and the sink is told ([`Happened::Operated`], for the recording). Nothing happens before
    /// the game has started.
    SetClock(ClockTimes),
    /// The arbiter names a tag of the game (a player, the event, the round), at the host: the
    /// game says it (a `tag` event: the PGN and the pages follow) and the sink is told
    /// ([`Happened::Operated`], for the recording). Taken before the game has started too.
    Tag(TagName, String),
    /// The arbiter reinstates the position after this ply, at the host (7.4, 7.5.1): the
    /// plies after it are taken back and the board is to be put back
    /// ([`LiveGame::handle_host_note`]); the sink is told ([`Happened::Operated`], for the
    /// recording). Nothing happens before the game has started.
    Reinstate(u32),
    /// A clock's reading that does not come from the board (an online game's server's clock,
    /// `touchmove online`): the game takes it now as it takes the board's clock's, and the
    /// sink is told ([`Happened::ClockReading`], for the recording).
    ClockReading(ClockReading),
    /// The player chose this promotion piece at the host (a key, a page's button), as a
    /// board's promotion button would: the game takes it as the board's `promote` report, and
    /// the sink is told ([`Happened::Sensor`], for the recording). Nothing before the game
    /// has started.
    Promote(shakmaty::Role),
    /// From now on this side (`None`: no side) is exempt from rulings ([`LiveGame::set_exempt`];
    /// an engine that can no longer play leaves its side to a person); what is due by now is
    /// decided first, then the sink is told ([`Happened::Exempted`], for the recording).
    Exempt(Option<Color>),
}

/// The runner's settings.
#[derive(Debug, Clone, Copy)]
pub struct RunnerConfig {
    /// The first wait before reopening a lost link; doubled up to `backoff_max`.
    pub backoff_min: Duration,
    /// The longest wait between attempts to reopen a lost link.
    pub backoff_max: Duration,
    /// Stop once the board has been unreachable this long (`None`: keep trying).
    pub give_up_after: Option<Duration>,
    /// The session's time when the runner starts (ms): 0 for a new recording, after its last
    /// line for one that goes on.
    pub start_at: Millis,
    /// What a board that says another serial number than the one watched before is.
    pub another_board: AnotherBoard,
}

/// What the runner makes of a board that says another serial number (or the family's identity)
/// than the board it watched before on its link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnotherBoard {
    /// A new board on a port the user named (it may hold any board): said, and a new game,
    /// from the standard start once the board shows it ([`LiveGame::set_up`]).
    #[default]
    NewGame,
    /// Not the board watched: the runner stops ([`RunnerError::AnotherBoard`]), leaving the
    /// port to whoever finds boards (a port found by probing, not named).
    Leave,
}

impl Default for RunnerConfig {
    fn default() -> RunnerConfig {
        RunnerConfig {
            backoff_min: Duration::from_millis(100),
            backoff_max: Duration::from_secs(2),
            give_up_after: None,
            start_at: 0,
            another_board: AnotherBoard::NewGame,
        }
    }
}

/// Why the runner stopped with an error (a lost board is not one: it reconnects).
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// A result could not be written (standard output, the log, the PGN file).
    #[error("cannot write the results: {0}")]
    Output(#[source] io::Error),
    /// The board stayed unreachable for the configured limit ([`RunnerConfig::give_up_after`]);
    /// what the game had pending was decided first.
    #[error("the board stayed unreachable for {:.1} s ({why}): giving up", waited.as_secs_f64())]
    GaveUp {
        /// How long it was unreachable.
        waited: Duration,
        /// The last reason the port could not be opened.
        why: String,
    },
    /// Another board answers on the port than the one watched ([`AnotherBoard::Leave`]).
    #[error(
        "{port}: board {serial} answers there, not board {watched}, which was watched: left to be found as a board of its own"
    )]
    AnotherBoard {
        /// The port.
        port: String,
        /// The serial number of the board that answers.
        serial: String,
        /// The serial number of the board watched before.
        watched: String,
    },
}

/// How a link session ended.
enum LinkEnd {
    /// The link is gone: reconnect.
    Gone,
    /// Shutdown was asked for.
    Shutdown,
}

/// The board's health as last told to the sink (lost or back): each change is told once.
struct Health {
    lost: bool,
}

impl Health {
    /// Reports `state` at `t` if it is a change.
    fn set<K: Sink>(
        &mut self,
        state: LinkState,
        clock: &Clock,
        sink: &mut K,
    ) -> Result<(), RunnerError> {
        let lost = state == LinkState::Lost;
        if std::mem::replace(&mut self.lost, lost) == lost {
            return Ok(());
        }
        tell(
            sink,
            Happened::Link {
                t: clock.now(),
                state,
            },
        )
    }
}

/// The clock of a session: milliseconds since the runner started, from `start_at`.
struct Clock {
    started: Instant,
    start_at: Millis,
}

impl Clock {
    fn now(&self) -> Millis {
        let elapsed = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.start_at.saturating_add(elapsed)
    }

    fn instant(&self, at: Millis) -> Instant {
        self.started + Duration::from_millis(at.saturating_sub(self.start_at))
    }
}

/// Watches the board until `shutdown` completes (or the board stays unreachable longer than
/// the configured limit), reconnecting whenever the link is lost. What is pending is decided
/// at the end.
pub async fn run<C, S, K>(
    connector: &mut C,
    session: &mut S,
    game: &mut LiveGame,
    sink: &mut K,
    config: RunnerConfig,
    shutdown: impl Future<Output = ()>,
) -> Result<(), RunnerError>
where
    C: Connector,
    S: BoardSession,
    K: Sink,
{
    let parts = Parts {
        session,
        game,
        sink,
        controls: None,
    };
    run_with_controls(connector, parts, config, shutdown).await
}

/// What [`run_with_controls`] drives: the board's session, its game, where the results go and
/// what spectators' tools ask of it.
pub struct Parts<'a, S, K> {
    /// The board's session.
    pub session: &'a mut S,
    /// Its game.
    pub game: &'a mut LiveGame,
    /// Where the results go.
    pub sink: &'a mut K,
    /// What is asked of the board while it runs (`None`: nothing ever is).
    pub controls: Option<&'a mut mpsc::UnboundedReceiver<Control>>,
}

/// [`run`], taking the [`Control`]s that `parts.controls` receives as the board runs.
pub async fn run_with_controls<C, S, K>(
    connector: &mut C,
    parts: Parts<'_, S, K>,
    config: RunnerConfig,
    shutdown: impl Future<Output = ()>,
) -> Result<(), RunnerError>
where
    C: Connector,
    S: BoardSession,
    K: Sink,
{
    let Parts {
        session,
        game,
        sink,
        mut controls,
    } = parts;
    let mut flipped = false;
    let clock = Clock {
        started: Instant::now(),
        start_at: config.start_at,
    };
    let mut shutdown = std::pin::pin!(shutdown);
    let mut backoff = config.backoff_min;
    let mut unreachable_since: Option<Instant> = None;
    // Why the port could not be opened, as last said (each reason is said once).
    let mut said_unreachable: Option<String> = None;
    let mut gave_up = None;
    let mut health = Health { lost: false };
    // The port last said opened, until the board goes after answering or the port is
    // missing: a port reopened again and again while its board is silent is said once.
    let mut said_open: Option<String> = None;
    let mut identity = Identity {
        serial: None,
        port: String::new(),
        another: config.another_board,
    };
    loop {
        // What is asked while the board is away is applied at once, and the port tried again.
        let opened = tokio::select! {
            opened = connector.connect() => opened,
            Some(control) = next_control(controls.as_deref_mut()) => {
                apply_control(control, session, game, sink, &clock, &mut flipped)?;
                continue;
            }
            () = &mut shutdown => break,
        };
        let (mut port, name) = match opened {
            Ok(opened) => opened,
            Err(error) => {
                let why = error.to_string();
                if said_unreachable.as_ref() != Some(&why) {
                    let notice =
                        format!("{why}; trying again every {}", seconds(config.backoff_max));
                    tell_notice(sink, &clock, &notice)?;
                    tell(
                        sink,
                        Happened::Unreachable {
                            t: clock.now(),
                            why: &why,
                        },
                    )?;
                    said_unreachable = Some(why.clone());
                    said_open = None;
                }
                let since = *unreachable_since.get_or_insert_with(Instant::now);
                if config
                    .give_up_after
                    .is_some_and(|limit| since.elapsed() >= limit)
                {
                    gave_up = Some(RunnerError::GaveUp {
                        waited: since.elapsed(),
                        why,
                    });
                    break;
                }
                tracing::debug!(%error, "cannot open the board's port");
                // The next try comes after the backoff, or when the limit is reached.
                let wait = config.give_up_after.map_or(backoff, |limit| {
                    backoff.min(limit.saturating_sub(since.elapsed()))
                });
                tokio::select! {
                    () = sleep(wait) => {}
                    Some(control) = next_control(controls.as_deref_mut()) => {
                        apply_control(control, session, game, sink, &clock, &mut flipped)?;
                        continue;
                    }
                    () = &mut shutdown => break,
                }
                backoff = (backoff * 2).min(config.backoff_max);
                continue;
            }
        };
        said_unreachable = None;
        if said_open.as_ref() != Some(&name) {
            tell_notice(sink, &clock, &format!("connected to {name}"))?;
            said_open = Some(name.clone());
        }
        tell(
            sink,
            Happened::Connected {
                t: clock.now(),
                name: &name,
            },
        )?;
        backoff = config.backoff_min;
        match connector.learnt(&name) {
            Ok(Some(learnt)) => session.recall(&learnt),
            Ok(None) => {}
            Err(error) => {
                let notice = format!("what was learnt of this board cannot be read: {error}");
                tell_notice(sink, &clock, &notice)?;
            }
        }
        session.connect(clock.now());
        identity.port.clone_from(&name);
        let mut keep = |learnt: &str| connector.keep_learnt(&name, learnt);
        let link = Link {
            session: &mut *session,
            game: &mut *game,
            sink: &mut *sink,
            clock: &clock,
            health: &mut health,
            controls: controls.as_deref_mut(),
            flipped: &mut flipped,
            identity: &mut identity,
            keep: &mut keep,
        };
        match serve(&mut port, link, &mut shutdown).await? {
            LinkEnd::Shutdown => break,
            LinkEnd::Gone => {
                // Gone after it answered: said, and the next opening too. Gone again without
                // a word from it since (its port reopened while it is frozen): the attempts
                // go on unsaid.
                if !health.lost {
                    tell_notice(sink, &clock, "the board is gone: reconnecting")?;
                    said_open = None;
                }
                health.set(LinkState::Lost, &clock, sink)?;
                unreachable_since = Some(Instant::now());
            }
        }
    }
    game.finish();
    drain(game, session, sink, &clock, flipped)?;
    gave_up.map_or(Ok(()), Err)
}

/// A duration as a person reads it: `2 s`, `1.5 s`, `300 ms`.
fn seconds(duration: Duration) -> String {
    if duration < Duration::from_secs(1) {
        format!("{} ms", duration.as_millis())
    } else {
        format!("{} s", duration.as_secs_f64())
    }
}

/// What serving one open link works on.
struct Link<'a, S, K> {
    session: &'a mut S,
    game: &'a mut LiveGame,
    sink: &'a mut K,
    clock: &'a Clock,
    health: &'a mut Health,
    controls: Option<&'a mut mpsc::UnboundedReceiver<Control>>,
    /// Whether the board's reports are turned round.
    flipped: &'a mut bool,
    /// The board watched: its serial number once it said one, and what another is.
    identity: &'a mut Identity,
    /// Keeps what the session learnt of the board, for its next session; says where.
    keep: &'a mut dyn FnMut(&str) -> io::Result<Option<String>>,
}

/// The board a runner watches, as it said who it is.
struct Identity {
    /// Its serial number (or the family's identity), once said.
    serial: Option<String>,
    /// The port's name, as the notices give it.
    port: String,
    /// What another board is.
    another: AnotherBoard,
}

/// Serves one open link until it is lost or shutdown is asked for.
async fn serve<P, S, K>(
    port: &mut P,
    mut link: Link<'_, S, K>,
    shutdown: &mut std::pin::Pin<&mut impl Future<Output = ()>>,
) -> Result<LinkEnd, RunnerError>
where
    P: AsyncRead + AsyncWrite + Unpin,
    S: BoardSession,
    K: Sink,
{
    let mut buffer = [0u8; 512];
    loop {
        // Events first: what they make the session send (a clock command after a press, the
        // result on the clock's display) goes out now, not with the next input.
        if link.pass_events()? {
            return Ok(LinkEnd::Gone);
        }
        while let Some(bytes) = link.session.poll_transmit() {
            tracing::trace!(bytes = %HexBytes(&bytes), "host → board");
            if let Err(error) = port.write_all(&bytes).await {
                tracing::debug!(%error, "write to the board failed");
                return Ok(LinkEnd::Gone);
            }
        }
        let deadline = earliest(link.session.poll_timeout(), link.game.poll_timeout())
            .map(|at| link.clock.instant(at))
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            read = port.read(&mut buffer) => match read {
                Ok(0) => return Ok(LinkEnd::Gone),
                Ok(n) => {
                    let now = link.clock.now();
                    let bytes = buffer.get(..n).unwrap_or_default();
                    tracing::trace!(now, bytes = %HexBytes(bytes), "board → host");
                    link.session.handle_bytes(now, bytes);
                }
                Err(error) => {
                    tracing::debug!(%error, "read from the board failed");
                    return Ok(LinkEnd::Gone);
                }
            },
            () = sleep_until(deadline) => {
                tell(link.sink, Happened::Timeout { due: deadline.into_std() })?;
                let now = link.clock.now();
                link.session.handle_timeout(now);
                link.game.handle_timeout(now);
                link.drain()?;
            }
            Some(control) = next_control(link.controls.as_deref_mut()) => link.control(control)?,
            () = shutdown.as_mut() => return Ok(LinkEnd::Shutdown),
        }
    }
}

impl<S: BoardSession, K: Sink> Link<'_, S, K> {
    /// Passes the session's events on; returns whether the board went silent.
    fn pass_events(&mut self) -> Result<bool, RunnerError> {
        while let Some(event) = self.session.poll_event() {
            // Who answers comes first: another board is no board back.
            if let LinkEvent::Identified {
                serial: Some(serial),
                ..
            } = &event
            {
                self.identified(serial)?;
            }
            // Whatever the board itself sent shows it answers; a notice may be the host's own.
            let state = match event {
                LinkEvent::Lost | LinkEvent::Gone => Some(LinkState::Lost),
                LinkEvent::Notice(_) | LinkEvent::Learnt(_) => None,
                _ => Some(LinkState::Back),
            };
            if let Some(state) = state {
                self.health.set(state, self.clock, self.sink)?;
            }
            match event {
                LinkEvent::Sensor(kind) => {
                    let kind = if *self.flipped {
                        turned_sensor(kind)
                    } else {
                        kind
                    };
                    let event = SensorEvent::new(self.clock.now(), kind);
                    self.game.handle_sensor(&event);
                    tell(
                        self.sink,
                        Happened::Sensor {
                            event: &event,
                            game: self.game,
                        },
                    )?;
                }
                LinkEvent::ClockReading(reading) => {
                    let t = self.clock.now();
                    self.game.handle_clock_reading(t, &reading);
                    tell(
                        self.sink,
                        Happened::ClockReading {
                            t,
                            reading: &reading,
                            game: self.game,
                        },
                    )?;
                }
                LinkEvent::Gone => return Ok(true),
                LinkEvent::Identified { what, serial } => {
                    tell_notice(self.sink, self.clock, &what)?;
                    if let Some(serial) = serial {
                        tell(self.sink, Happened::Serial { serial: &serial })?;
                    }
                }
                LinkEvent::Notice(what) => {
                    tell_notice(self.sink, self.clock, &what)?;
                }
                LinkEvent::Learnt(learnt) => {
                    let notice = match (self.keep)(&learnt) {
                        Ok(Some(place)) => {
                            format!("what was learnt of this board is kept in {place}")
                        }
                        Ok(None) => "what was learnt of this board is not kept".to_owned(),
                        Err(error) => {
                            format!("what was learnt of this board cannot be kept: {error}")
                        }
                    };
                    tell_notice(self.sink, self.clock, &notice)?;
                }
                LinkEvent::Battery { percent, charging } => {
                    let level = touchmove_core::stream::BatteryLevel { percent, charging };
                    let t = self.clock.now();
                    tell(self.sink, Happened::Battery { t, level })?;
                }
                LinkEvent::Lost | LinkEvent::Back => {}
            }
            self.drain()?;
        }
        Ok(false)
    }

    /// The board said its serial number: another than the board watched before is a new
    /// board (a new game), or left alone, as the runner is told.
    fn identified(&mut self, serial: &str) -> Result<(), RunnerError> {
        let Some(watched) = self.identity.serial.replace(serial.to_owned()) else {
            return Ok(());
        };
        if watched == serial {
            return Ok(());
        }
        let port = self.identity.port.clone();
        match self.identity.another {
            AnotherBoard::Leave => Err(RunnerError::AnotherBoard {
                port,
                serial: serial.to_owned(),
                watched,
            }),
            AnotherBoard::NewGame => {
                let notice = format!(
                    "{port}: board {serial} answers there, not board {watched}: a new board, \
                     and a new game once it shows the starting position"
                );
                tell_notice(self.sink, self.clock, &notice)?;
                self.game.set_up(self.clock.now(), Chess::default());
                self.drain()
            }
        }
    }

    fn drain(&mut self) -> Result<(), RunnerError> {
        drain(
            self.game,
            self.session,
            self.sink,
            self.clock,
            *self.flipped,
        )
    }

    /// Applies what a spectator's tool asked.
    fn control(&mut self, control: Control) -> Result<(), RunnerError> {
        apply_control(
            control,
            self.session,
            self.game,
            self.sink,
            self.clock,
            self.flipped,
        )
    }
}

/// Applies what a spectator's tool asked, now, and passes on what it decides.
fn apply_control<S: BoardSession, K: Sink>(
    control: Control,
    session: &mut S,
    game: &mut LiveGame,
    sink: &mut K,
    clock: &Clock,
    flipped: &mut bool,
) -> Result<(), RunnerError> {
    let now = clock.now();
    match control {
        Control::SetUp(start) => game.set_up(now, start),
        Control::Feedback(feedback) => {
            let feedback = if *flipped {
                turned_feedback(feedback)
            } else {
                feedback
            };
            session.handle_feedback(now, &feedback);
        }
        Control::Wake => {
            game.handle_timeout(now);
            drain(game, session, sink, clock, *flipped)?;
            tell(sink, Happened::Woken { t: now })?;
        }
        Control::Exempt(side) => {
            game.handle_timeout(now);
            drain(game, session, sink, clock, *flipped)?;
            game.set_exempt(now, side);
            tell(sink, Happened::Exempted { t: now, side })?;
        }
        // Before the game has started there is nothing to end.
        Control::Declare(declared) if game.started() => {
            operate(game, sink, now, &HostNote::Declared(declared))?;
        }
        Control::AddTime(color, ms) if game.started() => {
            let asked = format!("time {} {ms}", color_name(color));
            if !refused(session, sink, now, asked)? {
                operate(game, sink, now, &HostNote::TimeAdded { color, ms })?;
            }
        }
        Control::Note(text) if game.started() => {
            operate(game, sink, now, &HostNote::Note(text))?;
        }
        Control::SetClock(times) if game.started() => {
            let asked = format!("clock {} {}", times.white, times.black);
            if !refused(session, sink, now, asked)? {
                operate(game, sink, now, &HostNote::ClockSet(times))?;
            }
        }
        Control::Reinstate(ply) if game.started() => {
            operate(game, sink, now, &HostNote::Reinstate { ply })?;
        }
        Control::Declare(_)
        | Control::AddTime(..)
        | Control::SetClock(_)
        | Control::Note(_)
        | Control::Reinstate(_) => {}
        Control::Tag(tag, value) => {
            operate(game, sink, now, &HostNote::Tag { tag, value })?;
        }
        Control::Promote(role) if game.started() => {
            let event = SensorEvent::new(now, touchmove_core::sensor::SensorKind::Promote(role));
            take_entered(&event, game, sink)?;
        }
        Control::Promote(_) => {}
        Control::ClockReading(reading) => {
            game.handle_clock_reading(now, &reading);
            tell(
                sink,
                Happened::ClockReading {
                    t: now,
                    reading: &reading,
                    game,
                },
            )?;
        }
        Control::Flip(turned) if turned == *flipped => {}
        Control::Flip(turned) => {
            *flipped = turned;
            tell(
                sink,
                Happened::Flipped {
                    t: now,
                    flipped: turned,
                },
            )?;
            // The board as the game saw it, read the other way round.
            let seen = turned_snapshot(game.seen());
            let event = SensorEvent::new(
                now,
                touchmove_core::sensor::SensorKind::Snapshot(Box::new(seen)),
            );
            take_entered(&event, game, sink)?;
        }
    }
    drain(game, session, sink, clock, *flipped)
}

/// A report made at the host rather than by the board (a promotion's piece chosen, the board
/// read the other way round): the game takes it as the board's, and the sink is told, so that
/// the recording holds it where the game took it.
fn take_entered<K: Sink>(
    event: &SensorEvent,
    game: &mut LiveGame,
    sink: &mut K,
) -> Result<(), RunnerError> {
    game.handle_sensor(event);
    tell(sink, Happened::Sensor { event, game })
}

/// The next control, when there is a receiver to take one from (never, otherwise).
async fn next_control(controls: Option<&mut mpsc::UnboundedReceiver<Control>>) -> Option<Control> {
    match controls {
        Some(controls) => controls.recv().await,
        None => std::future::pending().await,
    }
}

/// Passes what the game said to the sink, and what it tells the board to the session (its
/// squares turned back when the board's reports are turned round).
fn drain<S: BoardSession, K: Sink>(
    game: &mut LiveGame,
    session: &mut S,
    sink: &mut K,
    clock: &Clock,
    flipped: bool,
) -> Result<(), RunnerError> {
    while let Some(event) = game.poll_event() {
        tell(
            sink,
            Happened::Live {
                event: &event,
                game,
            },
        )?;
    }
    while let Some(feedback) = game.poll_feedback() {
        let feedback = if flipped {
            turned_feedback(feedback)
        } else {
            feedback
        };
        session.handle_feedback(clock.now(), &feedback);
    }
    Ok(())
}

fn earliest(a: Option<Millis>, b: Option<Millis>) -> Option<Millis> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Bytes written as hex for the diagnostics (`-vvv`).
struct HexBytes<'a>(&'a [u8]);

impl std::fmt::Display for HexBytes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, byte) in self.0.iter().enumerate() {
            let gap = if i == 0 { "" } else { " " };
            write!(f, "{gap}{byte:02x}")?;
        }
        Ok(())
    }
}
