//! Engine benchmarks: replaying the 174 solutions of `vectors_natsubate.json` (parse, simulate,
//! score), and the cost of one simulated command. Reads `../shared/icfp2015/`; without it the
//! benchmark prints that it skipped.

use criterion::{criterion_group, criterion_main, Criterion};
use hextris::engine::{replay, Command, Decoded, Game, Phrases, Problem};
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/icfp2015");
    dir.join("vectors_natsubate.json").exists().then_some(dir)
}

fn bench(c: &mut Criterion) {
    let Some(dir) = shared() else {
        eprintln!("engine bench: SKIPPED, ../shared/icfp2015 is missing");
        return;
    };
    let problem_texts: Vec<String> = (0..25)
        .map(|i| std::fs::read_to_string(dir.join(format!("problems/problem_{i}.json"))).unwrap())
        .collect();
    let vectors_text = std::fs::read_to_string(dir.join("vectors_natsubate.json")).unwrap();
    let phrases = Phrases::official();

    c.bench_function(
        "replay 174 natsubate solutions (parse+simulate+score)",
        |b| {
            b.iter(|| {
                let problems: Vec<Problem> = problem_texts
                    .iter()
                    .map(|t| Problem::from_json(t, Path::new("p")).unwrap())
                    .collect();
                let v: serde_json::Value = serde_json::from_str(&vectors_text).unwrap();
                let mut total = 0u64;
                for x in v["vectors"].as_array().unwrap() {
                    let p = &problems[x["problemId"].as_u64().unwrap() as usize];
                    let seed = x["seed"].as_u64().unwrap() as u32;
                    total += replay(p, seed, x["solution"].as_str().unwrap(), &phrases).score;
                }
                total
            })
        },
    );

    // Simulation alone: the decoded commands of every solution, played on fresh games.
    let problems: Vec<Problem> = problem_texts
        .iter()
        .map(|t| Problem::from_json(t, Path::new("p")).unwrap())
        .collect();
    let v: serde_json::Value = serde_json::from_str(&vectors_text).unwrap();
    let games: Vec<(usize, u32, Vec<Command>)> = v["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            let cmds = x["solution"]
                .as_str()
                .unwrap()
                .chars()
                .filter_map(|c| match Command::decode(c) {
                    Decoded::Command(k) => Some(k),
                    _ => None,
                })
                .collect();
            (
                x["problemId"].as_u64().unwrap() as usize,
                x["seed"].as_u64().unwrap() as u32,
                cmds,
            )
        })
        .collect();
    let commands: usize = games.iter().map(|g| g.2.len()).sum();
    eprintln!("simulate: {commands} commands in all");
    c.bench_function("simulate the 174 solutions' commands", |b| {
        b.iter(|| {
            let mut score = 0;
            for (id, seed, cmds) in &games {
                let mut g = Game::new(&problems[*id], *seed);
                for &k in cmds {
                    g.step(k).unwrap();
                }
                score += g.move_score();
            }
            score
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
