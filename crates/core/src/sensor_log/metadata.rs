//! The metadata lines (`@key value`) between the header and the first event.

use shakmaty::fen::Fen;

use super::error::LineError;
use super::header::LogHeader;
use crate::sensor::Millis;

/// Builds a [`LogHeader`] from metadata lines, remembering where each known key was given.
#[derive(Debug, Default)]
pub(super) struct MetadataCollector {
    header: LogHeader,
    start_line: Option<usize>,
    board_line: Option<usize>,
    horizon_line: Option<usize>,
    engine_line: Option<usize>,
    online_line: Option<usize>,
    slide_line: Option<usize>,
    scan_line: Option<usize>,
    bounce_line: Option<usize>,
    promotion_line: Option<usize>,
    game_id_line: Option<usize>,
    date_line: Option<usize>,
}

impl MetadataCollector {
    /// Takes in the metadata line `text` (starting with `@`) found on line `line`.
    ///
    /// Unknown keys are ignored, as the format asks for forward compatibility.
    pub(super) fn add(&mut self, line: usize, text: &str) -> Result<(), LineError> {
        let body = text.strip_prefix('@').unwrap_or(text);
        let (key, value) = body.split_once(' ').unwrap_or((body, ""));
        let value = value.trim_matches(' ');
        match key {
            "" => Err(LineError::EmptyMetadataKey),
            "start" => {
                check_once(key, self.start_line, value)?;
                self.header.start = Some(parse_start(value)?);
                self.start_line = Some(line);
                Ok(())
            }
            "board" => {
                check_once(key, self.board_line, value)?;
                self.header.board = Some(value.to_owned());
                self.board_line = Some(line);
                Ok(())
            }
            "report-horizon-ms" => {
                check_once(key, self.horizon_line, value)?;
                let horizon = parse_horizon(value)?;
                self.header.report_horizon_ms = Some(horizon);
                self.horizon_line = Some(line);
                Ok(())
            }
            "slide-ms" => {
                check_once(key, self.slide_line, value)?;
                self.header.slide_ms = Some(parse_window(key, value)?);
                self.slide_line = Some(line);
                Ok(())
            }
            "scan-ms" => {
                check_once(key, self.scan_line, value)?;
                self.header.scan_ms = Some(parse_window(key, value)?);
                self.scan_line = Some(line);
                Ok(())
            }
            "bounce-ms" => {
                check_once(key, self.bounce_line, value)?;
                self.header.bounce_ms = Some(parse_window(key, value)?);
                self.bounce_line = Some(line);
                Ok(())
            }
            "engine" => {
                check_once(key, self.engine_line, value)?;
                let side = value.parse().map_err(|_| LineError::BadEngineSide {
                    text: value.to_owned(),
                })?;
                self.header.engine = Some(side);
                self.engine_line = Some(line);
                Ok(())
            }
            "online" => {
                check_once(key, self.online_line, value)?;
                let seat = value.parse().map_err(|()| LineError::BadOnline {
                    text: value.to_owned(),
                })?;
                self.header.online = Some(seat);
                self.online_line = Some(line);
                Ok(())
            }
            "promotion-choice" => {
                check_once(key, self.promotion_line, value)?;
                if value != "awaited" {
                    return Err(LineError::BadPromotionChoice {
                        text: value.to_owned(),
                    });
                }
                self.header.promotion_choice = true;
                self.promotion_line = Some(line);
                Ok(())
            }
            "game-id" => {
                check_once(key, self.game_id_line, value)?;
                self.header.game.id = Some(value.to_owned());
                self.game_id_line = Some(line);
                Ok(())
            }
            "date" => {
                check_once(key, self.date_line, value)?;
                if !crate::sensor_log::GameLabel::is_date(value) {
                    return Err(LineError::BadDate {
                        text: value.to_owned(),
                    });
                }
                self.header.game.date = Some(value.to_owned());
                self.date_line = Some(line);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The header as collected so far.
    pub(super) fn header(&self) -> &LogHeader {
        &self.header
    }
}

/// Checks that a known key has a value and was not given before.
fn check_once(key: &str, first_line: Option<usize>, value: &str) -> Result<(), LineError> {
    if let Some(first_line) = first_line {
        return Err(LineError::DuplicateMetadata {
            key: key.to_owned(),
            first_line,
        });
    }
    if value.is_empty() {
        return Err(LineError::MissingMetadataValue {
            key: key.to_owned(),
        });
    }
    Ok(())
}

/// Parses the `@report-horizon-ms` value: whole milliseconds, at most a minute.
fn parse_horizon(text: &str) -> Result<Millis, LineError> {
    parse_minute_ms(text).ok_or_else(|| LineError::BadReportHorizon {
        text: text.to_owned(),
    })
}

/// Parses an `@slide-ms`, `@bounce-ms` or `@scan-ms` value: whole milliseconds, at most a
/// minute.
fn parse_window(key: &str, text: &str) -> Result<Millis, LineError> {
    parse_minute_ms(text).ok_or_else(|| LineError::BadWindow {
        key: key.to_owned(),
        text: text.to_owned(),
    })
}

/// Whole milliseconds (digits only), at most a minute.
fn parse_minute_ms(text: &str) -> Option<Millis> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<Millis>()
        .ok()
        .filter(|ms| *ms <= MAX_REPORT_HORIZON_MS)
}

/// The longest report horizon a log may state (ms).
pub const MAX_REPORT_HORIZON_MS: Millis = 60_000;

/// Parses the `@start` FEN and checks that it is a playable position (of standard chess, or a
/// Chess960 start or game: its castling rights say which).
fn parse_start(text: &str) -> Result<Fen, LineError> {
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|source| LineError::BadFen {
        fen: text.to_owned(),
        source,
    })?;
    match crate::rules::chess960::from_fen(&fen) {
        Ok(_) => Ok(fen),
        Err(error) => Err(LineError::IllegalStartPosition {
            fen: text.to_owned(),
            source: error.into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_and_board_fill_the_header_and_unknown_keys_are_ignored() {
        let mut collector = MetadataCollector::default();
        collector
            .add(2, "@board  hall-v1 demo ")
            .expect("valid board line");
        collector
            .add(3, "@clock-model chessup 2")
            .expect("unknown key ignored");
        collector
            .add(4, "@start 4k3/8/8/8/8/8/8/4K3 b - - 0 1")
            .expect("valid start line");
        let header = collector.header();
        assert_eq!(header.board.as_deref(), Some("hall-v1 demo"));
        let fen = header.start.as_ref().expect("start set");
        assert_eq!(fen.to_string(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    }

    #[test]
    fn bad_metadata_is_reported() {
        let mut collector = MetadataCollector::default();
        assert_eq!(collector.add(2, "@"), Err(LineError::EmptyMetadataKey));
        assert_eq!(
            collector.add(2, "@board"),
            Err(LineError::MissingMetadataValue {
                key: "board".to_owned()
            })
        );
        assert!(matches!(
            collector.add(2, "@start nonsense"),
            Err(LineError::BadFen { fen, .. }) if fen == "nonsense"
        ));
        assert!(matches!(
            collector.add(2, "@start 8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(LineError::IllegalStartPosition { fen, .. }) if fen == "8/8/8/8/8/8/8/8 w - - 0 1"
        ));
        collector.add(5, "@board one").expect("first board line");
        assert_eq!(
            collector.add(6, "@board two"),
            Err(LineError::DuplicateMetadata {
                key: "board".to_owned(),
                first_line: 5
            })
        );
    }
}
