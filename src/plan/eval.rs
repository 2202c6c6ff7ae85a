//! The one door between the search and the evaluation of its locks: the beam ([`super::beam`])
//! asks an [`Evaluator`] what each lock is worth and what a board's state is, and knows nothing
//! of how. The heuristic, the stack evaluation, the tie-breaking noise and the phrase valuers
//! all live behind it, in `crate::eval`, which sits above the encoders that its phrase valuers
//! use; the planner sits below both and reaches the evaluation only through this trait.
//!
//! Invariants the beam relies on: an evaluator answers the same calls with the same values (its
//! noise, if any, draws in the order of the calls), and [`Evaluator::stateful`] does not change
//! during a plan.

use super::{Lock, Scratch, Sim};
use crate::engine::Board;

/// What an evaluator keeps of a board along with its state ([`Evaluator::state`]), handed back
/// when the state of a board made from it is asked: the stack evaluation keeps there, per probe
/// unit, its reach's size and the lowest row the reach covers, which a lock below that row
/// leaves as they were. Opaque to the beam, which only stores it with each partial game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StateMemo(pub [i64; 4]);

/// A lock as the beam ranks it: its value, the lock, the carry it leaves (see
/// [`Evaluator::score`]) and the weighted state of the board that it adds.
pub type Scored = (f64, Lock, u32, f64);

/// The locks of one partial game that the beam asks an evaluator to value, and what it knows
/// of them.
#[derive(Clone, Copy, Debug)]
pub struct Candidates<'a> {
    /// The game's `step`-th unit, which is unit `unit` of the problem.
    pub step: usize,
    pub unit: usize,
    /// The partial game, whose board the unit locks on.
    pub sim: &'a Sim,
    /// The unit's free map on that board.
    pub free: &'a [u64],
    pub locks: &'a [Lock],
    /// What the partial game's last lock left (see [`Evaluator`]).
    pub carry: u32,
    /// How many of the best locks the beam keeps: an evaluator may leave out of its scores the
    /// locks it proves to score less than that many others (see [`Evaluator::score`]).
    pub keep: usize,
}

/// Values the locks of one partial game and the states of boards, for the beam.
///
/// An evaluator may carry a state from one unit to the next (the phrase automaton's node that a
/// lock leaves, say): the beam keeps it with each partial game, opaque, and hands it back for
/// that game's next unit (0 at the start of a game, or [`super::PlanConfig::carry`] after a
/// prefix).
pub trait Evaluator {
    /// Whether a partial game's value holds a state of its board ([`Evaluator::state`]), which
    /// each lock replaces rather than adds to; the beam then ranks more children than it keeps
    /// by their boards' exact states.
    fn stateful(&self) -> bool;

    /// The weighted state of `board` (0 unless [`Evaluator::stateful`]), and what the
    /// evaluator keeps of it for the states of the boards made from it. `parent`, where given,
    /// is the board `board` was made from by filling cells (no row cleared), with what the
    /// evaluator kept of it: the answer must be the same as without it, only cheaper.
    fn state(
        &mut self,
        board: &Board,
        parent: Option<(&Board, &StateMemo)>,
        scratch: &mut Scratch,
    ) -> (f64, StateMemo);

    /// Fills `out` (cleared by the caller) with the value of each of `at.locks`, in order, or
    /// of some of them in any order: those left out must each score less than `at.keep` of the
    /// locks given, so that the `at.keep` best are the same as with every lock scored.
    fn score(&mut self, at: &Candidates, out: &mut Vec<Scored>);
}
