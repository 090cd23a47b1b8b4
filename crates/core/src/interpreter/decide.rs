//! Turning what the board shows into decisions: moves, corrections, takebacks, illegal moves,
//! mismatches, and the rulings that go with them.

use shakmaty::{Bitboard, Color, Move, Position, Role, Square};

use super::Interpreter;
use super::geometry::{can_grow, castling_targets, landing_square};
use super::judge::{Breach, TurnContext, castled_after_rook, judge};
use super::matching::Relation;
use super::move_times::TimesDue;
use super::phase::{Completion, Decided};
use super::phase::{Pending, Phase};
use super::trace::Touch;
use super::turn::{LeftCandidate, Turn};
use crate::event::{EventKind, IllegalMove, Rule, Violation, color_name};
use crate::rules::Ending;
use crate::sensor::Millis;

impl Interpreter {
    /// Looks at the board after a change at `t` and decides what it can.
    pub(super) fn reassess(&mut self, t: Millis) {
        let relation = self.relate();
        // Put back to a reinstated position, the board means nothing until it shows it.
        if self.reinstating() && relation != Relation::Current {
            self.phase = Phase::Unexplained { quiet_at: None };
            return;
        }
        // Unseen (a full report, or while catching up), a board that forward play also explains
        // may be moves that came back to an earlier position, or went on from it: no takeback
        // nor correction is taken, the board is not taken to match, and it is weighed again once
        // it has rested (caught up if one sequence leads there, else a mismatch).
        if matches!(relation, Relation::Correction(_) | Relation::Earlier(_))
            && self.unseen()
            && self.forward_play_explains()
        {
            let quiet_at = Some(self.quiet_after(t));
            self.phase = Phase::Unexplained { quiet_at };
            return;
        }
        if relation != Relation::Unmatched && self.sync.matched() {
            self.emit(t, EventKind::Resync);
            // While the board matched nothing, its touches meant nothing certain.
            self.turn.trace.mark_unseen();
        }
        self.remember_left_candidate(t, relation);
        match relation {
            Relation::Current => {
                self.phase = Phase::AtRest;
                self.turn.left_candidate = None;
                if let Some(from) = self.undecided.withdraw(self.game.position()) {
                    self.emit(
                        t,
                        EventKind::Ambiguous {
                            from,
                            to: Vec::new(),
                        },
                    );
                }
            }
            Relation::Next(m) => self.candidate(t, m, false),
            Relation::Correction(m) => self.candidate(t, m, true),
            Relation::Earlier(plies) => {
                self.phase = Phase::Pending {
                    what: Pending::Takeback { plies },
                    deadline: t.saturating_add(self.config.rest_ms()),
                };
            }
            Relation::AfterLeft(_) => {
                if let Some(left) = self.turn.left_candidate.take() {
                    self.decide_left(left, left.t);
                    self.reassess(t);
                }
            }
            Relation::Unmatched => {
                self.unmatched(t);
                // A sampling board's report is weighed once it is all taken in, not square by
                // square.
                let partial = self.sensed.in_report() && self.samples_occupancy();
                if self.sync.catching_up()
                    && !partial
                    && matches!(self.phase, Phase::Unexplained { .. })
                {
                    self.catch_up(t);
                }
            }
        }
    }

    /// Whether what the board shows was not seen change by change: a full report, or changes
    /// while catching up on moves made unseen.
    fn unseen(&self) -> bool {
        self.sync.catching_up() || self.sensed.in_report()
    }

    /// Whether a legal sequence of up to [`super::catch_up::MAX_PLIES`] plies from the game's
    /// position also leads to what the board shows (or, on a board that does not sample
    /// occupancy, to it with a move under way).
    fn forward_play_explains(&self) -> bool {
        use super::catch_up::{Bounds, CatchUp, catch_up};
        if !self.samples_occupancy() {
            return catch_up(self.game.position(), &self.sensed.board, Bounds::default())
                != CatchUp::Nothing;
        }
        // On a board that samples occupancy, only sequences that explain its reports, and lead
        // to the board itself (no move under way: a piece lifted shows one far too often).
        let bounds = Bounds {
            frames: Some(self.sensed.frames()),
            follow: true,
            ..Bounds::default()
        };
        matches!(
            catch_up(self.game.position(), &self.sensed.board, bounds),
            CatchUp::One(_) | CatchUp::Several(_)
        )
    }

    /// Decides the move the board left, `left`, at `t`: the touches made since it was left are
    /// the reply's, and go over to the reply's turn.
    pub(super) fn decide_left(&mut self, left: LeftCandidate, t: Millis) {
        let reply: Vec<Touch> = self
            .turn
            .trace
            .touches()
            .get(left.touches..)
            .map(<[Touch]>::to_vec)
            .unwrap_or_default();
        self.turn.trace.truncate_touches(left.touches);
        self.decide_move(t, left.m, left.correction);
        let off_board = self.game.position().board().occupied() & !self.sensed.board.occupied();
        self.turn.trace.adopt(&reply, off_board);
    }

    /// When the board leaves a pending move, remembers it (the opponent may have moved on).
    /// A correction counts on a board that samples occupancy: its piece, in hand between
    /// frames, may land just before the reply begins (on other boards each change is seen).
    fn remember_left_candidate(&mut self, t: Millis, relation: Relation) {
        if let Phase::Pending {
            what: Pending::Move { m, correction },
            ..
        } = self.phase
            && (!correction || self.samples_occupancy())
            && relation != Relation::Next(m)
            && relation != Relation::Correction(m)
        {
            self.turn.left_candidate = Some(LeftCandidate {
                m,
                correction,
                t,
                touches: self.touches_before_event,
            });
        }
    }

    /// The board shows legal move `m`: decide it now, or wait if it could still grow.
    fn candidate(&mut self, t: Millis, m: Move, correction: bool) {
        let what = Pending::Move { m, correction };
        if matches!(self.phase, Phase::Pending { what: pending, .. } if pending == what) {
            return;
        }
        let legal = if correction {
            match &self.previous {
                Some(previous) => &previous.legal,
                None => return,
            }
        } else {
            &self.turn.legal
        };
        let unsensed_promotion = matches!(m, Move::Normal { promotion: Some(_), to, .. }
            if self.sensed.board.identified_at(to).is_none());
        // A move shown after the mover's press waits for the press, which completes it.
        let press_held = !correction && self.mover_press_held();
        let grows = m
            .from()
            .is_some_and(|from| can_grow(m, legal.touching(from)));
        if grows || unsensed_promotion || press_held {
            // A promotion to a piece nobody chose waits for the choice, however long.
            let deadline = if self.awaits_choice_for(m) {
                Millis::MAX
            } else {
                t.saturating_add(self.config.rest_ms())
            };
            self.phase = Phase::Pending {
                what: Pending::Move { m, correction },
                deadline,
            };
        } else {
            self.decide_move(t, m, correction);
        }
    }

    /// The board matches nothing expected: an illegal placement, pieces in hand, or a mismatch.
    fn unmatched(&mut self, t: Millis) {
        // In a full report, or while catching up on an unexplained board, a piece off its square
        // is no illegal placement: what was played meanwhile is not known.
        let displaced = self
            .displacement()
            .filter(|_| !self.sync.catching_up() && !self.sensed.in_report());
        if let Some((from, to)) = displaced {
            let completed = self.turn.completed_illegal == Some((from, to));
            if !completed && self.is_castling_intent(from, to) {
                self.turn.trace.note_castle_intent(from, to, t);
            }
            self.phase = Phase::Displaced {
                from,
                to,
                completed,
            };
        } else if self.in_progress() {
            // Pieces missing from a board not seen change by change may have been captured
            // unseen: weighed once it has rested.
            let quiet_at = self.unseen().then(|| self.quiet_after(t));
            self.phase = Phase::InHand {
                quiet_at,
                rested: false,
            };
        } else {
            // Weighed once the board has rested for the slide window.
            let quiet_at = Some(self.quiet_after(t));
            self.phase = Phase::Unexplained { quiet_at };
        }
    }

    /// When the board, changed at `t`, will have rested for the slide window. On a board that
    /// samples occupancy once a window or more often, just after the frame that ends the
    /// window, so that frame is seen first: a neighbour knocked off and put back in it, or a
    /// piece slid on across the square it was shown on, is not weighed as moves.
    fn quiet_after(&self, t: Millis) -> Millis {
        let due = t.saturating_add(self.config.slide_ms);
        if self.samples_occupancy() && self.config.scan_ms <= self.config.slide_ms {
            due.saturating_add(1)
        } else {
            due
        }
    }

    /// Whether the king was set down two squares towards a rook, castling that way being illegal.
    fn is_castling_intent(&self, from: Square, to: Square) -> bool {
        let position = self.game.position();
        let is_king = position.board().role_at(from) == Some(Role::King);
        let rooks = position.board().rooks() & position.us();
        let towards_rook = rooks
            .into_iter()
            .any(|rook| from.rank() == rook.rank() && castling_targets(from, rook).0 == to);
        let castling_legal = self.turn.legal.moves().iter().any(|m| {
            matches!(*m, Move::Castle { king, rook }
                if king == from && castling_targets(king, rook).0 == to)
        });
        is_king && towards_rook && from.file().distance(to.file()) == 2 && !castling_legal
    }

    /// Whether `m` is a promotion the board cannot identify the piece of, for which no choice
    /// was entered, and the choice is awaited ([`crate::Config::promotion_choice_awaited`]).
    fn awaits_choice_for(&self, m: Move) -> bool {
        self.config.promotion_choice_awaited
            && self.turn.promotion.is_none()
            && matches!(m, Move::Normal { promotion: Some(_), to, .. }
                if self.sensed.board.identified_at(to).is_none())
    }

    /// Whether the pending move is a promotion awaiting the player's choice of piece.
    pub(super) fn awaits_promotion_choice(&self) -> bool {
        matches!(self.phase, Phase::Pending { what: Pending::Move { m, .. }, .. }
            if self.awaits_choice_for(m))
    }

    /// A deadline, a clock press or the opponent decided what was pending (a promotion
    /// awaiting its piece waits on: only the choice decides it).
    pub(super) fn decide_pending(&mut self, t: Millis) {
        if self.awaits_promotion_choice() {
            return;
        }
        match self.phase {
            Phase::Pending {
                what: Pending::Move { m, correction },
                ..
            } => self.decide_move(t, m, correction),
            Phase::Pending {
                what: Pending::Takeback { plies },
                ..
            } => self.decide_takeback(t, plies),
            _ => {}
        }
    }

    /// Records legal move `m` (replacing the last move when `correction`), with its ruling.
    pub(super) fn decide_move(&mut self, t: Millis, m: Move, correction: bool) {
        let how = if correction {
            Decided::Correction
        } else {
            Decided::Seen
        };
        self.play_decided(t, m, how);
    }

    /// Records legal move `m`, decided `how`, with its ruling.
    pub(super) fn play_decided(&mut self, t: Millis, m: Move, how: Decided) {
        let (m, promotion_default) = match how {
            Decided::Reconstructed => (m, false),
            Decided::Seen | Decided::Correction => self.resolve_promotion(m),
        };
        let breaches = match how {
            Decided::Correction => self.retract_for_correction(t, m),
            Decided::Seen => self.ruling(m),
            Decided::Reconstructed => Vec::new(),
        };
        let mover = self.game.turn();
        if how == Decided::Reconstructed || !self.turn.trace.all_seen() {
            // Caught up, or read partly from a full report or a board that matched nothing:
            // the board's word alone.
            self.guess.reconstructed();
        } else {
            // A move seen made by the side the record has to move shows the record right.
            self.guess.confirmed();
        }
        let played = self.game.play(m);
        if let Some(clock) = self.clock.as_mut() {
            clock.move_decided(mover, t);
        }
        let clock = self.clock.as_ref().map(|clock| clock.times(t));
        let mut event = played.into_event(promotion_default, clock);
        event.reconstructed = how == Decided::Reconstructed;
        // A clock may report for the first time after the decision: the move waits all the same.
        self.times_due = (!event.reconstructed).then(|| TimesDue::new(event.ply, mover, clock));
        self.emit(t, EventKind::Move(event));
        // The move decides what was pending: nothing is said to take it back.
        self.pending_said = None;
        if self.config.strict && self.config.exempt != Some(mover) {
            for breach in breaches {
                self.emit_violation(t, mover, breach, m);
            }
        }
        self.announce_ending_or_claims(t);
        // The turn before last is forgotten: its allocations serve the next turn.
        let spare = self
            .previous
            .take()
            .unwrap_or_else(|| Turn::new(&self.game, 0));
        let previous = std::mem::replace(&mut self.turn, spare);
        self.start_turn(Some(previous));
        // A press of the mover's still held has nothing more to wait for: the move is decided
        // (the reports that follow are the reply's).
        if self.held.press.is_some_and(|press| press.color == mover) {
            self.weigh_held_press();
        }
    }

    /// The promotion piece of an unidentified promotion: the entered choice, else a queen.
    fn resolve_promotion(&self, m: Move) -> (Move, bool) {
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion: Some(_),
            } if self.sensed.board.identified_at(to).is_none() => {
                let chosen = self
                    .turn
                    .promotion
                    .filter(|r| *r != Role::Pawn && *r != Role::King);
                let m = Move::Normal {
                    role,
                    from,
                    capture,
                    to,
                    promotion: Some(chosen.unwrap_or(Role::Queen)),
                };
                (m, chosen.is_none())
            }
            other => (other, false),
        }
    }

    /// The Article 4 breaches of making `m` in the current turn (none when a full report
    /// showed part of the turn: the order of its touches is not known).
    fn ruling(&self, m: Move) -> Vec<Breach> {
        if !self.turn.trace.all_seen() {
            return Vec::new();
        }
        let ctx = TurnContext {
            position: self.game.position(),
            legal: self.turn.legal.moves(),
        };
        judge(
            &ctx,
            self.turn.trace.touches(),
            self.turn.trace.castle_intent(),
            m,
        )
    }

    /// Takes the last move back so that `m` replaces it; the breach is 4.4.2 when this makes a
    /// castling the rook started, else 4.7 (the released piece moved on).
    pub(super) fn retract_for_correction(&mut self, t: Millis, m: Move) -> Vec<Breach> {
        let (Some(previous), Some(last)) = (self.previous.take(), self.game.last_move()) else {
            return Vec::new();
        };
        let seen = previous.trace.all_seen() && self.turn.trace.all_seen();
        // The released piece moved on only if its square was left since: a correction that
        // leaves it alone reads the last move's arrival otherwise (on a board that does not
        // identify pieces, a piece knocked and put back beside a piece in hand looks like a
        // capture by it).
        let landing = landing_square(last);
        let moved_on = self
            .turn
            .trace
            .lifted_any_of(Bitboard::from_square(landing));
        let breach = castled_after_rook(previous.trace.touches(), m, true).or_else(|| {
            moved_on.then_some(Breach {
                rule: Rule::ReleasedPieceMoved,
                square: landing,
            })
        });
        if let Some(ply) = self.game.take_back() {
            self.guess.taken_back();
            self.emit(t, EventKind::Takeback { ply });
        }
        self.turn.legal = previous.legal;
        let unseen = !self.turn.trace.all_seen();
        self.turn.trace = previous.trace;
        if unseen {
            // The correction itself was partly unseen (read from a full report): the corrected
            // turn was, and so a later correction of it earns no ruling either.
            self.turn.trace.mark_unseen();
        }
        self.turn.start_seq = previous.start_seq;
        // A turn part of which was not seen earns no ruling, nor does its correction.
        breach.filter(|_| seen).into_iter().collect()
    }

    /// Takes back `plies` plies: the board shows an earlier position.
    fn decide_takeback(&mut self, t: Millis, plies: usize) {
        for _ in 0..plies {
            if let Some(ply) = self.game.take_back() {
                self.guess.taken_back();
                self.emit(t, EventKind::Takeback { ply });
            }
        }
        self.start_turn(None);
    }

    /// The mover completed an illegal move (clock pressed, or the opponent started a reply).
    pub(super) fn complete_illegal(
        &mut self,
        t: Millis,
        displaced: Option<(Square, Square)>,
        completion: Completion,
    ) {
        if self.guess.pieces_guessed() && self.phase != Phase::AtRest {
            self.doubt_the_pieces(t);
            return;
        }
        let mover = self.game.turn();
        let exempt = self.config.exempt == Some(mover);
        let count = if exempt {
            self.game.illegal_count(mover)
        } else {
            self.game.count_illegal(mover)
        };
        let last_rank_pawn = displaced.and_then(|(from, to)| self.unreplaced_promotion(from, to));
        let message = match (displaced, last_rank_pawn) {
            (_, Some(_)) => {
                "pawn left on the last rank when the move was completed (7.5.2)".to_owned()
            }
            (Some((from, to)), None) => format!("{from}-{to} is not a legal move"),
            (None, None) => "clock pressed without making a legal move (7.5.3)".to_owned(),
        };
        let evidence = self.illegal_evidence(t, displaced, completion);
        let penalty_ms = match self.clock.as_mut() {
            Some(clock) if !exempt => Some(clock.penalty_to(!mover)),
            _ => None,
        };
        self.emit(
            t,
            EventKind::Illegal(IllegalMove {
                color: mover,
                count,
                message,
                uci: displaced.map(|(from, to)| format!("{from}{to}")),
                penalty_ms,
                evidence,
            }),
        );
        if !exempt && count >= self.config.illegal_limit {
            let ending = Ending::loss_unless_opponent_cannot_mate(
                self.game.position(),
                mover,
                "illegal moves",
                Rule::IllegalMoveLimit,
            );
            self.game.end(ending);
            self.announce_ending_or_claims(t);
            self.phase = Phase::Closed;
            return;
        }
        if let Some(promotion) = last_rank_pawn {
            self.decide_move(t, promotion, false);
            return;
        }
        self.turn.completed_illegal = displaced;
        self.turn.trace = super::Trace::new(self.game.position().board(), mover);
        self.turn.start_seq = self.sensed.motions.now();
        if let Some((from, _)) = displaced {
            self.turn.trace.bind(from, t);
        }
        if let Phase::Displaced { from, to, .. } = self.phase {
            self.phase = Phase::Displaced {
                from,
                to,
                completed: true,
            };
        }
    }

    /// The queen promotion a pawn left on the last rank becomes (FIDE 7.5.2).
    fn unreplaced_promotion(&self, from: Square, to: Square) -> Option<Move> {
        self.turn.legal.moves().iter().copied().find(|m| {
            matches!(m, Move::Normal { from: f, to: t, promotion: Some(Role::Queen), .. }
                if *f == from && *t == to)
        })
    }

    /// Emits the result or the claimable draws after a move or an ending.
    pub(super) fn announce_ending_or_claims(&mut self, t: Millis) {
        if let Some(ending) = self.game.ending() {
            let result = ending.to_result();
            self.emit(t, EventKind::Result(result));
            return;
        }
        let claims: Vec<_> = self.game.new_claims().collect();
        for reason in claims {
            self.emit(t, EventKind::Claimable { reason });
        }
    }

    /// A move was completed that the record's pieces could not make, while which piece stands
    /// where is a guess ([`Guess::pieces`](super::guess::Guess)): the record is more likely
    /// wrong than the player, so the board matches nothing (the mismatch is reported, once) and
    /// no ruling is made. Who moved last is not known either.
    fn doubt_the_pieces(&mut self, t: Millis) {
        self.guess.turn_unknown();
        self.phase = Phase::Unexplained { quiet_at: None };
        if !self.sync.mismatch_reported() {
            self.report_mismatch(t);
        }
    }

    /// Reports the board as matching nothing, square by square.
    pub(super) fn report_mismatch(&mut self, t: Millis) {
        let squares = self.differences_from_nearest();
        self.sync.report_mismatch();
        self.phase = Phase::Unexplained { quiet_at: None };
        self.emit(t, EventKind::Mismatch { squares });
    }

    fn emit_violation(&mut self, t: Millis, color: Color, breach: Breach, m: Move) {
        let message = describe(breach, color);
        let evidence = self.breach_evidence(breach, m, t);
        self.emit(
            t,
            EventKind::Violation(Violation {
                rule: breach.rule,
                color,
                square: breach.square,
                message,
                evidence,
            }),
        );
    }
}

/// A sentence for the arbiter about `breach` by `color`.
fn describe(breach: Breach, color: Color) -> String {
    let who = color_name(color);
    let sq = breach.square;
    match breach.rule {
        Rule::TouchOwn => format!(
            "{who} touched the piece on {sq}, which could be moved, and moved another piece"
        ),
        Rule::TouchOpponent => format!(
            "{who} touched the opponent's piece on {sq}, which could be captured, and did not capture it"
        ),
        Rule::TouchBoth => format!(
            "{who} touched pieces of both colours and did not make the move they oblige (first: {sq})"
        ),
        Rule::KingThenRook => {
            format!(
                "{who} touched the king on {sq} and then a rook, and did not castle although it was legal"
            )
        }
        Rule::RookThenKing => {
            format!("{who} touched the rook on {sq} before the king and then castled")
        }
        Rule::IllegalCastlingIntent => format!(
            "{who} set the king from {sq} down to castle illegally and then did not move the king"
        ),
        Rule::ReleasedPieceMoved => {
            format!("{who} moved the piece released on {sq} on to another square")
        }
        other => format!("{who}: {}", other.article()),
    }
}
