//! The fast programme against the reference's, on random boards and phrases and on the sample
//! problems' games: equal at every pair a walk can reach.

use super::super::brute::tiny_case;
use super::super::reference::{values as slow, SlowBufs, Values};
use super::super::region::{Bufs, Region};
use super::*;
use crate::encode::automaton::Automaton;
use crate::encode::test_util::{Setup, SAMPLES};
use rand::{Rng, SeedableRng};

/// Compares the fast values with the slow programme's at every pair a walk can reach.
fn compare(
    sp: &UnitSpace,
    region: &Region,
    ac: &Automaton,
    gains: &[i32],
    terminal: &[i32],
    what: &str,
) {
    let mut old = Values::default();
    slow(
        sp,
        region,
        ac,
        gains,
        terminal,
        &mut SlowBufs::default(),
        &mut old,
    );
    let k = Kernel::new(ac, gains, terminal, sp.rotates());
    let mut fast = Fast::default();
    values(sp, region, &k, None, &mut FastBufs::default(), &mut fast);
    // The portable code gives the same integers as the one the processor runs (AVX2 where
    // it has it).
    let mut portable = Fast::default();
    values_portable(
        sp,
        region,
        &k,
        None,
        &mut FastBufs::default(),
        &mut portable,
    );
    assert_eq!(fast.vals, portable.vals, "{what}: portable values");
    assert_eq!(fast.spawn, portable.spawn, "{what}: portable spawn values");
    for i in 0..region.states.len() {
        for h in 0..old.ctxs {
            for a in 0..ac.len() {
                let spawn_fresh = i == region.spawn as usize && h == FRESH;
                if !k.consistent(h, a) && !spawn_fresh {
                    continue;
                }
                assert_eq!(
                    fast.at(&k, region.spawn, i, h, a),
                    old.at(i, h, a),
                    "{what}: state {i} heading {h} node {a}"
                );
            }
        }
    }
}

#[test]
fn the_fast_values_are_the_programmes_on_random_boards() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(41);
    let mut checked = 0;
    for case in 0..3000 {
        let Some((json, p, tables, lock)) = tiny_case(&mut rng) else {
            continue;
        };
        let sp = &tables.spaces[0];
        let phrases =
            crate::encode::test_util::random_phrases(&mut rng, "pbalmdkei! ", &[("ei!", 0.3)]);
        let ac = Automaton::new(&phrases);
        let weights: Vec<i32> = phrases.iter().map(|_| rng.gen_range(0..400)).collect();
        let gains = ac.gains(&weights);
        let terminal: Vec<i32> = (0..ac.len()).map(|_| rng.gen_range(0..300)).collect();
        let mut free = Vec::new();
        sp.free_map(&p.board, &mut free);
        let mut region = Region::default();
        if !region.build(sp, &free, lock.key, None, &mut Bufs::default()) {
            continue;
        }
        compare(
            sp,
            &region,
            &ac,
            &gains,
            &terminal,
            &format!("case {case}: {json}"),
        );
        checked += 1;
    }
    assert!(checked > 1500, "{checked}");
}

#[test]
fn the_fast_values_are_the_programmes_on_sample_games() {
    for json in SAMPLES {
        let setup = Setup::new(json);
        let ct = setup.char_tables();
        let plan = setup.greedy_plan(setup.problem.seeds[0]);
        let mut sim = crate::plan::Sim::new(&setup.problem);
        let mut free = Vec::new();
        let gains = ct
            .rep
            .gains(&ct.rep_ids.iter().map(|&p| ct.repeat[p]).collect::<Vec<_>>());
        let terminal: Vec<i32> = (0..ct.rep.len()).map(|a| (a as i32 * 37) % 500).collect();
        for (u, pl) in plan.placements.iter().enumerate().take(40) {
            let sp = &setup.tables.spaces[pl.unit];
            sp.free_map(&sim.board, &mut free);
            let mut region = Region::default();
            if region.build(sp, &free, pl.lock.key, ct.corridor, &mut Bufs::default()) {
                compare(
                    sp,
                    &region,
                    &ct.rep,
                    &gains,
                    &terminal,
                    &format!("unit {u}"),
                );
            }
            sim.lock(&setup.problem, pl.unit, pl.lock.state);
        }
    }
}
