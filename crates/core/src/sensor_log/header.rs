//! The log header: what the metadata lines say about the log as a whole.

use crate::interpreter::Config;
use crate::sensor::Millis;
use crate::timing::{Timing, resolve};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, PositionError};

/// The metadata of a log, complete once the first event line (or the end of the input) is
/// reached.
///
/// ```
/// use shakmaty::{Color, Position};
/// use touchmove_core::sensor_log::read_log;
///
/// let text = "touchmove-log 1\n\
///     @start 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n\
///     @board dgt via touchmove play\n\
///     @engine black\n\
///     0 lift e2\n";
/// let header = read_log(text)?.header;
/// assert_eq!(header.board.as_deref(), Some("dgt via touchmove play"));
/// assert_eq!(header.engine, Some(Color::Black), "the engine played Black");
/// let start = header.start_position()?;
/// assert_eq!(start.board().occupied().count(), 3);
/// assert_eq!(start.turn(), Color::White);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LogHeader {
    /// The position on the board when the log starts (`@start`); `None` means the standard
    /// starting position, White to move.
    pub start: Option<Fen>,
    /// Free text naming the board or protocol that produced the log (`@board`).
    pub board: Option<String>,
    /// How long after a clock press the board's reports of what happened before it may still
    /// arrive (`@report-horizon-ms`; `None`: none, a press is weighed as it comes). A live
    /// session writes its own, so that a replay weighs each press as the session did.
    pub report_horizon_ms: Option<Millis>,
    /// The side an engine played (`@engine white|black`, written by `touchmove play`): its
    /// moves were carried out for it, and its choices are the log's `#engine-move` notes.
    pub engine: Option<Color>,
    /// The online game the board played (`@online <server> <game> white|black`, written by
    /// `touchmove online`): the opponent's moves were carried out for them, and the server's
    /// lines and answers are the log's `#server-line` and `#server-answer` notes.
    pub online: Option<OnlineSeat>,
    /// The slide window the recording session decided with (`@slide-ms`), when it said.
    pub slide_ms: Option<Millis>,
    /// The bounce window the recording session decided with (`@bounce-ms`), when it said.
    pub bounce_ms: Option<Millis>,
    /// The board's scan period the recording session decided with (`@scan-ms`), when it said.
    pub scan_ms: Option<Millis>,
    /// Whether a promotion whose piece the board cannot tell waited for the player's choice
    /// (`@promotion-choice awaited`, written by a session on a board whose promotions are
    /// chosen at the host): a replay waits for it too
    /// ([`crate::Config::promotion_choice_awaited`]).
    pub promotion_choice: bool,
    /// The game the log records, as a broadcast and a PGN name it (`@game-id`, `@date`,
    /// written by `touchmove serve`): kept so that a resumed game is the same game to them.
    pub game: GameLabel,
}

/// A game's name for the world outside the board: the `GameId` a broadcast matches it by, and
/// the day it began. Both free of line breaks; the date `YYYY.MM.DD`, as PGN writes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameLabel {
    /// Its `GameId` (`@game-id`).
    pub id: Option<String>,
    /// The day it began, `YYYY.MM.DD` (`@date`).
    pub date: Option<String>,
}

impl GameLabel {
    /// Whether `text` is a PGN date: `YYYY.MM.DD`, all digits (no `?`: a day known).
    pub fn is_date(text: &str) -> bool {
        let bytes = text.as_bytes();
        bytes.len() == 10
            && bytes.iter().enumerate().all(|(at, byte)| match at {
                4 | 7 => *byte == b'.',
                _ => byte.is_ascii_digit(),
            })
    }
}

impl LogHeader {
    /// The header of a log starting from `start` (an `@start` line only when it is not the
    /// standard starting position) on the board named `board`.
    pub fn new(start: &Chess, board: &str) -> LogHeader {
        LogHeader {
            start: (*start != Chess::default())
                .then(|| Fen::from_position(start, EnPassantMode::Legal)),
            board: Some(board.to_owned()),
            report_horizon_ms: None,
            engine: None,
            online: None,
            slide_ms: None,
            bounce_ms: None,
            scan_ms: None,
            promotion_choice: false,
            game: GameLabel::default(),
        }
    }

    /// The same header, stating the board's scan period the session decided with.
    pub fn with_scan(mut self, scan_ms: Millis) -> LogHeader {
        self.scan_ms = Some(scan_ms);
        self
    }

    /// The same header, stating whether the session waited for the player's choice of a
    /// promotion's piece the board cannot tell (as `config` says), so that a replay does too.
    pub fn with_promotion_choice_of(mut self, config: &Config) -> LogHeader {
        self.promotion_choice = config.promotion_choice_awaited;
        self
    }

    /// The same header, stating the slide and bounce windows the session decided with, so
    /// that a replay decides with them too.
    pub fn with_windows(mut self, slide_ms: Millis, bounce_ms: Millis) -> LogHeader {
        self.slide_ms = Some(slide_ms);
        self.bounce_ms = Some(bounce_ms);
        self
    }

    /// What the header states of the timing a session decided with (see [`crate::timing`]).
    pub fn timing(&self) -> Timing {
        Timing {
            report_horizon_ms: self.report_horizon_ms,
            slide_ms: self.slide_ms,
            bounce_ms: self.bounce_ms,
            scan_ms: self.scan_ms,
        }
    }

    /// How the log this header opens is decided: `config` with the timing `given`, else as the
    /// header states it, else the scan period of the board its `@board` names (`board_scan`,
    /// from a registry of protocols the core does not know), else as `config` has it; and the
    /// side an engine played, as `touchmove play` ran it (its moves carried out for it), earns
    /// no rulings, nor does an online opponent, whose moves the player carried out; and online,
    /// where the server decides results, no number of illegal moves loses the game. `Replay`
    /// and an embedder replaying a log by hand decide with the same.
    pub fn config(&self, config: Config, given: Timing, board_scan: Option<Millis>) -> Config {
        let board = Timing {
            scan_ms: board_scan,
            ..Timing::default()
        };
        let opponent = self.online.as_ref().map(|seat| !seat.side);
        let mut config = resolve(config, given, self.timing(), board)
            .with_exempt(self.engine.or(opponent).or(config.exempt));
        if self.online.is_some() {
            config.illegal_limit = u32::MAX;
            // A move sent to the server stands: a promotion is never to a piece nobody chose.
            config = config.awaiting_promotion_choice();
        }
        if self.promotion_choice {
            config = config.awaiting_promotion_choice();
        }
        config
    }

    /// The same header, stating the timing settings `timing` states (see
    /// [`crate::timing`]): a session states every setting it decided with.
    pub fn with_timing(mut self, timing: Timing) -> LogHeader {
        self.report_horizon_ms = timing.report_horizon_ms.or(self.report_horizon_ms);
        self.slide_ms = timing.slide_ms.or(self.slide_ms);
        self.bounce_ms = timing.bounce_ms.or(self.bounce_ms);
        self.scan_ms = timing.scan_ms.or(self.scan_ms);
        self
    }

    /// The same header, stating that an engine played `side`.
    pub fn with_engine(mut self, side: Color) -> LogHeader {
        self.engine = Some(side);
        self
    }

    /// The same header, stating the online game the board played.
    pub fn with_online(mut self, seat: OnlineSeat) -> LogHeader {
        self.online = Some(seat);
        self
    }

    /// The same header, naming the game it records (its `GameId` and the day it began).
    pub fn with_game(mut self, game: GameLabel) -> LogHeader {
        self.game = game;
        self
    }

    /// The same header, stating the report horizon the session used.
    pub fn with_report_horizon(mut self, horizon_ms: Millis) -> LogHeader {
        self.report_horizon_ms = Some(horizon_ms);
        self
    }

    /// The position the log starts from: the `@start` FEN, or the standard starting position.
    ///
    /// A header read by the decoder always succeeds here: its FEN was validated the same way.
    pub fn start_position(&self) -> Result<Chess, Box<PositionError<Chess>>> {
        match &self.start {
            Some(fen) => crate::rules::chess960::from_fen(fen),
            None => Ok(Chess::default()),
        }
    }
}

/// An online game as the board played it: the server, the game, the player's side (`@online
/// lichess 5IrD6Gzz white`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnlineSeat {
    /// The server, one word (`lichess`).
    pub server: String,
    /// The game's id on the server.
    pub game: String,
    /// The side the board's player played.
    pub side: Color,
}

impl std::fmt::Display for OnlineSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = crate::event::color_name(self.side);
        write!(f, "{} {} {side}", self.server, self.game)
    }
}

impl std::str::FromStr for OnlineSeat {
    type Err = ();

    /// `<server> <game> white|black`, three words.
    fn from_str(text: &str) -> Result<OnlineSeat, ()> {
        let mut words = text.split(' ').filter(|word| !word.is_empty());
        let (Some(server), Some(game), Some(side), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(());
        };
        Ok(OnlineSeat {
            server: server.to_owned(),
            game: game.to_owned(),
            side: side.parse().map_err(|_| ())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Position};

    const NONE: Timing = Timing {
        report_horizon_ms: None,
        slide_ms: None,
        bounce_ms: None,
        scan_ms: None,
    };

    #[test]
    fn a_header_states_what_a_session_wrote() {
        let config = Config::default()
            .with_report_horizon_ms(300)
            .with_slide_ms(250)
            .with_bounce_ms(50)
            .with_scan_ms(250);
        let header = LogHeader::default().with_timing(Timing::of_config(&config));
        assert_eq!(header.timing(), Timing::of_config(&config));
        assert_eq!(
            resolve(Config::default(), NONE, header.timing(), NONE),
            config
        );
    }

    #[test]
    fn an_online_opponent_earns_no_rulings_and_illegal_moves_lose_nothing() {
        let header = LogHeader::default().with_online(OnlineSeat {
            server: "lichess".to_owned(),
            game: "5IrD6Gzz".to_owned(),
            side: Color::White,
        });
        let config = header.config(Config::default(), NONE, None);
        assert_eq!(config.exempt, Some(Color::Black));
        assert_eq!(config.illegal_limit, u32::MAX);
        assert_eq!(Config::default().illegal_limit, 2);
    }

    #[test]
    fn a_log_is_decided_with_the_given_timing_then_its_own_then_its_board_s() {
        let header = LogHeader::default()
            .with_windows(300, 40)
            .with_engine(Color::Black);
        let given = Timing {
            slide_ms: Some(500),
            ..NONE
        };
        let config = header.config(Config::default(), given, Some(250));
        // Given, then the header's, then the board's scan; the engine's side exempt.
        assert_eq!(
            (config.slide_ms, config.bounce_ms, config.scan_ms),
            (500, 40, 250)
        );
        assert_eq!(
            config.report_horizon_ms,
            Config::default().report_horizon_ms
        );
        assert_eq!(config.exempt, Some(Color::Black));
    }

    #[test]
    fn no_start_means_the_standard_position() {
        let position = LogHeader::default()
            .start_position()
            .expect("standard start");
        assert_eq!(position.board(), Chess::default().board());
        assert_eq!(position.turn(), Color::White);
    }

    #[test]
    fn a_start_fen_gives_that_position() {
        let fen: Fen = "4k3/8/8/8/8/8/8/4K2R b K - 3 40"
            .parse()
            .expect("valid FEN");
        let header = LogHeader {
            start: Some(fen),
            board: None,
            report_horizon_ms: None,
            engine: None,
            online: None,
            slide_ms: None,
            bounce_ms: None,
            scan_ms: None,
            promotion_choice: false,
            game: crate::sensor_log::GameLabel::default(),
        };
        let position = header.start_position().expect("legal position");
        assert_eq!(position.turn(), Color::Black);
        assert_eq!(position.fullmoves().get(), 40);
    }
}
