//! Beam search over the placements of the known source.
//!
//! The whole source is known before the first move, so a lock can be chosen for what it leaves
//! to the units that follow. The beam keeps the `width` best partial games after each unit; a
//! node's value is the sum of the values of its locks, as an [`Evaluator`] gives them (the
//! heuristic's features are mostly deltas of the board's quality: holes and transitions added,
//! cells placed low, points earned), so nodes of the same depth compare fairly. Each node
//! expands only its `branch` best locks. Nodes whose boards are identical (the same cells,
//! reached in another order) are kept once.
//! With width 1 and branch 1 this is the greedy planner.
//!
//! A beam may also revive ([`super::PlanConfig::revive_budget`]): where every partial game it keeps
//! dies at the same unit, it goes back to a snapshot of itself some units earlier and searches
//! that stretch again, wider, with fresh tie-breaks and few children of one partial game kept
//! ([`REVIVED_SIBLINGS`]), within a budget of partial games (see [`revive`]). The games it
//! ended with stay candidates, so a revived beam never plays fewer units than the same beam
//! without; one that plays its whole source never rewinds.

use super::{
    gen_locks, Candidates, Evaluator, Lock, Placement, Plan, PlanConfig, Scored, Scratch, Sim,
    StateMemo, Tables,
};
use crate::engine::{Problem, Source};
use crate::work::Op;
use std::hash::{Hash, Hasher};

mod revive;

use revive::{sibling_order, Revive, REVIVED_SIBLINGS};

/// With a state of the board counted ([`Evaluator::stateful`]), children made per unit
/// of width before the beam keeps its width by their exact values.
const RERANK: usize = 4;

/// ... and at least this many (the greedy planner's candidates).
const RERANK_LEAST: usize = 4;

/// The shape of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeamShape {
    /// Partial games kept after each unit.
    pub width: usize,
    /// Locks expanded per partial game.
    pub branch: usize,
}

/// The most locks a partial game of a beam expands: a wide beam keeps the best few children of
/// many partial games rather than every child of a few.
pub const MAX_BRANCH: usize = 8;

impl BeamShape {
    pub const GREEDY: BeamShape = BeamShape {
        width: 1,
        branch: 1,
    };

    /// The partial games kept, the children made and the locks expanded per partial game at
    /// one unit: a `narrow` beam keeps one. With a state of the board counted (`stateful`),
    /// more children are made than kept: they are ranked by their boards' exact states, which
    /// their locks' features only approximate.
    fn at(&self, narrow: bool, stateful: bool) -> (usize, usize, usize) {
        let width = if narrow { 1 } else { self.width };
        let made = if stateful {
            (width * RERANK).max(RERANK_LEAST)
        } else {
            width
        };
        let branch = match (width, stateful) {
            (1, false) => 1,
            (1, true) => RERANK_LEAST,
            _ => self.branch,
        };
        (width, made, branch)
    }

    /// The solver's beam of `width` partial games: each expands its best locks, as many as the
    /// width up to [`MAX_BRANCH`] (width 1 is the greedy planner).
    pub fn of_width(width: usize) -> BeamShape {
        BeamShape {
            width,
            branch: width.clamp(1, MAX_BRANCH),
        }
    }
}

#[derive(Clone)]
struct Node {
    sim: Sim,
    /// The sum of its locks' scores, plus its board's weighted state ([`Node::state`]).
    value: f64,
    /// Its board's weighted state ([`Evaluator::state`]: the stack evaluation's danger and
    /// sealed cells), held in `value` and replaced, not added to, by each lock.
    state: f64,
    /// What the evaluator kept of its board with the state ([`StateMemo`]).
    memo: StateMemo,
    /// The evaluator's carry after this node's last lock.
    carry: u32,
    /// Index of this node's step record in `steps`, or `usize::MAX` for the root.
    step: usize,
}

/// One expansion: which step it came from and the lock taken.
struct Step {
    parent: usize,
    placement: Placement,
}

/// Plans a whole game by beam search, its locks valued by `eval` (one evaluator per plan: its
/// noise draws on from call to call). The beam stops at the deadline (the best partial game is
/// returned, marked truncated) or when every partial game has ended.
pub fn plan_beam<E: Evaluator + ?Sized>(
    problem: &Problem,
    tables: &Tables,
    seed: u32,
    cfg: &PlanConfig,
    shape: BeamShape,
    eval: &mut E,
) -> Plan {
    // The scratch buffers are sized by the board's state count; on a large board filling them
    // anew costs more than planning a unit, so each thread keeps its own between plans.
    thread_local! {
        static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => plan_with(problem, tables, seed, cfg, shape, eval, &mut scratch),
        Err(_) => plan_with(
            problem,
            tables,
            seed,
            cfg,
            shape,
            eval,
            &mut Scratch::default(),
        ),
    })
}

fn plan_with<E: Evaluator + ?Sized>(
    problem: &Problem,
    tables: &Tables,
    seed: u32,
    cfg: &PlanConfig,
    shape: BeamShape,
    eval: &mut E,
    scratch: &mut Scratch,
) -> Plan {
    let mut steps: Vec<Step> = Vec::new();
    let stateful = eval.stateful();
    let root = root(problem, cfg, eval, &mut steps, scratch);
    let mut beam = vec![root];
    // Nodes whose game ended (the next unit could not spawn): kept as candidates for the best.
    let mut ended: Vec<Node> = Vec::new();
    let mut truncated = false;
    // A child: its value, its parent, the lock, the evaluator's carry and the weighted state
    // its lock adds (its value holds the parent's state plus that, until its board is made).
    let mut children: Vec<(f64, usize, Lock, u32, f64)> = Vec::new();
    let mut scored: Vec<Scored> = Vec::new();
    let mut ranks: Vec<(f64, u32)> = Vec::new();
    let units: Vec<usize> =
        Source::new(seed, problem.source_length as u64, problem.units.len()).collect();
    let mut revive = Revive::new(cfg);
    let mut step = cfg.prefix.len();
    while step < units.len() {
        let unit = units[step];
        if cfg.limit.plan_stopped() {
            truncated = true;
            break;
        }
        let narrow = cfg.limit.cut.narrows();
        revive.snap(step, &beam);
        let (width, made, branch) = revive.shape(step, shape).at(narrow, stateful);
        revive.count(width);
        children.clear();
        let mut live = Vec::with_capacity(beam.len());
        for node in beam.drain(..) {
            if !gen_locks(tables, unit, &node.sim.board, scratch) {
                ended.push(node);
                continue;
            }
            scored.clear();
            crate::work::add(Op::Feature, scratch.locks.len() as u64);
            let at = Candidates {
                step,
                unit,
                sim: &node.sim,
                free: &scratch.free,
                locks: &scratch.locks,
                carry: node.carry,
                keep: branch,
            };
            eval.score(&at, &mut scored);
            let keep = branch.min(scored.len());
            let parent = live.len();
            let child = |&(v, l, c, d): &Scored| (node.value + v, parent, l, c, d);
            if keep < scored.len() {
                select_best(&scored, keep, &mut ranks);
                children.extend(
                    ranks[..keep]
                        .iter()
                        .map(|&(_, i)| child(&scored[i as usize])),
                );
            } else {
                children.extend(scored.iter().map(child));
            }
            live.push(node);
        }
        if children.is_empty() {
            // Every partial game ended at this unit: go back some units and search them again
            // (not once the beam has narrowed to finish in time).
            let back = if narrow {
                None
            } else {
                revive.rewind(step, shape.width)
            };
            let Some((at, nodes)) = back else {
                break;
            };
            step = at;
            beam = nodes;
            continue;
        }
        children.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut seen = rustc_hash::FxHashSet::default();
        let board_words = (problem.height as u64 + 2) * (problem.width as u64 / 64 + 2);
        // On a rewound stretch a beam that keeps its children as made keeps few of each partial
        // game (a stateful beam does so when it cuts them to its width, below).
        // Elsewhere the children go in their order, with no list of indices made per unit.
        let order = (revive.revived(step) && !stateful)
            .then(|| sibling_order(&children, |c| c.1, REVIVED_SIBLINGS));
        let index = |k: usize| order.as_ref().map_or(k, |o| o[k]);
        for &(value, parent, lock, carry, added) in (0..children.len()).map(|k| &children[index(k)])
        {
            if beam.len() == made {
                break;
            }
            crate::work::add(Op::ChildWord, board_words);
            let mut sim = live[parent].sim.clone();
            let lines = sim.lock(problem, unit, lock.state);
            if made > 1 && !seen.insert(board_hash(&sim)) {
                continue;
            }
            // The child was ranked by its parent's state plus what its lock adds; its board's
            // own replaces them (lower where the lock cleared rows). Where no row cleared, the
            // evaluator may reuse what it kept of the parent's board.
            let (value, state, memo) = if stateful {
                let p = &live[parent];
                let from = (lines == 0).then_some((&p.sim.board, &p.memo));
                let (state, memo) = eval.state(&sim.board, from, scratch);
                (value - p.state - added + state, state, memo)
            } else {
                (value, 0.0, StateMemo::default())
            };
            steps.push(Step {
                parent: live[parent].step,
                placement: Placement { unit, lock },
            });
            beam.push(Node {
                sim,
                value,
                state,
                memo,
                carry,
                step: steps.len() - 1,
            });
        }
        if beam.len() > width {
            beam.sort_by(|a, b| b.value.total_cmp(&a.value));
            if revive.revived(step) {
                let order = sibling_order(&beam, |n| steps[n.step].parent, REVIVED_SIBLINGS);
                let mut slots: Vec<Option<Node>> = beam.drain(..).map(Some).collect();
                beam.extend(order.iter().take(width).filter_map(|&i| slots[i].take()));
            }
            beam.truncate(width);
        }
        step += 1;
    }
    best_plan(&beam, &ended, &steps, truncated)
}

/// The beam's first partial game: the prefix replayed (its locks pushed to `steps`), the
/// board's state counted where the evaluator is `stateful`.
fn root<E: Evaluator + ?Sized>(
    problem: &Problem,
    cfg: &PlanConfig,
    eval: &mut E,
    steps: &mut Vec<Step>,
    scratch: &mut Scratch,
) -> Node {
    let mut sim = Sim::new(problem);
    for &placement in &cfg.prefix {
        sim.lock(problem, placement.unit, placement.lock.state);
        steps.push(Step {
            parent: steps.len().checked_sub(1).unwrap_or(usize::MAX),
            placement,
        });
    }
    let (state, memo) = if eval.stateful() {
        eval.state(&sim.board, None, scratch)
    } else {
        (0.0, StateMemo::default())
    };
    Node {
        sim,
        value: state,
        state,
        memo,
        carry: cfg.carry,
        step: steps.len().checked_sub(1).unwrap_or(usize::MAX),
    }
}

/// The best game: the longest, then the highest valued (a game that ended early placed fewer
/// units, which the value does not see), among the partial games of the beam and those that
/// ended.
fn best_plan(beam: &[Node], ended: &[Node], steps: &[Step], truncated: bool) -> Plan {
    let depth = |n: &Node| {
        let mut d = 0;
        let mut s = n.step;
        while s != usize::MAX {
            d += 1;
            s = steps[s].parent;
        }
        d
    };
    let best = beam
        .iter()
        .chain(ended.iter())
        .map(|n| (depth(n), n.sim.move_score, n.value, n))
        .max_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.total_cmp(&b.2)))
        .map(|t| t.3)
        .expect("the beam is never empty");
    let mut placements = Vec::new();
    let mut s = best.step;
    while s != usize::MAX {
        placements.push(steps[s].placement);
        s = steps[s].parent;
    }
    placements.reverse();
    Plan {
        placements,
        move_score: best.sim.move_score,
        truncated,
    }
}

fn board_hash(sim: &Sim) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    sim.board.hash(&mut h);
    sim.ls_old.hash(&mut h);
    h.finish()
}

/// Puts first in `ranks` the (value, index) pairs of the `keep` best of `scored` by value, in no
/// particular order (`0 < keep < scored.len()`). The selection moves the pairs alone: the moves
/// of one over the 80-byte scored locks were the beam's own hottest instructions
/// (docs/changelog.md, forty-fourth session).
fn select_best(scored: &[Scored], keep: usize, ranks: &mut Vec<(f64, u32)>) {
    ranks.clear();
    ranks.extend(scored.iter().enumerate().map(|(i, s)| (s.0, i as u32)));
    ranks.select_nth_unstable_by(keep - 1, |a, b| b.0.total_cmp(&a.0));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Problem;
    use crate::plan::plan_greedy;
    use crate::testkit::{lock_scorer, played};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;
    use std::path::Path;

    /// The sibling order against its obvious twin on random parent lists: a permutation; the
    /// first items keep their order and hold at most `cap` of each parent; every item left out
    /// of them is a parent's `cap + 1`-th or later; an order with no parent over the cap is
    /// the identity.
    #[test]
    fn sibling_order_keeps_few_children_of_each_parent_first() {
        let mut rng = Pcg64Mcg::seed_from_u64(44);
        for _ in 0..2000 {
            let n = rng.gen_range(0..40usize);
            let parents = rng.gen_range(1..8usize);
            let cap = rng.gen_range(1..4usize);
            let items: Vec<usize> = (0..n).map(|_| rng.gen_range(0..parents)).collect();
            let order = sibling_order(&items, |&p| p, cap);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "a permutation");
            // The twin: an item is within the cap when fewer than `cap` items before it share
            // its parent.
            let within = |i: usize| items[..i].iter().filter(|&&p| p == items[i]).count() < cap;
            let first: Vec<usize> = (0..n).filter(|&i| within(i)).collect();
            let rest: Vec<usize> = (0..n).filter(|&i| !within(i)).collect();
            assert_eq!(order, [first.clone(), rest].concat(), "{items:?} cap {cap}");
            if first.len() == n {
                assert_eq!(order, (0..n).collect::<Vec<_>>());
            }
        }
        assert_eq!(
            sibling_order(&[0, 0, 0, 1, 1, 2], |&p| p, 1),
            [0, 3, 5, 1, 2, 4]
        );
        assert_eq!(sibling_order(&[7, 7, 7, 7], |&p| p, 2), [0, 1, 2, 3]);
    }

    #[test]
    fn wide_beams_plan_games_that_replay() {
        let json = r#"{"id":1,"width":6,"height":9,"filled":[{"x":2,"y":8}],"sourceLength":25,
            "sourceSeeds":[5],"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}},
            {"members":[{"x":0,"y":0},{"x":1,"y":1}],"pivot":{"x":0,"y":0}}]}"#;
        let p = Problem::from_json(json, Path::new("t")).unwrap();
        let t = Tables::new(&p);
        let cfg = PlanConfig::whole_game();
        let scorer = || lock_scorer(&t, "low", 3);
        let g = plan_greedy(&p, &t, 5, &cfg, &mut scorer());
        assert_eq!(
            g.placements,
            plan_greedy(&p, &t, 5, &cfg, &mut scorer()).placements,
            "deterministic"
        );
        for shape in [
            BeamShape {
                width: 8,
                branch: 4,
            },
            BeamShape {
                width: 3,
                branch: 1,
            },
        ] {
            let wide = plan_beam(&p, &t, 5, &cfg, shape, &mut scorer());
            assert!(!wide.placements.is_empty());
            let (text, e) = played(&p, &t, 5, &wide);
            assert!(!e.end.is_error());
            assert_eq!(e.move_score, wide.move_score);
            assert_eq!(e.locked as usize, wide.placements.len());
            // A beam from a prefix keeps it and plans the rest.
            let half = wide.placements.len() / 2;
            let mut from = cfg.clone();
            from.prefix = wide.placements[..half].to_vec();
            let rest = plan_beam(&p, &t, 5, &from, shape, &mut scorer());
            assert_eq!(rest.placements[..half], wide.placements[..half]);
            let (_, e2) = played(&p, &t, 5, &rest);
            assert!(!e2.end.is_error());
            assert_eq!(e2.move_score, rest.move_score);
            assert_eq!(e2.locked as usize, rest.placements.len());
            // The text gives its plan back.
            // (The same member set may be held in two states: the keys are compared.)
            let back = crate::plan::plan_of_text(&p, &t, 5, &text).expect("replays");
            let keys = |plan: &Plan| -> Vec<_> {
                plan.placements
                    .iter()
                    .map(|pl| (pl.unit, pl.lock.key))
                    .collect()
            };
            assert_eq!(keys(&back), keys(&wide));
            assert_eq!(back.move_score, wide.move_score);
        }
    }

    /// A beam that goes back where all its partial games die never plays fewer units than the
    /// same beam without, plays more on many boards where games die, and leaves a game that
    /// plays its whole source unchanged to the lock. Every game replays as planned.
    /// A beam that revives to its horizon (no budget, a finite cut) narrowed from its first
    /// death on plays at least as long as the same beam without revivals, its game replays
    /// as planned, and it stops by its cut though its tries are not counted.
    #[test]
    fn beams_reviving_to_their_horizon_narrow_and_stop_by_their_cut() {
        let mut rng = Pcg64Mcg::seed_from_u64(44);
        let (mut died, mut longer) = (0, 0);
        for case in 0..120u32 {
            let Some(p) = crate::testkit::random_dying_problem(&mut rng, case) else {
                continue;
            };
            let t = Tables::new(&p);
            let scorer = || lock_scorer(&t, "survive", case as u64);
            let shape = BeamShape::of_width(8);
            let mut cfg = PlanConfig::whole_game();
            let plain = plan_beam(&p, &t, case, &cfg, shape, &mut scorer());
            cfg.revive_budget = crate::plan::REVIVE_TO_HORIZON;
            cfg.revive_narrow = 2;
            cfg.limit.cut = crate::work::Cut::starting_now(0.02, 0.0, 0.0);
            let revived = plan_beam(&p, &t, case, &cfg, shape, &mut scorer());
            let (n, m) = (plain.placements.len(), revived.placements.len());
            assert!(m >= n, "case {case}: {m} units revived, {n} without");
            if n < 60 && n > 0 {
                died += 1;
                longer += (m > n) as usize;
            }
            let (_, e) = played(&p, &t, case, &revived);
            assert!(!e.end.is_error(), "case {case}");
            assert_eq!(e.locked as usize, m, "case {case}");
        }
        assert!(
            died >= 15 && longer * 2 >= died,
            "{died} died, {longer} revived longer"
        );
    }

    #[test]
    fn revived_beams_play_at_least_as_long_and_leave_whole_games_alone() {
        let mut rng = Pcg64Mcg::seed_from_u64(36);
        let (mut died, mut longer, mut whole) = (0, 0, 0);
        for case in 0..240u32 {
            let Some(p) = crate::testkit::random_dying_problem(&mut rng, case) else {
                continue;
            };
            let t = Tables::new(&p);
            let system = ["fill", "survive"][case as usize % 2];
            let width = [1, 4][case as usize / 2 % 2];
            let mut cfg = PlanConfig::whole_game();
            let scorer = || lock_scorer(&t, system, case as u64);
            cfg.revive_budget = 0;
            let shape = BeamShape::of_width(width);
            let plain = plan_beam(&p, &t, case, &cfg, shape, &mut scorer());
            cfg.revive_budget = usize::MAX;
            let revived = plan_beam(&p, &t, case, &cfg, shape, &mut scorer());
            let (n, m) = (plain.placements.len(), revived.placements.len());
            assert!(m >= n, "case {case}: {m} units revived, {n} without");
            if n == 60 {
                assert_eq!(revived.placements, plain.placements, "case {case}");
                whole += 1;
            } else if n > 0 {
                died += 1;
                longer += (m > n) as usize;
            }
            let (_, e) = played(&p, &t, case, &revived);
            assert!(!e.end.is_error(), "case {case}");
            assert_eq!(e.move_score, revived.move_score, "case {case}");
            assert_eq!(e.locked as usize, m, "case {case}");
        }
        assert!(
            died >= 40 && whole >= 20 && longer * 2 >= died,
            "{died} games died, {longer} of them revived longer; {whole} whole"
        );
    }

    /// The `pairs` system holds rows back for clears of two lines (its `clear1` is negative),
    /// where `balanced` clears each line as soon as it can. On a narrow board with small units a
    /// clear of two lines earns 300 points against 200 for two single ones, for a few units
    /// landing a row higher.
    #[test]
    fn pairs_clears_lines_two_at_a_time() {
        use crate::testkit::{problem_json, unit_json};
        let units = [
            unit_json(&[(0, 0)], (0, 0)),
            unit_json(&[(0, 0), (1, 0)], (0, 0)),
            unit_json(&[(0, 0), (1, 0), (2, 0)], (1, 0)),
            unit_json(&[(0, 0), (1, 0), (0, 1)], (0, 0)),
        ];
        let json = problem_json((10, 10), &units, &[], 120, &[0, 1, 2]);
        let p = Problem::from_json(&json, Path::new("t")).unwrap();
        let t = Tables::new(&p);
        let shape = BeamShape {
            width: 16,
            branch: 8,
        };
        // Locks clearing one line and two lines, over the three seeds.
        let clears = |system: &str| {
            let cfg = PlanConfig::whole_game();
            let mut counts = [0usize; 3];
            for &seed in &p.seeds {
                let plan = plan_beam(&p, &t, seed, &cfg, shape, &mut lock_scorer(&t, system, 1));
                assert_eq!(plan.placements.len(), 120, "{system} plays every unit");
                let mut sim = Sim::new(&p);
                for pl in &plan.placements {
                    counts[sim.lock(&p, pl.unit, pl.lock.state).min(2)] += 1;
                }
            }
            (counts[1], counts[2])
        };
        let (balanced_1, balanced_2) = clears("balanced");
        let (pairs_1, pairs_2) = clears("pairs");
        assert!(
            balanced_1 > balanced_2,
            "balanced: {balanced_1} single, {balanced_2} double"
        );
        assert!(
            pairs_2 > pairs_1,
            "pairs: {pairs_1} single, {pairs_2} double"
        );
        assert!(pairs_2 * 2 + pairs_1 >= (balanced_2 * 2 + balanced_1) * 3 / 4);
    }

    /// The selection against its obvious twin, a full sort, on random values (ties included):
    /// distinct indices whose values are the `keep` highest.
    #[test]
    fn select_best_picks_the_highest_values() {
        let mut rng = Pcg64Mcg::seed_from_u64(71);
        let lock = Lock {
            state: crate::plan::State { x: 0, y: 0, o: 0 },
            cmds: 0,
            key: (0, 0, 0),
        };
        let mut ranks = Vec::new();
        for _ in 0..3000 {
            let n = rng.gen_range(2..200);
            let spread = [3.0, 1e6][rng.gen_range(0..2)];
            let scored: Vec<Scored> = (0..n)
                .map(|_| ((rng.gen::<f64>() * spread).floor(), lock, 0, 0.0))
                .collect();
            let keep = rng.gen_range(1..n);
            select_best(&scored, keep, &mut ranks);
            let mut picked: Vec<u32> = ranks[..keep].iter().map(|&(_, i)| i).collect();
            for &(v, i) in &ranks[..keep] {
                assert_eq!(v, scored[i as usize].0);
            }
            picked.sort_unstable();
            picked.dedup();
            assert_eq!(picked.len(), keep, "distinct indices");
            let mut got: Vec<f64> = picked.iter().map(|&i| scored[i as usize].0).collect();
            let mut all: Vec<f64> = scored.iter().map(|s| s.0).collect();
            got.sort_by(|a, b| b.total_cmp(a));
            all.sort_by(|a, b| b.total_cmp(a));
            assert_eq!(got, all[..keep]);
        }
    }
}
