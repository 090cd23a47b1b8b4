//! Games read from PGN text: tags, starting position and the mainline as legal `shakmaty` moves.
//!
//! [`read_games`] streams: it returns an iterator that parses one game at a time, so a large file
//! is never held whole. A game whose starting position or a mainline move cannot be understood is
//! reported as a [`PgnError`] naming the game, and reading goes on with the next game.

use std::io::Read;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::san::SanError;
use shakmaty::{Chess, Move, Position, PositionError};

/// One game of a PGN file: its tags, its starting position and its mainline moves.
#[derive(Debug, Clone)]
pub struct PgnGame {
    /// The game's position in the file, from 1.
    pub number: usize,
    /// Every tag pair, in file order (`("Event", "Dortmund")`, ...).
    pub tags: Vec<(String, String)>,
    /// The starting position: from the `FEN` tag when there is one, else the standard start.
    pub start: Chess,
    /// The mainline moves, each legal in the position it is played from.
    pub moves: Vec<Move>,
}

impl PgnGame {
    /// The value of the first tag called `name`, if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The `Event` tag, if any.
    pub fn event(&self) -> Option<&str> {
        self.tag("Event")
    }

    /// The `White` tag, if any.
    pub fn white(&self) -> Option<&str> {
        self.tag("White")
    }

    /// The `Black` tag, if any.
    pub fn black(&self) -> Option<&str> {
        self.tag("Black")
    }

    /// The `Result` tag, if any.
    pub fn result(&self) -> Option<&str> {
        self.tag("Result")
    }
}

/// Why a `FEN` tag is refused.
#[derive(Debug, thiserror::Error)]
pub enum FenFault {
    /// It is no FEN.
    #[error(transparent)]
    Unreadable(#[from] ParseFenError),
    /// It reads, but is no legal standard-chess position.
    #[error(transparent)]
    Illegal(#[from] Box<PositionError<Chess>>),
}

/// Why a game could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// The `FEN` tag is not a valid, legal position.
    #[error("game {game}: bad FEN tag {fen:?}: {source}")]
    BadFen {
        /// The game's position in the file, from 1.
        game: usize,
        /// The tag's value.
        fen: String,
        /// What was wrong with it.
        source: FenFault,
    },
    /// A mainline move does not parse as a legal, unambiguous move in its position.
    #[error("game {game}: ply {ply}: move {san:?}: {source}")]
    BadMove {
        /// The game's position in the file, from 1.
        game: usize,
        /// The ply at which the move was played, from 1.
        ply: usize,
        /// The move as written.
        san: String,
        /// Why it was rejected.
        source: SanError,
    },
    /// The text could not be read or parsed at all near this game.
    #[error("game {game}: {source}")]
    Io {
        /// The number the next game would have had.
        game: usize,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

impl PgnError {
    /// The number of the game the error is about (its position in the file, from 1).
    pub fn game(&self) -> usize {
        match self {
            PgnError::BadFen { game, .. }
            | PgnError::BadMove { game, .. }
            | PgnError::Io { game, .. } => *game,
        }
    }
}

/// An iterator over the games of a PGN text; see [`read_games`].
#[derive(Debug)]
pub struct PgnGames<R: Read> {
    reader: Reader<R>,
    visitor: GameVisitor,
    fused: bool,
}

/// Streams the games of PGN text read from `input`, one game at a time.
pub fn read_games<R: Read>(input: R) -> PgnGames<R> {
    PgnGames {
        reader: Reader::new(input),
        visitor: GameVisitor { number: 0 },
        fused: false,
    }
}

impl<R: Read> Iterator for PgnGames<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.fused {
            return None;
        }
        match self.reader.read_game(&mut self.visitor) {
            Ok(game) => game,
            Err(source) => {
                // A malformed tag is skipped by the reader; anything else ends the stream.
                self.fused = source.kind() != std::io::ErrorKind::InvalidData;
                Some(Err(PgnError::Io {
                    game: self.visitor.number + 1,
                    source,
                }))
            }
        }
    }
}

/// The visitor that turns reader callbacks into [`PgnGame`]s, counting games as it goes.
#[derive(Debug)]
struct GameVisitor {
    number: usize,
}

/// The tags seen so far in the current game.
#[derive(Debug)]
struct TagsSoFar {
    number: usize,
    tags: Vec<(String, String)>,
}

/// The current game once its tags are read: the position reached and the moves so far.
#[derive(Debug)]
struct MovesSoFar {
    game: PgnGame,
    position: Chess,
}

type Output = Result<PgnGame, PgnError>;

impl Visitor for GameVisitor {
    type Tags = TagsSoFar;
    type Movetext = MovesSoFar;
    type Output = Output;

    fn begin_tags(&mut self) -> ControlFlow<Output, TagsSoFar> {
        self.number += 1;
        ControlFlow::Continue(TagsSoFar {
            number: self.number,
            tags: Vec::new(),
        })
    }

    fn tag(&mut self, tags: &mut TagsSoFar, name: &[u8], value: RawTag<'_>) -> ControlFlow<Output> {
        let name = String::from_utf8_lossy(name).into_owned();
        tags.tags
            .push((name, value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: TagsSoFar) -> ControlFlow<Output, MovesSoFar> {
        match start_position(&tags) {
            Ok(start) => ControlFlow::Continue(MovesSoFar {
                position: start.clone(),
                game: PgnGame {
                    number: tags.number,
                    tags: tags.tags,
                    start,
                    moves: Vec::new(),
                },
            }),
            Err(err) => ControlFlow::Break(Err(err)),
        }
    }

    fn san(&mut self, moves: &mut MovesSoFar, san_plus: SanPlus) -> ControlFlow<Output> {
        match san_plus.san.to_move(&moves.position) {
            Ok(m) => {
                moves.position.play_unchecked(m);
                moves.game.moves.push(m);
                ControlFlow::Continue(())
            }
            Err(source) => ControlFlow::Break(Err(PgnError::BadMove {
                game: moves.game.number,
                ply: moves.game.moves.len() + 1,
                san: san_plus.to_string(),
                source,
            })),
        }
    }

    fn end_game(&mut self, moves: MovesSoFar) -> Output {
        Ok(moves.game)
    }
}

/// The game's starting position: the `FEN` tag unless `SetUp` is `0`, else the standard start.
fn start_position(tags: &TagsSoFar) -> Result<Chess, PgnError> {
    let find = |name: &str| {
        tags.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, v)| v.as_str())
    };
    match (find("FEN"), find("SetUp")) {
        (Some(fen), setup) if setup != Some("0") => parse_fen(tags.number, fen),
        _ => Ok(Chess::default()),
    }
}

/// Parses a FEN into a legal standard-chess position.
fn parse_fen(game: usize, fen: &str) -> Result<Chess, PgnError> {
    let bad = |source: FenFault| PgnError::BadFen {
        game,
        fen: fen.to_owned(),
        source,
    };
    let parsed = Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| bad(e.into()))?;
    touchmove_core::rules::chess960::from_fen(&parsed).map_err(|e| bad(e.into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn tags_and_moves_are_read() {
        let pgn = "[Event \"E\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
                   1. e4 {c} e5 (1... c5 2. Nf3) 2. Qh5 $1 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let games: Vec<_> = read_games(pgn.as_bytes()).collect();
        let game = games[0].as_ref().expect("valid game");
        assert_eq!(game.event(), Some("E"));
        assert_eq!(game.white(), Some("W"));
        assert_eq!(game.black(), Some("B"));
        assert_eq!(game.result(), Some("1-0"));
        assert_eq!(game.moves.len(), 7);
        let mut pos = game.start.clone();
        for m in &game.moves {
            pos.play_unchecked(*m);
        }
        assert!(pos.is_checkmate());
    }

    #[test]
    fn an_illegal_move_names_game_and_san_and_reading_continues() {
        let pgn = "[Event \"one\"]\n\n1. e4 e5 *\n\n[Event \"two\"]\n\n1. e5 *\n\n\
                   [Event \"three\"]\n\n1. d4 *\n";
        let games: Vec<_> = read_games(pgn.as_bytes()).collect();
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok());
        match &games[1] {
            Err(PgnError::BadMove { game, ply, san, .. }) => {
                assert_eq!((*game, *ply, san.as_str()), (2, 1, "e5"));
            }
            other => panic!("expected a bad move, got {other:?}"),
        }
        let third = games[2].as_ref().expect("third game reads");
        assert_eq!((third.number, third.event()), (3, Some("three")));
    }

    #[test]
    fn a_bad_fen_is_reported() {
        let pgn = "[SetUp \"1\"]\n[FEN \"not a fen\"]\n\n1. e4 *\n";
        let games: Vec<_> = read_games(pgn.as_bytes()).collect();
        assert!(matches!(games[0], Err(PgnError::BadFen { game: 1, .. })));
    }

    #[test]
    fn fen_tag_sets_the_start() {
        let pgn = "[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=N *\n";
        let games: Vec<_> = read_games(pgn.as_bytes()).collect();
        let game = games[0].as_ref().expect("valid");
        assert_ne!(game.start, Chess::default());
        assert_eq!(game.moves.len(), 1);
    }
}
