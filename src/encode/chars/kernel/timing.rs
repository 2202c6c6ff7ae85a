//! A timing of the fast programme against the reference's, run by hand (ignored by default).

use super::super::reference::{values as slow, SlowBufs, Values};
use super::super::region::{Bufs, Region};
use super::super::CharTables;
use super::*;
use crate::encode::PhraseTable;
use crate::engine::{Phrases, Problem};
use crate::plan::{plan_of_text, Sim, Tables};
use std::time::Instant;

/// Times the slow and fast programmes on the stored games' first units (run by hand:
/// `cargo test --release --lib kernel::timing -- --ignored --nocapture`).
#[test]
#[ignore]
fn time_fast_against_slow() {
    let ids: Vec<u32> = std::env::var("IDS").map_or(vec![14, 18, 24, 3, 5], |v| {
        v.split(',').map(|x| x.parse().unwrap()).collect()
    });
    let take: usize = std::env::var("TAKE").map_or(200, |v| v.parse().unwrap());
    for id in ids {
        let path = format!("../shared/icfp2015/problems/problem_{id}.json");
        let Ok(json) = std::fs::read_to_string(&path) else {
            return;
        };
        let p = Problem::from_json(&json, std::path::Path::new(&path)).unwrap();
        let tables = Tables::new(&p);
        let phrases = Phrases::official();
        let table = PhraseTable::new(&phrases);
        let ct = CharTables::new(&table, &tables.spaces, p.width);
        let store: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(format!("solutions/problem_{id}.json")).unwrap(),
        )
        .unwrap();
        let text = store[0]["solution"].as_str().unwrap();
        let plan = plan_of_text(&p, &tables, p.seeds[0], text).unwrap();
        let gains = ct
            .rep
            .gains(&ct.rep_ids.iter().map(|&q| ct.repeat[q]).collect::<Vec<_>>());
        let terminal = vec![0; ct.rep.len()];
        let mut sim = Sim::new(&p);
        let mut free = Vec::new();
        let (mut t_slow, mut t_fast, mut states, mut cells, mut units) = (0.0, 0.0, 0, 0, 0);
        let (mut bufs, mut fb) = (Bufs::default(), FastBufs::default());
        let mut slow_bufs = SlowBufs::default();
        let (mut old, mut fast) = (Values::default(), Fast::default());
        for pl in plan.placements.iter().take(take) {
            let sp = &tables.spaces[pl.unit];
            sp.free_map(&sim.board, &mut free);
            let mut region = Region::default();
            if region.build(sp, &free, pl.lock.key, ct.corridor, &mut bufs) {
                let t0 = Instant::now();
                if std::env::var_os("SKIP_SLOW").is_none() {
                    slow(
                        sp,
                        &region,
                        &ct.rep,
                        &gains,
                        &terminal,
                        &mut slow_bufs,
                        &mut old,
                    );
                }
                t_slow += t0.elapsed().as_secs_f64();
                let t0 = Instant::now();
                let k = Kernel::new(&ct.rep, &gains, &terminal, sp.rotates());
                values(sp, &region, &k, None, &mut fb, &mut fast);
                t_fast += t0.elapsed().as_secs_f64();
                states += region.states.len();
                cells += fast.vals.len();
                units += 1;
            }
            sim.lock(&p, pl.unit, pl.lock.state);
        }
        let k = Kernel::new(&ct.rep, &gains, &terminal, true);
        eprintln!(
            "exceptions per command {:?} edges {} root succ {:?}",
            k.exc
                .iter()
                .zip(&k.exc2)
                .map(|(e, f)| e.len() + f.len())
                .collect::<Vec<_>>(),
            k.edges.len(),
            k.root.iter().map(|e| e.len()).collect::<Vec<_>>()
        );
        eprintln!(
            "problem {id}: {units} units, {} states/unit, {} cnodes/state, rep nodes {}, slow {:.0} us/unit, fast {:.0} us/unit, pops/state {:.2}",
            states / units.max(1),
            cells / states.max(1),
            ct.rep.len(),
            t_slow * 1e6 / units as f64,
            t_fast * 1e6 / units as f64,
            fb.pops as f64 / states as f64
        );
    }
}
