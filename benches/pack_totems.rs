//! Benchmark of the totems packer inside one process: for each level, the median and maximum
//! solve time over seeded random bags (the same bags as `--eval`), and the share of optimal
//! scores. `cargo bench --bench pack_totems -- [BAGS] [THREADS]`; the time limit per bag is 1 s
//! minus the command's safety margin, as in `hextris pack totems`. The process-level figures
//! (start-up included) come from `hextris pack totems --eval`.

use hextris::pack::totems::trials::draw;
use hextris::pack::totems::{packer, BEST};
use std::time::{Duration, Instant};

fn main() {
    let nums: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let bags = nums.first().copied().unwrap_or(50);
    let threads = nums.get(1).copied().unwrap_or(2);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .expect("first pool");
    println!("pack totems benchmark: {bags} bags per level (seed 1), {threads} threads");
    println!(
        "{:>5} {:>4} {:>9} {:>12} {:>12} {:>11}",
        "level", "n", "optimal", "median (s)", "max (s)", "mean score"
    );
    for level in 1..=10u32 {
        let mut times = Vec::with_capacity(bags);
        let mut optimal = 0;
        let mut total = 0.0;
        for r in 0..bags {
            let bag = draw(level, 1, r);
            let t = Instant::now();
            let report = packer::solve(&bag, t + Duration::from_millis(880), 1 + r as u64);
            times.push(t.elapsed().as_secs_f64());
            if report.score >= BEST[level as usize - 1] - 1e-9 {
                optimal += 1;
            }
            total += report.score;
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "{level:>5} {:>4} {:>8.1}% {:>12.6} {:>12.6} {:>11.2}",
            1usize << (level - 1),
            100.0 * optimal as f64 / bags as f64,
            times[bags / 2],
            times[bags - 1],
            total / bags as f64
        );
    }
}
