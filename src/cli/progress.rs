//! Progress reports of `hextris solve` on stderr: bars (problem, seeds done, time spent against
//! the budget, best score so far) when stderr is a terminal, plain lines when it is not; and notes
//! (the store's total) on a line of their own under the bars, or as plain lines.
//!
//! The bars tick on their own twice a second, so the time moves even while every seed is still
//! being searched (a seed is reported only when its search ends, near the end of the budget).

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
        totals: Mutex<Vec<u64>>,
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
            totals: Mutex::new(vec![0; problems.len()]),
            note,
            _multi: multi,
        }
    }

    /// Shows a note: on the line under the bars (replacing the last note), or as a line.
    pub fn note(&self, msg: String) {
        match self {
            Reporter::Bars { note, .. } => note.set_message(msg),
            Reporter::Lines { .. } => eprintln!("{msg}"),
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
    fn seed_done(&self, problem: usize, r: &SeedResult) {
        match self {
            Reporter::Bars { bars, totals, .. } => {
                let mut t = totals.lock().expect("no reporter panics");
                t[problem] += r.score;
                let b = &bars[problem];
                b.inc(1);
                b.set_message(format!(
                    "best so far: {} in all, mean {}",
                    t[problem],
                    t[problem] / b.position().max(1)
                ));
            }
            Reporter::Lines { done, seeds, ids } => {
                let mut d = done.lock().expect("no reporter panics");
                d[problem] += 1;
                eprintln!(
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
