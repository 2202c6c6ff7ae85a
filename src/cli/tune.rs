//! `hextris tune`: tunes a scoring system's weights on problems with a fixed budget (a fixed
//! beam width and number of rounds) and writes them as data. Games are split: problems with
//! several seeds give their even-indexed seeds to training and their odd-indexed seeds to the
//! held-out set; single-seed problems go alternately to one set and the other.

use crate::error::{Error, Result};
use crate::eval::Weights;
use crate::io::{load_problems, read_text, write_atomic};
use crate::solve::stage::Valuer;
use crate::solve::tune::{tune, ProblemSeed, TuneConfig};
use crate::solve::Prepared;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Arguments of `hextris tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem files or folders of them.
    #[arg(required = true, value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// The system to start from (and to write).
    #[arg(long, default_value = "low")]
    pub system: String,
    /// Beam width of every game.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = crate::cli::args::between::<usize>(1, 2048))]
    pub width: usize,
    /// Rounds of the evolution strategy.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = crate::cli::args::between::<usize>(1, 100_000))]
    pub rounds: usize,
    /// Candidates per round.
    #[arg(long, default_value_t = 6, allow_negative_numbers = true, value_parser = crate::cli::args::between::<usize>(1, 10_000))]
    pub population: usize,
    /// Spread of the perturbations (log scale).
    #[arg(long, default_value_t = 0.3, allow_negative_numbers = true, value_parser = crate::cli::args::sigma)]
    pub sigma: f64,
    /// Seed of the tuner.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Games per (problem, seed), with different random tie-breaks (their mean counts).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = crate::cli::args::between::<u32>(1, 10_000))]
    pub repeats: u32,
    /// At most this many training seeds per problem (and as many held out).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = crate::cli::args::between::<usize>(1, 1_000_000))]
    pub seeds_per_problem: usize,
    /// Spell the games with the DP encoder, as the solver's attempts do (slower), rather than
    /// the greedy one.
    #[arg(long)]
    pub dp: bool,
    /// Judge candidates by the total score, as `hextris bench` does (the big problems dominate),
    /// rather than by the mean relative score per game.
    #[arg(long)]
    pub total: bool,
    /// Judge candidates by the share of the source their games play rather than by their
    /// scores (games are planned, not spelt): for a system made to keep games alive.
    #[arg(long)]
    pub survival: bool,
    /// Plan with the phrase valuer where the solver's attempts do (some unit cannot rotate),
    /// as they plan while the best game dies before the source ends (slower).
    #[arg(long, conflicts_with = "whole")]
    pub valued: bool,
    /// Plan with the character-level phrase valuer where the solver's attempts do (some unit
    /// cannot rotate), as they plan once a game plays the whole source (slower).
    #[arg(long)]
    pub whole: bool,
    /// The search's options from a JSON file (see `hextris solve --search`): the phrase weight
    /// and the width from which the games' beams revive, as the solver's fresh attempts do.
    #[arg(long = "search", value_name = "FILE")]
    pub search: Option<PathBuf>,
    /// Start from the system of this name in a weights file (shaped like
    /// src/eval/weights.json) rather than from the compiled-in one.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// The weights file to update (a JSON map from system name to weights), e.g.
    /// src/eval/weights.json for the compiled-in defaults; written only when the held-out games
    /// improve. Without it, the weights are printed.
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
}

/// Runs `hextris tune`.
pub fn run(args: Args) -> Result<()> {
    let start = match &args.from {
        None => Weights::system(&args.system)?,
        Some(path) => crate::eval::read_systems(path)?
            .into_iter()
            .find(|(name, _)| *name == args.system)
            .map(|(_, w)| w)
            .ok_or_else(|| {
                Error::invalid(
                    path,
                    format!("no scoring system {:?} in the file", args.system),
                )
            })?,
    };
    let phrases = args.phrases.get()?;
    let loaded = load_problems(&args.problems)?;
    let prepared: Vec<Prepared> = loaded.iter().map(|(_, p)| Prepared::new(p)).collect();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut single = 0;
    for p in &prepared {
        let seeds = p.problem.distinct_seeds();
        if seeds.len() == 1 {
            let set = if single % 2 == 0 {
                &mut train
            } else {
                &mut held
            };
            set.push(ProblemSeed {
                problem: p,
                seed: seeds[0],
            });
            single += 1;
            continue;
        }
        for (i, &s) in seeds.iter().enumerate().take(2 * args.seeds_per_problem) {
            let set = if i % 2 == 0 { &mut train } else { &mut held };
            set.push(ProblemSeed {
                problem: p,
                seed: s,
            });
        }
    }
    let describe = |games: &[ProblemSeed]| {
        games
            .iter()
            .map(|g| format!("{}/{}", g.problem.problem.id, g.seed))
            .collect::<Vec<_>>()
            .join(" ")
    };
    crate::note!("training games (problem/seed): {}", describe(&train));
    crate::note!("held-out games: {}", describe(&held));
    let cfg = TuneConfig {
        width: args.width.max(1),
        rounds: args.rounds,
        population: args.population.max(1),
        sigma: args.sigma,
        rng_seed: args.seed,
        repeats: args.repeats,
        mode: if args.dp {
            crate::encode::Mode::Dp
        } else {
            crate::encode::Mode::Greedy
        },
        total: args.total,
        valuer: match (args.valued, args.whole) {
            (_, true) => Valuer::Chars,
            (true, false) => Valuer::Words,
            (false, false) => Valuer::Off,
        },
        survival: args.survival,
        search: crate::cli::args::search_options(args.search.as_deref())?,
    };
    let tuned = tune(&start, &train, &held, &phrases, &cfg, |line| {
        crate::note!("{line}")
    });
    crate::note!(
        "{}: training {:.4}, held out {:.4} (1.0 = the starting weights)",
        args.system,
        tuned.train,
        tuned.held_out
    );
    let json = serde_json::to_string(&tuned.weights).expect("plain data serialises");
    if tuned.held_out <= 1.0 {
        // Weights that only fit the training games are not worth keeping.
        crate::note!(
            "{}: no gain on the held-out games; the weights are not written",
            args.system
        );
        println!("{json}");
        return Ok(());
    }
    match &args.out {
        None => println!("{json}"),
        Some(path) => {
            let mut map: BTreeMap<String, Weights> = if path.exists() {
                serde_json::from_str(&read_text(path)?).map_err(|source| Error::Json {
                    path: path.clone(),
                    source,
                })?
            } else {
                BTreeMap::new()
            };
            map.insert(args.system.clone(), tuned.weights);
            let mut text = String::from("{\n");
            for (i, (name, w)) in map.iter().enumerate() {
                let line = serde_json::to_string(w).expect("plain data serialises");
                text.push_str(&format!(
                    "  {name:?}: {line}{}\n",
                    if i + 1 < map.len() { "," } else { "" }
                ));
            }
            text.push_str("}\n");
            write_atomic(path, text.as_bytes())?;
        }
    }
    Ok(())
}
