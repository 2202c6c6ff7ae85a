//! Tuning the heuristic weights: a seeded (1 + lambda) evolution strategy on a training set of
//! (problem, seed) games, each candidate judged by the score of whole games (planned with a
//! fixed beam, spelt by the greedy or the DP encoder) relative to the starting weights' score on the same
//! game, so that large and small problems weigh alike. A held-out set of games is scored with the
//! same measure, before and after, and never used to choose.

use super::stage::{StageRunner, Valuer};
use super::{Prepared, SearchOptions};
use crate::encode::{Encoder, Mode, PhraseTable};
use crate::engine::Phrases;
use crate::eval::heuristic::{STACK_WEIGHTS, TUNED};
use crate::eval::Weights;
use rand::{Rng, SeedableRng};
use rand_distr_lite::normal;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// One (problem, seed) to judge weights on: the weights plan its game, and the score judges them.
#[derive(Clone, Copy)]
pub struct ProblemSeed<'a, 'p> {
    pub problem: &'a Prepared<'p>,
    pub seed: u32,
}

/// Options of the tuner.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Beam width of the games.
    pub width: usize,
    /// Rounds of the strategy.
    pub rounds: usize,
    /// Candidates per round.
    pub population: usize,
    /// Spread of the multiplicative perturbations (log scale).
    pub sigma: f64,
    /// Seed of the tuner's random numbers.
    pub rng_seed: u64,
    /// Games per (problem, seed), with different random tie-breaks: their mean is the measure,
    /// which tames the chaos of single games.
    pub repeats: u32,
    /// The encoder that spells the games: greedy (fast) or DP (as the solver's attempts do).
    pub mode: Mode,
    /// Judge by the total score, as the benchmark does (each problem's games weigh as one
    /// problem, so the big problems dominate), rather than by the mean relative score per game.
    pub total: bool,
    /// How the games' planner values phrases where some unit cannot rotate: [`Valuer::Words`]
    /// as the solver's attempts do while the best game dies before the source ends,
    /// [`Valuer::Chars`] as they do once a game plays the whole source, or not at all.
    pub valuer: Valuer,
    /// Judge by the share of the source each game plays (in millionths), planned and not
    /// spelt, rather than by its score.
    pub survival: bool,
    /// The search's options (`--search`): the phrase weight, and the width from which the
    /// games' beams revive as the solver's fresh attempts do ([`StageRunner::fresh`]).
    pub search: SearchOptions,
}

/// What a tuning run found.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub weights: Weights,
    /// Mean relative score on the training games (1.0 = the starting weights).
    pub train: f64,
    /// The same on the held-out games.
    pub held_out: f64,
    /// The training score after each round.
    pub history: Vec<f64>,
}

/// Scores of `weights` on each game (the mean of `cfg.repeats` games with different random
/// tie-breaks), or with `cfg.survival` the share of the source they play, in millionths.
pub fn scores(
    weights: &Weights,
    games: &[ProblemSeed],
    table: &PhraseTable,
    phrases: &Phrases,
    cfg: &TuneConfig,
) -> Vec<u64> {
    games
        .par_iter()
        .map(|g| {
            let p = g.problem;
            let encoder = Encoder::new(p.problem, &p.tables, table);
            let runner =
                StageRunner::new(p.problem, &p.tables, &encoder, table, g.seed, &cfg.search);
            let total: u64 = (0..cfg.repeats.max(1))
                .map(|r| {
                    let plan = runner.fresh(weights, r as u64, cfg.width, cfg.valuer);
                    if cfg.survival {
                        let source = p.problem.source_length.max(1) as u64;
                        return plan.placements.len() as u64 * 1_000_000 / source;
                    }
                    let text = runner.spell(&plan, cfg.mode, &crate::work::Limit::NONE);
                    runner.replay(&text, phrases).score
                })
                .sum();
            total / cfg.repeats.max(1) as u64
        })
        .collect()
}

/// The measure of `scores` against `base` on `games` (1.0 = as good): the mean ratio per game,
/// or with `total` the ratio of the sums, each problem's games weighing as one problem.
fn relative(games: &[ProblemSeed], scores: &[u64], base: &[u64], total: bool) -> f64 {
    if total {
        let mut per_problem = rustc_hash::FxHashMap::default();
        for g in games {
            *per_problem.entry(g.problem.problem.id).or_insert(0u32) += 1;
        }
        let (mut s, mut b) = (0.0, 0.0);
        for ((g, &x), &y) in games.iter().zip(scores).zip(base) {
            let w = 1.0 / per_problem[&g.problem.problem.id] as f64;
            s += w * x as f64;
            b += w * y as f64;
        }
        return s / b.max(1.0);
    }
    let n = scores.len().max(1) as f64;
    scores
        .iter()
        .zip(base)
        .map(|(&s, &b)| s as f64 / b.max(1) as f64)
        .sum::<f64>()
        / n
}

/// Tunes `start` on `train`, reporting `held_out` too. `log` receives one line per round.
pub fn tune(
    start: &Weights,
    train: &[ProblemSeed],
    held_out: &[ProblemSeed],
    phrases: &Phrases,
    cfg: &TuneConfig,
    mut log: impl FnMut(&str),
) -> Tuned {
    let table = PhraseTable::new(phrases);
    let base_train = scores(start, train, &table, phrases, cfg);
    let base_held = scores(start, held_out, &table, phrases, cfg);
    let mut rng = Pcg64Mcg::seed_from_u64(cfg.rng_seed);
    let mut best = start.clone();
    let mut best_score = 1.0;
    let mut history = Vec::with_capacity(cfg.rounds);
    for round in 0..cfg.rounds {
        let candidates: Vec<Weights> = (0..cfg.population)
            .map(|_| perturb(&best, cfg.sigma, &mut rng))
            .collect();
        for c in candidates {
            let s = relative(
                train,
                &scores(&c, train, &table, phrases, cfg),
                &base_train,
                cfg.total,
            );
            if s > best_score {
                best_score = s;
                best = c;
            }
        }
        history.push(best_score);
        log(&format!(
            "round {}: training score {:.4}",
            round + 1,
            best_score
        ));
    }
    let held = relative(
        held_out,
        &scores(&best, held_out, &table, phrases, cfg),
        &base_held,
        cfg.total,
    );
    Tuned {
        weights: best,
        train: best_score,
        held_out: held,
        history,
    }
}

/// A candidate: `parent`'s weights, each times a log-normal step of spread `sigma`, which keeps
/// its sign; now and then a weight near zero is nudged so that it can grow again. A system
/// without the stack evaluation keeps it off: it makes the planner make and rank four times the
/// children at several times the cost, which a measure by score alone would not see.
fn perturb(parent: &Weights, sigma: f64, rng: &mut impl Rng) -> Weights {
    let tuned = if parent.stacked() {
        TUNED
    } else {
        TUNED - STACK_WEIGHTS
    };
    let mut v = parent.to_vec();
    for x in v.iter_mut().take(tuned) {
        *x *= (sigma * normal(rng)).exp();
        if x.abs() < 1e-3 && rng.gen_bool(0.2) {
            *x = 0.01 * normal(rng);
        }
    }
    parent.with_vec(v)
}

/// A standard normal deviate without another dependency (Box-Muller).
mod rand_distr_lite {
    use rand::Rng;

    pub fn normal(rng: &mut impl Rng) -> f64 {
        let u1: f64 = rng.gen_range(f64::EPSILON..1.0);
        let u2: f64 = rng.gen();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::work::Limit;

    /// A system without the stack evaluation is never given one by the tuner (regression: a
    /// tune of `balanced` turned it on, for a planner several times slower); one with it has
    /// its stack weights tuned too.
    #[test]
    fn perturbations_keep_the_stack_evaluation_off_where_it_is_off() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let flat = Weights::system("balanced").unwrap();
        assert!(!flat.stacked());
        assert!((0..2000).all(|_| !perturb(&flat, 0.3, &mut rng).stacked()));
        let stacked = Weights::system("survive").unwrap();
        let stack = |w: &Weights| w.to_vec()[TUNED - STACK_WEIGHTS..].to_vec();
        assert!((0..20).any(|_| stack(&perturb(&stacked, 0.3, &mut rng)) != stack(&stacked)));
    }

    /// The tuner judges weights by the games the solver would play: with [`Valuer::Chars`]
    /// (`hextris tune --whole`) each game is the solver's whole-game attempt, planned with the
    /// character valuer and spelt by the DP encoder; and on this problem, where a unit cannot
    /// rotate, the valuer changes the games, so the option is not a no-op.
    #[test]
    fn whole_games_are_planned_with_the_character_valuer() {
        let p = crate::testkit::phrase_valued_problem();
        let prepared = Prepared::new(&p);
        let phrases = Phrases::official();
        let table = PhraseTable::new(&phrases);
        let game = ProblemSeed {
            problem: &prepared,
            seed: p.seeds[0],
        };
        let weights = Weights::system("balanced").unwrap();
        let cfg = |valuer| TuneConfig {
            width: 4,
            rounds: 1,
            population: 1,
            sigma: 0.1,
            rng_seed: 1,
            repeats: 1,
            mode: Mode::Dp,
            total: true,
            valuer,
            survival: false,
            search: SearchOptions::default(),
        };
        let encoder = Encoder::new(&p, &prepared.tables, &table);
        let runner = StageRunner::new(
            &p,
            &prepared.tables,
            &encoder,
            &table,
            game.seed,
            &cfg(Valuer::Off).search,
        );
        let solver = |valuer| {
            let plan = runner.fresh(&weights, 0, 4, valuer);
            let text = runner.spell(&plan, Mode::Dp, &Limit::NONE);
            runner.replay(&text, &phrases).score
        };
        let whole = scores(&weights, &[game], &table, &phrases, &cfg(Valuer::Chars));
        assert_eq!(whole, [solver(Valuer::Chars)]);
        let off = scores(&weights, &[game], &table, &phrases, &cfg(Valuer::Off));
        assert_eq!(off, [solver(Valuer::Off)]);
        assert_ne!(whole, off, "the valuer should change this problem's game");
    }
}
