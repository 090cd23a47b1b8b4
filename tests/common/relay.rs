//! A Lichess broadcast round for tests of pushes from several hosts: each push's games matched
//! to the round's chapters as lila's `RelayUpdatePlan` matches them, written from its published
//! source (lichess-org/lila, `modules/relay/src/main/RelayUpdatePlan.scala` and `RelayGame.scala`,
//! read 2026-12; summarised in ../shared/docs/board-families.md):
//!
//! - each pushed game, in order, is matched to the first chapter not yet matched in this push
//!   for which `isSameGame` holds: when both carry a `GameId`, by it alone (equal or not);
//!   else by the same `Event` and `Site`, round number, board number and players; or by the
//!   same round number and players and the same first moves from the same start;
//! - matched chapters are updated; the other games are appended as new chapters (at most 100
//!   a round); chapters nothing matched stay (orphans): a push deletes none;
//! - a game without both players is dropped, as lila's import does (a name of one character,
//!   `bye` or `unknown` is no name: `?` is none).
//!
//! Left out: the first push's replacement of a round's empty initial chapter (a round here
//! starts with none), FIDE ids (no game here has them), clocks and comments.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use serde_json::{Value, json};

/// A chapter of the round: its tags and moves (SAN).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chapter {
    pub tags: BTreeMap<String, String>,
    pub moves: Vec<String>,
}

impl Chapter {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.get(name).map(String::as_str)
    }

    /// lila's `roundNumber`: the `Round` tag's number before any `.`.
    fn round_number(&self) -> Option<u32> {
        self.tag("Round")?.split('.').next()?.trim().parse().ok()
    }

    /// lila's `boardNumber`: the `Board` tag's number, else the `Round` tag's after its `.`.
    fn board_number(&self) -> Option<u32> {
        let board = self
            .tag("Board")
            .and_then(|board| board.trim().parse().ok());
        board.or_else(|| self.tag("Round")?.split('.').nth(1)?.trim().parse().ok())
    }

    /// Whether a side is unknown (lila's `hasUnknownPlayer` after `removeBrokenPlayerNames`).
    fn has_unknown_player(&self) -> bool {
        ["White", "Black"].iter().any(|side| {
            self.tag(side).is_none_or(|name| {
                let name = name.to_lowercase();
                name.chars().count() <= 1 || name == "bye" || name == "unknown"
            })
        })
    }
}

/// lila's `isSameGame(game, chapter)`.
fn is_same_game(game: &Chapter, chapter: &Chapter) -> bool {
    if let (Some(game_id), Some(chapter_id)) = (game.tag("GameId"), chapter.tag("GameId")) {
        return game_id == chapter_id;
    }
    same_by_tags(game, chapter) || same_by_some_tags_and_first_moves(game, chapter)
}

fn all_same(names: &[&str], game: &Chapter, chapter: &Chapter) -> bool {
    names.iter().all(|name| game.tag(name) == chapter.tag(name))
}

/// `isSameGameBasedOnTags`: event tags, round and board numbers, players.
fn same_by_tags(game: &Chapter, chapter: &Chapter) -> bool {
    all_same(&["Event", "Site"], game, chapter)
        && game.round_number() == chapter.round_number()
        && game.board_number() == chapter.board_number()
        && all_same(&["White", "Black"], game, chapter)
}

/// `isSameGameBasedOnSomeTagsAndFirstMoves`: round number, players, and first moves.
fn same_by_some_tags_and_first_moves(game: &Chapter, chapter: &Chapter) -> bool {
    game.round_number() == chapter.round_number()
        && all_same(&["White", "Black"], game, chapter)
        && same_first_moves(game, chapter)
}

/// `sameFirstMoves`: the same start, and the moves both have the same.
fn same_first_moves(game: &Chapter, chapter: &Chapter) -> bool {
    game.tag("FEN") == chapter.tag("FEN")
        && game.moves.iter().zip(&chapter.moves).all(|(a, b)| a == b)
}

/// The round, as pushes leave it.
#[derive(Debug, Default)]
pub struct Round {
    pub chapters: Vec<Chapter>,
    /// Each update of a chapter by a game whose moves are not the chapter's own (another
    /// game took its place), described.
    pub replaced: Vec<String>,
    /// Each game dropped for an unknown player, described.
    pub dropped: Vec<String>,
    /// How many pushes the round took.
    pub pushes: usize,
}

/// The most chapters a round holds.
const MAX_CHAPTERS: usize = 100;

impl Round {
    /// Takes a push's PGN; Lichess's reply (each game's moves, or why it was refused).
    pub fn push(&mut self, pgn: &str) -> String {
        self.pushes += 1;
        let games = read_games(pgn);
        let mut matched: Vec<usize> = Vec::new();
        let mut replies = Vec::new();
        for game in games {
            let tags: Value = game
                .tags
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            if game.has_unknown_player() {
                self.dropped.push(format!("{:?}", game.tags));
                replies.push(json!({"tags": tags, "error": "a player is unknown"}));
                continue;
            }
            let plies = game.moves.len();
            let found = self
                .chapters
                .iter()
                .enumerate()
                .find(|(index, chapter)| !matched.contains(index) && is_same_game(&game, chapter))
                .map(|(index, _)| index);
            match found {
                Some(index) => {
                    matched.push(index);
                    let chapter = &mut self.chapters[index];
                    if !same_first_moves(&game, chapter) {
                        self.replaced
                            .push(format!("{:?} by {:?}", chapter.tags, game.tags));
                    }
                    *chapter = game;
                }
                None if self.chapters.len() < MAX_CHAPTERS => {
                    matched.push(self.chapters.len());
                    self.chapters.push(game);
                }
                None => {
                    replies.push(json!({"tags": tags, "error": "too many chapters"}));
                    continue;
                }
            }
            replies.push(json!({"tags": tags, "moves": plies}));
        }
        json!({ "games": replies }).to_string()
    }
}

/// The games of a push's PGN.
fn read_games(pgn: &str) -> Vec<Chapter> {
    let mut reader = Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    let mut games = Vec::new();
    while let Ok(Some(game)) = reader.read_game(&mut ChapterReader) {
        games.push(game);
    }
    games
}

/// Reads a game's tags and moves.
struct ChapterReader;

impl Visitor for ChapterReader {
    type Tags = BTreeMap<String, String>;
    type Movetext = Chapter;
    type Output = Chapter;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(BTreeMap::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.insert(
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        );
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Chapter {
            tags,
            moves: Vec::new(),
        })
    }

    fn san(&mut self, chapter: &mut Chapter, san: SanPlus) -> ControlFlow<Self::Output> {
        chapter.moves.push(san.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, chapter: Chapter) -> Chapter {
        chapter
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(tags: &[(&str, &str)], moves: &str) -> String {
        let tags: String = tags
            .iter()
            .map(|(k, v)| format!("[{k} \"{v}\"]\n"))
            .collect();
        format!("{tags}\n{moves} *\n\n")
    }

    #[test]
    fn without_game_ids_two_hosts_same_pairing_is_one_chapter_and_with_them_two() {
        let a = [
            ("Event", "E"),
            ("Round", "4"),
            ("Board", "1"),
            ("White", "Ann"),
            ("Black", "Bo"),
        ];
        let mut round = Round::default();
        round.push(&game(&a, "1. e4 e5"));
        round.push(&game(&a, "1. e4 e5 2. Nf3"));
        assert_eq!(round.chapters.len(), 1, "the same game, updated");
        let with = |id: &str| {
            let mut tags = a.to_vec();
            tags.push(("GameId", id));
            game(&tags, "1. d4")
        };
        let mut round = Round::default();
        round.push(&format!("{}{}", with("hall-a/1/1"), with("hall-b/1/1")));
        assert_eq!(round.chapters.len(), 2);
        // A different game matched by tags alone takes the chapter's place.
        let mut round = Round::default();
        round.push(&game(&a, "1. e4 e5"));
        round.push(&game(&a, "1. d4"));
        assert_eq!((round.chapters.len(), round.replaced.len()), (1, 1));
        // No players: dropped.
        let mut round = Round::default();
        round.push(&game(&[("White", "?"), ("Black", "Bo")], "1. e4"));
        assert_eq!((round.chapters.len(), round.dropped.len()), (0, 1));
    }
}
