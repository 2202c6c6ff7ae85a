//! A table of solve times, median of several runs, for every square instance of
//! `../shared/pack/square/instances.json` and every fillit input that has a square to print.
//! Run with `cargo bench --bench pack_table` (and `taskset -c 0` for one core); skipped when
//! the data is missing.

use hextris::pack::{fillit, square};
use std::path::PathBuf;
use std::time::Instant;

/// Runs `f` `runs` times and returns the median wall time in milliseconds.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[runs / 2]
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pack");
    if !dir.is_dir() {
        eprintln!("skipped: {} is missing", dir.display());
        return;
    }
    let runs = 11;
    println!("square (median of {runs} runs)");
    println!(
        "{:<8} {:>4} {:>10} {:>9} {:>11}",
        "name", "N", "placements", "attempts", "time (ms)"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("square/instances.json")).unwrap())
            .unwrap();
    for item in doc["instances"].as_array().unwrap() {
        let inst = square::parse_instance(item).unwrap();
        let (v, st) = square::solve_with_stats(&inst, None);
        assert!(matches!(v, square::Verdict::Solved(_)));
        let ms = median_ms(runs, || {
            square::solve(&inst, None);
        });
        println!(
            "{:<8} {:>4} {:>10} {:>9} {:>11.3}",
            item["name"].as_str().unwrap(),
            inst.width,
            st.nodes,
            st.attempts,
            ms
        );
    }
    println!();
    println!("fillit (median of {runs} runs)");
    println!(
        "{:<28} {:>6} {:>4} {:>9} {:>11} {:>11}",
        "input", "pieces", "side", "questions", "placements", "time (ms)"
    );
    let mut names: Vec<_> = std::fs::read_dir(dir.join("fillit/inputs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let bytes = std::fs::read(dir.join("fillit/inputs").join(&name)).unwrap();
        let Ok(pieces) = fillit::parse(&bytes, 26) else {
            continue;
        };
        let (p, st) = fillit::solve_with_stats(&pieces);
        let ms = median_ms(runs, || {
            fillit::solve(&pieces);
        });
        println!(
            "{:<28} {:>6} {:>4} {:>9} {:>11} {:>11.3}",
            name,
            pieces.len(),
            p.size,
            st.questions,
            st.nodes,
            ms
        );
    }
}
