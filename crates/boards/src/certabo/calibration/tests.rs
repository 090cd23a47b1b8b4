//! Learning chips drawn per piece, as a real set's are (each piece its own), from frames with
//! a misread now and then; reading frames with them.

use super::*;
use crate::certabo::wire::square_at;

/// A chip for each square of the start position and the spare queens, made from the square so
/// that every piece's differs (and none reads as no chip).
fn chip_of(square: Square) -> Chip {
    let n = u8::try_from(square as usize).unwrap_or(0);
    Chip([n.wrapping_mul(7).wrapping_add(1), 200, n, 99, 1])
}

/// A frame of `board` with each piece's chip where it stands.
fn frame_of(board: &Board, chips_at: impl Fn(Square) -> Chip) -> [Chip; 64] {
    let mut frame = [Chip::NONE; 64];
    for (index, chip) in frame.iter_mut().enumerate() {
        if let Some(square) = square_at(index).filter(|square| board.piece_at(*square).is_some()) {
            *chip = chips_at(square);
        }
    }
    frame
}

/// The start position with the spare queens on d6 and d3.
fn set_up() -> Board {
    let mut board = Board::new();
    for (square, piece) in SPARE_QUEENS {
        board.set_piece_at(square, piece);
    }
    board
}

#[test]
fn the_chips_are_learnt_from_seven_frames_of_the_start_position_a_misread_outvoted() {
    let mut calibrator = Calibrator::new();
    let frame = frame_of(&set_up(), chip_of);
    let mut misread = frame;
    if let Some(chip) = misread.get_mut(index_of(Square::E2)) {
        *chip = Chip([1, 2, 3, 4, 5]);
    }
    for n in 0..FRAMES_TO_LEARN - 1 {
        let taken = if n == 2 { &misread } else { &frame };
        assert_eq!(calibrator.take(taken), Learning::NotYet);
    }
    let Learning::Learnt(chips) = calibrator.take(&frame) else {
        panic!("not learnt");
    };
    assert_eq!(chips.len(), 34, "32 pieces and 2 spare queens");
    assert_eq!(
        chips.piece_of(chip_of(Square::E2)),
        Some(Color::White.pawn())
    );
    assert_eq!(
        chips.piece_of(chip_of(Square::D6)),
        Some(Color::Black.queen())
    );
    assert_eq!(chips.piece_of(Chip([1, 2, 3, 4, 5])), None, "the misread");
    assert_eq!(chips.read(&frame), Ok(set_up()));
}

#[test]
fn the_spare_queens_may_be_missing_a_piece_of_the_set_may_not() {
    let mut calibrator = Calibrator::new();
    let plain = frame_of(&Board::new(), chip_of);
    let mut learnt = Learning::NotYet;
    for _ in 0..FRAMES_TO_LEARN {
        learnt = calibrator.take(&plain);
    }
    assert!(matches!(learnt, Learning::Learnt(ref chips) if chips.len() == 32));
    let mut without_g1 = Board::new();
    without_g1.discard_piece_at(Square::G1);
    let mut calibrator = Calibrator::new();
    for _ in 0..FRAMES_TO_LEARN {
        learnt = calibrator.take(&frame_of(&without_g1, chip_of));
    }
    assert_eq!(
        learnt,
        Learning::Unsettled(Bitboard::from_square(Square::G1))
    );
}

#[test]
fn one_chip_read_on_two_squares_is_neither_s() {
    let mut calibrator = Calibrator::new();
    let frame = frame_of(&Board::new(), |square| {
        if square == Square::B1 {
            chip_of(Square::G1)
        } else {
            chip_of(square)
        }
    });
    let mut learnt = Learning::NotYet;
    for _ in 0..FRAMES_TO_LEARN {
        learnt = calibrator.take(&frame);
    }
    assert_eq!(
        learnt,
        Learning::Unsettled(Bitboard::from_square(Square::B1) | Bitboard::from_square(Square::G1))
    );
}

#[test]
fn an_unknown_chip_is_said_with_its_square() {
    let chips = learnt();
    let mut frame = frame_of(&Board::new(), chip_of);
    let stranger = Chip([9, 9, 9, 9, 9]);
    if let Some(chip) = frame.get_mut(index_of(Square::E4)) {
        *chip = stranger;
    }
    assert_eq!(
        chips.read(&frame),
        Err(UnknownChip {
            square: Square::E4,
            chip: stranger
        })
    );
}

#[test]
fn the_chips_file_reads_back_and_a_bad_line_is_named() {
    let chips = learnt();
    assert_eq!(Chips::from_text(&chips.to_text()), Ok(chips.clone()));
    let text = "# board 1\nP 1 2 3 4 5\n\nX 1 2 3 4 5\n";
    assert_eq!(
        Chips::from_text(text).map_err(|error| error.line),
        Err(4),
        "the X"
    );
    assert!(Chips::from_text("Q 1 2 3 4\n").is_err_and(|error| error.why.contains("4 numbers")));
    assert!(Chips::from_text("Q 0 0 0 4 5\n").is_err_and(|error| error.why.contains("no chip")));
}

#[test]
fn a_new_calibration_adds_to_what_was_known() {
    let old = Chips::from_text("Q 1 2 3 4 5\n").unwrap_or_default();
    let new = learnt();
    let merged = old.merged(new.clone());
    assert_eq!(merged.len(), new.len() + 1);
    assert_eq!(
        merged.piece_of(Chip([1, 2, 3, 4, 5])),
        Some(Color::White.queen())
    );
}

/// The chips of the start position, learnt.
fn learnt() -> Chips {
    let mut calibrator = Calibrator::new();
    let frame = frame_of(&Board::new(), chip_of);
    for _ in 0..FRAMES_TO_LEARN - 1 {
        calibrator.take(&frame);
    }
    match calibrator.take(&frame) {
        Learning::Learnt(chips) => chips,
        other => panic!("{other:?}"),
    }
}
