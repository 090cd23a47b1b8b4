//! What the board showed, report after report, since the record last changed: the evidence a
//! sequence of moves made unseen must explain, in order.
//!
//! A board that samples its squares (a Certabo Sentio's frames, every 250 ms) shows a capture
//! made within one frame as its piece's square emptied, nothing more; hands quicker than the
//! sensor leave several sequences reaching what it shows now. What it showed on the way often
//! tells them apart: 1. Nxe5 fxe5 2. Nxe5 with either knight first reach the same board, but
//! only one emptied c4 before f3. A report may also show a piece passing by (slid across a
//! square, a neighbour knocked off and put back), which tells nothing; a sequence that explains
//! every report without taking any for that is preferred ([`Fit`]): a frame showing d7
//! emptied too while the rook of d4 was in hand tells Rxd7 from Rxg4.

use shakmaty::{Bitboard, Chess, Move, Position};

use super::geometry;
use super::standing::{self, Standing};
use crate::sensor::Millis;

/// Reports this far apart or more may have a time unheard between them (the board unplugged),
/// in which any number of moves were made; closer ones have at most one move made whole
/// between them (two would need a reply made whole within a frame or two of the move before).
/// A quiet spell this long counts as unheard too: the rule is loose there.
const UNHEARD_MS: Millis = 2_000;

/// The most reports kept; a record that stays where it is for longer is not weighed by them
/// (any sequence is then taken to explain them).
const MAX_FRAMES: usize = 512;

/// The occupancies the board showed, one per report (changes reported at one instant are one
/// report), since the record reached the position they start from.
#[derive(Debug, Clone, Default)]
pub(super) struct Frames {
    /// The record's board and side to move when the first of `shown` came.
    record: Option<Standing>,
    /// When the record reached them.
    since: Millis,
    /// Whether the board may have been any number of moves ahead of the record when it
    /// reached it (moves caught up on, the board showing those made since).
    ahead: bool,
    /// What the board showed as the record reached its position (the report before the first
    /// kept, which a knock in the first is undone to), when known.
    before: Option<Bitboard>,
    /// Each report's time and the occupancy it left.
    shown: Vec<(Millis, Bitboard)>,
    /// Whether more reports came than are kept.
    overflowed: bool,
    /// A report the board showed for less than this was perhaps a piece passing by (slid
    /// across a square, knocked and put back): it need not be explained.
    transient_ms: Millis,
}

/// Where a sequence stands when the board showed a report: at rest after a ply (0: before the
/// first), or in the hands during one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Stage(usize);

/// How well a sequence explains the reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Fit {
    /// Not at all: some report cannot have been shown while it was made.
    None,
    /// Only if some report showed a piece passing by, nothing of the sequence.
    Passing,
    /// Every report shows a stage of it.
    Whole,
}

impl Frames {
    /// No reports yet; a report shown for less than `transient_ms` (the slide window, or one scan
    /// and a millisecond if longer) need not be explained by a sequence.
    pub(super) fn new(transient_ms: Millis) -> Frames {
        Frames {
            transient_ms,
            ..Frames::default()
        }
    }

    /// The board showed `occupied` at `t`, the record standing at `record`.
    pub(super) fn observe(&mut self, t: Millis, occupied: Bitboard, record: &Chess) {
        if !self.stands_at(record) {
            self.record = Some(Standing::of(record));
            self.since = t;
            self.ahead = false;
            self.before = self.shown.last().map(|&(_, shown)| shown);
            self.shown.clear();
            self.overflowed = false;
        }
        let full = self.shown.len() >= MAX_FRAMES;
        match self.shown.last_mut() {
            Some((at, last)) if *at == t => *last = occupied,
            _ if full => self.overflowed = true,
            _ => self.shown.push((t, occupied)),
        }
    }

    /// The record caught up on `made`, moves made unseen from `root`, and reached `record` at
    /// `t`, the board showing `occupied`. The reports the board made from when it last showed
    /// them made, at rest, are kept: the first evidence for the moves after them (a reply begun
    /// before they were decided shows in them; a neighbour knocked off and put back after the
    /// rest is seen undone). When no report showed that rest, the board may have been any
    /// number of moves ahead of the record when it reached it.
    pub(super) fn caught_up(
        &mut self,
        t: Millis,
        occupied: Bitboard,
        root: &Chess,
        made: &[Move],
        record: &Chess,
    ) {
        let kept = self.after_rest(root, made);
        self.record = Some(Standing::of(record));
        self.overflowed = false;
        self.before = None;
        match kept {
            Some((since, shown)) => {
                self.since = since;
                self.ahead = false;
                self.shown = shown;
            }
            None => {
                self.since = t;
                self.ahead = true;
                self.shown.clear();
            }
        }
        if self.shown.last().is_none_or(|&(_, last)| last != occupied) {
            self.observe(t, occupied, record);
        }
    }

    /// When the board last showed `made` (moves from `root`, the record's position) made, at
    /// rest, the reports before it showing them being made: that time, and the reports from it.
    fn after_rest(&self, root: &Chess, made: &[Move]) -> Option<(Millis, Vec<(Millis, Bitboard)>)> {
        if !self.stands_at(root) || self.overflowed || made.is_empty() {
            return None;
        }
        let positions = positions_after(root, made);
        let rest = positions.last()?.board().occupied();
        let at = self.shown.iter().rposition(|&(_, shown)| shown == rest)?;
        let sequence = Sequence {
            positions: &positions,
            moves: made,
            under_way: None,
        };
        let reached = self.stages_reached(at.checked_add(1)?, &sequence, true)?;
        if reached.last() != Some(&true) {
            return None;
        }
        let &(since, _) = self.shown.get(at)?;
        Some((since, self.shown.get(at..)?.to_vec()))
    }

    /// Whether the record stood at `position` when the reports came.
    fn stands_at(&self, position: &Chess) -> bool {
        standing::stands_at(self.record.as_ref(), position)
    }

    /// Whether the reports can have been shown, in their order, while `moves` were made from
    /// `root` (the record's position), then, when `under_way` is given (the squares the board
    /// now shows emptied of the last position), while the next move was under way
    /// ([`Frames::fit`] is not [`Fit::None`]).
    pub(super) fn explained_by(
        &self,
        root: &Chess,
        moves: &[Move],
        under_way: Option<Bitboard>,
    ) -> bool {
        self.fit(root, moves, under_way) != Fit::None
    }

    /// How well the reports can have been shown, in their order, while `moves` were made from
    /// `root` (the record's position), then, when `under_way` is given (the squares the board
    /// now shows emptied of the last position), while the next move was under way. Each report
    /// shows a position the sequence rested on, or one ply in the hands: its squares changed,
    /// its victim taken off; nothing else lifted, nothing set down elsewhere; or a piece
    /// passing by ([`Frames::passing`]: slid across a square, a neighbour knocked off and put
    /// back), which shows nothing of the sequence. Reports that are not kept, or that came
    /// while the record stood elsewhere, weigh nothing.
    pub(super) fn fit(&self, root: &Chess, moves: &[Move], under_way: Option<Bitboard>) -> Fit {
        if !self.stands_at(root) || self.overflowed || self.shown.is_empty() {
            return Fit::Whole;
        }
        let positions = positions_after(root, moves);
        let sequence = Sequence {
            positions: &positions,
            moves,
            under_way,
        };
        if self.followed(&sequence, false) {
            Fit::Whole
        } else if self.followed(&sequence, true) {
            Fit::Passing
        } else {
            Fit::None
        }
    }

    /// Whether every report can have been shown, in order, while `sequence` was made, those
    /// that may show a piece passing by perhaps showing nothing of it when `passing` is given.
    fn followed(&self, sequence: &Sequence<'_>, passing: bool) -> bool {
        self.stages_reached(self.shown.len(), sequence, passing)
            .is_some()
    }

    /// The stages of `sequence` (at rest after a ply, or one in the hands) the first `count`
    /// reports may leave it at, each report shown at one of them in order (those that may show
    /// a piece passing by perhaps at none when `passing` is given); none when some report cannot
    /// have been shown.
    fn stages_reached(
        &self,
        count: usize,
        sequence: &Sequence<'_>,
        passing: bool,
    ) -> Option<Vec<bool>> {
        let last = Stage(
            sequence
                .moves
                .len()
                .saturating_mul(2)
                .saturating_add(usize::from(sequence.under_way.is_some())),
        );
        // The stages each report may have been shown at, given those before it.
        let stages = last.0.saturating_add(1);
        let mut reachable = vec![false; stages];
        if let Some(first) = reachable.first_mut() {
            *first = true;
        }
        let mut heard = self.since;
        for (n, &(t, occupied)) in self.shown.iter().enumerate().take(count) {
            let unheard = t.saturating_sub(heard) >= UNHEARD_MS || (n == 0 && self.ahead);
            heard = t;
            let unknocked = self.unknocked(n).filter(|_| passing);
            let passing = passing && self.passing(n);
            let next: Vec<bool> = (0..stages)
                .map(|to| {
                    let stayed = passing && reachable.get(to).copied().unwrap_or(false);
                    let shows = sequence.shows(occupied, Stage(to))
                        || unknocked.is_some_and(|put_back| sequence.shows(put_back, Stage(to)));
                    stayed
                        || shows
                            && reachable.iter().take(to.saturating_add(1)).enumerate().any(
                                |(from, &reached)| {
                                    reached && (unheard || made_whole(Stage(from), Stage(to)) <= 1)
                                },
                            )
                })
                .collect();
            if !next.contains(&true) {
                return None;
            }
            reachable = next;
        }
        Some(reachable)
    }

    /// What the board showed before the `n`th report: the report before it, or for the first
    /// the board as the record reached its position, when known.
    fn shown_before(&self, n: usize) -> Option<Bitboard> {
        match n.checked_sub(1) {
            Some(before) => self.shown.get(before).map(|&(_, shown)| shown),
            None => self.before,
        }
    }

    /// The `n`th report with the neighbours it shows knocked off put back, if it shows some:
    /// squares it shows emptied that the report before it (for the first, the board as the
    /// record reached its position) and the one after both show occupied. The last report,
    /// the board as it stands, has none.
    fn unknocked(&self, n: usize) -> Option<Bitboard> {
        let &(_, occupied) = self.shown.get(n)?;
        let &(_, after) = self.shown.get(n.checked_add(1)?)?;
        let before = self.shown_before(n)?;
        let knocked = before & after & !occupied;
        knocked.any().then_some(occupied | knocked)
    }

    /// Whether the `n`th report may show a piece passing by, and nothing of the sequence: shown
    /// for less than the transient time before the next report (the slide window, or one scan
    /// and a millisecond: a report the next replaced within a scan may have lasted no time), or
    /// undone by it (a neighbour knocked and put back: the board back as the report before
    /// showed it, or for the first as the board showed it when the record reached its
    /// position). The last report, the board as it stands, never is.
    fn passing(&self, n: usize) -> bool {
        let Some(&(then, after)) = self.shown.get(n.saturating_add(1)) else {
            return false;
        };
        let brief = self
            .shown
            .get(n)
            .is_some_and(|&(t, _)| then.saturating_sub(t) < self.transient_ms);
        let undone = self.shown_before(n).is_some_and(|before| before == after);
        brief || undone
    }
}

/// `root`, then the position after each of `moves` played from it.
fn positions_after(root: &Chess, moves: &[Move]) -> Vec<Chess> {
    let mut positions = Vec::with_capacity(moves.len().saturating_add(1));
    let mut position = root.clone();
    positions.push(position.clone());
    for &m in moves {
        position.play_unchecked(m);
        positions.push(position.clone());
    }
    positions
}

/// How many plies were made whole between a report at stage `from` and the next at `to`:
/// begun after the first, done before the second.
fn made_whole(from: Stage, to: Stage) -> usize {
    // The first ply begun after `from`, and the last done before `to`.
    let first = from.0.div_ceil(2).saturating_add(1);
    let last = to.0 / 2;
    last.saturating_add(1).saturating_sub(first)
}

/// Before 13. Nxe5 fxe5 14. Nxe5 Rf6 (chessbase-empty-line.pgn game 1, as the corpus bench's
/// Sentio row played it), for the tests of the moves a sampling board hid.
#[cfg(test)]
pub(super) const BEFORE_NXE5: &str =
    "r1bq1bk1/ppp2rpp/2p1np2/P3p3/2N1P3/3P1N2/1PP2PPP/R1B1QR1K w - - 1 13";

/// The reports of a board that showed `squares` emptied one after another from `start`, a
/// second apart from 1 s.
#[cfg(test)]
pub(super) fn emptied_in_turn(start: &Chess, squares: &[shakmaty::Square]) -> Frames {
    let mut frames = Frames::default();
    let mut occupied = start.board().occupied();
    for (t, &square) in (1_000..).step_by(1_000).zip(squares) {
        occupied.discard(square);
        frames.observe(t, occupied, start);
    }
    frames
}

/// A sequence of moves a report may be weighed against.
struct Sequence<'a> {
    /// The record's position, then the position after each move.
    positions: &'a [Chess],
    /// The moves made.
    moves: &'a [Move],
    /// The squares the next move under way emptied, when one is.
    under_way: Option<Bitboard>,
}

impl Sequence<'_> {
    /// Whether `occupied` can be shown at `stage` of the sequence.
    fn shows(&self, occupied: Bitboard, stage: Stage) -> bool {
        let Sequence {
            positions,
            moves,
            under_way,
        } = *self;
        let ply = stage.0 / 2;
        let Some(before) = positions.get(ply) else {
            return false;
        };
        let board = before.board();
        if stage.0.is_multiple_of(2) {
            return occupied == board.occupied();
        }
        let (changed, lifted) = match moves.get(ply) {
            Some(&m) => {
                let delta = geometry::occupancy_delta(m);
                let victim = geometry::capture_square(m).map_or(Bitboard::EMPTY, Bitboard::from);
                (delta, delta | victim)
            }
            None => match under_way {
                Some(emptied) => (Bitboard::EMPTY, emptied),
                None => return false,
            },
        };
        // A report showing the position before the ply unchanged shows it at rest.
        let set_down = occupied & !board.occupied();
        let taken_off = board.occupied() & !occupied;
        (set_down | taken_off).any()
            && (set_down & !changed).is_empty()
            && (taken_off & !lifted).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{position, uci_move};
    use shakmaty::Square;

    const BEFORE: &str = BEFORE_NXE5;

    fn moves(start: &Chess, ucis: &[&str]) -> Vec<Move> {
        let mut position = start.clone();
        ucis.iter()
            .map(|uci| {
                let m = uci_move(&position, uci);
                position.play_unchecked(m);
                m
            })
            .collect()
    }

    /// The reports a sampling board made of 13. Nxe5 fxe5 14. Nxe5 Rf6: c4 emptied, then f6,
    /// f3 and f7, then f6 filled, one report a second.
    fn shown(start: &Chess) -> Frames {
        let mut frames = Frames::default();
        let mut occupied = start.board().occupied();
        let steps = [
            (Some(Square::C4), None),
            (Some(Square::F6), None),
            (Some(Square::F3), None),
            (Some(Square::F7), None),
            (None, Some(Square::F6)),
        ];
        for (t, (emptied, filled)) in (1_000..).step_by(1_000).zip(steps) {
            if let Some(square) = emptied {
                occupied.discard(square);
            }
            if let Some(square) = filled {
                occupied.add(square);
            }
            frames.observe(t, occupied, start);
        }
        frames
    }

    #[test]
    fn the_order_the_board_showed_tells_a_sequence_from_its_transposition() {
        let start = position(BEFORE);
        let frames = shown(&start);
        let played = moves(&start, &["c4e5", "f6e5", "f3e5", "f7f6"]);
        let transposed = moves(&start, &["f3e5", "f6e5", "c4e5", "f7f6"]);
        assert!(frames.explained_by(&start, &played, None));
        assert!(!frames.explained_by(&start, &transposed, None));
    }

    #[test]
    fn a_move_under_way_explains_the_reports_made_while_it_was() {
        // After 13. Nxe5 fxe5 the white knight of f3 lifted: the reports up to then.
        let start = position(BEFORE);
        let frames = emptied_in_turn(&start, &[Square::C4, Square::F6, Square::F3]);
        let made = moves(&start, &["c4e5", "f6e5"]);
        assert!(frames.explained_by(&start, &made, Some(Bitboard::from(Square::F3))));
        // Not the other knight first, the one of c4 then in hand.
        let other = moves(&start, &["f3e5", "f6e5"]);
        assert!(!frames.explained_by(&start, &other, Some(Bitboard::from(Square::C4))));
    }

    #[test]
    fn a_piece_shown_set_down_where_no_ply_sets_one_is_not_explained() {
        let start = position(BEFORE);
        let mut frames = Frames::default();
        let mut occupied = start.board().occupied();
        occupied.discard(Square::C4);
        occupied.add(Square::D6);
        frames.observe(1_000, occupied, &start);
        occupied.discard(Square::D6);
        frames.observe(2_000, occupied, &start);
        // The knight rested on d6 before it took on e5: not 13. Nxe5 alone.
        assert!(!frames.explained_by(&start, &moves(&start, &["c4e5"]), None));
    }

    #[test]
    fn a_piece_shown_on_a_square_for_less_than_the_slide_window_was_passing_by() {
        // The knight shown on d6 on its way to e5 for 100 ms, then gone: slid across it, not
        // set down there; shown there for a second, it rested there.
        let start = position(BEFORE);
        let nxe5 = moves(&start, &["c4e5"]);
        for (gone_at, explained) in [(1_100, true), (2_000, false)] {
            let mut frames = Frames::new(250);
            let mut occupied = start.board().occupied();
            occupied.discard(Square::C4);
            occupied.add(Square::D6);
            frames.observe(1_000, occupied, &start);
            occupied.discard(Square::D6);
            frames.observe(gone_at, occupied, &start);
            assert_eq!(
                frames.explained_by(&start, &nxe5, None),
                explained,
                "gone at {gone_at}"
            );
        }
    }

    #[test]
    fn a_neighbour_knocked_and_put_back_shows_nothing_of_the_sequence() {
        // While the knight of c4 is in hand, the pawn of f7 knocked off for a second and put
        // back: 13. Nxe5 alone explains it; not while the pawn is still off.
        let start = position(BEFORE);
        let nxe5 = moves(&start, &["c4e5"]);
        let mut frames = Frames::default();
        let mut occupied = start.board().occupied();
        occupied.discard(Square::C4);
        frames.observe(1_000, occupied, &start);
        occupied.discard(Square::F7);
        frames.observe(2_000, occupied, &start);
        assert!(!frames.explained_by(&start, &nxe5, None));
        occupied.add(Square::F7);
        frames.observe(3_000, occupied, &start);
        assert!(frames.explained_by(&start, &nxe5, None));
    }

    #[test]
    fn a_neighbour_knocked_while_a_move_is_made_is_put_back_in_the_report_that_shows_it() {
        // 13. Nxe5 shown made (the record moves there), then the f6 pawn lifted with the g7 pawn
        // knocked off in the same frame, the pawn put back, the f6 pawn set down on e5 (taking
        // the knight): 13... fxe5 explains every report but the knock, which the board showed
        // put back (g7 occupied before and after).
        let start = position(BEFORE);
        let mut after = start.clone();
        after.play_unchecked(uci_move(&start, "c4e5"));
        let rested = after.board().occupied();
        let lifted = rested & !Bitboard::from(Square::F6);
        let knocked = lifted & !Bitboard::from(Square::G7);
        let fxe5 = moves(&after, &["f6e5"]);
        let weighed = |first: Option<Bitboard>| {
            let mut frames = Frames::new(250);
            if let Some(first) = first {
                frames.observe(1_000, first, &start);
            }
            frames.observe(2_000, knocked, &after);
            frames.observe(2_500, lifted, &after);
            frames.fit(&after, &fxe5, None)
        };
        assert_eq!(weighed(Some(rested)), Fit::Passing);
        // Not knowing how the board stood before, the knock is not seen put back.
        assert_eq!(weighed(None), Fit::None);
    }

    #[test]
    fn reports_made_while_the_record_stood_elsewhere_weigh_nothing() {
        let start = position(BEFORE);
        let frames = shown(&start);
        let after = {
            let mut after = start.clone();
            after.play_unchecked(uci_move(&start, "c4e5"));
            after
        };
        let transposed = moves(&after, &["f6e5", "f3e5"]);
        assert!(frames.explained_by(&after, &transposed, None));
    }

    #[test]
    fn the_reports_after_the_moves_caught_up_rested_are_kept_for_the_next() {
        // 1... Kf8 made, then the rook of d4 in hand, the knight of d7 off for a frame, the rook
        // set down: Rxd7, not Rxg4 (which leaves the same board). Kf8 is caught up only then (a
        // move under way after it until then): the reports since the king rested still tell
        // Rxd7; taken for a board any number of moves ahead, they told nothing.
        let start = position("4k3/3n4/8/8/3R2n1/8/8/4K3 b - - 0 1");
        let kf8 = moves(&start, &["e8f8"]);
        let mut after = start.clone();
        after.play_unchecked(kf8[0]);
        let rested = after.board().occupied();
        let rook_gone = rested & !Bitboard::from(Square::D4);
        let rxd7 = moves(&after, &["d4d7"]);
        let rxg4 = moves(&after, &["d4g4"]);
        // The reports before Kf8 is caught up, a quarter of a second apart, the board showing
        // the last of them then; and those after it.
        let weighed = |before: &[Bitboard], since: &[Bitboard]| {
            let mut frames = Frames::new(251);
            let mut times = (1_000..).step_by(250);
            for (t, &shown) in times.by_ref().zip(before) {
                frames.observe(t, shown, &start);
            }
            let now = before.last().copied().unwrap_or(rested);
            let at = times.next().unwrap_or_default();
            frames.caught_up(at, now, &start, &kf8, &after);
            for (t, &shown) in times.zip(since) {
                frames.observe(t, shown, &after);
            }
            (
                frames.fit(&after, &rxd7, None),
                frames.fit(&after, &rxg4, None),
            )
        };
        let rook_in_hand = [
            rook_gone,
            rook_gone & !Bitboard::from(Square::D7),
            rook_gone,
        ];
        let rest_then_rook: Vec<Bitboard> = [rested].into_iter().chain(rook_in_hand).collect();
        assert_eq!(weighed(&rest_then_rook, &[]), (Fit::Whole, Fit::Passing));
        // The white king knocked off after the rest (Kf8 caught up then) and put back: undone,
        // as the rest before it shows, it rules out neither.
        let knocked = rested & !Bitboard::from(Square::E1);
        assert_eq!(
            weighed(&[rested, knocked], &rest_then_rook),
            (Fit::Passing, Fit::Passing)
        );
    }

    #[test]
    fn two_moves_made_whole_between_two_close_reports_are_not_taken() {
        // The board at rest, then, 100 ms later, 13. Nxe5 fxe5 made and 14. Nxe5 too (or under
        // way, its knight in hand): two moves made whole within a frame or two, not taken;
        // after 3 s unheard, they may have been.
        let start = position(BEFORE);
        let made = moves(&start, &["c4e5", "f6e5", "f3e5"]);
        let mut after = start.board().occupied();
        for square in [Square::C4, Square::F6, Square::F3] {
            after.discard(square);
        }
        for (later, taken) in [(1_100, false), (4_000, true)] {
            let mut frames = Frames::default();
            frames.observe(1_000, start.board().occupied(), &start);
            frames.observe(later, after, &start);
            assert_eq!(
                frames.explained_by(&start, &made, None),
                taken,
                "at {later}"
            );
        }
    }
}
