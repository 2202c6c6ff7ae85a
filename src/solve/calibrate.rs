//! The weights of the work counts ([`crate::work::WEIGHTS`]), fitted on this machine:
//! `hextris bench DIR --calibrate` times the planner and each encoder on every problem of DIR
//! (one seed each), with the operations they count, and fits nanoseconds per operation by
//! least squares on the relative error (each stage's operations apart, no weight below 0). It
//! prints the table to paste into `src/work.rs`, and how well the fit predicts each stage.

use super::stage::{StageRunner, Valuer};
use super::{Prepared, SearchOptions};
use crate::encode::{CharStats, Encoder, Mode, PhraseTable};
use crate::engine::Phrases;
use crate::eval::Weights;
use crate::plan::{Plan, PlanConfig};
use crate::work::Limit;
use crate::work::{measure, ops_of, Counts, Op, Stage, ALL, OPS, WEIGHTS};
use std::time::Instant;

/// One timed run of a stage.
#[derive(Clone)]
struct Sample {
    counts: Counts,
    seconds: f64,
}

/// The stages timed, each with the stage of the work counts whose operations it counts
/// ([`crate::work::TABLE`]). The greedy and the DP encoders share their operations: their
/// samples are fitted together.
const STAGES: [(&str, Stage); 6] = [
    ("plan", Stage::Plan),
    ("plain", Stage::Plain),
    ("greedy", Stage::Spell),
    ("dp", Stage::Spell),
    ("chars", Stage::Chars),
    ("evaluate", Stage::Evaluate),
];

/// Where each stage's samples go: its index in [`STAGES`].
const PLAN: usize = 0;
const CHARS: usize = 4;
const EVALUATE: usize = 5;

/// The best of `repeats` timings of `f` (the machine's noise only ever adds time), with its
/// counts (the same every time).
fn time<T>(repeats: usize, mut f: impl FnMut() -> T) -> (T, Sample) {
    let mut best: Option<(T, Sample)> = None;
    for _ in 0..repeats.max(1) {
        let t0 = Instant::now();
        let (out, counts) = measure(&mut f);
        let seconds = t0.elapsed().as_secs_f64();
        if best.as_ref().is_none_or(|(_, s)| seconds < s.seconds) {
            best = Some((out, Sample { counts, seconds }));
        }
    }
    best.expect("at least one run")
}

/// Times every stage on `prep`'s first seed; samples per stage, in the order of [`STAGES`].
fn samples(prep: &Prepared, table: &PhraseTable, phrases: &Phrases) -> Vec<Vec<Sample>> {
    let p = prep.problem;
    let Some(&seed) = p.seeds.first() else {
        return vec![Vec::new(); STAGES.len()];
    };
    let mut out: Vec<Vec<Sample>> = (0..STAGES.len()).map(|_| Vec::new()).collect();
    let encoder = Encoder::new(p, &prep.tables, table);
    let runner = StageRunner::new(
        p,
        &prep.tables,
        &encoder,
        table,
        seed,
        &SearchOptions::default(),
    );
    let mut plans: Vec<Plan> = Vec::new();
    // The survival system's stack evaluation and a wide beam's upkeep cost more per lock than
    // the narrow beams of the other systems: the solver plans with both, so both are timed.
    for (width, system) in [
        (1, "low"),
        (4, "balanced"),
        (16, "fill"),
        (64, "fill"),
        (16, "survive"),
    ] {
        let cfg = PlanConfig::whole_game();
        let weights = Weights::system(system).expect("a system");
        let repeats = if width == 1 { 3 } else { 1 };
        let (plan, s) = time(repeats, || {
            runner.plan(cfg.clone(), &weights, 1, width, Valuer::Off, None)
        });
        out[PLAN].push(s);
        plans.push(plan);
        // With the phrase valuers, by words and by characters, where the solver plans with
        // them.
        if runner.aware() && width < 16 {
            for valuer in [Valuer::Words, Valuer::Chars] {
                let (_, s) = time(repeats, || {
                    runner.plan(cfg.clone(), &weights, 1, width, valuer, None)
                });
                out[PLAN].push(s);
            }
        }
    }
    let ct = prep.chars(table);
    for plan in &plans[..2] {
        for (stage, mode) in [(1, Mode::Plain), (2, Mode::Greedy), (3, Mode::Dp)] {
            let (text, s) = time(2, || runner.spell(plan, mode, &Limit::NONE));
            out[stage].push(s);
            let (_, s) = time(2, || runner.replay(&text, phrases));
            out[EVALUATE].push(s);
        }
        // The character encoder only where it takes seconds at most.
        let work = plan.placements.len() * p.width * p.height;
        if work <= 2_000_000 {
            let limit = Limit::until(Some(Instant::now() + std::time::Duration::from_secs(20)));
            let (done, s) = time(1, || {
                let mut stats = CharStats::default();
                runner.spell_chars(ct, plan, &limit, &mut stats).is_some()
            });
            if done {
                if std::env::var_os("HEXTRIS_DEBUG").is_some() {
                    crate::note!(
                        "chars problem {}: {} units, {} cells, {:.4} s",
                        p.id,
                        s.counts.0[Op::CharsUnit as usize],
                        s.counts.0[Op::CharsCell as usize],
                        s.seconds
                    );
                }
                out[CHARS].push(s);
            }
        }
    }
    out
}

/// Least squares on the relative error of `ops`' weights over `samples`, no weight below 0
/// (an active set: a weight fitted below 0 is fixed at 0 and the rest fitted again).
fn fit(samples: &[Sample], ops: &[Op]) -> Vec<f64> {
    let mut free: Vec<bool> = vec![true; ops.len()];
    loop {
        let idx: Vec<usize> = (0..ops.len()).filter(|&i| free[i]).collect();
        let n = idx.len();
        let mut a = vec![vec![0.0; n + 1]; n];
        for s in samples.iter().filter(|s| s.seconds > 0.0) {
            let w = 1.0 / (s.seconds * s.seconds);
            let x: Vec<f64> = idx
                .iter()
                .map(|&i| s.counts.0[ops[i] as usize] as f64 * 1e-9)
                .collect();
            for r in 0..n {
                for c in 0..n {
                    a[r][c] += w * x[r] * x[c];
                }
                a[r][n] += w * x[r] * s.seconds;
            }
        }
        let sol = solve_linear(a);
        let mut weights = vec![0.0; ops.len()];
        let mut negative = false;
        for (k, &i) in idx.iter().enumerate() {
            let v = sol.get(k).copied().unwrap_or(0.0);
            if v < 0.0 || !v.is_finite() {
                free[i] = false;
                negative = true;
            } else {
                weights[i] = v;
            }
        }
        if !negative || idx.is_empty() {
            return weights;
        }
    }
}

/// Gaussian elimination with partial pivoting on an augmented matrix; a singular column gets 0.
fn solve_linear(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        if a[col][col].abs() < 1e-300 {
            continue;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i].abs() < 1e-300 {
                0.0
            } else {
                a[i][n] / a[i][i]
            }
        })
        .collect()
}

/// Times the stages on `problems`, fits the weights and returns the report: the table for
/// `src/work.rs` and, per stage, the samples' median relative error with the fitted weights and
/// with the compiled-in ones.
pub fn calibrate(problems: &[Prepared], phrases: &Phrases) -> String {
    use std::fmt::Write;
    let table = PhraseTable::new(phrases);
    let mut all: Vec<Vec<Sample>> = (0..STAGES.len()).map(|_| Vec::new()).collect();
    for prep in problems {
        for (stage, s) in samples(prep, &table, phrases).into_iter().enumerate() {
            all[stage].extend(s);
        }
    }
    let mut weights = WEIGHTS;
    let mut report = String::new();
    let _ = writeln!(
        report,
        "{:>9} {:>7} {:>14} {:>14}",
        "stage", "samples", "error (fitted)", "error (table)"
    );
    for ((name, stage), samples) in STAGES.iter().zip(&all) {
        // The samples of every stage that counts the same operations are fitted together.
        let pooled: Vec<Sample> = STAGES
            .iter()
            .zip(&all)
            .filter(|((_, s), _)| s == stage)
            .flat_map(|(_, v)| v.iter().cloned())
            .collect();
        let ops = ops_of(*stage);
        let fitted = fit(&pooled, &ops);
        for (op, w) in ops.iter().zip(&fitted) {
            weights[*op as usize] = *w;
        }
        let error = |table: &[f64; OPS]| {
            let mut e: Vec<f64> = samples
                .iter()
                .map(|s| {
                    let pred: f64 = s
                        .counts
                        .0
                        .iter()
                        .zip(table)
                        .map(|(&n, w)| n as f64 * w * 1e-9)
                        .sum();
                    (pred / s.seconds.max(1e-9) - 1.0).abs()
                })
                .collect();
            e.sort_by(f64::total_cmp);
            e.get(e.len() / 2).copied().unwrap_or(0.0)
        };
        if std::env::var_os("HEXTRIS_DEBUG").is_some() {
            for s in samples {
                let pred: f64 = s
                    .counts
                    .0
                    .iter()
                    .zip(&weights)
                    .map(|(&n, w)| n as f64 * w * 1e-9)
                    .sum();
                let used: Vec<String> = ops
                    .iter()
                    .map(|op| format!("{op:?}={}", s.counts.0[*op as usize]))
                    .collect();
                crate::note!(
                    "{name} {:.5}s predicted {pred:.5}s ({:+.0}%) {}",
                    s.seconds,
                    (pred / s.seconds.max(1e-9) - 1.0) * 100.0,
                    used.join(" ")
                );
            }
        }
        let _ = writeln!(
            report,
            "{name:>9} {:>7} {:>13.0}% {:>13.0}%",
            samples.len(),
            error(&weights) * 100.0,
            error(&WEIGHTS) * 100.0
        );
    }
    let _ = writeln!(report, "\npub const WEIGHTS: [f64; OPS] = [");
    for (op, w) in ALL.iter().zip(weights) {
        let _ = writeln!(report, "    {w:.1}, // {op:?}");
    }
    let _ = writeln!(report, "];");
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation is fitted by some stage timed.
    #[test]
    fn the_stages_timed_cover_every_operation() {
        for op in ALL {
            assert!(
                STAGES.iter().any(|&(_, s)| s == op.stage()),
                "{op:?} is fitted by no stage"
            );
        }
        assert_eq!(STAGES[PLAN].1, Stage::Plan);
        assert_eq!(STAGES[CHARS].1, Stage::Chars);
        assert_eq!(STAGES[EVALUATE].1, Stage::Evaluate);
    }

    #[test]
    fn the_fit_finds_the_weights_of_exact_samples_and_none_below_zero() {
        let sample = |a: u64, b: u64| {
            let mut c = Counts::default();
            c.0[Op::PlainUnit as usize] = a;
            c.0[Op::PlainState as usize] = b;
            Sample {
                counts: c,
                seconds: (a as f64 * 300.0 + b as f64 * 7.0) * 1e-9,
            }
        };
        let samples = [sample(10, 1000), sample(50, 200), sample(3, 9000)];
        let w = fit(&samples, &[Op::PlainUnit, Op::PlainState]);
        assert!(
            (w[0] - 300.0).abs() < 1e-6 && (w[1] - 7.0).abs() < 1e-6,
            "{w:?}"
        );
        // Times that only a negative weight would fit: that weight is 0.
        let mut odd = samples.to_vec();
        odd[0].seconds = 0.1e-6;
        odd[1].seconds = 20e-6;
        odd[2].seconds = 0.5e-6;
        let w = fit(&odd, &[Op::PlainUnit, Op::PlainState]);
        assert!(w.iter().all(|&x| x >= 0.0), "{w:?}");
    }
}
