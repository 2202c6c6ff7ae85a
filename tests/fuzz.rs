//! The project's own fuzz test (issue 72): mutated problem files and store files, thousands of
//! cases from a seeded generator ([`fuzz_kit`]), each of which must end in one of two ways:
//! refused with one line naming the file (exit code 2), or answered with games that replay
//! (exit code 0). A store file that is refused stays byte-identical, no other file of the store
//! changes unless it is improved, and no sound entry (one that replays and scores its recorded
//! score) is lost or lowered.
//!
//! Most cases run in the test's own process, through the library the commands call (reading a
//! problem, solving it with one attempt per seed, offering to the store, merging, scoring), so
//! that thousands fit in a few seconds; a smaller number run the real binary, to hold the exit
//! codes, the single line on stderr and the files on disk. The problems whose unit has a member
//! or a pivot at a 32-bit end (which used to run for seconds to minutes, issue 72) are answered
//! by the binary within `-t 0.5`.
//!
//! A failure names the seed and the case, and what was mutated: `FUZZ_SEED=S FUZZ_CASES=N cargo
//! test --release --test fuzz` runs another seed or more cases (the defaults, [`SEED`] and the
//! counts below, are what CI runs).

mod fuzz_kit;

use fuzz_kit::store::{Bases, Before, Op};
use fuzz_kit::{mutate, Kind, ANY};
use hextris::engine::{replay, Phrases, Problem};
use hextris::solve::{solve_attempts, Prepared, Silent, SolveConfig};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The seed of every generator of this file, unless `FUZZ_SEED` gives another.
const SEED: u64 = 72;

/// Mutated problems read, validated and (when small) solved in this process.
const PROBLEM_CASES: u64 = 3000;
/// Mutated problems given to `hextris solve`.
const PROBLEM_RUNS: u64 = 100;
/// Mutated store files offered to, merged and scored in this process.
const STORE_CASES: u64 = 1500;
/// Mutated store files given to `hextris solve --store`, `store merge` and `score --store`.
const STORE_RUNS: u64 = 100;

/// The largest mutated problem solved in this process: bigger ones are only validated here
/// (the binary, with its time limit, answers a few of them).
const SMALL_CELLS: usize = 2_500;
const SMALL_SOURCE: u32 = 200;
const SMALL_SEEDS: usize = 6;

fn seed() -> u64 {
    std::env::var("FUZZ_SEED").map_or(SEED, |s| s.parse().expect("FUZZ_SEED is a number"))
}

/// A count of cases: the default, times `FUZZ_CASES` / 1000 when that is given.
fn cases(default: u64) -> u64 {
    std::env::var("FUZZ_CASES").map_or(default, |s| {
        default * s.parse::<u64>().expect("FUZZ_CASES is a number") / 1000
    })
}

/// The generator of case `case` of the stream `stream`: each case has its own, so that one is
/// reproduced alone.
fn rng(stream: u64, case: u64) -> StdRng {
    StdRng::seed_from_u64(seed() ^ (stream << 56) ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn root(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// A fresh temporary folder for one test.
fn temp(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hextris-fuzz-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn hextris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hextris"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// The problems the mutations start from: the bundled samples and the odd but legal test files.
fn base_problems() -> Vec<(String, String)> {
    [
        "problems/sample_hex.json",
        "problems/sample_wide.json",
        "tests/data/small.json",
        "tests/data/dying.json",
        "tests/data/odd_wide_unit.json",
        "tests/data/odd_far_pivot.json",
        "tests/data/odd_empty_source.json",
        "tests/data/odd_one_cell.json",
    ]
    .iter()
    .map(|f| (f.to_string(), std::fs::read_to_string(root(f)).unwrap()))
    .collect()
}

/// Runs `check` on a case, turning a panic into a failure that names the seed and the case.
fn run_case<T>(name: &str, case: u64, what: &str, check: impl FnOnce() -> T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or_else(|_| {
        panic!(
            "{name}: FUZZ_SEED={} case {case} failed ({what}); see the panic above",
            seed()
        )
    })
}

/// Whether a problem is small enough to solve in this process.
fn small(p: &Problem) -> bool {
    p.width * p.height <= SMALL_CELLS
        && p.source_length <= SMALL_SOURCE
        && p.distinct_seeds().len() <= SMALL_SEEDS
}

/// Solves a problem with one attempt per seed and checks that every seed is answered with a
/// game that replays without error and scores what the solver says.
fn solve_and_replay(p: &Problem) {
    let phrases = Phrases::official();
    let results = solve_attempts(
        &[Prepared::new(p)],
        1,
        &SolveConfig::new(phrases.clone()),
        &Silent,
    );
    assert_eq!(results[0].seeds.len(), p.distinct_seeds().len());
    for s in &results[0].seeds {
        let e = replay(p, s.seed, &s.solution, &phrases);
        assert!(!e.end.is_error(), "seed {}: {}", s.seed, e.end);
        assert_eq!(e.score, s.score, "seed {}", s.seed);
    }
}

/// A refusal's message: one line, naming the file.
fn assert_one_line_naming(message: &str, file: &Path) {
    assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    assert!(
        message.contains(&file.display().to_string()),
        "{message} does not name {}",
        file.display()
    );
}

/// What the cases of a test came to, per kind of mutation: refused, answered (or kept), and
/// too large to solve in this process. Printed with `--nocapture`.
#[derive(Default)]
struct Tally(BTreeMap<(Kind, &'static str), u64>);

impl Tally {
    fn add(&mut self, kind: Kind, outcome: &'static str) {
        *self.0.entry((kind, outcome)).or_default() += 1;
    }

    fn print(&self, test: &str, started: Instant) {
        let total: u64 = self.0.values().sum();
        let rows: Vec<String> = self
            .0
            .iter()
            .map(|((k, o), n)| format!("{k:?} {o} {n}"))
            .collect();
        eprintln!(
            "{test}: seed {}, {total} cases in {:.2} s: {}",
            seed(),
            started.elapsed().as_secs_f64(),
            rows.join(", ")
        );
    }
}

#[test]
fn mutated_problems_are_refused_in_one_line_or_solved_with_games_that_replay() {
    let dir = temp("problems");
    let bases = base_problems();
    let path = dir.join("case.json");
    let (mut tally, started) = (Tally::default(), Instant::now());
    for case in 0..cases(PROBLEM_CASES) {
        let mut rng = rng(1, case);
        let (base, text) = bases.choose(&mut rng).unwrap();
        let kind = *ANY.choose(&mut rng).unwrap();
        let (bytes, what) = mutate(&mut rng, text, kind);
        let what = format!("{base}: {kind:?}: {what}");
        std::fs::write(&path, &bytes).unwrap();
        let outcome = run_case(
            "problems",
            case,
            &what,
            || match hextris::io::read_problem(&path) {
                Err(e) => {
                    assert_one_line_naming(&e.to_string(), &path);
                    "refused"
                }
                Ok(p) if small(&p) => {
                    let t = Instant::now();
                    solve_and_replay(&p);
                    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
                    "solved"
                }
                Ok(_) => "large",
            },
        );
        tally.add(kind, outcome);
    }
    tally.print("problems", started);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `hextris solve` on one problem file: one attempt per seed when the problem is small or
/// refused, `-t 0.5 -c 1` otherwise. Returns the output and the wall time.
fn solve_file(file: &Path, timed: bool) -> (Output, Duration) {
    let mut cmd = hextris();
    cmd.arg("solve").arg(file);
    if timed {
        cmd.args(["-t", "0.5", "-c", "1"]);
    } else {
        cmd.args(["--attempts", "1", "-c", "1"]);
    }
    let t = Instant::now();
    let o = cmd.output().unwrap();
    (o, t.elapsed())
}

/// Checks that `stdout` holds an answer for every seed of `p` and that each replays.
fn assert_answers_replay(p: &Problem, stdout: &[u8]) {
    let list: Vec<hextris::io::SolutionJson> =
        serde_json::from_slice(stdout).expect("stdout is the JSON list");
    assert_eq!(list.len(), p.distinct_seeds().len());
    let phrases = Phrases::official();
    for s in list {
        assert_eq!(s.problem_id, p.id);
        let e = replay(p, s.seed as u32, &s.solution, &phrases);
        assert!(!e.end.is_error(), "seed {}: {}", s.seed, e.end);
    }
}

#[test]
fn mutated_problems_given_to_the_binary_exit_0_with_answers_or_2_with_one_line() {
    let dir = temp("problem-runs");
    let bases = base_problems();
    let (mut tally, started) = (Tally::default(), Instant::now());
    for case in 0..cases(PROBLEM_RUNS) {
        let mut rng = rng(2, case);
        let (base, text) = bases.choose(&mut rng).unwrap();
        let kind = *ANY.choose(&mut rng).unwrap();
        let (bytes, what) = mutate(&mut rng, text, kind);
        let what = format!("{base}: {kind:?}: {what}");
        let case_dir = dir.join(format!("case{case}"));
        std::fs::create_dir_all(&case_dir).unwrap();
        let file = case_dir.join(format!("case{case}.json"));
        std::fs::write(&file, &bytes).unwrap();
        let outcome = run_case("problem runs", case, &what, || {
            let parsed = hextris::io::read_problem(&file);
            let timed = parsed.as_ref().is_ok_and(|p| !small(p));
            let (o, wall) = solve_file(&file, timed);
            if timed {
                assert!(wall < Duration::from_secs(5), "-t 0.5 took {wall:?}");
            }
            // Nothing but the problem file is in its folder, as it was.
            assert_eq!(std::fs::read(&file).unwrap(), bytes);
            assert_eq!(std::fs::read_dir(&case_dir).unwrap().count(), 1);
            match (o.status.code(), parsed) {
                (Some(2), Err(_)) => {
                    assert_one_line_naming(&stderr(&o), &file);
                    assert!(o.stdout.is_empty());
                    "refused"
                }
                (Some(0), Ok(p)) => {
                    assert_answers_replay(&p, &o.stdout);
                    if timed {
                        "answered in time"
                    } else {
                        "answered"
                    }
                }
                (code, parsed) => panic!(
                    "exit {code:?} where the library says {:?}: {}",
                    parsed.map(|p| p.id),
                    stderr(&o)
                ),
            }
        });
        tally.add(kind, outcome);
    }
    tally.print("problem runs", started);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 15x15 problem (problem 17's size) whose one unit has one member at `member` and its pivot
/// at `pivot`.
fn far_problem(member: (i64, i64), pivot: (i64, i64)) -> String {
    format!(
        r#"{{"id":17,"width":15,"height":15,"filled":[],"sourceLength":10,"sourceSeeds":[0,1],
        "units":[{{"members":[{{"x":{},"y":{}}}],"pivot":{{"x":{},"y":{}}}}}]}}"#,
        member.0, member.1, pivot.0, pivot.1
    )
}

#[test]
fn units_at_the_32_bit_ends_are_answered_within_the_time_limit() {
    let dir = temp("far");
    let ends = hextris::testkit::units_at_the_32_bit_ends();
    for (i, (member, pivot)) in ends.into_iter().enumerate() {
        let file = dir.join(format!("far{i}.json"));
        std::fs::write(&file, far_problem(member, pivot)).unwrap();
        let (o, wall) = solve_file(&file, true);
        let what = format!("member {member:?}, pivot {pivot:?}");
        assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(&o));
        assert!(
            wall < Duration::from_secs(5),
            "{what}: -t 0.5 took {wall:?}"
        );
        // The answer replays under `hextris score`, without error.
        let out = dir.join(format!("far{i}.out.json"));
        std::fs::write(&out, &o.stdout).unwrap();
        let s = hextris()
            .arg("score")
            .arg(&out)
            .arg("--json")
            .arg("-f")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(s.status.code(), Some(0), "{what}: {}", stderr(&s));
        let v: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), 2, "{what}: both seeds answered");
        for r in results {
            assert!(
                !r["status"].as_str().unwrap().starts_with("error"),
                "{what}: {r}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mutated_store_files_are_refused_untouched_or_keep_every_sound_entry() {
    let dir = temp("store");
    let bases = Bases::build(&dir.join("bases"));
    let (mut tally, started) = (Tally::default(), Instant::now());
    for case in 0..cases(STORE_CASES) {
        let mut rng = rng(3, case);
        let case_dir = dir.join("case");
        let (file, kind, what) = bases.mutated_copy(&mut rng, &case_dir);
        let op = *fuzz_kit::store::OPS.choose(&mut rng).unwrap();
        let what = format!("{}: {kind:?}: {what}; then {op:?}", file.display());
        let outcome = run_case("store", case, &what, || {
            let before = Before::take(&bases, &case_dir);
            let target =
                (op == Op::MergeFrom).then(|| Before::merge_target(&bases, &dir.join("target")));
            match bases.run(op, &case_dir, target.as_ref().map(|t| t.dir()), &mut rng) {
                Err(e) => {
                    assert_one_line_naming(&e.to_string(), &file);
                    before.assert_untouched(&case_dir);
                    if let Some(t) = &target {
                        t.assert_untouched(&dir.join("target"));
                    }
                    "refused"
                }
                Ok(refused) => {
                    for line in &refused {
                        assert_one_line_naming(line, &file);
                    }
                    // Scoring and merging from the case's store only read it.
                    if matches!(op, Op::Score | Op::MergeFrom) {
                        before.assert_untouched(&case_dir);
                    }
                    before.assert_kept_or_improved(&bases, &case_dir);
                    if let Some(t) = &target {
                        t.assert_kept_or_improved(&bases, &dir.join("target"));
                    }
                    if refused.is_empty() {
                        "kept"
                    } else {
                        "entries refused"
                    }
                }
            }
        });
        tally.add(kind, outcome);
    }
    tally.print("store", started);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs one of the commands that read a store on the case's store `dir`: `score --store`,
/// `solve --attempts 1 --store`, `store merge` into it, or from it into `target`.
fn store_command(bases: &Bases, command: u32, dir: &Path, target: &Path) -> Output {
    let mut cmd = hextris();
    let files = bases.problem_files();
    match command {
        0 => cmd.args(["score", "--json", "--store"]).arg(dir),
        1 => cmd
            .arg("solve")
            .args(&files)
            .args(["--attempts", "1", "-c", "1", "--store"])
            .arg(dir),
        2 => cmd
            .args(["store", "merge"])
            .arg(bases.better())
            .arg("--into")
            .arg(dir),
        _ => cmd
            .args(["store", "merge"])
            .arg(dir)
            .arg("--into")
            .arg(target),
    };
    if command != 1 {
        for f in &files {
            cmd.arg("-f").arg(f);
        }
    }
    cmd.output().unwrap()
}

#[test]
fn mutated_store_files_given_to_the_binary_exit_0_or_2_and_lose_nothing() {
    let dir = temp("store-runs");
    let bases = Bases::build(&dir.join("bases"));
    let (mut tally, started) = (Tally::default(), Instant::now());
    let target_dir = dir.join("target");
    for case in 0..cases(STORE_RUNS) {
        let mut rng = rng(4, case);
        let case_dir = dir.join("case");
        let (file, kind, what) = bases.mutated_copy(&mut rng, &case_dir);
        let command = rng.gen_range(0..4);
        let what = format!(
            "{}: {kind:?}: {what}; then command {command}",
            file.display()
        );
        let outcome = run_case("store runs", case, &what, || {
            let before = Before::take(&bases, &case_dir);
            let target = Before::merge_target(&bases, &target_dir);
            let o = store_command(&bases, command, &case_dir, &target_dir);
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            match o.status.code() {
                Some(0) => {
                    // Scoring and merging from the case's store only read it.
                    if command == 0 || command == 3 {
                        before.assert_untouched(&case_dir);
                    }
                    before.assert_kept_or_improved(&bases, &case_dir);
                    target.assert_kept_or_improved(&bases, &target_dir);
                    "kept"
                }
                Some(2) if !before.parsed(&name) => {
                    assert_one_line_naming(&stderr(&o), &file);
                    assert!(o.stdout.is_empty());
                    before.assert_untouched(&case_dir);
                    target.assert_untouched(&target_dir);
                    "refused"
                }
                Some(2) if command == 3 => {
                    // A merge refuses the entries that are not sound, a line each naming the
                    // file, keeps the others and exits with code 2.
                    let err = stderr(&o);
                    let refusals: Vec<&str> = err
                        .lines()
                        .filter(|l| l.starts_with("hextris store merge:"))
                        .collect();
                    assert!(!refusals.is_empty(), "{err}");
                    for line in refusals {
                        assert_one_line_naming(line, &file);
                    }
                    before.assert_untouched(&case_dir);
                    target.assert_kept_or_improved(&bases, &target_dir);
                    "entries refused"
                }
                code => panic!("exit {code:?}: {}", stderr(&o)),
            }
        });
        tally.add(kind, outcome);
    }
    tally.print("store runs", started);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A mutation kept as a regression: a store entry whose recorded score is past the end of 64
/// bits (a score raised by hand, one too many) is refused by `hextris solve --store` in one
/// line naming the file and the place in it, before any search, and the file is kept as it is.
#[test]
fn a_store_score_past_64_bits_is_refused_in_one_line_and_the_file_kept() {
    let dir = temp("score-past-u64");
    let bases = Bases::build(&dir.join("bases"));
    let store = dir.join("store");
    let o = store_command(&bases, 1, &store, &dir);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let file = store.join("problem_105.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let at = text.find("\"score\":").unwrap() + "\"score\":".len();
    let end = at + text[at..].find(',').unwrap();
    let raised = format!("{}18446744073709551616{}", &text[..at], &text[end..]);
    std::fs::write(&file, &raised).unwrap();
    let o = store_command(&bases, 1, &store, &dir);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_one_line_naming(&err, &file);
    assert!(err.contains("line 2 column"), "{err}");
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), raised);
    assert_eq!(std::fs::read_dir(&store).unwrap().count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
