//! Tests of the decoder against the format: the contract's example, every error with its line
//! number, and independence from how the input is split.

use shakmaty::{Color, Role, Square};

use crate::decode::StreamDecoder;
use crate::sensor::{SensorEvent, SensorKind};
use crate::sensor_log::*;

/// Decodes `bytes` pushed whole, collecting every record and error.
fn decode_whole(bytes: &[u8]) -> Vec<Result<LogRecord, LogError>> {
    let mut decoder = LogDecoder::new();
    decoder.push(bytes);
    decoder.finish();
    std::iter::from_fn(|| decoder.poll()).collect()
}

/// Decodes `bytes` pushed one byte at a time, polling after every push.
fn decode_bytewise(bytes: &[u8]) -> Vec<Result<LogRecord, LogError>> {
    let mut decoder = LogDecoder::new();
    let mut results = Vec::new();
    for byte in bytes {
        decoder.push(std::slice::from_ref(byte));
        results.extend(std::iter::from_fn(|| decoder.poll()));
    }
    decoder.finish();
    results.extend(std::iter::from_fn(|| decoder.poll()));
    results
}

/// The first error of a log given as bytes.
fn first_error(bytes: &[u8]) -> LogError {
    decode_whole(bytes)
        .into_iter()
        .find_map(Result::err)
        .expect("the log has an error")
}

fn lift(t: u64, square: Square) -> SensorEvent {
    SensorEvent::new(
        t,
        SensorKind::Lift {
            square,
            piece: None,
        },
    )
}

fn place(t: u64, square: Square) -> SensorEvent {
    SensorEvent::new(
        t,
        SensorKind::Place {
            square,
            piece: None,
        },
    )
}

const CONTRACT_EXAMPLE: &str = "\
# 1. e4 e5 2. Nf3, occupancy-only board, with a j'adoube and a slide
touchmove-log 1
@board hall-v1 demo
0 lift e2
410 place e3
470 lift e3
620 place e4
2100 lift e7
2700 place e5
3900 adjust
4000 lift d2
4100 place d2
5200 lift g1
5900 place f3
";

#[test]
fn the_contract_example_reads_to_its_events() {
    let log = read_log(CONTRACT_EXAMPLE).expect("the example is valid");
    assert_eq!(
        log.header,
        LogHeader {
            start: None,
            board: Some("hall-v1 demo".to_owned()),
            report_horizon_ms: None,
            engine: None,
            online: None,
            slide_ms: None,
            bounce_ms: None,
            scan_ms: None,
            promotion_choice: false,
            game: crate::sensor_log::GameLabel::default(),
        }
    );
    assert_eq!(
        log.events,
        vec![
            lift(0, Square::E2),
            place(410, Square::E3),
            lift(470, Square::E3),
            place(620, Square::E4),
            lift(2100, Square::E7),
            place(2700, Square::E5),
            SensorEvent::new(3900, SensorKind::Adjust),
            lift(4000, Square::D2),
            place(4100, Square::D2),
            lift(5200, Square::G1),
            place(5900, Square::F3),
        ]
    );
}

#[test]
fn the_header_record_comes_before_the_first_event() {
    let results =
        decode_whole(b"touchmove-log 1\n@start 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n7 adjust\n");
    let records: Vec<LogRecord> = results.into_iter().map(|r| r.expect("valid")).collect();
    assert_eq!(records.len(), 2);
    assert!(matches!(&records[0], LogRecord::Header(h) if h.start.is_some() && h.board.is_none()));
    assert_eq!(
        records[1],
        LogRecord::Event(SensorEvent::new(7, SensorKind::Adjust))
    );
}

#[test]
fn a_log_without_events_yields_its_header_at_the_end() {
    let mut decoder = LogDecoder::new();
    decoder.push(b"touchmove-log 1\n@board x\n");
    assert_eq!(
        decoder.poll(),
        None,
        "the header is not complete before the end"
    );
    decoder.finish();
    assert_eq!(
        decoder.poll(),
        Some(Ok(LogRecord::Header(Box::new(LogHeader {
            start: None,
            board: Some("x".to_owned()),
            report_horizon_ms: None,
            engine: None,
            online: None,
            slide_ms: None,
            bounce_ms: None,
            scan_ms: None,
            promotion_choice: false,
            game: crate::sensor_log::GameLabel::default(),
        }))))
    );
    assert_eq!(decoder.poll(), None);
}

#[test]
fn the_last_line_needs_no_line_feed_but_needs_finish() {
    let mut decoder = LogDecoder::new();
    decoder.push(b"touchmove-log 1\n0 lift e2\n5 place e4");
    assert_eq!(decoder.poll(), Some(Ok(LogRecord::Header(Box::default()))));
    assert_eq!(
        decoder.poll(),
        Some(Ok(LogRecord::Event(lift(0, Square::E2))))
    );
    assert_eq!(decoder.poll(), None);
    decoder.finish();
    assert_eq!(
        decoder.poll(),
        Some(Ok(LogRecord::Event(place(5, Square::E4))))
    );
    assert_eq!(decoder.poll(), None);
}

/// A log with CRLF endings, multibyte characters, an error and no final line ending.
const AWKWARD: &str = "# Schachbrett für Tests ♞\r\ntouchmove-log 1\r\n@board Brett ♞ über\r\n   \r\n0 lift e2 P\r\n5 lift ä2\r\n9 place e4 P\r\n10 snapshot X7/8/8/8/4P3/8/8/8\r\n11 clock white";

#[test]
fn pushing_whole_or_byte_by_byte_gives_the_same_records() {
    let mut snapshot_board = shakmaty::Board::empty();
    snapshot_board.set_piece_at(Square::E4, Color::White.pawn());
    let mut occupied = snapshot_board.occupied();
    occupied.add(Square::A8);
    let expected = vec![
        Ok(LogRecord::Header(Box::new(LogHeader {
            start: None,
            board: Some("Brett ♞ über".to_owned()),
            report_horizon_ms: None,
            engine: None,
            online: None,
            slide_ms: None,
            bounce_ms: None,
            scan_ms: None,
            promotion_choice: false,
            game: crate::sensor_log::GameLabel::default(),
        }))),
        Ok(LogRecord::Event(SensorEvent::new(
            0,
            SensorKind::Lift {
                square: Square::E2,
                piece: Some(Color::White.pawn()),
            },
        ))),
        Err(LogError {
            line: 6,
            kind: LineError::BadSquare {
                text: "ä2".to_owned(),
            },
        }),
        Ok(LogRecord::Event(SensorEvent::new(
            9,
            SensorKind::Place {
                square: Square::E4,
                piece: Some(Color::White.pawn()),
            },
        ))),
        Ok(LogRecord::Event(SensorEvent::new(
            10,
            SensorKind::Snapshot(Box::new(crate::sensor::BoardSnapshot {
                occupied,
                pieces: snapshot_board,
            })),
        ))),
        Ok(LogRecord::Event(SensorEvent::new(
            11,
            SensorKind::Clock(Color::White),
        ))),
    ];
    assert_eq!(decode_whole(AWKWARD.as_bytes()), expected);
    assert_eq!(decode_bytewise(AWKWARD.as_bytes()), expected);
}

#[test]
fn errors_name_their_line() {
    let cases: Vec<(&[u8], usize, LineError)> = vec![
        (b"", 1, LineError::MissingHeader),
        (b"# only a comment\n\n", 3, LineError::MissingHeader),
        (
            b"# c\ntouchmove-log 2\n",
            2,
            LineError::WrongHeader {
                found: "touchmove-log 2".to_owned(),
            },
        ),
        (
            b"0 lift e2\n",
            1,
            LineError::WrongHeader {
                found: "0 lift e2".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n0 adjust\n@board late\n",
            3,
            LineError::MetadataAfterEvent {
                key: "board".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n\n-5 adjust",
            3,
            LineError::BadTime {
                text: "-5".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n10 adjust\n# c\n9 adjust\n",
            4,
            LineError::TimeWentBack { t: 9, previous: 10 },
        ),
        (
            b"touchmove-log 1\n0 jump e2\n",
            2,
            LineError::UnknownVerb {
                verb: "jump".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n0 lift e9\n",
            2,
            LineError::BadSquare {
                text: "e9".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n0 lift e2 X\n",
            2,
            LineError::BadPiece {
                text: "X".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n0 adjust now\n",
            2,
            LineError::WrongArgumentCount {
                verb: "adjust",
                expected: "0",
                found: 1,
            },
        ),
        (
            b"touchmove-log 1\n0 promote k\n",
            2,
            LineError::BadPromote {
                text: "k".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n0 snapshot 8/8/8/8/8/8/8/7\n",
            2,
            LineError::BadPlacement {
                placement: "8/8/8/8/8/8/8/7".to_owned(),
                reason: PlacementError::RankWidth {
                    rank: 1,
                    squares: 7,
                },
            },
        ),
        (
            b"touchmove-log 1\n0 clock red\n",
            2,
            LineError::BadColour {
                text: "red".to_owned(),
            },
        ),
        (
            b"touchmove-log 1\n0 lift e2\n\xff\n",
            3,
            LineError::InvalidUtf8 { valid_up_to: 0 },
        ),
        (
            b"touchmove-log 1\n# caf\xc3\n",
            2,
            LineError::InvalidUtf8 { valid_up_to: 5 },
        ),
        (b"touchmove-log 1\n0\n", 2, LineError::MissingVerb),
        (b"touchmove-log 1\n@\n", 2, LineError::EmptyMetadataKey),
        (
            b"touchmove-log 1\n@board a\n@board b\n",
            3,
            LineError::DuplicateMetadata {
                key: "board".to_owned(),
                first_line: 2,
            },
        ),
    ];
    for (bytes, line, kind) in cases {
        assert_eq!(
            first_error(bytes),
            LogError { line, kind },
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn start_fen_errors_name_their_line() {
    let error = first_error(b"touchmove-log 1\n# c\n@start not a fen\n");
    assert_eq!(error.line, 3);
    assert!(matches!(error.kind, LineError::BadFen { fen, .. } if fen == "not a fen"));
    let error = first_error(b"touchmove-log 1\n@start 8/8/8/8/8/8/8/8 w - - 0 1\n");
    assert_eq!(error.line, 2);
    assert!(matches!(error.kind, LineError::IllegalStartPosition { .. }));
}

#[test]
fn decoding_goes_on_after_an_error() {
    let results = decode_whole(b"touchmove-log 1\n0 lift e2\n1 lift q9\n2 promote x\n3 place e4\n");
    assert_eq!(
        results,
        vec![
            Ok(LogRecord::Header(Box::default())),
            Ok(LogRecord::Event(lift(0, Square::E2))),
            Err(LogError {
                line: 3,
                kind: LineError::BadSquare {
                    text: "q9".to_owned()
                }
            }),
            Err(LogError {
                line: 4,
                kind: LineError::BadPromote {
                    text: "x".to_owned()
                }
            }),
            Ok(LogRecord::Event(place(3, Square::E4))),
        ]
    );
}

#[test]
fn a_bad_time_does_not_move_the_clock() {
    let results = decode_whole(b"touchmove-log 1\n5 adjust\n900 jump\n6 promote q\n");
    assert_eq!(
        results.last(),
        Some(&Ok(LogRecord::Event(SensorEvent::new(
            6,
            SensorKind::Promote(Role::Queen)
        ))))
    );
}

#[test]
fn pushing_after_finish_is_an_error() {
    let mut decoder = LogDecoder::new();
    decoder.push(b"touchmove-log 1\n");
    decoder.finish();
    assert_eq!(decoder.poll(), Some(Ok(LogRecord::Header(Box::default()))));
    assert_eq!(decoder.poll(), None);
    decoder.push(b"0 adjust\n");
    assert_eq!(
        decoder.poll(),
        Some(Err(LogError {
            line: 2,
            kind: LineError::PushedAfterFinish
        }))
    );
    assert_eq!(decoder.poll(), None);
}

#[test]
fn error_messages_carry_line_and_evidence() {
    let error = first_error(b"touchmove-log 1\n0 lift e2 Z\n");
    assert_eq!(
        error.to_string(),
        "line 2: bad piece `Z`: expected one of PNBRQK (white) or pnbrqk (black)"
    );
}

mod clock_readings {
    use super::*;
    use crate::clock::{ClockReading, Flag};
    use crate::event::ClockTimes;

    fn reading(white: u64, black: u64) -> ClockReading {
        ClockReading::new(ClockTimes { white, black }, Some(Color::Black))
    }

    fn records(decoder: &mut LogDecoder, text: &str) -> Vec<LogRecord> {
        decoder.push(text.as_bytes());
        decoder.finish();
        std::iter::from_fn(|| decoder.poll())
            .map(|record| record.expect("no error"))
            .collect()
    }

    const LOG: &str = "touchmove-log 1\n\
        #clock-reading 0 1 1 - -\n\
        0 lift e2\n\
        #clock-reading 100 60000 59000 black black:fallen\n\
        # clock-reading 150 1 1 - -\n\
        #clock-reading 120 1 1 white\n\
        #clock-reading 50 1 1 - -\n\
        300 place e4\n";

    #[test]
    fn a_reading_after_the_header_is_a_record_and_other_comments_are_not() {
        let got = records(&mut LogDecoder::new(), LOG);
        let expected_reading = reading(60_000, 59_000).with_flag(Color::Black, Flag::Fallen);
        assert_eq!(got.len(), 5, "{got:?}");
        assert!(matches!(got[0], LogRecord::Header(_)));
        // Before the first event: given after the header record.
        let first = ClockReading::new(ClockTimes { white: 1, black: 1 }, None);
        assert_eq!(
            got[1],
            LogRecord::ClockReading {
                t: 0,
                reading: first
            }
        );
        assert_eq!(got[2], LogRecord::Event(lift(0, Square::E2)));
        // Malformed, or earlier than the last event: a comment.
        assert_eq!(
            got[3],
            LogRecord::ClockReading {
                t: 100,
                reading: expected_reading
            }
        );
        assert!(matches!(got[4], LogRecord::Event(ref e) if e.t == 300));
    }

    #[test]
    fn the_strict_decoder_ignores_every_comment() {
        let got = records(&mut LogDecoder::ignoring_clock_readings(), LOG);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            got.iter()
                .all(|record| !matches!(record, LogRecord::ClockReading { .. }))
        );
    }

    #[test]
    fn what_the_writer_writes_reads_back_and_a_reading_before_any_event_is_refused() {
        let mut writer = LogWriter::new(Vec::new(), &LogHeader::default(), FlushPolicy::WhenAsked)
            .expect("a header");
        assert!(matches!(
            writer.write_clock_reading(0, &reading(1, 2)),
            Err(WriteError::ClockReadingBeforeEvents { t: 0 })
        ));
        writer.write_event(&lift(10, Square::E2)).expect("written");
        writer
            .write_clock_reading(20, &reading(3, 4))
            .expect("written");
        assert!(matches!(
            writer.write_clock_reading(15, &reading(5, 6)),
            Err(WriteError::TimeWentBack {
                t: 15,
                previous: 20
            })
        ));
        let bytes = writer.into_inner().expect("flushed");
        let text = String::from_utf8(bytes).expect("UTF-8");
        let log = read_log(&text).expect("reads back");
        assert_eq!(log.clock_readings, vec![(1, 20, reading(3, 4))]);
        let records: Vec<LogRecord> = log.records().collect();
        assert_eq!(
            records.last(),
            Some(&LogRecord::ClockReading {
                t: 20,
                reading: reading(3, 4)
            })
        );
    }
}

#[test]
fn an_over_long_line_is_an_error_quoting_its_start_and_the_next_line_is_read() {
    let long = format!("0 lift {}", "x".repeat(super::MAX_LINE_BYTES));
    let text = format!("touchmove-log 1\n{long}\n300 lift e2\n");
    let expected_start = long.get(..32).expect("32 bytes").to_owned();
    // Whole, and in pieces smaller than the limit (the line is dropped as it comes).
    let mut decoder = LogDecoder::new();
    let mut chunked = Vec::new();
    for piece in text.as_bytes().chunks(1000) {
        decoder.push(piece);
        chunked.extend(std::iter::from_fn(|| decoder.poll()));
        assert!(
            decoder.buffered() <= super::MAX_LINE_BYTES + 1000,
            "the decoder keeps no more of a line than the limit"
        );
    }
    decoder.finish();
    chunked.extend(std::iter::from_fn(|| decoder.poll()));
    for records in [decode_whole(text.as_bytes()), chunked] {
        assert_eq!(
            records,
            vec![
                Ok(LogRecord::Header(Box::default())),
                Err(LogError {
                    line: 2,
                    kind: LineError::LineTooLong {
                        start: expected_start.clone()
                    }
                }),
                Ok(LogRecord::Event(lift(300, Square::E2))),
            ]
        );
    }
}

mod host_notes {
    use super::*;
    use crate::clock::ClockReading;
    use crate::event::ClockTimes;
    use crate::sensor_log::HostNote;

    fn chose(uci: &str, score_cp: Option<i32>) -> HostNote {
        HostNote::EngineMove {
            uci: uci.parse().expect("a UCI move"),
            score_cp,
            mate: None,
            book: false,
        }
    }

    #[test]
    fn the_engine_side_and_notes_read_back_in_their_place_whatever_the_decoder() {
        let header = LogHeader::default().with_engine(Color::Black);
        let mut writer =
            LogWriter::new(Vec::new(), &header, FlushPolicy::WhenAsked).expect("a header");
        assert!(matches!(
            writer.write_host_note(0, &HostNote::EngineGone),
            Err(WriteError::NoteBeforeEvents { t: 0 })
        ));
        writer.write_event(&lift(10, Square::E2)).expect("written");
        let reading = ClockReading::new(ClockTimes { white: 1, black: 2 }, None);
        writer.write_clock_reading(20, &reading).expect("written");
        writer
            .write_host_note(20, &chose("e7e5", Some(-31)))
            .expect("written");
        writer.write_event(&lift(30, Square::E7)).expect("written");
        writer
            .write_host_note(40, &HostNote::EngineGone)
            .expect("written");
        assert!(matches!(
            writer.write_host_note(35, &HostNote::EngineGone),
            Err(WriteError::TimeWentBack { t: 35, .. })
        ));
        let text = String::from_utf8(writer.into_inner().expect("flushed")).expect("UTF-8");
        assert!(
            text.starts_with("touchmove-log 1\n@engine black\n"),
            "{text}"
        );
        let log = read_log(&text).expect("reads back");
        assert_eq!(log.header.engine, Some(Color::Black));
        assert_eq!(
            log.host_notes,
            vec![
                (1, 20, chose("e7e5", Some(-31))),
                (2, 40, HostNote::EngineGone)
            ]
        );
        // The records in the log's order: the reading, then the note of the same time.
        let records: Vec<LogRecord> = log.records().collect();
        assert_eq!(records.len(), 6, "{records:?}");
        assert!(matches!(records[2], LogRecord::ClockReading { t: 20, .. }));
        assert_eq!(
            records[3],
            LogRecord::HostNote {
                t: 20,
                note: chose("e7e5", Some(-31))
            }
        );
        // A strict decoder drops the clock's comments, never the engine's.
        let mut strict = LogDecoder::ignoring_clock_readings();
        strict.push(text.as_bytes());
        strict.finish();
        let notes = std::iter::from_fn(|| strict.poll())
            .filter(|record| matches!(record, Ok(LogRecord::HostNote { .. })))
            .count();
        assert_eq!(notes, 2);
    }

    #[test]
    fn a_bad_engine_side_is_an_error_naming_it() {
        let error = first_error(b"touchmove-log 1\n@engine grey\n0 lift e2\n");
        assert_eq!(
            error.to_string(),
            "line 2: bad `@engine` value `grey`: expected `white` or `black`"
        );
    }

    #[test]
    fn an_online_game_reads_back_and_a_bad_one_is_an_error_naming_it() {
        let log = read_log("touchmove-log 1\n@online lichess 5IrD6Gzz black\n0 lift e2\n")
            .expect("a log");
        let seat = log.header.online.expect("@online");
        assert_eq!(
            (seat.server.as_str(), seat.game.as_str(), seat.side),
            ("lichess", "5IrD6Gzz", shakmaty::Color::Black)
        );
        let error = first_error(b"touchmove-log 1\n@online lichess black\n0 lift e2\n");
        assert_eq!(
            error.to_string(),
            "line 2: bad `@online` value `lichess black`: expected `<server> <game> white|black`"
        );
    }
}

#[test]
fn the_windows_a_session_decided_with_read_back_and_bad_ones_are_errors() {
    let header = LogHeader::default().with_windows(50, 10);
    let mut writer = LogWriter::new(Vec::new(), &header, FlushPolicy::WhenAsked).expect("a header");
    writer.write_event(&lift(0, Square::E2)).expect("written");
    let text = String::from_utf8(writer.into_inner().expect("flushed")).expect("UTF-8");
    assert!(
        text.starts_with("touchmove-log 1\n@slide-ms 50\n@bounce-ms 10\n"),
        "{text}"
    );
    let log = read_log(&text).expect("reads back");
    assert_eq!(
        (log.header.slide_ms, log.header.bounce_ms),
        (Some(50), Some(10))
    );
    for (line, message) in [
        (
            "@slide-ms 60001",
            "line 2: bad `@slide-ms` value `60001`: expected whole milliseconds, at most 60000",
        ),
        (
            "@bounce-ms -5",
            "line 2: bad `@bounce-ms` value `-5`: expected whole milliseconds, at most 60000",
        ),
    ] {
        let text = format!("touchmove-log 1\n{line}\n0 lift e2\n");
        assert_eq!(first_error(text.as_bytes()).to_string(), message);
    }
}

#[test]
fn a_log_that_awaited_promotion_choices_is_decided_awaiting_them() {
    let text = "touchmove-log 1\n@board pegasus via touchmove watch\n@promotion-choice awaited\n\
                0 lift e2\n";
    let log = read_log(text).expect("valid");
    assert!(log.header.promotion_choice);
    let config = log.header.config(
        crate::interpreter::Config::default(),
        crate::timing::Timing::default(),
        None,
    );
    assert!(config.promotion_choice_awaited);
    let without = read_log("touchmove-log 1\n0 lift e2\n").expect("valid");
    let config = without.header.config(
        crate::interpreter::Config::default(),
        crate::timing::Timing::default(),
        None,
    );
    assert!(!config.promotion_choice_awaited);
    let bad = first_error(b"touchmove-log 1\n@promotion-choice maybe\n0 lift e2\n");
    assert!(bad.to_string().contains("expected `awaited`"), "{bad}");
}
