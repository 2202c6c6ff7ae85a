//! A run with `--store` killed with SIGKILL at random moments keeps every improvement older than
//! the store's interval (issue 72): an answer that comes within the interval of its seed's last
//! offer is held and offered as soon as the interval has passed, whether or not another
//! improvement follows.
//!
//! Each round solves the bundled sample (three seeds) on one thread with `store_interval` 0.5 s,
//! reads the improvements as `HEXTRIS_DEBUG` prints them, kills the process a random time after a
//! random improvement, and compares the store with the improvements seen. The rounds come from a
//! fixed seed, printed with any failure.

use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The store's interval in the rounds, and the slack allowed past it for the offer itself (the
/// replay and the write) on a machine busy with other tests.
const INTERVAL: f64 = 1.0;
const SLACK: f64 = 0.75;
const ROUNDS: u64 = 20;

/// One improvement as the run printed it: when it was read, its seed and its score.
struct Improvement {
    at: Instant,
    seed: u32,
    score: u64,
}

/// Parses `store: improved: problem P seed S: SCORE`.
fn parse(line: &str) -> Option<(u32, u64)> {
    let rest = line.split("store: improved: problem ").nth(1)?;
    let (_, rest) = rest.split_once(" seed ")?;
    let (seed, score) = rest.split_once(": ")?;
    Some((seed.trim().parse().ok()?, score.trim().parse().ok()?))
}

/// Each seed's recorded score in the store's file (none when the file is missing).
fn stored(file: &Path) -> BTreeMap<u32, u64> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return BTreeMap::new();
    };
    let entries: Vec<serde_json::Value> = serde_json::from_str(&text).expect("a whole store file");
    entries
        .iter()
        .map(|e| {
            (
                e["seed"].as_u64().unwrap() as u32,
                e["score"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hextris-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_kill_loses_no_improvement_older_than_the_interval() {
    let dir = temp("store-kill");
    let search = dir.join("search.json");
    std::fs::write(&search, format!(r#"{{"store_interval": {INTERVAL}}}"#)).unwrap();
    let problem = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/sample_hex.json");
    let mut rng = rand::rngs::StdRng::seed_from_u64(72);
    let mut checked = 0;
    for round in 0..ROUNDS {
        let store = dir.join(format!("store{round}"));
        // Kill after the n-th improvement, d seconds later.
        let n = rng.gen_range(1..=20usize);
        let d = rng.gen_range(0.0..3.5f64);
        let mut child = Command::new(env!("CARGO_BIN_EXE_hextris"))
            .args(["solve", "-t", "4", "-c", "1", "--search"])
            .arg(&search)
            .arg("--store")
            .arg(&store)
            .arg(&problem)
            .env("HEXTRIS_DEBUG", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = mpsc::channel();
        let err = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                if let Some((seed, score)) = parse(&line) {
                    let _ = tx.send(Improvement {
                        at: Instant::now(),
                        seed,
                        score,
                    });
                }
            }
        });
        let mut seen: Vec<Improvement> = Vec::new();
        while seen.len() < n {
            match rx.recv_timeout(Duration::from_secs(20)) {
                Ok(i) => seen.push(i),
                Err(_) => break,
            }
        }
        let kill_at = Instant::now() + Duration::from_secs_f64(d);
        while let Ok(i) = rx.recv_timeout(kill_at.saturating_duration_since(Instant::now())) {
            seen.push(i);
        }
        let ended = child.try_wait().unwrap().is_some();
        let killed = Instant::now();
        let _ = child.kill();
        child.wait().unwrap();
        reader.join().unwrap();
        seen.extend(rx.try_iter().filter(|i| i.at < killed));
        // Every improvement read at least the interval and the slack before the kill is stored.
        let old_enough = killed - Duration::from_secs_f64(INTERVAL + SLACK);
        let mut owed: BTreeMap<u32, u64> = BTreeMap::new();
        for i in seen.iter().filter(|i| ended || i.at <= old_enough) {
            let best = owed.entry(i.seed).or_default();
            *best = (*best).max(i.score);
        }
        let held = stored(&store.join("problem_1001.json"));
        for (seed, score) in &owed {
            let got = held.get(seed).copied().unwrap_or(0);
            assert!(
                got >= *score,
                "round {round} (rng seed 72, n {n}, d {d:.3}, ended {ended}): seed {seed} \
                 improved to {score} more than {INTERVAL} + {SLACK} s before the kill, the \
                 store holds {got}"
            );
            checked += 1;
        }
        eprintln!(
            "round {round}: {} improvements read, killed {d:.2} s after the {n}th{}; {} seeds \
             owed, store {held:?}",
            seen.len(),
            if ended { " (the run had ended)" } else { "" },
            owed.len()
        );
    }
    assert!(
        checked > 0,
        "no round had an improvement old enough to check"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
