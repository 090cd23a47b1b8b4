//! The 960 starting positions of Chess960 (Guidelines II.2 of the Laws), by their numbers 0–959
//! in the usual numbering (Scharnagl's; number 518 is the standard start), and the number of a
//! position that is one. The positions are shakmaty's in Chess960 castling mode, so castling
//! follows Guidelines II.3 (the king to the c- or g-file, the rook beside it).

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, FromSetup, Piece, Position, PositionError,
    Rank, Role, Setup, Square,
};

/// How many starting positions there are.
pub const POSITIONS: u16 = 960;

/// The number of the standard starting position.
pub const STANDARD: u16 = 518;

/// The placements of the two knights among five free squares, in the numbering's order.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The pieces of White's first rank, a-file first, in starting position `number` (0–959);
/// `None` for a number out of range.
pub fn back_rank(number: u16) -> Option<[Role; 8]> {
    if number >= POSITIONS {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = usize::from(number);
    // The bishops: one on a light square (b, d, f, h), one on a dark square (a, c, e, g).
    *rank.get_mut(2 * (n % 4) + 1)? = Some(Role::Bishop);
    n /= 4;
    *rank.get_mut(2 * (n % 4))? = Some(Role::Bishop);
    n /= 4;
    // The queen on one of the six squares left, the knights on two of the five left.
    place_on_free(&mut rank, n % 6, Role::Queen)?;
    n /= 6;
    let (first, second) = *KNIGHTS.get(n)?;
    // The second knight's square counts among the squares left once the first is placed.
    place_on_free(&mut rank, first, Role::Knight)?;
    place_on_free(&mut rank, second - 1, Role::Knight)?;
    // The three squares left: rook, king, rook.
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_on_free(&mut rank, 0, role)?;
    }
    let mut roles = [Role::Pawn; 8];
    for (to, from) in roles.iter_mut().zip(rank) {
        *to = from?;
    }
    Some(roles)
}

/// Puts `role` on the `index`th free square of `rank` (from the a-file).
fn place_on_free(rank: &mut [Option<Role>; 8], index: usize, role: Role) -> Option<()> {
    let square = rank
        .iter_mut()
        .filter(|square| square.is_none())
        .nth(index)?;
    *square = Some(role);
    Some(())
}

/// Starting position `number` (0–959), with both sides' castling rights, in Chess960 castling
/// mode; `None` for a number out of range.
pub fn position(number: u16) -> Option<Chess> {
    let roles = back_rank(number)?;
    let mut board = Board::empty();
    for (file, role) in (0..8).map(File::new).zip(roles) {
        for (color, rank, pawns) in [
            (Color::White, Rank::First, Rank::Second),
            (Color::Black, Rank::Eighth, Rank::Seventh),
        ] {
            board.set_piece_at(Square::from_coords(file, rank), Piece { color, role });
            board.set_piece_at(
                Square::from_coords(file, pawns),
                Piece {
                    color,
                    role: Role::Pawn,
                },
            );
        }
    }
    let rooks = board.rooks() & (Bitboard::from(Rank::First) | Bitboard::from(Rank::Eighth));
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn: Color::White,
        castling_rights: rooks,
        ep_square: None,
        remaining_checks: None,
        halfmoves: 0,
        fullmoves: std::num::NonZeroU32::MIN,
    };
    Chess::from_setup(setup, CastlingMode::Chess960).ok()
}

/// The number of the starting position `board` shows (pieces and pawns as at a start of
/// Chess960: White's pieces mirrored by Black's), if it is one.
pub fn number_of(board: &Board) -> Option<u16> {
    let first: Vec<Option<Role>> = (0..8)
        .map(|file| board.role_at(Square::from_coords(File::new(file), Rank::First)))
        .collect();
    let number = (0..POSITIONS).find(|&number| {
        back_rank(number)
            .is_some_and(|roles| roles.iter().map(|r| Some(*r)).eq(first.iter().copied()))
    })?;
    position(number)
        .is_some_and(|start| start.board() == board)
        .then_some(number)
}

/// The position `fen` gives, in Chess960 castling mode when its castling rights need it (a
/// king or a castling rook off its standard square), else in standard mode: every game this
/// project reads or is given from a FEN starts so, a Chess960 start as a standard one.
pub fn from_fen(fen: &Fen) -> Result<Chess, Box<PositionError<Chess>>> {
    let mode = CastlingMode::detect(fen.as_setup());
    fen.clone().into_position(mode).map_err(Box::new)
}

/// Whether a game from `start` is a game of Chess960 rather than standard chess: a start whose
/// castling cannot be written in standard chess's terms (a king or a castling rook off its
/// standard square).
pub fn is_chess960(start: &Chess) -> bool {
    let setup = start.to_setup(shakmaty::EnPassantMode::Legal);
    CastlingMode::detect(&setup) == CastlingMode::Chess960
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(number: u16) -> String {
        back_rank(number)
            .map(|roles| roles.iter().map(|role| role.upper_char()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn numbers_give_the_positions_of_the_usual_numbering() {
        // 518 is the standard start; the others from the published table of the numbering.
        assert_eq!(rank(518), "RNBQKBNR");
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(1), "BQNBNRKR");
        assert_eq!(rank(959), "RKRNNQBB");
        assert_eq!(rank(960), "");
        assert_eq!(
            position(518)
                .map(|p| Fen::from_position(&p, shakmaty::EnPassantMode::Legal).to_string()),
            Some(Fen::from_position(&Chess::default(), shakmaty::EnPassantMode::Legal).to_string())
        );
    }

    #[test]
    fn a_fen_gives_its_position_in_the_castling_mode_it_needs() {
        let fen = |text: &str| Fen::from_ascii(text.as_bytes()).expect("a FEN");
        // Position 0 (BBQNNRKR): its rooks on f1 and h1, the king on g1.
        let zero = from_fen(&fen(
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        ))
        .expect("position 0");
        assert_eq!(zero.castles().mode(), CastlingMode::Chess960);
        assert_eq!(
            Some(zero.board().clone()),
            position(0).map(|p| p.board().clone())
        );
        assert_eq!(number_of(zero.board()), Some(0));
        let standard = from_fen(&fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ))
        .expect("the standard start");
        assert_eq!(standard.castles().mode(), CastlingMode::Standard);
        assert_eq!(number_of(standard.board()), Some(STANDARD));
    }

    #[test]
    fn every_number_gives_a_start_of_the_rules_and_is_read_back() {
        let mut ranks = std::collections::HashSet::new();
        for number in 0..POSITIONS {
            let roles = back_rank(number).expect("in range");
            let files =
                |role: Role| -> Vec<usize> { (0..8).filter(|&file| roles[file] == role).collect() };
            let (bishops, rooks, king) =
                (files(Role::Bishop), files(Role::Rook), files(Role::King));
            assert_eq!(bishops.len(), 2);
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "{number}: bishops on opposite colours"
            );
            assert!(
                rooks[0] < king[0] && king[0] < rooks[1],
                "{number}: king between rooks"
            );
            assert!(ranks.insert(roles), "{number}: a position given twice");
            let start = position(number).expect("a position");
            assert_eq!(number_of(start.board()), Some(number));
        }
        assert_eq!(ranks.len(), 960);
        assert!(!is_chess960(&position(STANDARD).expect("518")));
        assert!(is_chess960(&position(0).expect("0")));
    }
}
