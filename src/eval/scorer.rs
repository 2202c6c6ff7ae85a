//! The lock scorer: the evaluation the beam searches with ([`crate::plan::Evaluator`]). It
//! values a lock by the heuristic's features ([`super::heuristic`]), the stack evaluation where
//! the weights count it ([`super::stack`]), a seeded tie-breaking noise and, where the planner
//! values phrases, the phrase valuer's value ([`super::phrase`]).
//!
//! Invariants (the stored games and the goldens depend on them): the noise draws once per lock,
//! in the order the beam asks, from a generator seeded once per scorer, so a scorer serves one
//! plan; and a lock's value is summed in one fixed order (features, stack, noise, valuer).

use super::heuristic::{LockSite, RowTables, TouchMemo};
use super::phrase::PhraseValuer;
use super::stack::{LockStack, StackNode};
use super::Weights;
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
    /// The row counts of the board at hand and the fill and depth tables (see [`RowTables`]).
    rows: RowTables,
    /// What the locks touched on the board scored last, taken over where their cells are the
    /// same on the next (see [`TouchMemo`]).
    touch: TouchMemo,
    /// Buffers of [`LockScorer::score_lazily`].
    bounds: Vec<Bound>,
    best: Vec<f64>,
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
            rows: RowTables::default(),
            touch: TouchMemo::default(),
            bounds: Vec::new(),
            best: Vec::new(),
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
        // Each lock reads the fill of the rows it touches: counted once per board here.
        let most = self.tables.spaces.iter().map(|s| s.size).max().unwrap_or(0);
        self.rows.count(&sim.board, most);
        if self.stacked {
            let holes = w.sealed != 0.0 || w.dead != 0.0;
            map.node(&sim.board, holes, &mut self.node);
        }
        // The cells a lock seals (a flood of the rows below it) are most of the stack
        // evaluation's cost, and they only lower a lock's score where their weights are not
        // positive: they are then worked out for the locks in the order of the score without
        // them, until that bound falls below the `keep`-th best score. With no noise, ties
        // would let another order of the scores change which locks the beam keeps.
        let lazy = self.stacked
            && self.node.seals()
            && w.sealed <= 0.0
            && w.dead <= 0.0
            && w.noise > 0.0
            && at.keep > 0
            && at.keep < locks.len();
        if lazy {
            self.score_lazily(at, out);
            return;
        }
        let site = LockSite {
            board: &sim.board,
            lookups: &self.rows,
            space,
            ls_old: sim.ls_old,
        };
        self.touch.begin(&sim.board, at.unit, space);
        for (i, lock) in locks.iter().enumerate() {
            let f = site.features_memoized(lock.state, &mut self.touch);
            let mut v = f.score(w);
            let mut added = 0.0;
            if self.stacked {
                let st = map.lock(&sim.board, space, lock.state, &mut self.node, true);
                v += st.score(w);
                added = st.state(w);
            }
            let v = v + w.noise * self.rng.gen::<f64>();
            let (e, carry) = self.extra.get(i).copied().unwrap_or((0.0, 0));
            out.push((v + e, *lock, carry, added));
        }
    }
}

impl LockScorer<'_> {
    /// [`Evaluator::score`] with the sealed cells counted only for the locks that may rank
    /// among the `at.keep` best (see there; `at.keep` is at least 1). Each score is summed in
    /// the same order as when every lock is scored, so the locks scored get the same values to
    /// the bit; a bound is the same sum with no cell sealed, and floating-point addition is
    /// monotone, so no lock left out could have beaten the `at.keep`-th.
    fn score_lazily(&mut self, at: &Candidates, out: &mut Vec<Scored>) {
        let (sim, locks) = (at.sim, at.locks);
        let (w, map) = (self.weights, &self.tables.stack);
        let space = &self.tables.spaces[at.unit];
        let site = LockSite {
            board: &sim.board,
            lookups: &self.rows,
            space,
            ls_old: sim.ls_old,
        };
        self.bounds.clear();
        for (i, lock) in locks.iter().enumerate() {
            let f = site.features(lock.state).score(w);
            let st = map.lock(&sim.board, space, lock.state, &mut self.node, false);
            // The noise draws once per lock, in the locks' order, as when all are scored.
            let noise = w.noise * self.rng.gen::<f64>();
            let (e, _) = self.extra.get(i).copied().unwrap_or((0.0, 0));
            let bound = f + st.score(w) + noise + e;
            self.bounds.push(Bound {
                bound,
                lock: i,
                features: f,
                stack: st,
                noise,
            });
        }
        // The `keep` best bounds first, scored whatever they are; then the others, only where
        // the bound reaches the `keep`-th best score so far (a selection, not a sort: the sort
        // cost more than it saved).
        let keep = at.keep;
        self.bounds.select_nth_unstable_by(keep - 1, |a, b| {
            b.bound.total_cmp(&a.bound).then(a.lock.cmp(&b.lock))
        });
        // The best scores so far, best first, at most `keep` of them.
        self.best.clear();
        for b in &self.bounds {
            if self.best.len() == keep && b.bound < self.best[keep - 1] {
                continue;
            }
            let lock = locks[b.lock];
            let mut st = b.stack;
            map.seal(&sim.board, space, lock.state, &mut self.node, &mut st);
            let (e, carry) = self.extra.get(b.lock).copied().unwrap_or((0.0, 0));
            let v = b.features + st.score(w) + b.noise + e;
            out.push((v, lock, carry, st.state(w)));
            let at_rank = self.best.partition_point(|&x| x >= v);
            if at_rank < keep {
                self.best.insert(at_rank, v);
                self.best.truncate(keep);
            }
        }
    }
}

/// A lock's score without the cells it seals, an upper bound of its score (see
/// [`LockScorer::score_lazily`]), and the parts the score is summed from.
#[derive(Clone, Copy, Debug)]
struct Bound {
    bound: f64,
    lock: usize,
    features: f64,
    stack: LockStack,
    noise: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Problem;
    use crate::plan::{gen_locks, Sim};
    use crate::testkit::{random_problem, random_unit};

    /// The survival weights with the stack's weights drawn at random (not positive, so that
    /// the lazy path runs), the tie-breaking noise sometimes tiny.
    fn random_weights(rng: &mut Pcg64Mcg) -> Weights {
        let mut w = Weights::system("survive").unwrap();
        w.sealed = -rng.gen_range(0.0..3.0) * rng.gen_range(0..2) as f64;
        w.dead = -rng.gen_range(0.0..5.0);
        w.spawn = -rng.gen_range(0.0..100.0);
        w.noise = [1e-9, 0.05, 1.0][rng.gen_range(0..3)];
        w
    }

    /// The lazy scoring of sealed cells against scoring every lock (its slow twin), on random
    /// problems whose boards have stacks full of holes: the locks it scores get the same
    /// values to the bit, and the best `keep` values are the same.
    #[test]
    fn lazy_sealing_keeps_the_same_best_locks() {
        let mut rng = Pcg64Mcg::seed_from_u64(44);
        let (mut calls, mut pruned) = (0, 0);
        for _ in 0..300 {
            let (w, h) = (rng.gen_range(5..20), rng.gen_range(8..26));
            let units: Vec<String> = (0..rng.gen_range(1..5))
                .map(|_| random_unit(&mut rng, 7, 0.2))
                .collect();
            let from = rng.gen_range(h / 4..h);
            let seed: u32 = rng.gen();
            let json = random_problem(&mut rng, (w, h), (from, 0.6), &units, (40, &[seed]));
            let p = Problem::from_json(&json, std::path::Path::new("t")).unwrap();
            let tables = Tables::new(&p);
            let weights = random_weights(&mut rng);
            let noise_seed: u64 = rng.gen();
            let mut lazy = LockScorer::new(&tables, &weights, noise_seed);
            let mut full = LockScorer::new(&tables, &weights, noise_seed);
            let mut sim = Sim::new(&p);
            let mut scratch = Scratch::default();
            for step in 0..30 {
                let unit = rng.gen_range(0..p.units.len());
                if !gen_locks(&tables, unit, &sim.board, &mut scratch) {
                    break;
                }
                let locks = scratch.locks.clone();
                let keep = rng.gen_range(1..=8);
                let at = |keep| Candidates {
                    step,
                    unit,
                    sim: &sim,
                    free: &scratch.free,
                    locks: &locks,
                    carry: 0,
                    keep,
                };
                let (mut a, mut b) = (Vec::new(), Vec::new());
                lazy.score(&at(keep), &mut a);
                full.score(&at(usize::MAX), &mut b);
                assert_eq!(b.len(), locks.len());
                assert!(a.len() >= keep.min(locks.len()));
                calls += 1;
                pruned += (a.len() < b.len()) as usize;
                for &(v, l, c, d) in &a {
                    let i = locks.iter().position(|x| *x == l).unwrap();
                    assert_eq!(b[i].0.to_bits(), v.to_bits(), "step {step} lock {i}");
                    assert_eq!((b[i].2, b[i].3.to_bits()), (c, d.to_bits()));
                }
                let best = |s: &[Scored]| {
                    let mut v: Vec<u64> = s.iter().map(|x| x.0.to_bits()).collect();
                    v.sort_by(|x, y| f64::from_bits(*y).total_cmp(&f64::from_bits(*x)));
                    v.truncate(keep);
                    v
                };
                assert_eq!(best(&a), best(&b), "step {step}, keep {keep}");
                let lock = locks[rng.gen_range(0..locks.len())];
                sim.lock(&p, unit, lock.state);
            }
        }
        assert!(
            calls > 2000 && pruned > calls / 4,
            "{calls} calls, {pruned} pruned"
        );
    }
}
