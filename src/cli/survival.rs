//! `hextris bench --survival`: how much of the source beams of each width play, per problem,
//! seed and scoring system. A game that ends before its source does loses every unit after its
//! end (problem 18: the greedy game dies after 33 of 1,000 units), and the solver's wider beams
//! only help where some width survives; this table shows where each system stands.
//!
//! Every game is planned as the solver's fresh attempts plan while the best game dies before the
//! source ends, through the solver's own stage runner ([`StageRunner::fresh`]) with the run's
//! search options (`--search`): a whole game, no deadline, the phrase valuer the solver's
//! attempt of that system gets ([`Valuer::of_attempt`]: by words where the solver values
//! phrases at all, none for a survival system by default), tie-break seeds 0, 1,
//! ..., and from the search's `revive_width` on (16 by default) a beam that revives where all
//! its partial games die. So the table is a function of its inputs, the same on any machine.

use crate::encode::{Encoder, PhraseTable};
use crate::engine::{Phrases, Problem};
use crate::error::Result;
use crate::eval::Weights;
use crate::plan::Tables;
use crate::solve::stage::{StageRunner, Valuer};
use crate::solve::SearchOptions;
use rayon::prelude::*;

/// What the survival table measures and how.
#[derive(Clone, Debug)]
pub struct SurvivalOptions {
    /// Beam widths, one column each.
    pub widths: Vec<usize>,
    /// The scoring systems (name and weights), one row each per seed.
    pub systems: Vec<(String, Weights)>,
    /// Per system, whether the solver runs it as a survival system
    /// ([`crate::solve::survival_flags`]): its games then plan with the valuer such a system's
    /// attempts get ([`Valuer::of_attempt`]).
    pub survival: Vec<bool>,
    /// At most this many seeds per problem (its first ones).
    pub seeds: usize,
    /// Games per cell, with tie-break seeds 0, 1, ...: the cell shows their mean share (the
    /// length of a game that dies is chaotic: one tie broken otherwise moves its end).
    pub repeats: u64,
    /// Worker threads (all cores by default).
    pub threads: Option<usize>,
    /// Also write every game, spelt with plain paths, to this file (the contest's JSON list,
    /// each entry tagged with its system and width), to watch how a game ends.
    pub out: Option<std::path::PathBuf>,
    /// The search's options (`--search`): the phrase weight and the width from which beams
    /// revive.
    pub search: SearchOptions,
}

/// One game of the table: the share of the source it plays, and its text with `--out`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Played {
    pub share: f64,
    pub text: Option<String>,
}

/// The games of each (seed, system, width) of `problem`: per seed, per system, one per width.
pub fn shares(
    problem: &Problem,
    phrases: &Phrases,
    opts: &SurvivalOptions,
) -> Vec<Vec<Vec<Played>>> {
    let tables = Tables::new(problem);
    let table = PhraseTable::new(phrases);
    let encoder = Encoder::new(problem, &tables, &table);
    let seeds: Vec<u32> = problem
        .distinct_seeds()
        .into_iter()
        .take(opts.seeds)
        .collect();
    let source = problem.source_length.max(1) as f64;
    let repeats = opts.repeats.max(1);
    let jobs: Vec<(usize, usize, usize, u64)> = (0..seeds.len())
        .flat_map(|s| {
            (0..opts.systems.len()).flat_map(move |y| {
                (0..opts.widths.len()).flat_map(move |w| (0..repeats).map(move |r| (s, y, w, r)))
            })
        })
        .collect();
    // The widest jobs first, so that the last job to finish is a short one.
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(opts.widths[jobs[j].2]));
    let done: Vec<(usize, Played)> = order
        .par_iter()
        .map(|&j| {
            let (s, y, w, r) = jobs[j];
            let runner =
                StageRunner::new(problem, &tables, &encoder, &table, seeds[s], &opts.search);
            // The valuer of a fresh attempt while the best game dies early (no game is whole).
            let valuer = Valuer::of_attempt(opts.survival[y], false, &opts.search);
            let plan = runner.fresh(&opts.systems[y].1, r, opts.widths[w], valuer);
            // The first tie-break's game is the one written.
            let text = (opts.out.is_some() && r == 0)
                .then(|| crate::encode::plain(problem, &tables, &plan));
            let share = plan.placements.len() as f64 / source;
            (j, Played { share, text })
        })
        .collect();
    let mut out =
        vec![vec![vec![Played::default(); opts.widths.len()]; opts.systems.len()]; seeds.len()];
    for (j, played) in done {
        let (s, y, w, _) = jobs[j];
        let cell = &mut out[s][y][w];
        cell.share += played.share / repeats as f64;
        if played.text.is_some() {
            cell.text = played.text;
        }
    }
    out
}

/// Formats a share of the source as a percentage.
fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// The table's header line.
fn header(opts: &SurvivalOptions, name_width: usize) -> String {
    let mut line = format!(
        "{:>7} {:>6} {:>5} {:<name_width$}",
        "problem", "seed", "units", "system"
    );
    for w in &opts.widths {
        line += &format!(" {:>7}", format!("w{w}"));
    }
    line
}

/// Runs `hextris bench --survival`: the table, then per system the mean share at each width and
/// the games that played their whole source.
pub fn run(
    problems: &[(std::path::PathBuf, Problem)],
    phrases: &Phrases,
    opts: &SurvivalOptions,
) -> Result<()> {
    let pool = crate::solve::pool::thread_pool(opts.threads)?;
    let name_width = opts
        .systems
        .iter()
        .map(|(n, _)| n.len())
        .max()
        .unwrap_or(6)
        .max(6);
    println!("{}", header(opts, name_width));
    println!(
        "(share of the source each beam width plays; whole games, the mean of tie-break seeds 0 to {})",
        opts.repeats.max(1) - 1
    );
    let (n_sys, n_w) = (opts.systems.len(), opts.widths.len());
    let mut sums = vec![vec![0.0; n_w]; n_sys];
    let mut whole = vec![vec![0usize; n_w]; n_sys];
    let mut games = 0usize;
    let mut texts = Vec::new();
    for (_, problem) in problems {
        let table = pool.install(|| shares(problem, phrases, opts));
        let seeds = problem.distinct_seeds();
        for (s, per_system) in table.iter().enumerate() {
            games += 1;
            for (y, per_width) in per_system.iter().enumerate() {
                let mut line = format!(
                    "{:>7} {:>6} {:>5} {:<name_width$}",
                    problem.id, seeds[s], problem.source_length, opts.systems[y].0
                );
                for (w, played) in per_width.iter().enumerate() {
                    let share = played.share;
                    line += &format!(" {:>7}", percent(share));
                    sums[y][w] += share;
                    whole[y][w] += (share >= 1.0 - 1e-9) as usize;
                    if let Some(text) = &played.text {
                        texts.push(crate::io::Solution {
                            problem_id: problem.id,
                            seed: seeds[s],
                            tag: Some(format!(
                                "survival {} w{}",
                                opts.systems[y].0, opts.widths[w]
                            )),
                            solution: text.clone(),
                        });
                    }
                }
                println!("{line}");
            }
        }
    }
    println!("\nmean share over {games} games (games whose every tie-break played the whole source in brackets)");
    for (y, (name, _)) in opts.systems.iter().enumerate() {
        let mut line = format!("{:>20} {name:<name_width$}", "");
        for w in 0..n_w {
            let mean = sums[y][w] / games.max(1) as f64;
            line += &format!(" {:>7} ({:>3})", percent(mean), whole[y][w]);
        }
        println!("{line}");
    }
    if let Some(path) = &opts.out {
        crate::io::write_atomic(path, crate::io::solutions_to_json(&texts).as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// On an empty board every width plays the whole source; where the spawn is filled from
    /// the start, none plays a unit.
    #[test]
    fn shares_are_the_units_played_over_the_source() {
        let empty = r#"{"id":1,"width":6,"height":8,"filled":[],"sourceLength":30,
            "sourceSeeds":[0,1],"units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}]}"#;
        let p = Problem::from_json(empty, Path::new("t")).unwrap();
        let opts = SurvivalOptions {
            widths: vec![1, 4],
            systems: vec![
                ("low".into(), Weights::system("low").unwrap()),
                ("fill".into(), Weights::system("fill").unwrap()),
            ],
            survival: vec![false, false],
            seeds: 1,
            repeats: 2,
            threads: Some(1),
            out: None,
            search: SearchOptions::default(),
        };
        let share = |t: Vec<Vec<Vec<Played>>>| -> Vec<Vec<Vec<f64>>> {
            t.into_iter()
                .map(|s| {
                    s.into_iter()
                        .map(|y| y.iter().map(|p| p.share).collect())
                        .collect()
                })
                .collect()
        };
        let t = share(shares(&p, &Phrases::official(), &opts));
        assert_eq!(t, vec![vec![vec![1.0, 1.0]; 2]], "one seed, whole games");
        let blocked = empty.replace(r#""filled":[]"#, r#""filled":[{"x":2,"y":0}]"#);
        let p = Problem::from_json(&blocked, Path::new("t")).unwrap();
        assert_eq!(p.units[0].spawn().x, 2, "the filled cell is the spawn");
        let t = share(shares(&p, &Phrases::official(), &opts));
        assert_eq!(t, vec![vec![vec![0.0, 0.0]; 2]]);
    }

    /// Each system's games plan with the valuer the solver's attempts of it get: a survival
    /// system's without phrases by default, with them when the search says so (regression: the
    /// table valued phrases for every system after the solver stopped doing so for `survive`).
    #[test]
    fn each_system_plans_with_the_solvers_valuer() {
        let p = crate::testkit::phrase_valued_problem();
        let systems = crate::eval::compiled_systems();
        let phrases = Phrases::official();
        let (tables, table) = (Tables::new(&p), PhraseTable::new(&phrases));
        let encoder = Encoder::new(&p, &tables, &table);
        let mut plans_differ = false;
        for survival_valuer in [false, true] {
            let search = SearchOptions {
                survival_valuer,
                ..SearchOptions::default()
            };
            let survival = crate::solve::survival_flags(&systems, &search);
            assert!(survival.iter().any(|&s| s) && !survival.iter().all(|&s| s));
            let opts = SurvivalOptions {
                widths: vec![4],
                systems: systems.clone(),
                survival: survival.clone(),
                seeds: 1,
                repeats: 1,
                threads: Some(1),
                out: Some("unused.json".into()),
                search: search.clone(),
            };
            let games = shares(&p, &phrases, &opts);
            let runner = StageRunner::new(&p, &tables, &encoder, &table, 7, &search);
            for (y, (name, weights)) in systems.iter().enumerate() {
                let valuer = match (survival[y], survival_valuer) {
                    (true, false) => Valuer::Off,
                    _ => Valuer::Words,
                };
                let plan = runner.fresh(weights, 0, 4, valuer);
                let text = crate::encode::plain(&p, &tables, &plan);
                assert_eq!(
                    games[0][y][0].text.as_deref(),
                    Some(text.as_str()),
                    "{name}"
                );
                if survival[y] {
                    let other = runner.fresh(weights, 0, 4, Valuer::Words);
                    plans_differ |= other.placements != plan.placements;
                }
            }
        }
        assert!(plans_differ, "the case tells the valuers apart");
    }
}
