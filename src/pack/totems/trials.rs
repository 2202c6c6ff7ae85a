//! `hextris pack totems --eval LEVEL --rounds K`: draws K random bags at a level and solves each
//! in a **separate process** (`hextris pack totems FILE --time T`), so the wall time measured is
//! the real one, start-up included, from spawning the process to its exit. An answer that comes
//! later than T scores 0 (the server's rule), an invalid one too.
//!
//! Bags: n = 2^(level - 1) shapes drawn uniformly from the seven, by a PCG seeded from (seed,
//! level, round); level 1 is always one I, as on the real server. The solver of round r gets the
//! seed `seed + r`. The bags and seeds are therefore reproducible; what can vary between runs is
//! what the time limit cuts (a slower or busier machine may miss a box it finds when idle).
//!
//! Printed: the rate of bags reaching the best possible score of the level (PUZZLES.md) with a
//! Wilson 95% interval, the rate of bags for which a perfect pack is possible at all by T parity
//! (for levels whose best box has no slack), the mean score, and the wall times.

use super::shapes::{Kind, KINDS};
use super::{level_size, parse_answer, validate, BEST};
use crate::error::Error;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// What to evaluate.
#[derive(Debug, Clone)]
pub struct Config {
    pub level: u32,
    pub rounds: usize,
    pub seed: u64,
    pub time: f64,
    pub threads: usize,
    /// Print one line per bag on standard error.
    pub verbose: bool,
}

/// The bag of a round.
pub fn draw(level: u32, seed: u64, round: usize) -> Vec<Kind> {
    let n = level_size(level);
    if level == 1 {
        return vec![Kind::I];
    }
    let mut rng = Pcg64::seed_from_u64(
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((level as u64) << 48) ^ round as u64,
    );
    (0..n).map(|_| Kind::ALL[rng.gen_range(0..KINDS)]).collect()
}

/// The question JSON of a bag, as the server sends it.
pub fn question_json(tick: usize, bag: &[Kind]) -> String {
    let totems: Vec<serde_json::Value> = bag
        .iter()
        .map(|k| serde_json::json!({"shape": k.name()}))
        .collect();
    serde_json::json!({"tick": tick, "payload": {"totems": totems}}).to_string()
}

/// Wilson score interval at 95% for k successes out of n.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    let z = 1.959_964f64;
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let denom = 1.0 + z * z / n_f;
    let centre = (p + z * z / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Runs the evaluation and prints the summary.
pub fn run(cfg: &Config) -> Result<(), Error> {
    let exe = std::env::current_exe().map_err(|e| Error::Io {
        path: PathBuf::from("current executable"),
        source: e,
    })?;
    let dir = std::env::temp_dir().join(format!("hextris-totems-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io {
        path: dir.clone(),
        source: e,
    })?;
    let n = level_size(cfg.level);
    let best = BEST[cfg.level as usize - 1];
    let slack_free = best == (10 * n) as f64 - (4 * n) as f64;
    let limit = Duration::from_secs_f64(cfg.time);
    let (mut optimal, mut parity_ok, mut invalid, mut late) = (0, 0, 0, 0);
    let mut total = 0.0;
    let mut walls = Vec::with_capacity(cfg.rounds);
    for r in 0..cfg.rounds {
        let bag = draw(cfg.level, cfg.seed, r);
        if bag.iter().filter(|&&k| k == Kind::T).count() % 2 == 0 {
            parity_ok += 1;
        }
        let qpath = dir.join(format!("q{r}.json"));
        std::fs::write(&qpath, question_json(cfg.level as usize, &bag)).map_err(|e| Error::Io {
            path: qpath.clone(),
            source: e,
        })?;
        let t0 = Instant::now();
        let out = Command::new(&exe)
            .arg("pack")
            .arg("totems")
            .arg(&qpath)
            .arg("--time")
            .arg(cfg.time.to_string())
            .arg("--seed")
            .arg((cfg.seed.wrapping_add(r as u64)).to_string())
            .arg("--threads")
            .arg(cfg.threads.to_string())
            .output()
            .map_err(|e| Error::Io {
                path: exe.clone(),
                source: e,
            })?;
        let wall = t0.elapsed();
        walls.push(wall.as_secs_f64());
        let text = String::from_utf8_lossy(&out.stdout);
        let score = match parse_answer(&text).and_then(|a| validate(&bag, &a)) {
            Ok((w, h)) if out.status.success() => super::packer::score(n, w, h),
            Ok(_) | Err(_) => {
                invalid += 1;
                eprintln!("round {r}: invalid answer: {}", text.trim());
                0.0
            }
        };
        let score = if wall > limit {
            late += 1;
            0.0
        } else {
            score
        };
        if score >= best - 1e-9 {
            optimal += 1;
        }
        total += score;
        if cfg.verbose {
            let mut counts = [0usize; KINDS];
            bag.iter().for_each(|k| counts[k.index()] += 1);
            eprintln!(
                "round {r}: {} score {score:.2} wall {:.3} s",
                super::bag_string(&counts),
                wall.as_secs_f64()
            );
        }
        let _ = std::fs::remove_file(&qpath);
    }
    let _ = std::fs::remove_dir(&dir);
    let k = cfg.rounds;
    let (lo, hi) = wilson(optimal, k);
    walls.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    let q = |f: f64| walls[((walls.len() - 1) as f64 * f).round() as usize];
    println!(
        "level {} (n = {n}, best score {best}): {k} bags, seed {}, time limit {} s, {} threads",
        cfg.level, cfg.seed, cfg.time, cfg.threads
    );
    println!(
        "optimal score: {optimal}/{k} = {:.1}% (95% interval {:.1}%-{:.1}%)",
        100.0 * optimal as f64 / k as f64,
        100.0 * lo,
        100.0 * hi
    );
    if slack_free {
        println!(
            "perfect pack possible by T parity: {parity_ok}/{k} = {:.1}%; optimal among those: {:.1}%",
            100.0 * parity_ok as f64 / k as f64,
            if parity_ok > 0 {
                100.0 * optimal as f64 / parity_ok as f64
            } else {
                0.0
            }
        );
    }
    println!(
        "mean score: {:.2} (best possible {best}); invalid answers: {invalid}; over the time limit: {late}",
        total / k as f64
    );
    println!(
        "process wall time (spawn to exit): median {:.3} s, 90th percentile {:.3} s, max {:.3} s",
        q(0.5),
        q(0.9),
        q(1.0)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bags_are_reproducible_and_sized() {
        assert_eq!(draw(5, 7, 3), draw(5, 7, 3));
        assert_ne!(draw(5, 7, 3), draw(5, 7, 4));
        assert_eq!(draw(9, 1, 0).len(), 256);
        assert_eq!(draw(1, 1, 0), vec![Kind::I]);
    }

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson(50, 200);
        assert!(lo < 0.25 && hi > 0.25);
        assert!((lo - 0.1959).abs() < 0.002 && (hi - 0.3134).abs() < 0.002);
    }

    #[test]
    fn question_json_parses_back() {
        let bag = draw(4, 1, 0);
        assert_eq!(
            super::super::parse_question(&question_json(4, &bag)).unwrap(),
            bag
        );
    }
}
