//! A longer budget first does what a shorter one does: on the virtual clock, a run of T' work
//! seconds whose checkpoints include T (its [`SolveConfig::checkpoints`]) holds, when its clock
//! reaches T, exactly the answers of a run of T, seed by seed and to the character. So no seed
//! scores less at T' than at T.
//!
//! The problems are random (tiny boards searched to the end, tall stacks that kill games early,
//! ordinary boards), the budgets short (a few hundredths of a work second to a few tenths), so
//! that the 200 cases run in about a minute; each case runs on two workers, as the project's
//! machine has. The 25 official problems at 10 s against 60 s are the longer check, in
//! `tests/monotone_official.rs` (ignored by default: about half an hour).

use hextris::engine::{Phrases, Problem};
use hextris::solve::{solve, Budget, Prepared, Progress, SeedResult, SolveConfig};
use hextris::testkit::{random_problem, random_unit};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

/// Records each seed's best answer as the run improves it, and a copy of them all at the
/// checkpoint the run announces.
#[derive(Default)]
struct AtCheckpoint {
    best: Mutex<Answers>,
    at: Mutex<Option<Answers>>,
}

impl Progress for AtCheckpoint {
    fn improved(&self, problem: usize, r: &SeedResult) {
        let mut best = self.best.lock().unwrap();
        best.insert((problem, r.seed), (r.score, r.solution.clone()));
    }
    fn checkpoint(&self, _before: f64) {
        let best = self.best.lock().unwrap().clone();
        self.at.lock().unwrap().get_or_insert(best);
    }
    fn seed_done(&self, _: usize, _: &SeedResult) {}
}

/// A random problem of one of three kinds: a tiny board, half filled (its seeds searched to the
/// end); a tall filled stack where games die early (survival); an ordinary board.
fn random(rng: &mut Pcg64Mcg, kind: usize, id: usize) -> Problem {
    let units: Vec<String> = (0..rng.gen_range(1..=5))
        .map(|_| random_unit(rng, if kind == 1 { 6 } else { 4 }, 0.2))
        .collect();
    let seeds: Vec<u32> = (0..rng.gen_range(1..=3)).map(|_| rng.gen()).collect();
    let json = match kind {
        0 => {
            let (w, h) = (rng.gen_range(4..=8), rng.gen_range(5..=8));
            let (from, n) = (h / 2, rng.gen_range(4..=12));
            random_problem(rng, (w, h), (from, 0.7), &units, (n, &seeds))
        }
        1 => {
            let (w, h) = (rng.gen_range(6..=12), rng.gen_range(10..=16));
            let (from, n) = (h * 2 / 5, rng.gen_range(40..=150));
            random_problem(rng, (w, h), (from, 0.45), &units, (n, &seeds))
        }
        _ => {
            let (w, h) = (rng.gen_range(5..=12), rng.gen_range(8..=16));
            let (from, n) = (h - rng.gen_range(0..=h / 3), rng.gen_range(20..=120));
            random_problem(rng, (w, h), (from, 0.5), &units, (n, &seeds))
        }
    };
    Problem::from_json(&json, Path::new(&format!("random_{id}.json"))).expect("a valid problem")
}

/// Each seed's answer (score, text) by (problem index, seed).
type Answers = BTreeMap<(usize, u32), (u64, String)>;

/// Each seed's answers of a run of `budget` work seconds with checkpoint `before` seconds before
/// its end (none: `None`), at the end and at that checkpoint (without one, at the end again).
fn answers(problem: &Problem, budget: f64, before: Option<f64>) -> (Answers, Answers) {
    let mut cfg = SolveConfig::new(Phrases::official());
    cfg.checkpoints = before.into_iter().collect();
    let prepared = [Prepared::new(problem)];
    let progress = AtCheckpoint::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let results = pool.install(|| solve(&prepared, Budget::Virtual(budget), &cfg, &progress));
    let last: Answers = results[0]
        .seeds
        .iter()
        .map(|s| ((0, s.seed), (s.score, s.solution.clone())))
        .collect();
    let at = match before {
        Some(_) => progress
            .at
            .into_inner()
            .unwrap()
            .expect("the run announces its checkpoint"),
        None => last.clone(),
    };
    (last, at)
}

/// 200 random (problem, T, T') with T one of the T' run's checkpoints: the T' run's answers at
/// T are the T run's. And the check is not idle: in many cases the T' run goes on to answers
/// of its own after T.
#[test]
fn a_longer_virtual_run_holds_the_shorter_runs_answers_at_its_checkpoint() {
    let mut rng = Pcg64Mcg::seed_from_u64(43);
    let mut differ = Vec::new();
    let mut went_on = 0;
    let cases = 200;
    for case in 0..cases {
        let kind = case % 3;
        let problem = random(&mut rng, kind, case);
        let short = [0.01, 0.02, 0.05][rng.gen_range(0..3)];
        let long = short * [2.0, 3.0, 5.0][rng.gen_range(0..3)];
        let (at_short, _) = answers(&problem, short, None);
        let (at_long, at_checkpoint) = answers(&problem, long, Some(long - short));
        went_on += usize::from(at_long != at_checkpoint);
        if at_short != at_checkpoint {
            let scores = |m: &Answers| -> Vec<u64> { m.values().map(|v| v.0).collect() };
            differ.push(format!(
                "case {case} (kind {kind}, T {short}, T' {long}): {:?} at T, {:?} at T's checkpoint",
                scores(&at_short),
                scores(&at_checkpoint)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {cases} cases differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    assert!(
        went_on >= cases / 10,
        "only {went_on} of {cases} longer runs found anything after the checkpoint"
    );
    eprintln!("{went_on} of {cases} longer runs found more after the checkpoint");
}
