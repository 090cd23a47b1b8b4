//! Property: a log written by [`LogWriter`] reads back to the same header and events, however
//! the bytes are split when decoding.

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::*;
use crate::decode::StreamDecoder;
use crate::sensor::{BoardSnapshot, SensorEvent, SensorKind};

fn square() -> impl Strategy<Value = Square> {
    (0u32..64).prop_map(|index| Square::ALL[index as usize])
}

fn piece() -> impl Strategy<Value = Piece> {
    prop::sample::select("PNBRQKpnbrqk".chars().collect::<Vec<_>>())
        .prop_map(|letter| Piece::from_char(letter).expect("FEN letter"))
}

fn colour() -> impl Strategy<Value = Color> {
    prop::sample::select(vec![Color::White, Color::Black])
}

/// A snapshot: every square empty, occupied by an unidentified piece, or holding a piece.
fn snapshot() -> impl Strategy<Value = BoardSnapshot> {
    prop::collection::vec(prop::option::of(prop::option::of(piece())), 64).prop_map(|squares| {
        let mut occupied = Bitboard::EMPTY;
        let mut pieces = Board::empty();
        for (square, content) in Square::ALL.into_iter().zip(squares) {
            match content {
                None => {}
                Some(None) => occupied.add(square),
                Some(Some(piece)) => {
                    occupied.add(square);
                    pieces.set_piece_at(square, piece);
                }
            }
        }
        BoardSnapshot { occupied, pieces }
    })
}

fn kind() -> impl Strategy<Value = SensorKind> {
    prop_oneof![
        (square(), prop::option::of(piece()))
            .prop_map(|(square, piece)| SensorKind::Lift { square, piece }),
        (square(), prop::option::of(piece()))
            .prop_map(|(square, piece)| SensorKind::Place { square, piece }),
        Just(SensorKind::Adjust),
        colour().prop_map(SensorKind::Clock),
        prop::sample::select(vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight])
            .prop_map(SensorKind::Promote),
        snapshot().prop_map(|snapshot| SensorKind::Snapshot(Box::new(snapshot))),
    ]
}

/// Events with non-decreasing times (repeated times included), up to the latest a log may
/// give (40 steps of under 3000 ms from a start at most 120 000 ms before it).
fn events() -> impl Strategy<Value = Vec<SensorEvent>> {
    (
        0u64..=super::MAX_TIME_MS - 120_000,
        prop::collection::vec((0u64..3000, kind()), 0..40),
    )
        .prop_map(|(start, steps)| {
            let mut t = start;
            steps
                .into_iter()
                .map(|(delta, kind)| {
                    t += delta;
                    SensorEvent::new(t, kind)
                })
                .collect()
        })
}

fn header() -> impl Strategy<Value = LogHeader> {
    let fens = vec![
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 12 40",
    ];
    (
        prop::option::of(prop::sample::select(fens)),
        prop::option::of("[a-z0-9][a-z0-9 ♞ü-]{0,12}[a-z0-9]"),
        prop::option::of(0..=60_000u64),
        prop::option::of(prop::sample::select(vec![
            shakmaty::Color::White,
            shakmaty::Color::Black,
        ])),
        prop::option::of((0..=60_000u64, 0..=60_000u64)),
        any::<bool>(),
        prop::option::of("[a-z0-9][a-z0-9/:. -]{0,20}[a-z0-9]"),
        prop::option::of((1900..2100u32, 1..=12u32, 1..=31u32)),
    )
        .prop_map(
            |(fen, board, report_horizon_ms, engine, windows, promotion_choice, id, date)| {
                LogHeader {
                    start: fen.map(|fen| fen.parse::<Fen>().expect("valid FEN")),
                    board,
                    report_horizon_ms,
                    engine,
                    online: engine.map(|side| crate::sensor_log::OnlineSeat {
                        server: "lichess".to_owned(),
                        game: "5IrD6Gzz".to_owned(),
                        side: !side,
                    }),
                    slide_ms: windows.map(|(slide, _)| slide),
                    bounce_ms: windows.map(|(_, bounce)| bounce),
                    scan_ms: windows.map(|(slide, _)| slide / 2),
                    promotion_choice,
                    game: crate::sensor_log::GameLabel {
                        id,
                        date: date.map(|(y, m, d)| format!("{y:04}.{m:02}.{d:02}")),
                    },
                }
            },
        )
}

fn write_log(header: &LogHeader, events: &[SensorEvent]) -> Vec<u8> {
    let mut writer = LogWriter::new(Vec::new(), header, FlushPolicy::WhenAsked).expect("header");
    for event in events {
        writer.write_event(event).expect("event");
    }
    writer.into_inner().expect("flushed")
}

/// Decodes `bytes` pushed in pieces of the given sizes (cycled).
fn decode_in_pieces(bytes: &[u8], sizes: &[usize]) -> Vec<Result<LogRecord, LogError>> {
    let mut decoder = LogDecoder::new();
    let mut results = Vec::new();
    let mut rest = bytes;
    for size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (piece, tail) = rest.split_at((*size).min(rest.len()));
        decoder.push(piece);
        results.extend(std::iter::from_fn(|| decoder.poll()));
        rest = tail;
    }
    decoder.finish();
    results.extend(std::iter::from_fn(|| decoder.poll()));
    results
}

proptest! {
    #[test]
    fn written_logs_read_back_to_the_same_events(header in header(), events in events()) {
        let bytes = write_log(&header, &events);
        let text = String::from_utf8(bytes).expect("UTF-8");
        let log = read_log(&text).expect("written log reads back");
        prop_assert_eq!(log.header, header);
        prop_assert_eq!(log.events, events);
    }

    #[test]
    fn splitting_the_input_does_not_change_the_records(
        header in header(),
        events in events(),
        sizes in prop::collection::vec(1usize..9, 1..6),
    ) {
        let bytes = write_log(&header, &events);
        let mut expected = vec![Ok(LogRecord::Header(Box::new(header)))];
        expected.extend(events.into_iter().map(|event| Ok(LogRecord::Event(event))));
        prop_assert_eq!(decode_in_pieces(&bytes, &sizes), expected);
    }
}

#[test]
fn a_date_that_is_not_yyyy_mm_dd_is_refused_with_its_line() {
    for bad in ["2026.12.7", "2026-12-07", "????.??.??", "2026.12.07x"] {
        let text = format!("touchmove-log 1\n@game-id hall-a/1/1\n@date {bad}\n0 lift e2 P\n");
        let said = read_log(&text)
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            said.contains("line 3") && said.contains("bad `@date`"),
            "{bad}: {said}"
        );
    }
    let good = "touchmove-log 1\n@game-id hall-a/1/1\n@date 2026.12.07\n0 lift e2 P\n";
    let header = read_log(good).map(|log| log.header.game);
    assert_eq!(
        header.ok(),
        Some(crate::sensor_log::GameLabel {
            id: Some("hall-a/1/1".to_owned()),
            date: Some("2026.12.07".to_owned()),
        })
    );
}
