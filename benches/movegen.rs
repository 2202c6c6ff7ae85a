//! Move generation: locks found per second on problem 24 (100x40, 54 units) and problem 14
//! (50x50), on the initial board and on a mid-game board (after 200 greedy placements). Reads
//! `../shared/icfp2015/problems`; without it the benchmark prints that it skipped.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hextris::eval::{LockScorer, Weights};
use hextris::plan::{gen_locks, plan_greedy, PlanConfig, Scratch, Sim, Tables};
use std::path::PathBuf;

fn bench(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/icfp2015/problems");
    if !dir.exists() {
        eprintln!("movegen bench: SKIPPED, {} is missing", dir.display());
        return;
    }
    for id in [24, 14] {
        let p = hextris::io::read_problem(&dir.join(format!("problem_{id}.json"))).unwrap();
        let tables = Tables::new(&p);
        // A mid-game board: the first 200 units placed greedily.
        let weights = Weights::system("low").unwrap();
        let mut scorer = LockScorer::new(&tables, &weights, 1);
        let plan = plan_greedy(
            &p,
            &tables,
            p.seeds[0],
            &PlanConfig::whole_game(),
            &mut scorer,
        );
        let mut mid = Sim::new(&p);
        for pl in plan.placements.iter().take(200) {
            mid.lock(&p, pl.unit, pl.lock.state);
        }
        for (name, board) in [("initial", &p.board), ("mid-game", &mid.board)] {
            let mut s = Scratch::default();
            let locks: usize = (0..p.units.len())
                .map(|u| {
                    gen_locks(&tables, u, board, &mut s);
                    s.locks.len()
                })
                .sum();
            let mut g = c.benchmark_group(format!("movegen problem {id} {name}"));
            g.throughput(Throughput::Elements(locks as u64));
            g.bench_function(
                format!("all {} units ({locks} locks)", p.units.len()),
                |b| {
                    b.iter(|| {
                        let mut n = 0;
                        for u in 0..p.units.len() {
                            gen_locks(&tables, u, board, &mut s);
                            n += s.locks.len();
                        }
                        n
                    })
                },
            );
            g.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
