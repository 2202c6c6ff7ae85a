//! Long runs and many machines: `solve --shard K/N` in separate processes covers every (problem,
//! seed) once and, merged with `store merge`, equals one unsharded run; `store merge` refuses
//! tampered entries; a run stopped by SIGTERM exits cleanly and leaves a sound store; `store
//! export` gives what the store holds; `store respell` never lowers it.
//!
//! Every test works in a temporary folder of its own, on small problems (the bundled sample and
//! variants of tests/data/small.json written there), with `--attempts` where answers are compared
//! so that they are reproducible.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn hextris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hextris"))
}

fn root(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// A fresh temporary folder for one test.
fn temp(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hextris-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn ok(o: Output) -> Output {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    o
}

/// Writes a variant of tests/data/small.json: another id, board, source length and seeds.
fn small_variant(dir: &Path, id: i64, width: i64, height: i64, length: i64, seeds: &[u32]) {
    let text = std::fs::read_to_string(root("tests/data/small.json")).unwrap();
    let mut p: Value = serde_json::from_str(&text).unwrap();
    p["id"] = id.into();
    p["width"] = width.into();
    p["height"] = height.into();
    p["sourceLength"] = length.into();
    p["sourceSeeds"] = seeds.to_vec().into();
    p["filled"] = Value::Array(vec![]);
    std::fs::write(dir.join(format!("p{id}.json")), p.to_string()).unwrap();
}

/// A folder of small problems: the bundled sample and three variants (one listing a seed twice).
fn problems(dir: &Path) -> PathBuf {
    let probs = dir.join("problems");
    std::fs::create_dir_all(&probs).unwrap();
    std::fs::copy(
        root("problems/sample_hex.json"),
        probs.join("sample_hex.json"),
    )
    .unwrap();
    small_variant(&probs, 201, 8, 10, 30, &[0, 1, 2, 3, 3]);
    small_variant(&probs, 202, 6, 8, 20, &[5, 6, 7]);
    small_variant(&probs, 203, 10, 12, 25, &[9]);
    probs
}

/// The (problem, seed) tasks of a problem folder.
fn all_tasks(probs: &Path) -> Vec<(i64, u64)> {
    let mut out = Vec::new();
    for f in std::fs::read_dir(probs).unwrap() {
        let p: Value =
            serde_json::from_str(&std::fs::read_to_string(f.unwrap().path()).unwrap()).unwrap();
        for s in p["sourceSeeds"].as_array().unwrap() {
            let t = (p["id"].as_i64().unwrap(), s.as_u64().unwrap());
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out.sort();
    out
}

/// A store's entries by (problem, seed): (tag, solution, score); the time found is left out.
fn store_entries(dir: &Path) -> BTreeMap<(i64, u64), (String, String, u64)> {
    let mut out = BTreeMap::new();
    for f in std::fs::read_dir(dir).unwrap() {
        let path = f.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("problem_") {
            continue;
        }
        let list: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for e in list {
            let key = (
                e["problemId"].as_i64().unwrap(),
                e["seed"].as_u64().unwrap(),
            );
            let value = (
                e["tag"].as_str().unwrap().to_string(),
                e["solution"].as_str().unwrap().to_string(),
                e["score"].as_u64().unwrap(),
            );
            assert!(out.insert(key, value).is_none(), "{key:?} twice in {dir:?}");
        }
    }
    out
}

/// The answers of a solution list on stdout or in a file, by (problem, seed).
fn list_entries(json: &[u8]) -> BTreeMap<(i64, u64), (String, String)> {
    let v: Vec<Value> = serde_json::from_slice(json).expect("a JSON list");
    let mut out = BTreeMap::new();
    for e in v {
        let key = (
            e["problemId"].as_i64().unwrap(),
            e["seed"].as_u64().unwrap(),
        );
        let value = (
            e["tag"].as_str().unwrap_or("").to_string(),
            e["solution"].as_str().unwrap().to_string(),
        );
        assert!(out.insert(key, value).is_none(), "{key:?} twice");
    }
    out
}

fn solve(probs: &Path, extra: &[&str], store: &Path) -> Output {
    ok(hextris()
        .args(["solve", "--attempts", "1", "-c", "1"])
        .args(extra)
        .arg("--store")
        .arg(store)
        .arg(probs)
        .output()
        .unwrap())
}

#[test]
fn shards_cover_every_task_once_and_merged_equal_one_run() {
    let dir = temp("shards");
    let probs = problems(&dir);
    let tasks = all_tasks(&probs);
    assert_eq!(tasks.len(), 11);
    let whole = solve(&probs, &[], &dir.join("whole"));
    let whole_list = list_entries(&whole.stdout);
    let whole_store = store_entries(&dir.join("whole"));
    assert_eq!(
        whole_list.keys().copied().collect::<Vec<_>>(),
        tasks,
        "one run answers every task"
    );
    for n in [3usize, 7] {
        let mut covered: BTreeMap<(i64, u64), usize> = BTreeMap::new();
        let mut stores = Vec::new();
        for k in 1..=n {
            let store = dir.join(format!("n{n}_k{k}"));
            let shard = format!("{k}/{n}");
            let o = solve(&probs, &["--shard", &shard], &store);
            for (task, answer) in list_entries(&o.stdout) {
                assert!(
                    covered.insert(task, k).is_none(),
                    "{task:?} in two shards of {n}"
                );
                // The same attempts give the same answer in a shard as in the whole run.
                assert_eq!(answer, whole_list[&task], "{task:?} in shard {shard}");
            }
            stores.push(store);
        }
        assert_eq!(
            covered.keys().copied().collect::<Vec<_>>(),
            tasks,
            "the {n} shards cover every task"
        );
        // Balance: with at least as many tasks as shards, no shard is idle.
        if n <= tasks.len() {
            for k in 1..=n {
                assert!(covered.values().any(|&s| s == k), "shard {k}/{n} is empty");
            }
        }
        let merged = dir.join(format!("merged{n}"));
        let o = ok(hextris()
            .args(["store", "merge"])
            .args(&stores)
            .arg("--into")
            .arg(&merged)
            .arg("-f")
            .arg(&probs)
            .output()
            .unwrap());
        assert!(!stderr(&o).contains("refused"), "{}", stderr(&o));
        assert_eq!(store_entries(&merged), whole_store, "{n} shards merged");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_tampered_entries_and_keeps_the_sound_ones() {
    let dir = temp("tamper");
    let probs = dir.join("problems");
    std::fs::create_dir_all(&probs).unwrap();
    small_variant(&probs, 301, 8, 10, 30, &[0, 1, 2, 3]);
    let good = dir.join("good");
    solve(&probs, &[], &good);
    let sound = store_entries(&good);
    assert_eq!(sound.len(), 4);
    // The tampered copy: seed 0 claims a higher score than its solution makes, seed 1's
    // solution is made to err (E then W returns the unit to its spawn position), and seed 2
    // claims a solution that is not the one it scores.
    let bad = dir.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let text = std::fs::read_to_string(good.join("problem_301.json")).unwrap();
    let mut list: Vec<Value> = serde_json::from_str(&text).unwrap();
    let score = |e: &Value| e["score"].as_u64().unwrap();
    list[0]["score"] = (score(&list[0]) + 1000).into();
    list[1]["solution"] = format!("bp{}", list[1]["solution"].as_str().unwrap()).into();
    list[1]["score"] = (score(&list[1]) + 1000).into();
    list[2]["solution"] = "".into();
    std::fs::write(
        bad.join("problem_301.json"),
        serde_json::to_string(&list).unwrap(),
    )
    .unwrap();
    let merge = |sources: &[&Path], into: &Path| {
        hextris()
            .args(["store", "merge"])
            .args(sources)
            .arg("--into")
            .arg(into)
            .arg("-f")
            .arg(&probs)
            .output()
            .unwrap()
    };
    let only_bad = dir.join("only_bad");
    let o = merge(&[&bad], &only_bad);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for seed in 0..3 {
        let line = err
            .lines()
            .find(|l| l.contains(&format!("problem 301 seed {seed}: refused")))
            .unwrap_or_else(|| panic!("no refusal of seed {seed}: {err}"));
        assert!(line.contains("problem_301.json"), "{line}");
    }
    assert!(err.contains("error:"), "the erring one says how: {err}");
    assert!(!err.contains("seed 3: refused"), "{err}");
    // Only the untouched seed 3 went in.
    let kept = store_entries(&only_bad);
    assert_eq!(kept.keys().copied().collect::<Vec<_>>(), vec![(301, 3)]);
    assert_eq!(kept[&(301, 3)], sound[&(301, 3)]);
    // Merged with the sound store (after it or before it), the tampered entries change nothing.
    for order in [[&bad, &good], [&good, &bad]] {
        let into = dir.join(format!("both_{}", order[0] == &bad));
        let o = merge(&[order[0].as_path(), order[1].as_path()], &into);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(store_entries(&into), sound);
    }
    // Tampered entries already in the target count for what their solutions score: sound
    // entries as good replace them.
    let o = merge(&[&good], &bad);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(store_entries(&bad), sound);
    // A source that is not a folder is one line and exit code 2, and nothing is written.
    let o = merge(&[&dir.join("missing")], &dir.join("never"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(!dir.join("never").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Regression (issue 29): seeds ran one after another, so a run stopped early answered most of
/// them with nothing and stored none of those. Every seed now gets its quick answer first, and a
/// stop sends every seed's best to the output and the store at once.
#[test]
fn a_run_stopped_by_sigterm_keeps_every_seed_and_exits_at_once() {
    let dir = temp("sigterm");
    let probs = dir.join("problems");
    std::fs::create_dir_all(&probs).unwrap();
    small_variant(&probs, 401, 8, 10, 30, &(0..10).collect::<Vec<_>>());
    let store = dir.join("store");
    // Ten seeds sharing 40 s on one thread: the run is far from its end when it is stopped.
    let mut child = hextris()
        .args(["solve", "--total", "-t", "40", "-c", "1", "--store"])
        .arg(&store)
        .arg(&probs)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let file = store.join("problem_401.json");
    while !file.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no seed stored after 60 s"
        );
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let (o, stopped_in) = stop_with_sigterm(child);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("stopped"), "{err}");
    assert!(err.contains("total "), "the summary: {err}");
    assert!(err.contains("at the start)"), "the store's total: {err}");
    // The process exits well within the 3 s a stop may take (its wall time is printed for the
    // record; the generous bound only catches a run that goes on searching).
    eprintln!("stopped {:.3} s after SIGTERM", stopped_in.as_secs_f64());
    assert!(stopped_in < Duration::from_secs(10), "{stopped_in:?}");
    // The answer on stdout is whole: every seed, none empty.
    let listed = list_entries(&o.stdout);
    assert_eq!(listed.len(), 10);
    assert!(
        listed.values().all(|(_, text)| !text.is_empty()),
        "{listed:?}"
    );
    // The store holds every seed.
    let entries = store_entries(&store);
    assert_eq!(entries.len(), 10, "{entries:?}");
    // It replays without error, every entry scoring what it records: merging it elsewhere
    // refuses nothing, and the scorer finds no error.
    let o = ok(hextris()
        .args(["store", "merge"])
        .arg(&store)
        .arg("--into")
        .arg(dir.join("copy"))
        .arg("-f")
        .arg(&probs)
        .output()
        .unwrap());
    assert!(!stderr(&o).contains("refused"));
    let o = ok(hextris()
        .args(["score", "--json", "--store"])
        .arg(&store)
        .arg("-f")
        .arg(&probs)
        .output()
        .unwrap());
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    for r in v["results"].as_array().unwrap() {
        assert!(!r["status"].as_str().unwrap().starts_with("error"), "{r}");
        assert!(r["score"].as_u64().unwrap() > 0, "{r}");
    }
    // No temporary file is left behind.
    for f in std::fs::read_dir(&store).unwrap() {
        let name = f.unwrap().file_name().to_string_lossy().to_string();
        assert!(!name.ends_with(".tmp"), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Sends SIGTERM to a run and waits for it: its output and how long it took to end. A run that
/// goes on for 30 s fails the test.
fn stop_with_sigterm(mut child: std::process::Child) -> (Output, Duration) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let signalled = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if signalled.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("the run did not stop within 30 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let stopped_in = signalled.elapsed();
    (child.wait_with_output().unwrap(), stopped_in)
}

/// `bench --store` stopped by SIGTERM answers the problem in progress, offers it to the store,
/// prints its row and the total, and exits 0 at once (issue 72: it had no stop handler).
#[test]
fn bench_stopped_by_sigterm_keeps_the_problem_in_progress() {
    let dir = temp("bench-sigterm");
    let store = dir.join("store");
    let child = hextris()
        .args(["bench", "-t", "30", "-c", "1", "--store"])
        .arg(&store)
        .arg(root("problems/sample_wide.json"))
        .arg(root("problems/sample_hex.json"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let (o, stopped_in) = stop_with_sigterm(child);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    eprintln!(
        "bench stopped {:.3} s after SIGTERM",
        stopped_in.as_secs_f64()
    );
    assert!(stopped_in < Duration::from_secs(10), "{stopped_in:?}");
    assert!(err.contains("stopped"), "{err}");
    // The table so far: the problem in progress, and no other, then the total.
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert!(rows[2].starts_with("total "), "{out}");
    let id = rows[1].split_whitespace().next().unwrap();
    // It is in the store, every seed of it.
    let entries = store_entries(&store);
    assert!(!entries.is_empty(), "{err}");
    assert!(
        entries.keys().all(|(p, _)| p.to_string() == id),
        "{entries:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_gives_the_store_and_scores_as_the_store() {
    let dir = temp("export");
    let probs = problems(&dir);
    let store = dir.join("store");
    solve(&probs, &[], &store);
    // A seed the store lacks: problem 204 is given but was never solved.
    small_variant(&probs, 204, 8, 10, 30, &[11]);
    let out = dir.join("export.json");
    let o = ok(hextris()
        .args(["store", "export"])
        .arg(&store)
        .arg("-f")
        .arg(&probs)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap());
    assert!(
        stderr(&o).contains("problem 204 seed 11"),
        "the missing seed is named: {}",
        stderr(&o)
    );
    let exported = list_entries(&std::fs::read(&out).unwrap());
    let stored: BTreeMap<(i64, u64), (String, String)> = store_entries(&store)
        .into_iter()
        .map(|(k, (tag, solution, _))| (k, (tag, solution)))
        .collect();
    assert_eq!(exported, stored);
    // Scored as a solution list, the export totals what the store does.
    let total = |args: &[&std::ffi::OsStr]| {
        let o = ok(hextris()
            .arg("score")
            .args(args)
            .arg("--json")
            .arg("-f")
            .arg(&probs)
            .output()
            .unwrap());
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        v["total"].as_u64().unwrap()
    };
    let from_store = total(&["--store".as_ref(), store.as_os_str()]);
    assert!(from_store > 0);
    assert_eq!(total(&[out.as_os_str()]), from_store);
    // Stdout without -o gives the same list.
    let o = ok(hextris()
        .args(["store", "export"])
        .arg(&store)
        .arg("-f")
        .arg(&probs)
        .output()
        .unwrap());
    assert_eq!(list_entries(&o.stdout), exported);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `store respell` on a store a run wrote: the total never falls, every entry it rewrote says so
/// in its tag and still scores what it records (`score --store` agrees with the report line); a
/// second respell takes nothing; a store folder that does not exist is one line and exit code 2.
#[test]
fn respell_never_lowers_the_store_and_refuses_a_missing_folder() {
    let dir = temp("respell");
    let probs = problems(&dir);
    let store = dir.join("store");
    solve(&probs, &[], &store);
    let before = store_entries(&store);
    let respell = || {
        ok(hextris()
            .args(["store", "respell"])
            .arg(&store)
            .arg("-f")
            .arg(&probs)
            .output()
            .unwrap())
    };
    let o = respell();
    let after = store_entries(&store);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (k, (tag, solution, score)) in &after {
        let (old_tag, old_solution, old_score) = &before[k];
        assert!(score >= old_score, "{k:?}: {score} < {old_score}");
        if solution != old_solution {
            assert!(score > old_score, "{k:?}");
            assert!(
                tag.ends_with(" respelt chars") && tag != old_tag,
                "{k:?}: {tag}"
            );
        }
    }
    let total = |o: &Output| {
        let s = stderr(o);
        let line = s
            .lines()
            .find(|l| l.contains(": total "))
            .unwrap()
            .to_string();
        line.split(": total ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    let scored = ok(hextris()
        .arg("score")
        .arg("--store")
        .arg(&store)
        .arg("--json")
        .arg("-f")
        .arg(&probs)
        .output()
        .unwrap());
    let v: Value = serde_json::from_slice(&scored.stdout).unwrap();
    assert_eq!(v["total"].as_u64().unwrap(), total(&o));
    let again = respell();
    assert_eq!(store_entries(&store), after, "{}", stderr(&again));
    assert!(stderr(&again).contains("0 better"), "{}", stderr(&again));
    let o = hextris()
        .args(["store", "respell"])
        .arg(dir.join("none"))
        .arg("-f")
        .arg(&probs)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("none"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
