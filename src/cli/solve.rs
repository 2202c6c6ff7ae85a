//! `hextris solve`: solves problem files or folders and prints the contest's JSON list.
//!
//! With `--shard K/N` it solves only its part of the (problem, seed) tasks
//! ([`crate::solve::shard`]): N processes with the same problems cover every task once. With
//! `--store DIR` each seed's answers are offered to the store as they improve (the first, its
//! quick answer, at once), so a run stopped by Ctrl-C or SIGTERM ([`crate::stop`]) keeps
//! everything it found: the searches in progress end as at a deadline, every seed's best goes
//! to the output and the store, and the run ends as usual with its summary.

use crate::cli::batch::{store_starts, summary, to_solutions, worth_keeping};
use crate::cli::progress::Reporter;
use crate::engine::{Phrases, Problem};
use crate::error::{Error, Result};
use crate::io::{load_problems, solutions_to_json, write_atomic, Solution};
use crate::solve::budget::RunPlan;
use crate::solve::pool::solve_on_pool;
use crate::solve::shard::{restrict, Shard};
use crate::solve::{Progress, SeedResult};
use crate::store::{Offer, Scores, Store};
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Arguments of `hextris solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Problem files or folders of them (every *.json in a folder).
    #[arg(required = true, value_name = "PROBLEM")]
    pub problems: Vec<PathBuf>,
    /// Seconds per problem (or in all, with --total).
    #[arg(short = 't', long = "time", default_value_t = 10.0, allow_negative_numbers = true,
        value_parser = crate::cli::args::seconds)]
    pub time: f64,
    /// Make --time the budget of the whole run rather than of each problem.
    #[arg(long)]
    pub total: bool,
    /// Count --time in work seconds on a virtual clock (the planner's and the encoders' work,
    /// counted, as this project's machine would take it) instead of the real clock: the same
    /// output on any machine and under any load.
    #[arg(long = "virtual", conflicts_with = "attempts")]
    pub virtual_time: bool,
    /// Instead of a time budget, plan exactly this many games per seed: reproducible output.
    #[arg(long, conflicts_with = "time", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<u32>(1, crate::cli::args::MAX_ATTEMPTS))]
    pub attempts: Option<u32>,
    /// Write the JSON list to this file (atomically) instead of stdout.
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub phrases: crate::cli::PhraseArgs,
    #[command(flatten)]
    pub weights: crate::cli::WeightArgs,
    #[command(flatten)]
    pub search: crate::cli::SearchArgs,
    /// Worker threads (default: all cores); 1 is the deterministic debugging path.
    #[arg(short = 'c', long = "threads", allow_negative_numbers = true,
        value_parser = crate::cli::args::between::<usize>(1, crate::cli::args::MAX_THREADS))]
    pub threads: Option<usize>,
    /// Keep the best solution per (problem, seed) in this folder: an entry is replaced only by
    /// a better one; each seed starts from its stored game, and its answers are offered as they
    /// improve (the first at once, then at most every 2 s per seed, a sooner one held until then)
    /// and its final one at the end of the run (see `hextris score --store`, `hextris store`).
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Solve only part K of N of the (problem, seed) tasks, split by the solver's cost: N runs
    /// with the same problems and K = 1..N cover every task once. Without --total, the part's
    /// budget is its share (by cost) of --time x problems.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// The progress of a run: the reporter, and with a store, each seed's answers offered to it as
/// they improve (at most every [`crate::solve::SearchOptions::store_interval`] seconds per
/// seed, the first at once) and its final answer at the end.
struct Keeper<'a> {
    reporter: Reporter,
    store: Option<Keeping<'a>>,
}

struct Keeping<'a> {
    store: &'a Store,
    /// The problems being solved (restricted to a shard's seeds), by the solver's index.
    solving: &'a [&'a Problem],
    /// The problems as given, for the store's total.
    given: &'a [&'a Problem],
    phrases: &'a Phrases,
    /// The store's best scores at the start, and as they are now.
    before: Scores,
    scores: Mutex<Scores>,
    start: u64,
    interval: std::time::Duration,
    /// When each seed's answers were last offered, and the answers held until they may be.
    pace: Mutex<Pace>,
    /// Whether `HEXTRIS_DEBUG` asks for every improvement on stderr (the kill test reads them).
    debug: bool,
    /// The final answers, offered together at the end.
    finals: Mutex<Vec<(usize, SeedResult)>>,
    /// Answers left out: seeds answered after a stop, with nothing worth keeping.
    skipped: std::sync::atomic::AtomicUsize,
    /// The first error writing the store.
    error: Mutex<Option<Error>>,
}

/// A seed, as (problem index, seed).
type SeedKey = (usize, u32);

/// The pace of a run's offers to its store: each seed offers at most once an interval, and an
/// answer that comes sooner is held, not dropped, until its interval has passed (issue 72: a
/// dropped improvement reached the store only with a later one, so a kill could lose an
/// improvement found an hour before).
#[derive(Default)]
struct Pace {
    /// Per seed: when its last answer was offered.
    last: std::collections::HashMap<SeedKey, Instant>,
    /// Per seed: its latest answer not offered yet.
    held: std::collections::HashMap<SeedKey, SeedResult>,
}

impl Pace {
    /// Whether `r` may be offered `now`; if not, it is held in place of any answer held before.
    fn admit(&mut self, key: SeedKey, r: &SeedResult, now: Instant, interval: Duration) -> bool {
        if self
            .last
            .get(&key)
            .is_some_and(|&t| now.duration_since(t) < interval)
        {
            self.held.insert(key, r.clone());
            return false;
        }
        self.last.insert(key, now);
        // The answer offered now is the seed's latest: any answer held is older and no better.
        self.held.remove(&key);
        true
    }

    /// Takes the held answers whose interval has passed by `now`, noting them as offered.
    fn due(&mut self, now: Instant, interval: Duration) -> Vec<(SeedKey, SeedResult)> {
        let keys: Vec<SeedKey> = self
            .held
            .keys()
            .filter(|k| {
                self.last
                    .get(k)
                    .is_none_or(|&t| now.duration_since(t) >= interval)
            })
            .copied()
            .collect();
        let mut out: Vec<(SeedKey, SeedResult)> = keys
            .into_iter()
            .filter_map(|k| self.held.remove(&k).map(|r| (k, r)))
            .collect();
        for (k, _) in &out {
            self.last.insert(*k, now);
        }
        out.sort_by_key(|(k, _)| *k);
        out
    }
}

impl Keeping<'_> {
    /// Offers the held answers whose interval has passed, a problem at a time.
    fn offer_due(&self, reporter: &Reporter) {
        let due = self
            .pace
            .lock()
            .expect("no keeper panics")
            .due(Instant::now(), self.interval);
        let due: Vec<(usize, &SeedResult)> = due.iter().map(|((p, _), r)| (*p, r)).collect();
        self.offer_each_problem(reporter, &due);
    }

    /// Offers answers, each with its problem's index, a problem at a time.
    fn offer_each_problem(&self, reporter: &Reporter, answers: &[(usize, &SeedResult)]) {
        for problem in 0..self.solving.len() {
            let mine: Vec<&SeedResult> = answers
                .iter()
                .filter(|(i, _)| *i == problem)
                .map(|(_, r)| *r)
                .collect();
            if !mine.is_empty() {
                self.offer(reporter, problem, &mine);
            }
        }
    }

    /// Offers a problem's answers to the store and notes its new total.
    fn offer(&self, reporter: &Reporter, problem: usize, answers: &[&SeedResult]) {
        let p = self.solving[problem];
        let solutions: Vec<Solution> = answers
            .iter()
            .map(|r| Solution {
                problem_id: p.id,
                seed: r.seed,
                tag: Some(r.tag.clone()),
                solution: r.solution.clone(),
            })
            .collect();
        let offers = match self.store.offer(p, self.phrases, &solutions) {
            Ok(o) => o,
            Err(e) => {
                let mut first = self.error.lock().expect("no keeper panics");
                first.get_or_insert(e);
                return;
            }
        };
        let mut scores = self.scores.lock().expect("no keeper panics");
        let mut raised = false;
        for (r, offer) in answers.iter().zip(&offers) {
            if let Offer::New { score } | Offer::Better { new: score, .. } = offer {
                scores.raise(p.id, r.seed, *score);
                raised = true;
            }
        }
        if raised {
            reporter.note(format!(
                "store: total {} ({} at the start)",
                scores.total(self.given),
                self.start
            ));
        }
    }

    /// Offers the final answers not offered yet, a problem at a time.
    fn flush(&self, reporter: &Reporter) {
        let finals = std::mem::take(&mut *self.finals.lock().expect("no keeper panics"));
        let answers: Vec<(usize, &SeedResult)> = finals
            .iter()
            .filter(|(problem, r)| {
                if !worth_keeping(r) {
                    self.skipped
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return false;
                }
                let held = self.scores.lock().expect("no keeper panics");
                let id = self.solving[*problem].id;
                held.get(id, r.seed).is_none_or(|s| r.score > s)
            })
            .map(|(problem, r)| (*problem, r))
            .collect();
        self.offer_each_problem(reporter, &answers);
    }

    /// Per problem: the seeds the store had no entry for and now has, those it holds better
    /// than at the start, and those it kept.
    fn tally(&self) -> Vec<(usize, usize, usize)> {
        let scores = self.scores.lock().expect("no keeper panics");
        self.solving
            .iter()
            .map(|p| {
                let mut t = (0, 0, 0);
                for s in p.distinct_seeds() {
                    match (self.before.get(p.id, s), scores.get(p.id, s)) {
                        (None, Some(_)) => t.0 += 1,
                        (Some(a), Some(b)) if b > a => t.1 += 1,
                        _ => t.2 += 1,
                    }
                }
                t
            })
            .collect()
    }
}

impl Progress for Keeper<'_> {
    fn improved(&self, problem: usize, r: &SeedResult) {
        self.reporter.improved(problem, r);
        let Some(k) = &self.store else { return };
        if k.debug {
            crate::note!(
                "store: improved: problem {} seed {}: {}",
                k.solving[problem].id,
                r.seed,
                r.score
            );
        }
        let admitted = k.pace.lock().expect("no keeper panics").admit(
            (problem, r.seed),
            r,
            Instant::now(),
            k.interval,
        );
        if admitted {
            k.offer(&self.reporter, problem, &[r]);
        }
    }

    fn seed_done(&self, problem: usize, r: &SeedResult) {
        self.reporter.seed_done(problem, r);
        if let Some(k) = &self.store {
            k.finals
                .lock()
                .expect("no keeper panics")
                .push((problem, r.clone()));
        }
    }
}

/// How often the watcher looks for held answers whose interval has passed, at least and at most:
/// a quarter of the interval within these bounds, so an answer waits at most that much past it.
const TICK_MIN: Duration = Duration::from_millis(10);
const TICK_MAX: Duration = Duration::from_millis(100);

/// Runs `hextris solve`.
pub fn run(args: Args) -> Result<()> {
    let started = Instant::now();
    let loaded = load_problems(&args.problems)?;
    let phrases = args.phrases.get()?;
    let given: Vec<&Problem> = loaded.iter().map(|(_, p)| p).collect();
    let (shard_problems, share) = match args.shard {
        Some(shard) => restrict(&given, shard),
        None => (Vec::new(), 1.0),
    };
    let problems: Vec<&Problem> = match args.shard {
        Some(_) => shard_problems.iter().collect(),
        None => given.clone(),
    };
    if let Some(shard) = args.shard {
        let tasks: usize = problems.iter().map(|p| p.distinct_seeds().len()).sum();
        crate::note!(
            "shard {shard}: {tasks} (problem, seed) tasks of {} problems, {:.1}% of the cost",
            problems.len(),
            share * 100.0
        );
    }
    let budget = if args.total {
        args.time
    } else {
        args.time * given.len() as f64 * share
    };
    let search = args.search.get()?;
    let plan = match args.attempts {
        Some(n) => RunPlan::attempts(n),
        None => crate::cli::args::run_plan(started, budget, args.virtual_time, &search)?,
    };
    let store = args.store.as_deref().map(Store::open).transpose()?;
    // Ctrl-C and SIGTERM now end the searches as at a deadline; the run then ends as usual.
    crate::stop::install()
        .map_err(|e| Error::Usage(format!("cannot install the signal handlers: {e}")))?;
    let keeping = match &store {
        Some(store) => {
            let before = store.scores(&given, &phrases)?;
            let start = before.total(&given);
            Some(Keeping {
                store,
                solving: &problems,
                given: &given,
                phrases: &phrases,
                scores: Mutex::new(before.clone()),
                before,
                start,
                interval: Duration::from_secs_f64(search.store_interval),
                pace: Mutex::default(),
                debug: std::env::var_os("HEXTRIS_DEBUG").is_some(),
                finals: Mutex::default(),
                skipped: Default::default(),
                error: Mutex::new(None),
            })
        }
        None => None,
    };
    let keeper = Keeper {
        reporter: Reporter::new(&problems, plan.seconds_from(started)),
        store: keeping,
    };
    if let Some(k) = &keeper.store {
        keeper
            .reporter
            .note(format!("store: total {} at the start", k.start));
    }
    let mut settings = crate::cli::args::settings(
        plan,
        search.clone(),
        args.weights.get()?,
        phrases.clone(),
        args.threads,
    );
    if let Some(store) = &store {
        settings.starts = store_starts(store, &problems)?;
    }
    // While the searches run, a watcher offers the held answers as their intervals pass.
    let (done, ended) = mpsc::channel::<()>();
    let results = std::thread::scope(|scope| {
        if let Some(k) = &keeper.store {
            let (keeper, tick) = (&keeper, (k.interval / 4).clamp(TICK_MIN, TICK_MAX));
            scope.spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = ended.recv_timeout(tick) {
                    k.offer_due(&keeper.reporter);
                }
            });
        }
        let results = solve_on_pool(&problems, settings, &keeper);
        drop(done);
        results
    })?;
    keeper.reporter.finish();
    crate::note_raw!("{}", summary(&results));
    if crate::stop::requested() {
        crate::note!(
            "stopped: the searches under way ended early; every seed's best so far is above"
        );
    }
    let mut failed = None;
    if let Some(k) = &keeper.store {
        k.flush(&keeper.reporter);
        failed = k.error.lock().expect("no keeper panics").take();
        for (p, (new, better, kept)) in problems.iter().zip(k.tally()) {
            crate::note!(
                "store: problem {}: {new} new, {better} better, {kept} kept",
                p.id
            );
        }
        let skipped = k.skipped.load(std::sync::atomic::Ordering::Relaxed);
        if skipped > 0 {
            crate::note!("store: {skipped} seeds answered after the stop were not offered");
        }
        crate::note!(
            "store: {}: total {} ({} at the start)",
            k.store.dir().display(),
            k.scores.lock().expect("no keeper panics").total(&given),
            k.start
        );
    }
    let json = solutions_to_json(&to_solutions(&results));
    match &args.out {
        Some(path) => write_atomic(path, json.as_bytes())?,
        None => print!("{json}"),
    }
    if let Some(t) = crate::stop::noticed() {
        if std::env::var_os("HEXTRIS_DEBUG").is_some() {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64());
            crate::note!(
                "stop seen at {:.3} (epoch seconds)",
                now - t.elapsed().as_secs_f64()
            );
        }
        crate::note!(
            "stopped: every answer written {:.2} s after the stop was seen",
            t.elapsed().as_secs_f64()
        );
    }
    // A store that could not be written fails the run, but only after the answers are out.
    failed.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(seed: u32, score: u64) -> SeedResult {
        SeedResult {
            score,
            ..SeedResult::empty(seed)
        }
    }

    /// An answer that comes within its seed's interval is held, then offered once the interval
    /// has passed, with no other answer needed (issue 72's dropped improvements).
    #[test]
    fn answers_within_the_interval_are_held_until_it_passes() {
        let (t0, second) = (Instant::now(), Duration::from_secs(1));
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut pace = Pace::default();
        assert!(pace.admit((0, 7), &answer(7, 10), at(0), second));
        assert!(!pace.admit((0, 7), &answer(7, 20), at(300), second));
        assert!(!pace.admit((0, 7), &answer(7, 30), at(600), second));
        // Another seed has its own interval.
        assert!(pace.admit((0, 8), &answer(8, 5), at(600), second));
        assert!(pace.due(at(900), second).is_empty());
        let due = pace.due(at(1000), second);
        assert_eq!(due.len(), 1);
        assert_eq!((due[0].0, due[0].1.score), ((0, 7), 30));
        assert!(pace.due(at(5000), second).is_empty(), "offered once");
        // The held answer's offer starts the seed's next interval.
        assert!(!pace.admit((0, 7), &answer(7, 40), at(1500), second));
        // An answer admitted after its interval supersedes the one held.
        assert!(pace.admit((0, 7), &answer(7, 50), at(2100), second));
        assert!(pace.due(at(9000), second).is_empty());
    }
}
