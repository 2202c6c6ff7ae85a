//! Splitting a run's tasks (one per problem and seed) into `N` shards for `N` independent
//! processes, so that they cover every task exactly once and get about the same work.
//!
//! The split is a pure function of the set of tasks: each task is keyed by (problem id, seed)
//! and weighed by the cost the solver itself uses to share time ([`super::Prepared::weight`]),
//! so processes on different machines, given the same problem files in any order, agree on it.
//! It is the longest-processing-time rule: tasks by decreasing weight (ties by problem id, then
//! seed), each to the shard with the least weight so far (ties to the lowest shard). Every shard's
//! load then differs from any other's by at most the heaviest task.

use super::Prepared;
use crate::engine::Problem;
use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`, written `K/N` with `K` from 1 to `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// From 0 (the `K` of `K/N` is `index + 1`).
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("a shard is K/N with 1 <= K <= N (like 2/8), not {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// One (problem, seed) task to split: a job, so as not to be taken for the policy's
/// [`super::policy::Task`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedJob {
    pub problem_id: i64,
    pub seed: u32,
    /// Its cost, in the solver's units (positive).
    pub weight: f64,
}

/// The shard (from 0 to `count - 1`) of each task, in the order given. Tasks that are equal
/// in (problem id, seed) are one task: they go to the same shard.
pub fn split(tasks: &[SeedJob], count: usize) -> Vec<usize> {
    let count = count.max(1);
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&tasks[a], &tasks[b]);
        y.weight
            .total_cmp(&x.weight)
            .then(x.problem_id.cmp(&y.problem_id))
            .then(x.seed.cmp(&y.seed))
    });
    let mut load = vec![0.0f64; count];
    let mut part = vec![0usize; tasks.len()];
    let mut last: Option<usize> = None;
    for i in order {
        // A duplicate of the task before it (sorted next to each other) follows it.
        if let Some(j) = last.filter(|&j| {
            (tasks[j].problem_id, tasks[j].seed) == (tasks[i].problem_id, tasks[i].seed)
        }) {
            part[i] = part[j];
            continue;
        }
        let lightest = (0..count)
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .expect("at least one shard");
        load[lightest] += tasks[i].weight;
        part[i] = lightest;
        last = Some(i);
    }
    part
}

/// The problems restricted to the seeds of `shard`: each problem keeps the seeds of its tasks
/// in the shard (duplicates included), and a problem left without seeds is dropped. Also returns
/// the shard's share of the run's cost.
pub fn restrict(problems: &[&Problem], shard: Shard) -> (Vec<Problem>, f64) {
    let weights: Vec<f64> = problems.iter().map(|p| Prepared::new(p).weight()).collect();
    let tasks: Vec<SeedJob> = problems
        .iter()
        .zip(&weights)
        .flat_map(|(p, &weight)| {
            p.distinct_seeds().into_iter().map(move |seed| SeedJob {
                problem_id: p.id,
                seed,
                weight,
            })
        })
        .collect();
    let part = split(&tasks, shard.count);
    let mine = |id: i64, seed: u32| {
        tasks
            .iter()
            .zip(&part)
            .any(|(t, &k)| k == shard.index && t.problem_id == id && t.seed == seed)
    };
    let all: f64 = tasks.iter().map(|t| t.weight).sum();
    let own: f64 = tasks
        .iter()
        .zip(&part)
        .filter(|(_, &k)| k == shard.index)
        .map(|(t, _)| t.weight)
        .sum();
    let kept = problems
        .iter()
        .map(|p| Problem {
            seeds: p.seeds.iter().copied().filter(|&s| mine(p.id, s)).collect(),
            ..(*p).clone()
        })
        .filter(|p| !p.seeds.is_empty())
        .collect();
    (kept, if all > 0.0 { own / all } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn random_tasks(rng: &mut rand_pcg::Pcg64Mcg) -> Vec<SeedJob> {
        let problems = rng.gen_range(0..12);
        let mut out = Vec::new();
        for id in 0..problems {
            // The solver's weight: width x height x source length.
            let weight =
                (rng.gen_range(1..60) * rng.gen_range(1..60) * rng.gen_range(1..600)) as f64;
            for _ in 0..rng.gen_range(0..20) {
                out.push(SeedJob {
                    problem_id: id * 7 - 20,
                    seed: rng.gen_range(0..40),
                    weight,
                });
            }
        }
        out
    }

    #[test]
    fn shards_parse_and_print() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!("1/1".parse::<Shard>().unwrap().to_string(), "1/1");
        for bad in ["0/4", "5/4", "4", "a/4", "1/0", "-1/4", "1/4/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_task_is_in_exactly_one_shard_and_the_loads_are_balanced() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(15);
        for case in 0..2000 {
            let tasks = random_tasks(&mut rng);
            let n = 1 + case % 17;
            let part = split(&tasks, n);
            assert_eq!(part.len(), tasks.len());
            // Each shard, as a process would select it: the union is every task, and no task
            // (counting duplicates as one) is in two shards.
            let mut owner = std::collections::HashMap::new();
            for (t, &p) in tasks.iter().zip(&part) {
                assert!(p < n);
                let prev = owner.insert((t.problem_id, t.seed), p);
                assert!(
                    prev.is_none_or(|q| q == p),
                    "task in shards {prev:?} and {p}"
                );
            }
            // Balance: no shard is heavier than another by more than the heaviest task.
            let mut load = vec![0.0; n];
            let mut seen = std::collections::HashSet::new();
            for (t, &p) in tasks.iter().zip(&part) {
                if seen.insert((t.problem_id, t.seed)) {
                    load[p] += t.weight;
                }
            }
            let heaviest = tasks.iter().map(|t| t.weight).fold(0.0, f64::max);
            let (lo, hi) = load
                .iter()
                .fold((f64::MAX, 0.0f64), |(lo, hi), &l| (lo.min(l), hi.max(l)));
            assert!(hi - lo <= heaviest, "case {case}: loads {load:?}");
            // The same set of tasks in another order splits the same way.
            let mut shuffled: Vec<usize> = (0..tasks.len()).collect();
            for i in (1..shuffled.len()).rev() {
                shuffled.swap(i, rng.gen_range(0..=i));
            }
            let other: Vec<SeedJob> = shuffled.iter().map(|&i| tasks[i]).collect();
            let other_part = split(&other, n);
            for (k, &i) in shuffled.iter().enumerate() {
                assert_eq!(other_part[k], part[i]);
            }
        }
    }

    #[test]
    fn equal_tasks_spread_evenly() {
        let tasks: Vec<SeedJob> = (0..50)
            .map(|s| SeedJob {
                problem_id: 4,
                seed: s,
                weight: 1.0,
            })
            .collect();
        let part = split(&tasks, 8);
        for k in 0..8 {
            let n = part.iter().filter(|&&p| p == k).count();
            assert!(n == 6 || n == 7, "shard {k} has {n}");
        }
        // More shards than tasks: some shards are empty, none has two.
        let part = split(&tasks[..3], 5);
        assert_eq!(part, vec![0, 1, 2]);
    }

    #[test]
    fn the_shards_of_a_run_restrict_problems_to_disjoint_seeds_that_make_the_whole() {
        let problem = |id: i64, width: usize, seeds: &str| {
            Problem::from_json(
                &format!(
                    r#"{{"id":{id},"width":{width},"height":6,"filled":[],"sourceLength":9,
                    "sourceSeeds":[{seeds}],
                    "units":[{{"members":[{{"x":0,"y":0}}],"pivot":{{"x":0,"y":0}}}}]}}"#
                ),
                std::path::Path::new("p"),
            )
            .unwrap()
        };
        let given = [
            problem(1, 5, "0,1,1,2"),
            problem(2, 9, "7"),
            problem(3, 4, "3,4,5,6,8"),
        ];
        let refs: Vec<&Problem> = given.iter().collect();
        for n in 1..=12 {
            let mut seeds: Vec<(i64, u32)> = Vec::new();
            let mut share = 0.0;
            for index in 0..n {
                let (kept, s) = restrict(&refs, Shard { index, count: n });
                share += s;
                for p in &kept {
                    assert!(!p.seeds.is_empty());
                    let whole = given.iter().find(|g| g.id == p.id).unwrap();
                    assert_eq!((p.width, p.height), (whole.width, whole.height));
                    seeds.extend(p.seeds.iter().map(|&s| (p.id, s)));
                }
            }
            // Every listed seed once (a seed listed twice stays listed twice, in one shard).
            seeds.sort();
            let mut all: Vec<(i64, u32)> = given
                .iter()
                .flat_map(|p| p.seeds.iter().map(move |&s| (p.id, s)))
                .collect();
            all.sort();
            assert_eq!(seeds, all, "{n} shards");
            assert!(
                (share - 1.0).abs() < 1e-9,
                "{n} shards: shares sum to {share}"
            );
        }
    }
}
