//! Every game of a short source: each sequence of locks the units can take, one unit after the
//! other, with the games that reach the same board kept once (the one of the highest value).
//!
//! Where the source is short and the board small (a few units on a filled board), the whole
//! space of games is smaller than a beam's work: the solver then enumerates it instead of
//! searching it ([`crate::solve::tasks`]'s exhaustive task), so that a short budget finds what a
//! long one would. A game's value is its exact move score plus `rate` points per row its units
//! fall (a phrase estimate: the encoders spell mostly on the way down); two games that reach the
//! same board (the same cells and the same lines cleared by the last lock) have the same future,
//! so only the one of the higher value goes on. Games that end early (a unit cannot spawn) are
//! games too.
//!
//! The locks are the planner's ([`super::gen_locks`]: the supported locks, distinct by member
//! set), and the work is counted as the planner's: move generations and the children made
//! ([`crate::work::Op::ChildWord`]).

use super::{gen_locks, Placement, Plan, Scratch, Sim, Tables};
use crate::engine::{Board, Problem, Source};
use crate::work::{Limit, Op};
use rustc_hash::FxHashMap;

/// A partial game of the enumeration.
#[derive(Clone)]
struct Node {
    sim: Sim,
    placements: Vec<Placement>,
    descents: u64,
}

impl Node {
    fn value(&self, rate: f64) -> f64 {
        super::game_value(self.sim.move_score, self.descents, rate)
    }
}

/// What an enumeration found.
#[derive(Clone, Debug, Default)]
pub struct Every {
    /// Every game (of a distinct last board), best value first (ties: in the order found).
    pub games: Vec<Plan>,
    /// Partial games expanded, over every unit.
    pub nodes: usize,
}

/// The number of games a source of `units` units (their indices, in order) may hold at most,
/// from the locks each unit has on `board`: the product of their counts, each at least 1,
/// saturated at `cap` (a board that fills takes fewer locks later, so this is a rough upper
/// estimate; it is computed before any search, for the policy to tell whether the space fits).
pub fn space_estimate(tables: &Tables, board: &Board, units: &[usize], cap: f64) -> f64 {
    let mut scratch = Scratch::default();
    let mut counts: FxHashMap<usize, f64> = FxHashMap::default();
    let mut product = 1.0f64;
    for &u in units {
        let n = *counts.entry(u).or_insert_with(|| {
            gen_locks(tables, u, board, &mut scratch);
            scratch.locks.len().max(1) as f64
        });
        product = (product * n).min(cap);
        if product >= cap {
            break;
        }
    }
    product
}

/// Every game of `seed` (see the module doc), or `None` when the partial games of one unit would
/// exceed `most_nodes` or the task's `limit` stops it (checked at every partial game, as the
/// planner checks it at every unit). `rate` is the phrase estimate's points per row
/// fallen.
pub fn every_game(
    problem: &Problem,
    tables: &Tables,
    seed: u32,
    rate: f64,
    most_nodes: usize,
    limit: &Limit,
) -> Option<Every> {
    let mut scratch = Scratch::default();
    let mut frontier = vec![Node {
        sim: Sim::new(problem),
        placements: Vec::new(),
        descents: 0,
    }];
    let mut ended: Vec<Node> = Vec::new();
    let mut nodes = 0;
    let board_words = (problem.height as u64 + 2) * (problem.width as u64 / 64 + 2);
    for unit in Source::new(seed, problem.source_length as u64, problem.units.len()) {
        let spawn_y = tables.spaces[unit].spawn_state().y;
        let mut next: Vec<Node> = Vec::new();
        let mut index: FxHashMap<(Board, usize), usize> = FxHashMap::default();
        for node in frontier {
            if limit.stopped() {
                return None;
            }
            nodes += 1;
            if !gen_locks(tables, unit, &node.sim.board, &mut scratch) {
                ended.push(node);
                continue;
            }
            crate::work::add(Op::ChildWord, board_words * scratch.locks.len() as u64);
            for &lock in &scratch.locks {
                let mut child = node.clone();
                child.sim.lock(problem, unit, lock.state);
                child.descents += (lock.state.y - spawn_y).max(0) as u64;
                child.placements.push(Placement { unit, lock });
                let key = (child.sim.board.clone(), child.sim.ls_old);
                match index.get(&key) {
                    Some(&i) => {
                        if child.value(rate) > next[i].value(rate) {
                            next[i] = child;
                        }
                    }
                    None => {
                        if next.len() >= most_nodes {
                            return None;
                        }
                        index.insert(key, next.len());
                        next.push(child);
                    }
                }
            }
        }
        frontier = next;
        if frontier.is_empty() {
            break;
        }
    }
    // Sorting and handing over many games takes a while too: not past the limit.
    if limit.stopped() {
        return None;
    }
    let mut games: Vec<Node> = frontier.into_iter().chain(ended).collect();
    // A stable sort: equal values stay in the order found, which is deterministic.
    games.sort_by(|a, b| b.value(rate).total_cmp(&a.value(rate)));
    Some(Every {
        games: games
            .into_iter()
            .filter(|n| !n.placements.is_empty())
            .map(|n| Plan {
                placements: n.placements,
                move_score: n.sim.move_score,
                truncated: false,
            })
            .collect(),
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{problem_json, unit_json};
    use std::path::Path;

    /// A small filled board and a source of three units.
    fn tiny() -> Problem {
        let units = [
            unit_json(&[(0, 0), (1, 0)], (0, 0)),
            unit_json(&[(0, 0), (1, 0), (1, 1)], (1, 0)),
        ];
        let filled: Vec<(i64, i64)> = (4..8)
            .flat_map(|y| {
                (0..7)
                    .filter(move |x| (x + y) % 3 != 0)
                    .map(move |x| (x, y))
            })
            .collect();
        let json = problem_json((7, 8), &units, &filled, 3, &[0, 5]);
        Problem::from_json(&json, Path::new("t")).unwrap()
    }

    /// Every game replays without error, as long as its plan, with its move score; no beam finds
    /// a game whose board the enumeration missed or whose move score it beats.
    #[test]
    fn every_game_replays_and_no_beam_beats_it() {
        let p = tiny();
        let t = Tables::new(&p);
        for &seed in &p.seeds {
            let every =
                every_game(&p, &t, seed, 0.0, 1 << 20, &Limit::NONE).expect("a small space");
            assert!(every.games.len() > 10, "{} games", every.games.len());
            let best = every.games[0].move_score;
            for g in &every.games {
                let (_, e) = crate::testkit::played(&p, &t, seed, g);
                assert!(!e.end.is_error(), "{}", e.end);
                assert_eq!(e.move_score, g.move_score);
                assert_eq!(e.locked as usize, g.placements.len());
                assert!(g.move_score <= best);
            }
            for system in crate::testkit::systems() {
                let cfg = crate::plan::PlanConfig::whole_game();
                let mut scorer = crate::testkit::lock_scorer(&t, system, 1);
                let shape = crate::plan::BeamShape::of_width(64);
                let beam = crate::plan::plan_beam(&p, &t, seed, &cfg, shape, &mut scorer);
                assert!(beam.move_score <= best, "{system}: {}", beam.move_score);
            }
        }
    }

    /// The slow obvious twin: the best value over every sequence of locks, by plain recursion
    /// with no boards merged (`None` when the first unit cannot spawn: no game places a unit),
    /// and the number of whole games (leaves).
    fn twin(p: &Problem, t: &Tables, units: &[usize], rate: f64) -> (Option<f64>, usize) {
        fn go(
            p: &Problem,
            t: &Tables,
            units: &[usize],
            rate: f64,
            (sim, descents, placed): (&Sim, u64, usize),
            out: &mut (Option<f64>, usize),
        ) {
            let value = sim.move_score as f64 + rate * descents as f64;
            let mut scratch = Scratch::default();
            let ends = match units.first() {
                None => true,
                Some(&u) => !gen_locks(t, u, &sim.board, &mut scratch),
            };
            if ends {
                out.1 += 1;
                if placed > 0 && out.0.is_none_or(|b| value > b) {
                    out.0 = Some(value);
                }
                return;
            }
            let u = units[0];
            let spawn_y = t.spaces[u].spawn_state().y;
            for lock in scratch.locks.clone() {
                let mut child = sim.clone();
                child.lock(p, u, lock.state);
                let d = descents + (lock.state.y - spawn_y).max(0) as u64;
                go(p, t, &units[1..], rate, (&child, d, placed + 1), out);
            }
        }
        let mut out = (None, 0);
        go(p, t, units, rate, (&Sim::new(p), 0, 0), &mut out);
        out
    }

    /// On thousands of small random boards and sources (units that cannot spawn, boards that
    /// fill, games that end early), the enumeration's best value is the twin's, its games are
    /// in the order of value, no more than the twin's, and every one replays without error
    /// with its move score and its units.
    #[test]
    fn every_game_agrees_with_its_slow_twin() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(36);
        let (mut cases, mut ended, mut unspawned, mut merged) = (0, 0, 0, 0);
        while cases < 3000 {
            let (w, h) = (rng.gen_range(1..=7), rng.gen_range(1..=7));
            let units: Vec<String> = (0..rng.gen_range(1..=3))
                .map(|_| crate::testkit::random_unit(&mut rng, 4, 0.2))
                .collect();
            let from = rng.gen_range(0..=h);
            let fill = rng.gen_range(0.2..0.9);
            let length = rng.gen_range(1..=4);
            let seed = rng.gen_range(0..1000);
            let json = crate::testkit::random_problem(
                &mut rng,
                (w, h),
                (from, fill),
                &units,
                (length, &[seed]),
            );
            let Ok(p) = Problem::from_json(&json, Path::new("t")) else {
                continue;
            };
            let t = Tables::new(&p);
            let source: Vec<usize> = Source::new(seed, length as u64, p.units.len()).collect();
            if space_estimate(&t, &p.board, &source, 1e6) > 20_000.0 {
                continue;
            }
            cases += 1;
            let rate = [0.0, 0.5, 3.25, 40.0][rng.gen_range(0..4)];
            let every =
                every_game(&p, &t, seed, rate, 1 << 20, &Limit::NONE).expect("a small space");
            let (best, leaves) = twin(&p, &t, &source, rate);
            let value = |g: &Plan| {
                let d = g.descents(&t);
                g.move_score as f64 + rate * d as f64
            };
            assert_eq!(every.games.first().map(value), best, "{json}");
            assert!(every.games.len() <= leaves, "{json}");
            merged += usize::from(every.games.len() < leaves);
            unspawned += usize::from(best.is_none());
            for pair in every.games.windows(2) {
                assert!(value(&pair[0]) >= value(&pair[1]), "{json}");
            }
            for g in &every.games {
                ended += usize::from(g.placements.len() < source.len());
                let (_, e) = crate::testkit::played(&p, &t, seed, g);
                assert!(!e.end.is_error(), "{}: {json}", e.end);
                assert_eq!(e.move_score, g.move_score, "{json}");
                assert_eq!(e.locked as usize, g.placements.len(), "{json}");
            }
        }
        // The hard corners were there.
        assert!(
            unspawned > 10 && ended > 100 && merged > 100,
            "{unspawned} {ended} {merged}"
        );
    }

    /// A limit whose moment has passed gives up at once.
    #[test]
    fn a_passed_deadline_gives_up() {
        let p = tiny();
        let t = Tables::new(&p);
        let now = Limit::until(Some(std::time::Instant::now()));
        assert!(every_game(&p, &t, p.seeds[0], 0.0, 1 << 20, &now).is_none());
    }

    /// The enumeration gives up past its bound, and the estimate bounds the games found.
    #[test]
    fn the_bound_and_the_estimate() {
        let p = tiny();
        let t = Tables::new(&p);
        let seed = p.seeds[0];
        let units: Vec<usize> = Source::new(seed, 3, p.units.len()).collect();
        let estimate = space_estimate(&t, &p.board, &units, 1e12);
        let every = every_game(&p, &t, seed, 0.0, 1 << 20, &Limit::NONE).unwrap();
        assert!(every.games.len() as f64 <= estimate, "{estimate}");
        assert!(every_game(&p, &t, seed, 0.0, 3, &Limit::NONE).is_none());
        assert_eq!(space_estimate(&t, &p.board, &units, 5.0), 5.0);
    }
}
