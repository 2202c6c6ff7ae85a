//! Benchmark of `hextris pack drop`: prints a table of solve times (median of several runs) for
//! random sequences, seeded so every run measures the same sequences.
//!
//! `cargo bench --bench pack_drop` (optionally `-- REPEATS SEQUENCES`); run it under
//! `taskset -c 0` for one-core figures. The search itself is single-threaded.

use hextris::pack::drop::search::Searcher;
use hextris::pack::drop::{Piece, Problem};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::time::Instant;

fn random_sequence(rng: &mut Pcg64, len: usize) -> String {
    (0..len)
        .map(|_| Piece::ALL[rng.gen_range(0..7)].letter())
        .collect()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Times one problem: median wall time over `repeats` fresh solves, the height and the nodes.
fn time(problem: &Problem, repeats: usize) -> (f64, usize, u64) {
    let mut times = Vec::with_capacity(repeats);
    let mut height = 0;
    let mut nodes = 0;
    for _ in 0..repeats {
        let t = Instant::now();
        let mut s = Searcher::new(problem);
        let sol = s.solve(problem);
        times.push(t.elapsed().as_secs_f64());
        height = sol.height;
        nodes = s.nodes;
    }
    (median(&mut times), height, nodes)
}

fn main() {
    // Cargo passes `--bench`; the numbers are optional positional arguments.
    let nums: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let repeats = nums.first().copied().unwrap_or(5);
    let count = nums.get(1).copied().unwrap_or(10);
    println!("pack drop benchmark: median of {repeats} runs per sequence, seeded sequences");
    println!(
        "{:>6} {:>5} {:>4} {:<22} {:>7} {:>10} {:>12}",
        "pieces", "width", "rot", "sequence", "height", "nodes", "median (s)"
    );
    // Sequences chosen to be hard: one shape only, or S and Z only (holes are unavoidable).
    for seq in [
        "SSSSSSSSSSSS",
        "ZZZZZZZZZZZZ",
        "SZSZSZSZSZSZ",
        "TTTTTTTTTTTT",
        "SSSSSSSSSSSSSSSS",
        "SZSZSZSZSZSZSZSZ",
        "TTTTTTTTTTTTTTTT",
        "LLLLLLLLLLLLLLLL",
    ] {
        let p = Problem::new(seq, 6, true).expect("valid");
        let (t, h, nodes) = time(&p, repeats);
        println!(
            "{:>6} {:>5} {:>4} {seq:<22} {h:>7} {nodes:>10} {t:>12.6}",
            seq.len(),
            6,
            "on"
        );
    }
    let mut rng = Pcg64::seed_from_u64(2015);
    for (len, width) in [(12, 6), (16, 6), (20, 6), (20, 8)] {
        let mut medians = Vec::new();
        for _ in 0..count {
            let seq = random_sequence(&mut rng, len);
            let p = Problem::new(&seq, width, true).expect("valid");
            let (t, h, nodes) = time(&p, repeats);
            medians.push(t);
            println!(
                "{len:>6} {width:>5} {:>4} {seq:<22} {h:>7} {nodes:>10} {t:>12.6}",
                "on"
            );
        }
        if medians.is_empty() {
            continue;
        }
        let worst = medians.iter().cloned().fold(0.0, f64::max);
        println!(
            "{len:>6} {width:>5} {:>4} {:<22} {:>7} {:>10} {:>12.6}   (max {worst:.6})",
            "on",
            "MEDIAN",
            "",
            "",
            median(&mut medians)
        );
    }
}
