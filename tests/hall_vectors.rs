//! The host's end of the shared test vectors (`firmware-protocol/test-vectors.txt`): each
//! board→host frame, fed to the host's Hall session, becomes the sensor report it stands for;
//! each corrupt frame becomes no report at all and a request for a fresh snapshot.

use std::path::Path;

use shakmaty::{Board, Color, Role, Square};
use touchmove::hall::HallSession;
use touchmove::live::{BoardSession, LinkEvent};
use touchmove::sensor::SensorKind;
use touchmove_firmware_protocol::{
    Corrupt, CorruptReason, Decoded, Decoder, Frame, Message, Snapshot, encode,
};

/// One line of the vectors file: its name, its text before `=>`, and its wire bytes.
struct Vector {
    name: String,
    description: String,
    bytes: Vec<u8>,
}

fn vectors() -> Vec<Vector> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware-protocol/test-vectors.txt");
    let text = std::fs::read_to_string(path).expect("the vectors file");
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (description, hex) = line.split_once("=>").expect("`=>` in every vector");
            let bytes = hex
                .split_whitespace()
                .map(|byte| u8::from_str_radix(byte, 16).expect("hex bytes"))
                .collect();
            let name = description
                .split_whitespace()
                .next()
                .expect("a name")
                .to_owned();
            Vector {
                name,
                description: description.trim().to_owned(),
                bytes,
            }
        })
        .collect()
}

/// The value of `key=` in a vector's description.
fn field<'a>(vector: &'a Vector, key: &str) -> &'a str {
    vector
        .description
        .split_whitespace()
        .find_map(|word| word.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("{}: no {key}=", vector.name))
}

/// The pieces a SNAPSHOT vector's `pieces=` names (64 letters, a1 b1 … h8, `.` for none); none
/// without it (an occupancy-only snapshot identifies no piece).
fn expected_pieces(vector: &Vector) -> Board {
    let mut board = Board::empty();
    let letters = vector
        .description
        .split_whitespace()
        .find_map(|word| word.strip_prefix("pieces="));
    if let Some(letters) = letters {
        assert_eq!(letters.chars().count(), 64, "{}: pieces=", vector.name);
        for (square, letter) in Square::ALL.into_iter().zip(letters.chars()) {
            if letter != '.' {
                let piece = shakmaty::Piece::from_char(letter).expect("a FEN letter");
                board.set_piece_at(square, piece);
            }
        }
    }
    board
}

/// The wire bytes of a SNAPSHOT of the start occupancy with sequence number `seq`.
fn start_snapshot(seq: u8) -> Vec<u8> {
    let frame = Frame {
        seq,
        message: Message::Snapshot(Snapshot {
            occupancy: 0xffff_0000_0000_ffff,
            pieces: None,
        }),
    };
    let mut buffer = [0u8; 64];
    let n = encode(&frame, &mut buffer).expect("room for a snapshot");
    buffer[..n].to_vec()
}

/// What a connected session makes of `bytes`, after the snapshot it asks for on connecting
/// (sequence number `seq - 1`, so `bytes` follow it without a gap): the events after that
/// snapshot, and whether it asked for another.
fn feed(bytes: &[u8], seq: u8) -> (Vec<LinkEvent>, bool) {
    let mut session = HallSession::new();
    session.connect(0);
    while session.poll_transmit().is_some() {}
    session.handle_bytes(5, &start_snapshot(seq.wrapping_sub(1)));
    while session.poll_event().is_some() {}
    while session.poll_transmit().is_some() {}
    session.handle_bytes(10, bytes);
    let events = std::iter::from_fn(|| session.poll_event()).collect();
    let sent: Vec<u8> = std::iter::from_fn(|| session.poll_transmit())
        .flatten()
        .collect();
    let mut decoder = Decoder::new();
    let asked = decoder.push(&sent).any(|decoded| {
        matches!(decoded, Decoded::Frame(frame) if matches!(frame.message, Message::RequestSnapshot))
    });
    (events, asked)
}

fn sensor_reports(events: &[LinkEvent]) -> Vec<SensorKind> {
    events
        .iter()
        .filter_map(|event| match event {
            LinkEvent::Sensor(kind) => Some(kind.clone()),
            _ => None,
        })
        .collect()
}

/// The sensor report a board→host vector stands for (`None`: it stands for none).
fn expected_report(vector: &Vector, kind: &str) -> Option<SensorKind> {
    match kind {
        "CHANGE" => {
            let square: Square = field(vector, "square").parse().expect("a square");
            let piece = vector
                .description
                .split_whitespace()
                .find_map(|word| word.strip_prefix("piece="))
                .and_then(|letter| letter.chars().next())
                .and_then(shakmaty::Piece::from_char);
            Some(match field(vector, "action") {
                "lifted" => SensorKind::Lift { square, piece },
                _ => SensorKind::Place { square, piece },
            })
        }
        "BUTTON" => Some(match field(vector, "button") {
            "clock-white" => SensorKind::Clock(Color::White),
            "clock-black" => SensorKind::Clock(Color::Black),
            "adjust" => SensorKind::Adjust,
            promote => {
                let letter = promote.chars().last().expect("promote-x");
                SensorKind::Promote(Role::from_char(letter).expect("a role"))
            }
        }),
        _ => None,
    }
}

#[test]
fn every_board_frame_becomes_its_report() {
    let mut checked = 0;
    for vector in vectors() {
        let kind = vector
            .description
            .split_whitespace()
            .nth(2)
            .unwrap_or_default();
        if !["HELLO", "SNAPSHOT", "CHANGE", "BUTTON", "HEARTBEAT"].contains(&kind) {
            // Host → board frames and corrupt frames: the board's end, or the test below.
            continue;
        }
        let seq = field(&vector, "seq").parse().expect("a sequence number");
        let (events, _) = feed(&vector.bytes, seq);
        let reports = sensor_reports(&events);
        match kind {
            "HELLO" => assert!(
                events
                    .iter()
                    .any(|e| matches!(e, LinkEvent::Identified { .. })),
                "{}: {events:?}",
                vector.name
            ),
            "SNAPSHOT" => {
                let occupancy = u64::from_str_radix(field(&vector, "occupancy"), 16).expect("hex");
                let pieces = expected_pieces(&vector);
                assert!(
                    matches!(reports.as_slice(), [SensorKind::Snapshot(s)]
                        if u64::from(s.occupied) == occupancy && s.pieces == pieces),
                    "{}: {reports:?}",
                    vector.name
                );
            }
            "CHANGE" | "BUTTON" => {
                assert_eq!(
                    reports,
                    vec![expected_report(&vector, kind).expect("a report")],
                    "{}",
                    vector.name
                )
            }
            _ => assert_eq!(reports, vec![], "{}", vector.name),
        }
        checked += 1;
    }
    // The vectors file has 21 board frames: 3 HELLO, 4 SNAPSHOT, 5 CHANGE, 7 BUTTON, 2 HEARTBEAT.
    assert_eq!(checked, 21, "board frames checked");
}

#[test]
fn every_corrupt_frame_is_no_report_and_a_snapshot_request() {
    let corrupt: Vec<Vector> = vectors()
        .into_iter()
        .filter(|v| v.description.contains(" CORRUPT "))
        .collect();
    // The vectors file has 9 CORRUPT vectors (reasons crc, too-short, length-mismatch,
    // unknown-type, bad-length, cobs, too-long, and bad-field twice).
    assert_eq!(corrupt.len(), 9, "corrupt vectors");
    for vector in corrupt {
        // An intact frame of an unknown type (a newer protocol) is ignored, by the spec, but
        // counts for the sequence: fed as the frame after the snapshot, it asks for nothing.
        let ignorable = field(&vector, "reason") == "unknown-type";
        let unknown_seq = Decoder::new()
            .push(&vector.bytes)
            .find_map(|decoded| match decoded {
                Decoded::Corrupt(Corrupt {
                    reason: CorruptReason::UnknownType { seq, .. },
                    ..
                }) => Some(seq),
                _ => None,
            });
        assert_eq!(unknown_seq.is_some(), ignorable, "{}", vector.name);
        let (events, asked) = feed(&vector.bytes, unknown_seq.unwrap_or(1));
        assert_eq!(sensor_reports(&events), vec![], "{}", vector.name);
        assert_eq!(
            asked, !ignorable,
            "{}: snapshot asked for: {asked}",
            vector.name
        );
        if let Some(seq) = unknown_seq {
            // Fed with a frame lost before it, its number shows the gap.
            let (_, asked) = feed(&vector.bytes, seq.wrapping_sub(1));
            assert!(
                asked,
                "{}: a gap before it asks for a snapshot",
                vector.name
            );
        }
    }
}
