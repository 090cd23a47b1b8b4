//! Catching up on moves made while nobody was listening (the board unplugged, the host not
//! running): the legal move sequences that lead from the game's position to what the board
//! shows.

use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Position, Role, Square};

use super::board::{PhysicalBoard, SeenChange};
use super::frames::{Fit, Frames};
use super::geometry;
use super::standing::{self, Standing};

/// The longest sequence of plies looked for.
pub(super) const MAX_PLIES: usize = 4;

/// The most sequences an undecided board leaves to be followed further.
pub(super) const MAX_KEPT: usize = 64;

/// The sequences a board left undecided ([`CatchUp::Several`], [`CatchUp::Open`]), from the
/// record's position they start from: followed further while the record stays there.
#[derive(Debug, Clone, Default)]
pub(super) struct Undecided {
    /// The record's board and side to move when they were kept.
    from: Option<Standing>,
    /// The sequences (of any length: some leave a move under way).
    lines: Vec<Vec<Move>>,
    /// The question last asked of the hands from there ([`question`]).
    asked: Option<Question>,
    /// The square asked about whose piece the board showed lifted where it stands
    /// ([`Undecided::watch`]).
    lifted: Option<Square>,
}

/// Where one piece went, when the board cannot tell: the square it left, and the squares it
/// may stand on, in square order (one or more; with one, the piece may still be in hand).
pub(super) type Question = (Square, Vec<Square>);

impl Undecided {
    /// Keeps `lines`, sequences from `position` (none: too many to follow).
    pub(super) fn keep(&mut self, position: &Chess, lines: Vec<Vec<Move>>) {
        if !self.kept_from(position) {
            self.asked = None;
            self.lifted = None;
        }
        self.from = Some(Standing::of(position));
        self.lines = lines;
    }

    /// The sequences kept, if they start from `position` (the record has not moved since).
    pub(super) fn lines_from(&self, position: &Chess) -> Option<&[Vec<Move>]> {
        (self.kept_from(position) && !self.lines.is_empty()).then_some(self.lines.as_slice())
    }

    /// The question the kept sequences leave, if it was not asked yet from their position: it
    /// is taken as asked.
    pub(super) fn ask(&mut self) -> Option<Question> {
        let question = question(&self.lines)?;
        if self.asked.as_ref() == Some(&question) {
            return None;
        }
        self.asked = Some(question.clone());
        Some(question)
    }

    /// The square whose piece's whereabouts were asked from `position`, if they were: nothing is
    /// asked any more (the board shows the piece back there).
    pub(super) fn withdraw(&mut self, position: &Chess) -> Option<Square> {
        if !self.kept_from(position) {
            return None;
        }
        self.asked.take().map(|(from, _)| from)
    }

    /// The board shows `board`, the record standing at `position`: one of the squares asked
    /// emptied, the board otherwise where a kept sequence whose first move set a piece there
    /// leads, is the piece lifted where it stands (to be set back: [`Undecided::answered`]);
    /// the board where a kept sequence leads keeps it so; anything else is no answer.
    pub(super) fn watch(&mut self, position: &Chess, board: &PhysicalBoard) {
        let occupied = board.occupied();
        let asked = match &self.asked {
            Some((_, asked)) if self.kept_from(position) => asked,
            _ => {
                self.lifted = None;
                return;
            }
        };
        let mut at_end = false;
        let mut lifted = None;
        for (_, first, end) in self.ends(position) {
            let differs = end ^ occupied;
            at_end |= differs.is_empty();
            if differs == Bitboard::from_square(first)
                && asked.contains(&first)
                && !occupied.contains(first)
            {
                lifted = Some(first);
            }
        }
        if lifted.is_some() || !at_end {
            self.lifted = lifted;
        }
    }

    /// Whether the board shows the piece asked about from `position` lifted where it stands:
    /// an answer under way, nothing to look for until it is set back.
    pub(super) fn answering(&self, position: &Chess) -> bool {
        self.lifted.is_some() && self.kept_from(position)
    }

    /// The kept sequences the hands' answer picks: the piece asked about lifted where it
    /// stands, then set back ([`Undecided::watch`]), the board showing where they lead; those
    /// whose first move set it there and lead there.
    pub(super) fn answered(
        &self,
        position: &Chess,
        board: &PhysicalBoard,
    ) -> Option<Vec<Vec<Move>>> {
        let square = self.lifted?;
        if !self.kept_from(position) {
            return None;
        }
        let occupied = board.occupied();
        let picked: Vec<Vec<Move>> = self
            .ends(position)
            .filter(|&(_, first, end)| first == square && end == occupied)
            .map(|(line, _, _)| line.clone())
            .collect();
        (!picked.is_empty()).then_some(picked)
    }

    /// Each kept sequence from `position` that is not empty, with the square its first move
    /// set a piece on and the squares occupied where it leads.
    fn ends<'a>(
        &'a self,
        position: &'a Chess,
    ) -> impl Iterator<Item = (&'a Vec<Move>, Square, Bitboard)> + 'a {
        self.lines.iter().filter_map(move |line| {
            let first = line.first()?;
            Some((line, first.to(), end_of(position, line).board().occupied()))
        })
    }

    /// Whether what is kept starts from `position`.
    fn kept_from(&self, position: &Chess) -> bool {
        standing::stands_at(self.from.as_ref(), position)
    }
}

/// Where the piece went, when every one of `lines` begins with a move of the same piece, each
/// such move to its own square (captures whose victim the board never showed off leave it
/// showing the same; what follows, the reply perhaps, may differ), and they do not all begin
/// with one move. When each is that one move, some may be empty: the piece perhaps still in
/// hand (after more, an empty line is some other move under way). Which piece a pawn became
/// is not asked so (two moves to one square: it is chosen at the host).
pub(super) fn question(lines: &[Vec<Move>]) -> Option<Question> {
    let mut first_moves: Vec<Move> = Vec::with_capacity(lines.len());
    let in_hand = lines.iter().any(Vec::is_empty);
    if in_hand && lines.iter().any(|line| line.len() > 1) {
        return None;
    }
    for line in lines {
        if let Some(m) = line.first()
            && !first_moves.contains(m)
        {
            first_moves.push(*m);
        }
    }
    let from = first_moves.first()?.from()?;
    let mut to: Vec<Square> = Vec::with_capacity(first_moves.len());
    for m in &first_moves {
        if m.from() != Some(from) || to.contains(&m.to()) {
            return None;
        }
        to.push(m.to());
    }
    to.sort_unstable();
    (first_moves.len() >= 2 || in_hand).then_some((from, to))
}

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CatchUp {
    /// No sequence of up to [`MAX_PLIES`] plies leads to the board.
    Nothing,
    /// Exactly one shortest sequence does.
    One(Vec<Move>),
    /// Several shortest sequences do (which one was played cannot be known yet): they are
    /// given when there are at most [`MAX_KEPT`], to be followed further ([`catch_up_after`])
    /// as the board changes; none when there are more.
    Several(Vec<Vec<Move>>),
    /// Some do, and shorter ones leave a move under way, with no first move in common: all are
    /// given, to be followed further as the board changes.
    Open(Vec<Vec<Move>>),
    /// A shorter sequence leads to a position the board shows with pieces of the side to
    /// move off it: most likely a move under way, not a longer sequence in which those pieces
    /// were captured. Nothing is played until the board says more.
    UnderWay,
    /// A move may be under way, but every sequence, with it or not, begins with these moves:
    /// they were made. What follows them in each sequence (none: the move perhaps under way
    /// not made yet) is given too, to be followed further.
    Settled(Vec<Move>, Vec<Vec<Move>>),
}

/// What the host knows of the promotion piece of the turn's move, on a board that cannot
/// tell it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Choice {
    /// Nothing: any piece counts.
    #[default]
    Free,
    /// It is chosen at the host, and was not yet: a sequence whose first move promotes waits
    /// for the choice (no promotion is decided before it).
    Awaited,
    /// This piece was chosen: a sequence's first promotion counts only if to it.
    Chosen(Role),
}

/// What is known of the sequence besides the board it leads to.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Bounds<'a> {
    /// The side whose ply is the last (a clock press said who completed the last move).
    pub(super) last_mover: Option<Color>,
    /// The square the first ply's piece left (the piece seen in hand when the board went
    /// unheard; a rook-first castling counts).
    pub(super) first_from: Option<Square>,
    /// The last change seen as it happened: a sequence counts only if it keeps its order
    /// ([`keeps_the_order`]). Two sequences that differ only in the order of one side's moves
    /// are then one when the board was seen making the last (a piece seen in hand after the
    /// others were made unseen, then set down).
    pub(super) last_seen: Option<SeenChange>,
    /// What the board showed since the record last changed: a sequence counts only if it
    /// explains it ([`Frames::explained_by`]).
    pub(super) frames: Option<&'a Frames>,
    /// Whether the input has ended: no piece is in hand any more, so no board shows a move under
    /// way.
    pub(super) ended: bool,
    /// What the host knows of the promotion piece of the turn's move (a board that cannot
    /// tell it).
    pub(super) promotion: Choice,
    /// Whether the sequences left open by a move perhaps under way are given to be followed
    /// further ([`CatchUp::Open`], [`CatchUp::Settled`]) rather than waited on
    /// ([`CatchUp::UnderWay`]).
    pub(super) follow: bool,
}

/// The shortest legal move sequences from `position` after which the board shows what `board`
/// shows, if exactly one is the shortest and no shorter one (the empty one included: `position`
/// itself) leaves the board showing a move under way. Only the sequences within `bounds` count.
pub(super) fn catch_up(position: &Chess, board: &PhysicalBoard, bounds: Bounds<'_>) -> CatchUp {
    catch_up_after(position, &[Vec::new()], board, bounds)
}

/// As [`catch_up`], the sequences sought being those that begin with one of `lines` (each a
/// sequence from `position`: the ones an earlier board left undecided, see [`Undecided`])
/// followed by at most [`MAX_PLIES`] plies; the shortest in all count.
pub(super) fn catch_up_after(
    position: &Chess,
    lines: &[Vec<Move>],
    board: &PhysicalBoard,
    bounds: Bounds<'_>,
) -> CatchUp {
    let Bounds {
        last_mover,
        first_from,
        last_seen,
        frames,
        ended,
        promotion,
        follow,
    } = bounds;
    let mut roots = Vec::with_capacity(lines.len());
    for line in lines {
        roots.push((end_of(position, line), line));
    }
    let shortest = lines.iter().map(Vec::len).min().unwrap_or(0);
    let mut under_way: Vec<Vec<Move>> = Vec::new();
    for total in shortest..=shortest.saturating_add(MAX_PLIES) {
        // The side to move in `position` makes the odd plies.
        let mover = if total % 2 == 1 {
            position.turn()
        } else {
            !position.turn()
        };
        let mut found = Found::default();
        for (root, line) in &roots {
            let Some(plies) = total.checked_sub(line.len()) else {
                continue;
            };
            if plies == 0 {
                // The board may show where the line ends, or that with a move under way, its
                // victim perhaps taken off first (unless the side to move pressed since: its
                // move is complete).
                let shown = !line.is_empty()
                    && board.differences(root.board()).is_empty()
                    && keeps_the_order(position, line, last_seen)
                    && keeps_the_choice(line, promotion);
                if shown {
                    found.lead_to(
                        line,
                        frames.map_or(Fit::Whole, |frames| frames.fit(position, line, None)),
                    );
                } else if !ended
                    && last_mover.is_none_or(|last| last != root.turn())
                    && (shows_under_way(
                        root,
                        board,
                        if follow {
                            Victim::First
                        } else {
                            Victim::MayBeOff
                        },
                    ) || follow
                        && (shows_castling_under_way(root, board, line, true)
                            || shows_en_passant_under_way(root, board, line)))
                    && frames.is_none_or(|frames| {
                        frames.explained_by(
                            position,
                            line,
                            Some(root.board().occupied() & !board.occupied()),
                        )
                    })
                {
                    found.under_way.push(line.to_vec());
                }
                continue;
            }
            if plies > MAX_PLIES || last_mover.is_some_and(|last| last != mover) {
                continue;
            }
            let from = Origin {
                root: position,
                base: line.len(),
                first_from: first_from.filter(|_| line.is_empty()),
                last_seen,
                frames,
                promotion,
                kept: if follow {
                    MAX_KEPT.saturating_add(1)
                } else {
                    2
                },
                under_way_kept: if follow {
                    MAX_KEPT.saturating_add(1)
                } else {
                    1
                },
                follow,
            };
            let mut path = Vec::with_capacity(total);
            path.extend_from_slice(line);
            search(root, board, plies, from, &mut path, &mut found);
        }
        if !found.exact.is_empty() {
            return weigh(found.exact, under_way, follow);
        }
        if !found.passing.is_empty() {
            return weigh(found.passing, under_way, follow);
        }
        if !ended {
            under_way.extend(found.under_way);
        }
    }
    CatchUp::Nothing
}

/// What the shortest sequences that lead to the board, `exact`, say, with the shorter ones
/// after which it shows a move under way, `under_way`: the one sequence, or the several, to be
/// followed further; with a move perhaps under way, the first moves all of them begin with, or
/// all of them to be followed further.
fn weigh(exact: Vec<Vec<Move>>, under_way: Vec<Vec<Move>>, follow: bool) -> CatchUp {
    // A sequence reached from two lines is one.
    let (mut exact, mut under_way) = (distinct(exact), distinct(under_way));
    if under_way.is_empty() {
        return match exact.len() {
            1 => exact.pop().map_or(CatchUp::Nothing, CatchUp::One),
            n if n > MAX_KEPT => CatchUp::Several(Vec::new()),
            _ => CatchUp::Several(exact),
        };
    }
    if !follow || under_way.len().saturating_add(exact.len()) > MAX_KEPT {
        return CatchUp::UnderWay;
    }
    exact.append(&mut under_way);
    let (made, rest) = split_made(&exact);
    if made.is_empty() {
        return CatchUp::Open(exact);
    }
    CatchUp::Settled(made, rest)
}

/// `sequences`, each once.
fn distinct(sequences: Vec<Vec<Move>>) -> Vec<Vec<Move>> {
    let mut kept: Vec<Vec<Move>> = Vec::with_capacity(sequences.len());
    for sequence in sequences {
        if !kept.contains(&sequence) {
            kept.push(sequence);
        }
    }
    kept
}

/// The first moves every one of `lines` begins with, and what follows them in each (nothing
/// when there is one line: it was all made).
pub(super) fn split_made(lines: &[Vec<Move>]) -> (Vec<Move>, Vec<Vec<Move>>) {
    let made = common_prefix(lines.iter());
    if lines.len() <= 1 {
        return (made, Vec::new());
    }
    let rest = lines
        .iter()
        .map(|line| line.get(made.len()..).unwrap_or_default().to_vec())
        .collect();
    (made, rest)
}

/// The first moves every one of `sequences` begins with.
pub(super) fn common_prefix<'a>(mut sequences: impl Iterator<Item = &'a Vec<Move>>) -> Vec<Move> {
    let Some(first) = sequences.next() else {
        return Vec::new();
    };
    let mut length = first.len();
    for sequence in sequences {
        length = first
            .iter()
            .zip(sequence)
            .take(length)
            .take_while(|(a, b)| a == b)
            .count();
    }
    first.iter().take(length).copied().collect()
}

/// Whether `moves`, caught up from `position`, keep the order of the last change seen,
/// `last_seen`. The piece lifted last is in hand, unless the last move captured it or moved it
/// away (its arrival seen first: one scan's changes come in square order), and then it was that
/// piece where the board named it. After a piece seen set down, the move that set it there was
/// the last one made.
pub(super) fn keeps_the_order(
    position: &Chess,
    moves: &[Move],
    last_seen: Option<SeenChange>,
) -> bool {
    let Some((&last, made_before)) = moves.split_last() else {
        return false;
    };
    match last_seen {
        None => true,
        Some(SeenChange::Lift(square, piece)) => {
            let left = geometry::capture_square(last) == Some(square)
                || geometry::occupancy_delta(last).contains(square)
                    && !geometry::landing_squares(last).contains(square);
            let before = end_of(position, made_before);
            left && piece.is_none_or(|piece| before.board().piece_at(square) == Some(piece))
        }
        Some(SeenChange::Place(square)) => geometry::landing_squares(last).contains(square),
    }
}

/// The position `moves` (legal in turn from `position`) lead to.
fn end_of(position: &Chess, moves: &[Move]) -> Chess {
    let mut end = position.clone();
    for &m in moves {
        end.play_unchecked(m);
    }
    end
}

/// Whether `moves` keep what the host knows of the turn's promotion piece: the first
/// promotion, if any, is to the piece chosen; with the choice awaited, the first move (the
/// turn's) is no promotion yet.
fn keeps_the_choice(moves: &[Move], choice: Choice) -> bool {
    match choice {
        Choice::Free => true,
        Choice::Awaited => moves.first().is_none_or(|m| m.promotion().is_none()),
        Choice::Chosen(chosen) => moves
            .iter()
            .find_map(|m| m.promotion())
            .is_none_or(|role| role == chosen),
    }
}

/// Whether `m` moves the piece on `from` (the king or the rook of a castling).
fn leaves(m: Move, from: Square) -> bool {
    m.from() == Some(from) || matches!(m, Move::Castle { rook, .. } if rook == from)
}

/// What a search of one length found.
#[derive(Debug, Default)]
struct Found {
    /// The sequences after which the board shows the position ([`MAX_KEPT`] and one more at
    /// most are kept).
    exact: Vec<Vec<Move>>,
    /// The sequences after which the board shows the position that explain what it showed on
    /// the way only if a report showed a piece passing by ([`Fit::Passing`]): taken only when
    /// no sequence explains every report, as many kept as of `exact`.
    passing: Vec<Vec<Move>>,
    /// The sequences after which the board shows the position with pieces of the side to move
    /// in hand ([`MAX_KEPT`] and one more at most are kept).
    under_way: Vec<Vec<Move>>,
}

impl Found {
    /// `sequence` leads to the board, explaining what it showed on the way as `fit` says.
    fn lead_to(&mut self, sequence: &[Move], fit: Fit) {
        match fit {
            Fit::Whole => self.exact.push(sequence.to_vec()),
            Fit::Passing if self.passing.len() <= MAX_KEPT => {
                self.passing.push(sequence.to_vec());
            }
            Fit::Passing | Fit::None => {}
        }
    }
}

/// Whether a capture's victim taken off the board first counts as a move under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Victim {
    /// Only the mover's pieces may be off the board.
    OnBoard,
    /// One piece that a lifted piece can capture may be off too (from the position itself, or
    /// one ply after it: [`victim_after`]).
    MayBeOff,
    /// As [`Victim::MayBeOff`], or the victim alone off, the capturing piece not lifted yet (a
    /// sampling board's report of a capture whose victim was taken off first).
    First,
}

/// Whether a capture's victim may be off the board in a move under way after `plies` plies
/// made unseen: after none or one (the board heard again while the next move's capture was
/// under way, as a 3 s Bluetooth drop leaves it). After more, too many sequences look under way:
/// allowed at any length, the corpus bench's 60 s unplug rows lost 12 and 8 games of 2,591
/// left waiting (BENCHMARKS.md, issue 44).
/// On a board that samples occupancy (`follow`), the victim may be off alone, its capturing
/// piece not lifted yet, as from the position itself ([`Victim::First`]).
fn victim_after(plies: usize, follow: bool) -> Victim {
    match plies {
        0 | 1 if follow => Victim::First,
        0 | 1 => Victim::MayBeOff,
        _ => Victim::OnBoard,
    }
}

/// Whether `board` shows `position` with a move under way: some of the side to move's pieces
/// lifted, and with `victim` perhaps the one piece a lifted piece can capture taken off, nothing
/// else differing.
fn shows_under_way(position: &Chess, board: &PhysicalBoard, victim: Victim) -> bool {
    let expected = position.board();
    let missing = expected.occupied() & !board.occupied();
    let lifted = missing & expected.by_color(position.turn());
    if missing.is_empty() || !(board.differences(expected) & !missing).is_empty() {
        return false;
    }
    let victims = missing & !lifted;
    if victims.is_empty() {
        return true;
    }
    // The capturing piece lifted, or with the victim taken off first, not yet.
    let capturing = if lifted.is_empty() && victim == Victim::First {
        expected.by_color(position.turn())
    } else {
        lifted
    };
    victim != Victim::OnBoard
        && capturing.any()
        && !victims.more_than_one()
        && position.legal_moves().iter().any(|&m| {
            m.from().is_some_and(|from| capturing.contains(from))
                && geometry::capture_square(m).is_some_and(|square| victims.contains(square))
        })
}

/// Whether `board` shows `position`, reached by `path`, with its last move an en passant
/// capture whose victim has not been taken off yet (the capturing pawn set down first).
fn shows_en_passant_under_way(position: &Chess, board: &PhysicalBoard, path: &[Move]) -> bool {
    let Some(&last @ Move::EnPassant { .. }) = path.last() else {
        return false;
    };
    let Some(victim) = geometry::capture_square(last) else {
        return false;
    };
    let mut victim_on = position.board().clone();
    victim_on.set_piece_at(victim, position.turn().pawn());
    board.differences(&victim_on).is_empty()
}

/// Whether `board` shows `position`, reached by `path`, with its last move a castling whose
/// rook has not moved yet (the king set down on its square first, as 4.4.2 asks), or, when
/// `in_hand`, whose rook is in hand, or whose king is, the rook set down first (a breach of
/// 4.4.2 a board sampling occupancy shows as such).
fn shows_castling_under_way(
    position: &Chess,
    board: &PhysicalBoard,
    path: &[Move],
    in_hand: bool,
) -> bool {
    let Some(&Move::Castle { king, rook }) = path.last() else {
        return false;
    };
    let side = CastlingSide::from_king_side(rook > king);
    let mut rook_at_home = position.board().clone();
    let Some(piece) =
        rook_at_home.remove_piece_at(Square::from_coords(side.rook_to_file(), king.rank()))
    else {
        return false;
    };
    if in_hand && board.differences(&rook_at_home).is_empty() {
        return true;
    }
    let mut king_in_hand = position.board().clone();
    let king_lifted = king_in_hand
        .remove_piece_at(Square::from_coords(side.king_to_file(), king.rank()))
        .is_some();
    if in_hand && king_lifted && board.differences(&king_in_hand).is_empty() {
        return true;
    }
    rook_at_home.set_piece_at(rook, piece);
    board.differences(&rook_at_home).is_empty()
}

/// The most squares `plies` plies can change: three a ply (a capture, en passant), one more
/// for each castling (a king and a rook, four squares), of which a sequence has at most two.
fn reach(plies: usize) -> usize {
    plies.saturating_mul(3).saturating_add(plies.min(2))
}

/// Where a search starts, and what its sequences must keep.
#[derive(Clone, Copy)]
struct Origin<'a> {
    /// The game's position the sequences start from.
    root: &'a Chess,
    /// How many plies of the sequences were given (a line followed further), not searched.
    base: usize,
    /// The square the first ply must leave, while the search is at the first ply.
    first_from: Option<Square>,
    /// The last change seen, whose order a sequence must keep.
    last_seen: Option<SeenChange>,
    /// What the board showed since the record last changed, which a sequence must explain.
    frames: Option<&'a Frames>,
    /// What the host knows of the turn's promotion piece ([`keeps_the_choice`]).
    promotion: Choice,
    /// How many sequences that lead to the board are kept (the search stops there).
    kept: usize,
    /// How many sequences that leave a move under way are kept.
    under_way_kept: usize,
    /// Whether undecided sequences are followed (see [`Bounds::follow`]).
    follow: bool,
}

/// Depth-first search of the sequences of exactly `plies` plies, the first leaving
/// `from.first_from` when given, keeping the order of `from.last_seen`; stops once more than
/// [`MAX_KEPT`] are found.
fn search(
    position: &Chess,
    board: &PhysicalBoard,
    plies: usize,
    from: Origin<'_>,
    path: &mut Vec<Move>,
    found: &mut Found,
) {
    let differences = board.differences(position.board()).count();
    let Some(left) = plies.checked_sub(1) else {
        if differences == 0 {
            if keeps_the_order(from.root, path, from.last_seen)
                && keeps_the_choice(path, from.promotion)
            {
                let fit = from
                    .frames
                    .map_or(Fit::Whole, |frames| frames.fit(from.root, path, None));
                found.lead_to(path, fit);
            }
        } else if found.under_way.len() < from.under_way_kept
            && (shows_under_way(
                position,
                board,
                victim_after(path.len().saturating_sub(from.base), from.follow),
            ) && from.frames.is_none_or(|frames| {
                frames.explained_by(
                    from.root,
                    path,
                    Some(position.board().occupied() & !board.occupied()),
                )
            }) || shows_castling_under_way(position, board, path, from.follow)
                || from.follow && shows_en_passant_under_way(position, board, path))
        {
            found.under_way.push(path.clone());
        }
        return;
    };
    if differences > reach(plies) {
        return;
    }
    for m in position.legal_moves() {
        if found.exact.len() >= from.kept {
            return;
        }
        if from.first_from.is_some_and(|square| !leaves(m, square)) {
            continue;
        }
        let mut next = position.clone();
        next.play_unchecked(m);
        path.push(m);
        let then = Origin {
            first_from: None,
            ..from
        };
        search(&next, board, left, then, path, found);
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{position, uci_move};
    use shakmaty::{Board, CastlingMode};

    fn after(start: &Chess, ucis: &[&str]) -> Chess {
        ucis.iter().fold(start.clone(), |position, uci| {
            let m = uci_move(&position, uci);
            position.play(m).expect("a legal move")
        })
    }

    /// Bounds with the last ply `color`'s.
    fn last(color: Color) -> Bounds<'static> {
        Bounds {
            last_mover: Some(color),
            ..Bounds::default()
        }
    }

    fn ucis(found: CatchUp) -> Vec<String> {
        match found {
            CatchUp::One(moves) => moves
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect(),
            other => panic!("not one sequence: {other:?}"),
        }
    }

    /// Asserts that `longer`, played from `start`, leaves what `board` shows, and yet the
    /// catch-up takes the board for a move under way; followed further, `longer` is only one
    /// of the sequences, beside one that leaves a move under way.
    fn assert_under_way(start: &Chess, board: &PhysicalBoard, longer: &[&str]) {
        let played = after(start, longer);
        assert!(
            board.differences(played.board()).is_empty(),
            "the longer sequence fits"
        );
        assert_eq!(catch_up(start, board, Bounds::default()), CatchUp::UnderWay);
        let followed = Bounds {
            follow: true,
            ..Bounds::default()
        };
        match catch_up(start, board, followed) {
            CatchUp::Open(lines) => {
                let longer: Vec<Move> = longer
                    .iter()
                    .scan(start.clone(), |position, uci| {
                        let m = uci_move(position, uci);
                        position.play_unchecked(m);
                        Some(m)
                    })
                    .collect();
                assert!(lines.contains(&longer), "the longer sequence is followed");
                assert!(
                    lines.iter().any(|line| line.len() < longer.len()),
                    "and a shorter one, with a move under way"
                );
            }
            other => panic!("taken for moves made: {other:?}"),
        }
    }

    #[test]
    fn two_plies_on_an_identifying_board_are_found() {
        let start = Chess::default();
        let board = PhysicalBoard::identified(after(&start, &["g1f3", "e7e6"]).board());
        assert_eq!(
            ucis(catch_up(&start, &board, Bounds::default())),
            ["g1f3", "e7e6"]
        );
    }

    #[test]
    fn four_plies_with_a_castling_are_found() {
        let start = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        // Castling needs f1 cleared first, the bishop needs d7 cleared first: one order only.
        let moves = ["f1c4", "d7d6", "e1g1", "c8g4"];
        let board = PhysicalBoard::identified(after(&start, &moves).board());
        assert_eq!(ucis(catch_up(&start, &board, Bounds::default())), moves);
    }

    #[test]
    fn moves_in_either_order_are_several_and_so_not_played() {
        // 1. Nf3 Nf6 2. Nc3 and 1. Nc3 Nf6 2. Nf3 leave the same board.
        let start = Chess::default();
        let board = PhysicalBoard::identified(after(&start, &["g1f3", "g8f6", "b1c3"]).board());
        assert!(matches!(
            catch_up(&start, &board, Bounds::default()),
            CatchUp::Several(_)
        ));
    }

    #[test]
    fn the_piece_seen_in_hand_moved_first() {
        // From a simulated corpus game (dortmund.pgn game 9), unplugged 0.3 s with the black
        // king in hand: 29... Kd6 30. Nc2 Na5 and 29... Na5 30. Nc2 Kd6 leave the same board;
        // the king was lifted first.
        let start = position("8/1n2kp1p/p7/Pp1p4/2pP1P2/2P1NP2/6PP/4K3 b - - 4 29");
        let board = PhysicalBoard::identified(after(&start, &["e7d6", "e3c2", "b7a5"]).board());
        assert!(matches!(
            catch_up(&start, &board, Bounds::default()),
            CatchUp::Several(_)
        ));
        let king_first = Bounds {
            first_from: Some(Square::E7),
            ..Bounds::default()
        };
        assert_eq!(
            ucis(catch_up(&start, &board, king_first)),
            ["e7d6", "e3c2", "b7a5"]
        );
    }

    #[test]
    fn a_press_says_who_moved_last() {
        // From a simulated corpus game (twic1599_1000k.pgn game 819), unplugged 60 s: after
        // 24. Qg2 the hands played 24... Qa5 25. b4 Qxb4 26. Rb1. Three plies lead there too,
        // 24... Qxb2 25. Rb1 Qb4, with Black the last to move; a press by White says White was.
        let start = position("8/p4pk1/1q2r1p1/3p3p/3P4/2P4P/PP3PQ1/4R1K1 b - - 1 24");
        let played = after(&start, &["b6a5", "b2b4", "a5b4", "e1b1"]);
        let board = PhysicalBoard::identified(played.board());
        assert_eq!(
            ucis(catch_up(&start, &board, Bounds::default())),
            ["b6b2", "e1b1", "b2b4"]
        );
        assert_eq!(
            ucis(catch_up(&start, &board, last(Color::Black))),
            ["b6b2", "e1b1", "b2b4"]
        );
        // Four plies with White last: Black's queen reaches b4 by a5, b5 or c5 (and Rb1 may
        // come first), so which was played cannot be known.
        assert!(matches!(
            catch_up(&start, &board, last(Color::White)),
            CatchUp::Several(_)
        ));
    }

    #[test]
    fn a_piece_in_hand_is_not_taken_for_a_capture() {
        // From a simulated corpus game (chessjs-benchmark.pgn game 38), unplugged 10 s: after
        // 23. Qxa7, the hands played 23... h6 24. Qxe3 Ng4 and White lifted the h3 bishop to
        // take on g4. The board is also what 23... h6 24. Bg4 Nfxg4 25. Qxe3 leaves (the
        // bishop captured, not in hand): one ply longer than the move under way, so it waits.
        let start = position("4r1k1/Q4ppp/5n2/8/4p3/1P2n1PB/P4P1P/1NR3K1 b - - 0 23");
        let played = after(&start, &["h7h6", "a7e3", "f6g4"]);
        let mut board = played.board().clone();
        board.discard_piece_at(shakmaty::Square::H3);
        let board = PhysicalBoard::identified(&board);
        assert_under_way(&start, &board, &["h7h6", "h3g4", "f6g4", "a7e3"]);
    }

    #[test]
    fn a_capture_under_way_after_one_unseen_ply_is_not_taken_for_four() {
        // From a simulated corpus game (twic1599_1000k.pgn game 610) on a Chessnut board
        // dropped 3 s: after 20. Ng4 the hands played 20... Rc7, and White lifted the g4 knight
        // to take on f6, the victim off first, when the board was heard again. The board is also
        // what 20... Nxg4 21. Bxg4 Rc7 22. Be2 leaves (a bishop out and back, never played):
        // three plies longer than the capture under way, so it waits.
        let start =
            position("2r1r1k1/1b1q1ppp/pb3n2/1p1p4/3Nn1N1/PP1QP2P/1B2BPP1/2R2RK1 b - - 3 20");
        let mut board = after(&start, &["c8c7"]).board().clone();
        board.discard_piece_at(Square::G4);
        board.discard_piece_at(Square::F6);
        let board = PhysicalBoard::identified(&board);
        assert_under_way(&start, &board, &["f6g4", "e2g4", "c8c7", "g4e2"]);
    }

    #[test]
    fn a_castling_with_its_rook_still_home_is_under_way() {
        // From a simulated corpus game (chessjs-benchmark.pgn game 8) on a Hall board unplugged
        // 3 s: after 9. Nc3 the hands played 9... Ne7 10. O-O, and the board came back with the
        // king set down on g1 and the rook still on h1. Four plies, 9... Qe7 10. Kf1 Ngf6
        // 11. Kg1, fill and empty the same squares of an occupancy board; the castling under
        // way is shorter, so nothing is played until the rook moves.
        let start =
            position("r3k1nr/1ppn1ppp/p2p1q2/2b1p3/2P1P3/P1NP1Q1P/1P2BPP1/R1B1K2R b KQkq - 0 9");
        let mut board = after(&start, &["g8e7", "e1g1"]).board().clone();
        let rook = board.remove_piece_at(Square::F1).expect("the castled rook");
        board.set_piece_at(Square::H1, rook);
        let occupancy = PhysicalBoard::unidentified(&board);
        assert_under_way(&start, &occupancy, &["f6e7", "e1f1", "g8f6", "f1g1"]);
        // Once the rook is on f1, the castling is the one shortest sequence.
        let castled = PhysicalBoard::unidentified(after(&start, &["g8e7", "e1g1"]).board());
        assert_eq!(
            ucis(catch_up(&start, &castled, Bounds::default())),
            ["g8e7", "e1g1"]
        );
    }

    #[test]
    fn a_board_five_plies_away_is_nothing() {
        // White's e-pawn on e6, everything else at home: three pawn steps, and two black moves
        // between them that come back (a knight out and home), five plies at least.
        let start = Chess::default();
        let mut board = Board::new();
        let pawn = board.remove_piece_at(shakmaty::Square::E2).expect("a pawn");
        board.set_piece_at(shakmaty::Square::E6, pawn);
        let five = after(&start, &["e2e4", "g8f6", "e4e5", "f6g8", "e5e6"]);
        assert_eq!(five.board(), &board);
        assert_eq!(
            catch_up(
                &start,
                &PhysicalBoard::identified(&board),
                Bounds::default()
            ),
            CatchUp::Nothing
        );
    }

    #[test]
    fn an_occupancy_board_cannot_tell_the_promotion_piece() {
        let start = position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        let promoted = after(&start, &["e7e8n"]);
        let occupancy = PhysicalBoard::unidentified(promoted.board());
        assert!(matches!(
            catch_up(&start, &occupancy, Bounds::default()),
            CatchUp::Several(_)
        ));
        let identified = PhysicalBoard::identified(promoted.board());
        assert_eq!(
            ucis(catch_up(&start, &identified, Bounds::default())),
            ["e7e8n"]
        );
    }

    #[test]
    fn moves_of_one_side_made_unseen_in_either_order_are_one_when_the_last_was_seen_set_down() {
        // After 1. e4, unseen: ...Nc6, Nf3, ...Nd4 and Bc4, White's two in either order; the
        // board was heard again with the bishop in hand, then saw it set down on c4. Both
        // orders lead to the board; only the one with Bc4 last keeps what was seen.
        let start = after(&Chess::default(), &["e2e4"]);
        let end = after(&start, &["b8c6", "g1f3", "c6d4", "f1c4"]);
        let board = PhysicalBoard::identified(end.board());
        assert!(matches!(
            catch_up(&start, &board, Bounds::default()),
            CatchUp::Several(_)
        ));
        let seen = Bounds {
            last_seen: Some(SeenChange::Place(Square::C4)),
            ..Bounds::default()
        };
        assert_eq!(
            ucis(catch_up(&start, &board, seen)),
            ["b8c6", "g1f3", "c6d4", "f1c4"]
        );
    }

    /// Before 13. Nxe5 fxe5 14. Nxe5 (chessbase-empty-line.pgn game 1), and the reports a
    /// board sampling occupancy made of it: c4, then f6, then f3 emptied.
    fn knights_on_e5() -> (Chess, Frames) {
        use crate::interpreter::frames::{BEFORE_NXE5, emptied_in_turn};
        let start = position(BEFORE_NXE5);
        let frames = emptied_in_turn(&start, &[Square::C4, Square::F6, Square::F3]);
        (start, frames)
    }

    #[test]
    fn a_capture_whose_victim_a_report_showed_off_is_taken_over_one_the_reports_allow() {
        // The rook of d4 can take on d7 or on g4; either leaves d4 emptied and nothing else.
        // Reports: d4 emptied, then d7 too for one frame, then d4 alone: the knight of d7
        // taken off before the rook came (1. Rxd7), or a neighbour knocked off and put back
        // while the rook went to g4. The one that explains every report is taken; without the
        // report between, neither.
        let start = position("4k3/3n4/8/8/3R2n1/8/8/4K3 w - - 0 1");
        let rook_gone = start.board().occupied() & !Bitboard::from(Square::D4);
        let board = PhysicalBoard::unidentified(after(&start, &["d4d7"]).board());
        let weighed = |between: Option<Square>| {
            let mut frames = Frames::new(251);
            frames.observe(1_000, rook_gone, &start);
            if let Some(square) = between {
                frames.observe(1_250, rook_gone & !Bitboard::from(square), &start);
            }
            frames.observe(1_500, rook_gone, &start);
            let bounds = Bounds {
                frames: Some(&frames),
                follow: true,
                ended: true,
                ..Bounds::default()
            };
            catch_up(&start, &board, bounds)
        };
        assert_eq!(ucis(weighed(Some(Square::D7))), ["d4d7"]);
        assert_eq!(ucis(weighed(Some(Square::G4))), ["d4g4"]);
        assert!(
            matches!(weighed(None), CatchUp::Several(ref all) if all.len() == 2),
            "{:?}",
            weighed(None)
        );
    }

    #[test]
    fn the_reports_in_order_settle_what_a_move_under_way_leaves_open() {
        // 13. Nxe5 fxe5 14. Nxe5, or the f3 knight in hand after the first two: both begin
        // with 13. Ncxe5 fxe5, which were made. (Without the reports, 13. Nfxe5 fxe5 14. Ncxe5
        // reaches the board too.)
        let (start, frames) = knights_on_e5();
        let board = PhysicalBoard::unidentified(after(&start, &["c4e5", "f6e5", "f3e5"]).board());
        let followed = Bounds {
            follow: true,
            ..Bounds::default()
        };
        assert!(matches!(
            catch_up(&start, &board, followed),
            CatchUp::Open(_)
        ));
        let shown = Bounds {
            frames: Some(&frames),
            ..followed
        };
        let CatchUp::Settled(made, _) = catch_up(&start, &board, shown) else {
            panic!("not settled");
        };
        let made: Vec<String> = made
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        assert_eq!(made, ["c4e5", "f6e5"]);
        // With the input ended, no piece is in hand: the three captures.
        let ended = Bounds {
            ended: true,
            ..shown
        };
        assert_eq!(
            ucis(catch_up(&start, &board, ended)),
            ["c4e5", "f6e5", "f3e5"]
        );
    }

    #[test]
    fn where_one_piece_went_is_asked_and_which_piece_a_pawn_became_is_not() {
        let start = position("4k3/8/4p3/8/8/7Q/8/4K3 w - - 0 1");
        let line = |position: &Chess, uci: &str| vec![uci_move(position, uci)];
        let (e6, h6) = (line(&start, "h3e6"), line(&start, "h3h6"));
        assert_eq!(
            question(&[h6.clone(), e6.clone()]),
            Some((Square::H3, vec![Square::E6, Square::H6]))
        );
        // A capture, or the queen still in hand.
        assert_eq!(
            question(&[e6.clone(), Vec::new()]),
            Some((Square::H3, vec![Square::E6]))
        );
        // One move alone is no question; two pieces' moves are not asked so.
        assert_eq!(question(std::slice::from_ref(&e6)), None);
        assert_eq!(question(&[e6.clone(), line(&start, "e1d1")]), None);
        // The reply made since: where the queen went is asked still, unless it went to one
        // square in two lines (the reply is what differs).
        let then = |uci: &str| {
            vec![
                uci_move(&start, "h3e6"),
                uci_move(&after(&start, &["h3e6"]), uci),
            ]
        };
        assert_eq!(
            question(&[then("e8d8"), h6.clone()]),
            Some((Square::H3, vec![Square::E6, Square::H6]))
        );
        assert_eq!(question(&[then("e8d8"), then("e8f8")]), None);
        // After two plies, an empty line is some other move under way, not the queen in hand.
        assert_eq!(question(&[then("e8d8"), Vec::new()]), None);
        // gxf8=N or gxh8=N is asked; e8=Q or e8=N is chosen at the host.
        let pawn = position("5n1n/6P1/8/8/8/8/8/k3K3 w - - 0 1");
        let promotions = [line(&pawn, "g7f8n"), line(&pawn, "g7h8n")];
        assert_eq!(
            question(&promotions),
            Some((Square::G7, vec![Square::F8, Square::H8]))
        );
        let pushed = position("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
        assert_eq!(
            question(&[line(&pushed, "e7e8q"), line(&pushed, "e7e8n")]),
            None
        );
    }

    #[test]
    fn sequences_left_undecided_are_followed_beyond_four_plies() {
        // 1. Nxd6 or 1. Nxf6: the board shows e4 emptied either way. Four plies later only the
        // knight of d6 can have reached b5 and been taken there: 1. Nxd6 a6 2. Nb5 axb5 3. Kd2.
        let start = position("7k/p7/3p1p2/8/4N3/8/P7/4K3 w - - 0 1");
        let line = |uci: &str| vec![uci_move(&start, uci)];
        let lines = [line("e4d6"), line("e4f6")];
        let played = ["e4d6", "a7a6", "d6b5", "a6b5", "e1d2"];
        let board = PhysicalBoard::unidentified(after(&start, &played).board());
        assert_eq!(
            catch_up(&start, &board, Bounds::default()),
            CatchUp::Nothing
        );
        let followed = Bounds {
            follow: true,
            ..Bounds::default()
        };
        assert_eq!(
            ucis(catch_up_after(&start, &lines, &board, followed)),
            played
        );
    }
}
