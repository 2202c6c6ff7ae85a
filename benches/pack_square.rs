//! Criterion benchmarks of `hextris pack square` and `hextris pack fillit` on the shared data
//! (`../shared/pack/`): the square's `test8` (N = 30, 165 s for the Ruby original), two N = 50
//! cases and a 200 x 200 square; fillit's `test_11` (0.60 s for the C original) and
//! `difficile` (23 pieces, unfinished by the original after 540 s). Skipped when the data is
//! missing. Run with `cargo bench --bench pack_square` (and `taskset -c 0` for one core).

use criterion::{criterion_group, criterion_main, Criterion};
use hextris::pack::{fillit, square};
use std::path::PathBuf;
use std::time::Duration;

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pack");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is missing", dir.display());
        None
    }
}

fn instance(dir: &std::path::Path, name: &str) -> square::Instance {
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("square/instances.json")).unwrap())
            .unwrap();
    let item = doc["instances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap();
    square::parse_instance(item).unwrap()
}

fn bench(c: &mut Criterion) {
    let Some(dir) = shared() else { return };
    let mut g = c.benchmark_group("square");
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    for name in ["test8", "test14", "test19"] {
        let inst = instance(&dir, name);
        g.bench_function(name, |b| {
            b.iter(|| {
                assert!(matches!(
                    square::solve(&inst, None),
                    square::Verdict::Solved(_)
                ))
            })
        });
    }
    let big = square::Instance {
        width: 200,
        height: 200,
        counts: [1600, 1500, 1500, 1400, 1400, 1400, 1200],
    };
    g.bench_function("200x200", |b| {
        b.iter(|| {
            assert!(matches!(
                square::solve(&big, None),
                square::Verdict::Solved(_)
            ))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("fillit");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for name in ["test_11", "difficile"] {
        let bytes = std::fs::read(dir.join("fillit/inputs").join(name)).unwrap();
        let pieces = fillit::parse(&bytes, 26).unwrap();
        g.bench_function(name, |b| b.iter(|| fillit::solve(&pieces)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
