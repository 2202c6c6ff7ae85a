//! The lock scorer: the evaluation the beam searches with ([`crate::plan::Evaluator`]). It
//! values a lock by the heuristic's features ([`super::heuristic`]), the stack evaluation where
//! the weights count it ([`super::stack`]), a seeded tie-breaking noise and, where the planner
//! values phrases, the phrase valuer's value ([`super::phrase`]).
//!
//! Invariants (the stored games and the goldens depend on them): the noise draws once per lock,
//! in the order the beam asks, from a generator seeded once per scorer, so a scorer serves one
//! plan; and a lock's value is summed in one fixed order (features, stack, noise, valuer).

use super::phrase::PhraseValuer;
use super::stack::StackNode;
use super::{Features, Weights};
use crate::engine::Board;
use crate::plan::{Candidates, Evaluator, Scored, Scratch, StateMemo, Tables};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Scores the locks of one plan's partial games with `weights` (see the module's doc).
pub struct LockScorer<'a> {
    tables: &'a Tables,
    weights: &'a Weights,
    /// Whether the weights count the stack evaluation.
    stacked: bool,
    /// What the stack evaluation knows of the partial game's board.
    node: StackNode,
    rng: Pcg64Mcg,
    valuer: Option<PhraseValuer<'a>>,
    /// The valuer's value and carry per lock of the partial game at hand (empty without one).
    extra: Vec<(f64, u32)>,
}

impl<'a> LockScorer<'a> {
    /// A scorer for one plan on `tables` with `weights`, its noise seeded with `rng_seed`.
    pub fn new(tables: &'a Tables, weights: &'a Weights, rng_seed: u64) -> LockScorer<'a> {
        LockScorer {
            tables,
            weights,
            stacked: weights.stacked(),
            node: StackNode::default(),
            rng: Pcg64Mcg::seed_from_u64(rng_seed),
            valuer: None,
            extra: Vec::new(),
        }
    }

    /// The same scorer with the phrase valuer `valuer` (none: the heuristic alone).
    pub fn with_valuer(mut self, valuer: Option<PhraseValuer<'a>>) -> LockScorer<'a> {
        self.valuer = valuer;
        self
    }
}

impl Evaluator for LockScorer<'_> {
    fn stateful(&self) -> bool {
        self.weights.stateful()
    }

    fn state(
        &mut self,
        board: &Board,
        parent: Option<(&Board, &StateMemo)>,
        scratch: &mut Scratch,
    ) -> (f64, StateMemo) {
        self.tables
            .stack
            .state(board, parent, self.weights, &self.tables.spaces, scratch)
    }

    fn score(&mut self, at: &Candidates, out: &mut Vec<Scored>) {
        let (sim, locks) = (at.sim, at.locks);
        self.extra.clear();
        if let Some(v) = self.valuer.as_mut() {
            v.values(at.step, at.unit, at.free, locks, at.carry, &mut self.extra);
        }
        let (w, map) = (self.weights, &self.tables.stack);
        let space = &self.tables.spaces[at.unit];
        if self.stacked {
            let holes = w.sealed != 0.0 || w.dead != 0.0;
            map.node(&sim.board, holes, &mut self.node);
        }
        for (i, lock) in locks.iter().enumerate() {
            let f = Features::of(&sim.board, space, lock.state, sim.ls_old);
            let mut v = f.score(w);
            let mut added = 0.0;
            if self.stacked {
                let st = map.lock(&sim.board, space, lock.state, &mut self.node);
                v += st.score(w);
                added = st.state(w);
            }
            let v = v + w.noise * self.rng.gen::<f64>();
            let (e, carry) = self.extra.get(i).copied().unwrap_or((0.0, 0));
            out.push((v + e, *lock, carry, added));
        }
    }
}
