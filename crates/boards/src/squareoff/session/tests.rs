use shakmaty::{Bitboard, Board, Color, KnownOutcome, Square};

use super::*;

const CHECK_MS: Millis = CHECK_TIMES.every_ms;
const LOST_CHECK_MS: Millis = CHECK_TIMES.lost_every_ms;
const ANSWER_MS: Millis = CHECK_TIMES.answer_ms;
const SILENCE_MS: Millis = CHECK_TIMES.silence_ms;
use crate::squareoff::wire::occupancy;
use touchmove_core::sensor::{BoardSnapshot, SensorKind};

/// The board's answer when `occupied` are the occupied squares, written out by hand: each
/// file's eight ranks from 1 to 8, a to h.
fn answer(occupied: Bitboard) -> Vec<u8> {
    let mut body = String::new();
    for file in shakmaty::File::ALL {
        for rank in shakmaty::Rank::ALL {
            let square = Square::from_coords(file, rank);
            body.push(if occupied.contains(square) { '1' } else { '0' });
        }
    }
    format!("30#{body}*").into_bytes()
}

fn start() -> Bitboard {
    Board::default().occupied()
}

fn events(session: &mut SquareOffSession) -> Vec<LinkEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

fn sent(session: &mut SquareOffSession) -> Vec<Vec<u8>> {
    std::iter::from_fn(|| session.poll_transmit()).collect()
}

fn connected() -> SquareOffSession {
    let mut session = SquareOffSession::new();
    session.connect(0);
    session.handle_bytes(20, &answer(start()));
    session
}

#[test]
fn the_start_position_s_answer_is_eight_files_of_11000011() {
    assert_eq!(
        answer(start()),
        format!("30#{}*", "11000011".repeat(8)).into_bytes()
    );
    assert_eq!(
        answer(start()),
        format!("30#{}*", occupancy(start())).into_bytes()
    );
}

#[test]
fn connecting_opens_a_game_puts_the_lights_out_and_asks_the_occupancy() {
    let mut session = SquareOffSession::new();
    session.connect(0);
    assert_eq!(
        sent(&mut session),
        [
            b"!#*\r\n".to_vec(),
            b"25#*\r\n".to_vec(),
            b"30#R*\r\n".to_vec()
        ]
    );
    session.handle_bytes(20, &answer(start()));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Identified {
                what: "Square Off".to_owned(),
                serial: None
            },
            LinkEvent::Sensor(SensorKind::Snapshot(Box::new(BoardSnapshot {
                occupied: start(),
                pieces: Board::empty()
            })))
        ]
    );
}

#[test]
fn changes_are_lifts_and_placements_of_no_known_piece_even_split_across_notifications() {
    let mut session = connected();
    events(&mut session);
    session.handle_bytes(500, b"0#e2");
    session.handle_bytes(510, b"u*");
    session.handle_bytes(800, b"0#e4d*");
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Sensor(SensorKind::Lift {
                square: Square::E2,
                piece: None
            }),
            LinkEvent::Sensor(SensorKind::Place {
                square: Square::E4,
                piece: None
            }),
        ]
    );
}

#[test]
fn changes_before_the_first_answer_are_left_to_it() {
    let mut session = SquareOffSession::new();
    session.connect(0);
    session.handle_bytes(5, b"0#e2u*");
    assert_eq!(events(&mut session), []);
}

#[test]
fn a_check_s_answer_that_agrees_says_nothing_and_one_that_differs_is_a_full_report() {
    let mut session = connected();
    events(&mut session);
    sent(&mut session);
    assert_eq!(session.poll_timeout(), Some(CHECK_MS));
    session.handle_timeout(CHECK_MS);
    assert_eq!(sent(&mut session), [b"30#R*\r\n".to_vec()]);
    session.handle_bytes(CHECK_MS + 20, &answer(start()));
    assert_eq!(events(&mut session), []);
    // A lift the board never reported shows at the next check.
    session.handle_timeout(2 * CHECK_MS);
    let mut lifted = start();
    lifted.discard(Square::G1);
    session.handle_bytes(2 * CHECK_MS + 20, &answer(lifted));
    assert!(matches!(
        events(&mut session).as_slice(),
        [LinkEvent::Sensor(SensorKind::Snapshot(snapshot))] if snapshot.occupied == lifted
    ));
}

#[test]
fn an_unanswered_check_is_a_lost_board_then_the_link_gone_and_an_answer_brings_it_back() {
    let mut session = connected();
    events(&mut session);
    session.handle_timeout(CHECK_MS);
    assert_eq!(session.poll_timeout(), Some(CHECK_MS + ANSWER_MS));
    session.handle_timeout(CHECK_MS + ANSWER_MS);
    assert_eq!(events(&mut session), [LinkEvent::Lost]);
    sent(&mut session);
    // Asked again at once, then every 250 ms while lost.
    assert_eq!(
        session.poll_timeout(),
        Some(CHECK_MS + ANSWER_MS + LOST_CHECK_MS)
    );
    let mut now = CHECK_MS + ANSWER_MS;
    while let Some(at) = session.poll_timeout() {
        now = at;
        session.handle_timeout(now);
        if events(&mut session).contains(&LinkEvent::Gone) {
            break;
        }
    }
    assert_eq!(now, CHECK_MS + SILENCE_MS);
    // Reconnected: the answer is a full report again.
    session.connect(now + 100);
    session.handle_bytes(now + 120, &answer(start()));
    assert!(matches!(
        events(&mut session).as_slice(),
        [
            LinkEvent::Identified { .. },
            LinkEvent::Sensor(SensorKind::Snapshot(_))
        ]
    ));
}

#[test]
fn a_lost_board_that_answers_is_back_and_its_next_answer_a_full_report() {
    let mut session = connected();
    events(&mut session);
    session.handle_timeout(CHECK_MS);
    session.handle_timeout(CHECK_MS + ANSWER_MS);
    assert_eq!(events(&mut session), [LinkEvent::Lost]);
    sent(&mut session);
    session.handle_bytes(CHECK_MS + ANSWER_MS + 50, &answer(start()));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Back,
            LinkEvent::Sensor(SensorKind::Snapshot(Box::new(BoardSnapshot {
                occupied: start(),
                pieces: Board::empty()
            })))
        ]
    );
    assert_eq!(sent(&mut session), [b"30#R*\r\n".to_vec()]);
}

#[test]
fn corrupt_bytes_are_a_notice_and_the_messages_after_them_are_read() {
    let mut session = connected();
    events(&mut session);
    session.handle_bytes(100, b"0#z9u*noise*0#e2u*");
    let got = events(&mut session);
    assert!(
        matches!(
            got.as_slice(),
            [
                LinkEvent::Notice(_),
                LinkEvent::Notice(_),
                LinkEvent::Sensor(SensorKind::Lift {
                    square: Square::E2,
                    piece: None
                })
            ]
        ),
        "{got:?}"
    );
}

#[test]
fn the_lights_show_the_move_to_carry_out_and_go_out_once_it_is_made() {
    let mut session = connected();
    sent(&mut session);
    session.handle_feedback(
        100,
        &Feedback::Show {
            from: Square::G8,
            to: Square::F6,
            text: "Nf6".to_owned(),
        },
    );
    assert_eq!(sent(&mut session), [b"25#g8f6*\r\n".to_vec()]);
    session.handle_feedback(
        900,
        &Feedback::Moved {
            by: Color::Black,
            from: Square::G8,
            to: Square::F6,
        },
    );
    assert_eq!(sent(&mut session), [b"25#*\r\n".to_vec()]);
}

#[test]
fn a_game_s_end_is_shown_on_the_board() {
    let mut session = connected();
    sent(&mut session);
    let ended = |outcome| Feedback::Ended { outcome };
    session.handle_feedback(
        100,
        &ended(KnownOutcome::Decisive {
            winner: Color::Black,
        }),
    );
    session.handle_feedback(200, &ended(KnownOutcome::Draw));
    assert_eq!(
        sent(&mut session),
        [b"27#bl*\r\n".to_vec(), b"27#dw*\r\n".to_vec()]
    );
}
