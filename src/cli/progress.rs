//! Progress reports of `hextris solve` on stderr: bars (problem, seeds done, time spent against
//! the budget, best score so far) when stderr is a terminal, plain lines when it is not; and notes
//! (the store's total) on a line of their own under the bars, or as plain lines.
//!
//! A bar counts the seeds of its problem that have an answer (every seed gets its quick answer
//! first) and shows the total of their best scores as they improve; it ticks on its own twice a
//! second, so the time moves between improvements. Plain lines say each seed's final answer.

use crate::engine::Problem;
use crate::solve::{Progress, SeedResult};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

/// A duration as indicatif's `{elapsed_precise}` shows one: `HH:MM:SS`.
fn clock(d: Duration) -> String {
    let s = d.as_secs_f64().ceil() as u64;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A progress reporter for a set of problems.
pub enum Reporter {
    Bars {
        bars: Vec<ProgressBar>,
        /// Per problem, each answered seed's best score.
        totals: Mutex<Vec<Vec<(u32, u64)>>>,
        /// The line under the bars that shows the latest note.
        note: ProgressBar,
        _multi: MultiProgress,
    },
    Lines {
        done: Mutex<Vec<usize>>,
        seeds: Vec<usize>,
        ids: Vec<i64>,
    },
}

impl Reporter {
    /// Bars when stderr is a terminal, lines otherwise. `budget` is the time the run may take
    /// (none with `--attempts`), shown beside the time spent.
    pub fn new(problems: &[&Problem], budget: Option<Duration>) -> Reporter {
        let seeds: Vec<usize> = problems.iter().map(|p| p.distinct_seeds().len()).collect();
        let ids: Vec<i64> = problems.iter().map(|p| p.id).collect();
        if !std::io::stderr().is_terminal() {
            return Reporter::Lines {
                done: Mutex::new(vec![0; problems.len()]),
                seeds,
                ids,
            };
        }
        let multi = MultiProgress::new();
        let limit = match budget {
            Some(b) => format!(" of {}", clock(b)),
            None => String::new(),
        };
        let style = ProgressStyle::with_template(&format!(
            "problem {{prefix:>5}} {{bar:30}} {{pos:>3}}/{{len:3}} seeds  {{elapsed_precise}}{limit}  {{msg}}"
        ))
        .expect("a valid template");
        let bars = ids
            .iter()
            .zip(&seeds)
            .map(|(id, &n)| {
                let b = multi.add(ProgressBar::new(n as u64));
                b.set_style(style.clone());
                b.set_prefix(id.to_string());
                b.enable_steady_tick(Duration::from_millis(500));
                b
            })
            .collect();
        let note = multi.add(ProgressBar::new(0));
        note.set_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
        Reporter::Bars {
            bars,
            totals: Mutex::new(vec![Vec::new(); problems.len()]),
            note,
            _multi: multi,
        }
    }

    /// Shows a note: on the line under the bars (replacing the last note), or as a line.
    pub fn note(&self, msg: String) {
        match self {
            Reporter::Bars { note, .. } => note.set_message(msg),
            Reporter::Lines { .. } => crate::note!("{msg}"),
        }
    }

    /// Ends the bars (they stay on screen).
    pub fn finish(&self) {
        if let Reporter::Bars { bars, note, .. } = self {
            bars.iter().for_each(|b| b.finish());
            note.finish();
        }
    }
}

impl Progress for Reporter {
    fn improved(&self, problem: usize, r: &SeedResult) {
        if let Reporter::Bars { bars, totals, .. } = self {
            let mut t = totals.lock().expect("no reporter panics");
            let seeds = &mut t[problem];
            let b = &bars[problem];
            match seeds.iter_mut().find(|(s, _)| *s == r.seed) {
                Some(best) => best.1 = best.1.max(r.score),
                None => {
                    seeds.push((r.seed, r.score));
                    b.inc(1);
                }
            }
            let total: u64 = seeds.iter().map(|s| s.1).sum();
            b.set_message(format!(
                "best so far: {total} in all, mean {}",
                total / seeds.len().max(1) as u64
            ));
        }
    }

    fn seed_done(&self, problem: usize, r: &SeedResult) {
        match self {
            Reporter::Bars { .. } => self.improved(problem, r),
            Reporter::Lines { done, seeds, ids } => {
                let mut d = done.lock().expect("no reporter panics");
                d[problem] += 1;
                crate::note!(
                    "problem {} seed {}: {} ({} move + {} power, {} games) [{}/{} seeds]",
                    ids[problem],
                    r.seed,
                    r.score,
                    r.move_score,
                    r.power_score,
                    r.attempts,
                    d[problem],
                    seeds[problem]
                );
            }
        }
    }
}
