//! What a voice says of the game (`--speak en|ru`): the stream's events in the words players
//! use, in English or Russian ("knight takes e5, check"; "конь бьёт е5, шах"), for a speech
//! synthesiser. Sans-IO: events in, utterances out; the speaking is the binary's.
//!
//! Said: the move the player is to carry out (an engine's, an online opponent's), an illegal
//! move, a touch-move ruling, a result (a flag, a mate, ...), the mating move, and with
//! `every_move` every move. A takeback silences what is being said (a move taken back is never
//! spoken late).

use std::str::FromStr;

use shakmaty::Color;

use crate::event::{EventKind, GameResult};
use crate::stream::{OnlineNotice, StreamEvent, StreamKind};

/// The language spoken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// English (`en`).
    English,
    /// Russian (`ru`), with the usual piece names: конь, слон, ладья, ферзь, король.
    Russian,
}

impl Language {
    /// The synthesiser's voice for it (espeak-ng's `-v`).
    pub fn voice(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
        }
    }
}

impl FromStr for Language {
    type Err = String;

    fn from_str(text: &str) -> Result<Language, String> {
        match text {
            "en" => Ok(Language::English),
            "ru" => Ok(Language::Russian),
            other => Err(format!("`{other}`: the voice speaks `en` or `ru`")),
        }
    }
}

/// What the voice is to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Utterance {
    /// Say this now, stopping whatever is being said.
    Say(String),
    /// Stop what is being said (it no longer holds: a move taken back).
    Hush,
}

/// The voice of a session: which language, and whether every move is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Voice {
    /// The language.
    pub language: Language,
    /// Every move is said (a game between two players), not only the moves to carry out.
    pub every_move: bool,
}

impl Voice {
    /// What the voice does for `event`, if anything.
    pub fn utterance(&self, event: &StreamEvent) -> Option<Utterance> {
        let words = match &event.kind {
            StreamKind::Engine(choice) => Some(self.san(&choice.san)),
            StreamKind::Online(OnlineNotice::Move { san, .. }) => Some(self.san(san)),
            StreamKind::Game(EventKind::Move(played)) => {
                let san = played.san.to_string();
                (self.every_move || san.ends_with('#')).then(|| self.san(&san))
            }
            StreamKind::Game(EventKind::Takeback { .. }) => return Some(Utterance::Hush),
            StreamKind::Game(EventKind::Illegal(illegal)) => Some(self.illegal(illegal.color)),
            StreamKind::Game(EventKind::Violation(violation)) => {
                Some(self.ruling(violation.color, violation.rule.article()))
            }
            StreamKind::Game(EventKind::Result(result)) => Some(self.result(result)),
            StreamKind::Coach(warning) => Some(self.coach(&warning.judgement)),
            _ => None,
        };
        words.map(Utterance::Say)
    }

    /// A move in words: "knight takes e5, check", "castles short", "e8, promotes to queen".
    pub fn san(&self, san: &str) -> String {
        let (body, suffix) = match san.strip_suffix('#') {
            Some(body) => (body, Some(self.words().mate)),
            None => match san.strip_suffix('+') {
                Some(body) => (body, Some(self.words().check)),
                None => (san, None),
            },
        };
        let mut said = self.body(body);
        if let Some(suffix) = suffix {
            said.push_str(", ");
            said.push_str(suffix);
        }
        said
    }

    /// A move's SAN without its check or mate sign, in words.
    fn body(&self, body: &str) -> String {
        let words = self.words();
        match body {
            "O-O" => return words.castles_short.to_owned(),
            "O-O-O" => return words.castles_long.to_owned(),
            _ => {}
        }
        let (body, promotion) = match body.split_once('=') {
            Some((body, piece)) => (body, piece.chars().next().and_then(|p| self.piece(p))),
            None => (body, None),
        };
        let mut chars = body.chars().peekable();
        let mut parts: Vec<String> = Vec::new();
        if let Some(piece) = chars.peek().copied().and_then(|c| self.piece(c)) {
            parts.push(piece.to_owned());
            chars.next();
        }
        let rest: String = chars.collect();
        let captures = rest.contains('x');
        let squares: String = rest.chars().filter(|c| *c != 'x').collect();
        // The destination is the last two characters; before it, what tells the piece apart.
        let split = squares.len().saturating_sub(2);
        let (from, to) = squares.split_at_checked(split).unwrap_or(("", &squares));
        if !from.is_empty() {
            parts.push(self.squares(from));
        }
        if captures {
            parts.push(words.takes.to_owned());
        }
        if !to.is_empty() {
            parts.push(self.squares(to));
        }
        let mut said = parts.join(" ");
        if let Some(piece) = promotion {
            said.push_str(", ");
            said.push_str(words.promotes);
            said.push(' ');
            said.push_str(self.promotion_piece(piece));
        }
        said
    }

    /// A piece's name from its SAN letter.
    fn piece(&self, letter: char) -> Option<&'static str> {
        let names = match self.language {
            Language::English => ["king", "queen", "rook", "bishop", "knight"],
            Language::Russian => ["король", "ферзь", "ладья", "слон", "конь"],
        };
        let index = "KQRBN".find(letter)?;
        names.get(index).copied()
    }

    /// The piece a pawn promotes to, as the phrase needs it ("в ферзя" in Russian).
    fn promotion_piece(&self, name: &'static str) -> &'static str {
        match (self.language, name) {
            (Language::Russian, "ферзь") => "ферзя",
            (Language::Russian, "ладья") => "ладью",
            (Language::Russian, "слон") => "слона",
            (Language::Russian, "конь") => "коня",
            _ => name,
        }
    }

    /// Squares and files as spoken: Latin letters in English ("e5"), their Russian names in
    /// Russian ("е5", "эф").
    fn squares(&self, text: &str) -> String {
        match self.language {
            Language::English => text.to_owned(),
            Language::Russian => text
                .chars()
                .map(|c| match c {
                    'a' => "а".to_owned(),
                    'b' => "бэ".to_owned(),
                    'c' => "цэ".to_owned(),
                    'd' => "дэ".to_owned(),
                    'e' => "е".to_owned(),
                    'f' => "эф".to_owned(),
                    'g' => "гэ".to_owned(),
                    'h' => "аш".to_owned(),
                    other => other.to_string(),
                })
                .collect(),
        }
    }

    fn illegal(&self, color: Color) -> String {
        match self.language {
            Language::English => format!("illegal move by {}", color_word(color, self.language)),
            Language::Russian => format!("невозможный ход, {}", color_word(color, self.language)),
        }
    }

    fn ruling(&self, color: Color, rule: &str) -> String {
        let spoken_rule = rule.replace('.', " ");
        match self.language {
            Language::English => format!(
                "touch move: {}, article {spoken_rule}",
                color_word(color, self.language)
            ),
            Language::Russian => format!(
                "тронул, ходи: {}, статья {spoken_rule}",
                color_word(color, self.language)
            ),
        }
    }

    /// The coach's word: how bad the move was (as Lichess names it) and its question.
    fn coach(&self, judgement: &str) -> String {
        let judgement = match (self.language, judgement) {
            (Language::Russian, "inaccuracy") => "неточность",
            (Language::Russian, "mistake") => "ошибка",
            (Language::Russian, "blunder") => "грубая ошибка",
            (_, judgement) => judgement,
        };
        format!("{judgement}, {}", self.words().coach)
    }

    fn result(&self, result: &GameResult) -> String {
        let words = self.words();
        let outcome = match result.result.as_str() {
            "1-0" => words.white_wins,
            "0-1" => words.black_wins,
            _ => words.draw,
        };
        let why = match result.reason.as_str() {
            "checkmate" => Some(words.checkmate),
            "flag fall" => Some(words.flag),
            "resignation" => Some(words.resignation),
            "stalemate" => Some(words.stalemate),
            _ => None,
        };
        match why {
            Some(why) => format!("{why}. {outcome}"),
            None => outcome.to_owned(),
        }
    }

    fn words(&self) -> &'static Words {
        match self.language {
            Language::English => &ENGLISH,
            Language::Russian => &RUSSIAN,
        }
    }
}

/// A side, as the voice says it.
fn color_word(color: Color, language: Language) -> &'static str {
    match (language, color) {
        (Language::English, Color::White) => "white",
        (Language::English, Color::Black) => "black",
        (Language::Russian, Color::White) => "белые",
        (Language::Russian, Color::Black) => "чёрные",
    }
}

/// The fixed words of a language.
struct Words {
    check: &'static str,
    mate: &'static str,
    takes: &'static str,
    castles_short: &'static str,
    castles_long: &'static str,
    promotes: &'static str,
    white_wins: &'static str,
    black_wins: &'static str,
    draw: &'static str,
    checkmate: &'static str,
    flag: &'static str,
    resignation: &'static str,
    stalemate: &'static str,
    /// The coach's question after a move that lost much (`play --coach`).
    coach: &'static str,
}

const ENGLISH: Words = Words {
    check: "check",
    mate: "checkmate",
    takes: "takes",
    castles_short: "castles short",
    castles_long: "castles long",
    promotes: "promotes to",
    white_wins: "white wins",
    black_wins: "black wins",
    draw: "draw",
    checkmate: "checkmate",
    flag: "flag fall",
    resignation: "resignation",
    stalemate: "stalemate",
    coach: "take it back?",
};

const RUSSIAN: Words = Words {
    check: "шах",
    mate: "мат",
    takes: "бьёт",
    castles_short: "короткая рокировка",
    castles_long: "длинная рокировка",
    promotes: "превращение в",
    white_wins: "белые выиграли",
    black_wins: "чёрные выиграли",
    draw: "ничья",
    checkmate: "мат",
    flag: "флажок упал",
    resignation: "сдача",
    stalemate: "пат",
    coach: "вернёте ход?",
};

#[cfg(test)]
mod tests {
    use super::*;

    fn voice(language: Language) -> Voice {
        Voice {
            language,
            every_move: false,
        }
    }

    #[test]
    fn moves_are_said_in_the_words_players_use() {
        let en = voice(Language::English);
        assert_eq!(en.san("Nxe5+"), "knight takes e5, check");
        assert_eq!(en.san("e4"), "e4");
        assert_eq!(en.san("exd5"), "e takes d5");
        assert_eq!(en.san("Qh4#"), "queen h4, checkmate");
        assert_eq!(en.san("O-O"), "castles short");
        assert_eq!(en.san("O-O-O+"), "castles long, check");
        assert_eq!(en.san("e8=Q"), "e8, promotes to queen");
        assert_eq!(en.san("Rad1"), "rook a d1");
        let ru = voice(Language::Russian);
        assert_eq!(ru.san("Nxe5+"), "конь бьёт е5, шах");
        assert_eq!(ru.san("Bb5"), "слон бэ5");
        assert_eq!(ru.san("Qh4#"), "ферзь аш4, мат");
        assert_eq!(ru.san("O-O"), "короткая рокировка");
        assert_eq!(ru.san("fxg8=N"), "эф бьёт гэ8, превращение в коня");
        assert_eq!(ru.san("Kf1"), "король эф1");
        assert_eq!(ru.san("Ra1"), "ладья а1");
    }

    #[test]
    fn languages_are_named_en_and_ru() {
        assert_eq!("en".parse(), Ok(Language::English));
        assert_eq!("ru".parse(), Ok(Language::Russian));
        assert!("de".parse::<Language>().is_err());
        assert_eq!(Language::Russian.voice(), "ru");
    }
}
