//! The state space against naive searches with the engine's own rules, on fixed and random
//! boards.

use super::*;
use crate::engine::{Board, Phrases, Problem};
use crate::plan::{Bfs, KeySet};
use crate::testkit::problem;
use std::path::Path;

/// Every reachable state by a naive breadth-first search with the engine's own rules.
fn naive_reach(p: &Problem, board: &Board, u: usize) -> Vec<(i64, i64, u8)> {
    let unit = &p.units[u];
    let start = crate::engine::Piece::spawn(u, unit);
    let mut seen = std::collections::BTreeSet::new();
    let mut queue = vec![start];
    if !board.fits(unit.shape(0, start.pivot.y), start.pivot) {
        return vec![];
    }
    seen.insert((start.pivot.x, start.pivot.y, unit.canon(0)));
    while let Some(s) = queue.pop() {
        for cmd in Command::ALL {
            let n = s.moved(cmd);
            if board.fits(unit.shape(n.orient, n.pivot.y), n.pivot)
                && seen.insert((n.pivot.x, n.pivot.y, unit.canon(n.orient)))
            {
                queue.push(n);
            }
        }
    }
    seen.into_iter().collect()
}

fn check_against_naive(p: &Problem) {
    let mut board = p.board.clone();
    board.fill(0, p.height - 1);
    for (u, unit) in p.units.iter().enumerate() {
        let space = UnitSpace::new(unit, p.width, p.height);
        let (mut free, mut reach, mut tmp) = (vec![], vec![], ReachBufs::default());
        space.free_map(&board, &mut free);
        space.reach(&free, &mut reach, &mut tmp);
        let mut got = vec![];
        for idx in 0..space.states {
            let s = space.state_of(idx);
            let r = &space.orients[s.o as usize];
            let i = (s.x - r.x_lo) as usize;
            if bits::get(&reach[r.row_base + (s.y - r.y_lo) as usize * r.nw..], i) {
                got.push((s.x, s.y, s.o));
            }
        }
        got.sort();
        assert_eq!(got, naive_reach(p, &board, u), "unit {u}");
    }
}

#[test]
fn reach_matches_a_naive_search() {
    let units = r#"{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":1,"y":1}],"pivot":{"x":0,"y":0}},
        {"members":[{"x":0,"y":0},{"x":2,"y":0}],"pivot":{"x":1,"y":0}},
        {"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
        {"members":[{"x":0,"y":0},{"x":2,"y":0}],"pivot":{"x":1,"y":5}}"#;
    let filled = [(3, 4), (4, 4), (2, 6), (6, 3)];
    check_against_naive(&problem(8, 9, units, &filled));
    // A board wider than one word.
    check_against_naive(&problem(90, 9, units, &filled));
}

/// A unit whose pivot or member lies at a 32-bit end of the input's range (issue 72: such files
/// took minutes, as the row loops ran from one orientation's box to another billions of rows
/// away).
#[test]
fn units_at_the_32_bit_ends_reach_as_the_naive_search() {
    for ((mx, my), (px, py)) in crate::testkit::units_at_the_32_bit_ends() {
        let units = format!(
            r#"{{"members":[{{"x":{mx},"y":{my}}}],"pivot":{{"x":{px},"y":{py}}}}},
            {{"members":[{{"x":{mx},"y":{my}}},{{"x":0,"y":1}}],"pivot":{{"x":{px},"y":{py}}}}}"#
        );
        let p = problem(15, 15, &units, &[(3, 14), (4, 13)]);
        check_against_naive(&p);
        for unit in &p.units {
            let space = UnitSpace::new(unit, p.width, p.height);
            // Every box left lies within a board's size of the spawn, so the row loops are short.
            let first = space.orients.iter().map(|r| r.y_lo).min().unwrap();
            assert!(space.y_end - first <= 2 * p.height as i64, "{units}");
        }
    }
}

#[test]
fn predecessors_invert_steps_and_keys_find_their_states() {
    let units = r#"{"members":[{"x":0,"y":0},{"x":2,"y":0}],"pivot":{"x":1,"y":0}},
        {"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":1,"y":1}],"pivot":{"x":0,"y":0}}"#;
    let p = problem(8, 9, units, &[]);
    for unit in &p.units {
        let space = UnitSpace::new(unit, p.width, p.height);
        for idx in 0..space.states {
            let s = space.state_of(idx);
            assert_eq!(space.index(s), Some(idx));
            for (pred, cmd) in space.predecessors(s) {
                assert_eq!(space.step(pred, cmd), s, "{cmd:?} into {s:?}");
            }
            let same = space.states_with_key(space.key(s));
            assert!(same.contains(&s));
            for t in same {
                let mut a: Vec<_> = space
                    .cells(s)
                    .iter()
                    .map(|c| (s.x + c.0, s.y + c.1))
                    .collect();
                let mut b: Vec<_> = space
                    .cells(t)
                    .iter()
                    .map(|c| (t.x + c.0, t.y + c.1))
                    .collect();
                a.sort();
                b.sort();
                assert_eq!(a, b);
            }
        }
    }
}

/// Property test on random boards and units: the reachable set equals a naive search with
/// the engine's rules, and every lock's path replays through the engine to that lock.
/// Regression: a domino turning about a pivot off its cells holds the same member set in two
/// states, one of which locked only by a rotation; the path could end in the other one,
/// where that rotation moves back to a position already held (an error, not a lock).
#[test]
fn random_boards_reach_and_paths_agree_with_the_engine() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(2015);
    for case in 0..300 {
        let (w, h) = (rng.gen_range(3..14usize), rng.gen_range(4..13usize));
        let units = [crate::testkit::random_unit(&mut rng, 5, 0.3)];
        // Filled cells in the lower two thirds, about a quarter of them.
        let json =
            crate::testkit::random_problem(&mut rng, (w, h), (h / 3, 0.25), &units, (5, &[0]));
        let Ok(p) = Problem::from_json(&json, Path::new("t")) else {
            continue;
        };
        check_against_naive(&p);
        let space = UnitSpace::new(&p.units[0], p.width, p.height);
        let (mut free, mut reach, mut tmp, mut locks) =
            (vec![], vec![], ReachBufs::default(), vec![]);
        space.free_map(&p.board, &mut free);
        if !space.reach(&free, &mut reach, &mut tmp) {
            continue;
        }
        space.locks(&free, &reach, false, &mut locks, &mut KeySet::default());
        let mut bfs = Bfs::default();
        for lock in &locks {
            let (mut cmds, end) = space
                .path(&free, space.spawn_state(), lock.key, &mut bfs)
                .unwrap();
            assert_eq!(space.key(end), lock.key, "case {case}");
            assert_eq!(lock.cmds, space.lock_cmds(&free, lock.state), "case {case}");
            // The path may end in another state of the same member set: it locks by its
            // own commands.
            cmds.push(Command::first_in(space.lock_cmds(&free, end)).unwrap());
            let text: String = cmds.iter().map(|c| c.char()).collect();
            let e = crate::engine::replay(&p, 0, &text, &Phrases::official());
            assert!(!e.end.is_error(), "case {case}: {json} {text}: {}", e.end);
            assert_eq!(e.locked, 1, "case {case}: {json} {text}");
        }
    }
}

/// Runs `check` on `n` random stacks ([`random_stack`]) drawn from `seed`, with the case's number
/// (from 1), the problem, its JSON and the generator, for the test's own draws.
fn each_random_stack(
    seed: u64,
    n: usize,
    mut check: impl FnMut(usize, Problem, &str, &mut rand::rngs::StdRng),
) {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut cases = 0;
    while cases < n {
        let Some((p, json)) = random_stack(&mut rng) else {
            continue;
        };
        cases += 1;
        check(cases, p, &json, &mut rng);
    }
}

/// A random board of one to three words' width with a stack of random height and density (empty
/// or full at times) and one random unit of up to 6 cells, pivot on or off its cells, with its
/// JSON; `None` where the draw makes no valid problem.
fn random_stack(rng: &mut rand::rngs::StdRng) -> Option<(Problem, String)> {
    use rand::Rng;
    let (w, h) = (rng.gen_range(1..140usize), rng.gen_range(1..40usize));
    let units = [crate::testkit::random_unit(rng, 6, 0.3)];
    let from = rng.gen_range(0..=h);
    let fill = [0.0, 0.3, 0.8, 1.0][rng.gen_range(0..4)];
    let json = crate::testkit::random_problem(rng, (w, h), (from, fill), &units, (5, &[0]));
    let p = Problem::from_json(&json, Path::new("t")).ok()?;
    Some((p, json))
}

/// Above a board's stack, move generation takes the empty board's free states, reachable
/// states and locks: on random boards (stacks of random height and density, the board empty
/// or full at times, boards one to three words wide) and random units (pivots on and off
/// their cells), the free map, the reachable states and the locks (supported or not, in
/// order, with their commands) are those found row by row.
#[test]
fn the_rows_above_the_stack_are_the_empty_boards() {
    let mut cached_rows = 0;
    each_random_stack(30, 3000, |cases, p, json, _| {
        let fast = UnitSpace::new(&p.units[0], p.width, p.height);
        let slow = fast.uncached();
        let mut bufs = ReachBufs::default();
        let mut got = (vec![], vec![], vec![]);
        let mut want = (vec![], vec![], vec![]);
        fast.free_map(&p.board, &mut got.0);
        slow.free_map(&p.board, &mut want.0);
        assert_eq!(got.0, want.0, "case {cases}: {json}");
        let reach_got = fast.reach(&got.0, &mut got.1, &mut bufs);
        let reach_want = slow.reach(&want.0, &mut want.1, &mut bufs);
        assert_eq!(
            (reach_got, &got.1),
            (reach_want, &want.1),
            "case {cases}: {json}"
        );
        for supported in [false, true] {
            fast.locks(
                &got.0,
                &got.1,
                supported,
                &mut got.2,
                &mut KeySet::default(),
            );
            slow.locks(
                &want.0,
                &want.1,
                supported,
                &mut want.2,
                &mut KeySet::default(),
            );
            assert_eq!(got.2, want.2, "case {cases} supported {supported}: {json}");
        }
        // Move generation finds where those rows end from the stack's top, once for the reach
        // and the locks: the same row, the same reach and locks.
        let clear = fast.clear_until(&got.0);
        let top = crate::plan::stack_top(&p.board) as i64;
        let mut under = Vec::new();
        fast.free_map_under(&p.board, top, &mut under);
        assert_eq!(under, got.0, "case {cases}: {json}");
        assert_eq!(
            fast.clear_until_under(&got.0, top),
            clear,
            "case {cases}: {json}"
        );
        let mut again = (vec![], vec![]);
        let reach_again = fast.reach_with_clear(&got.0, clear, &mut again.0, &mut bufs);
        assert_eq!((reach_again, &again.0), (reach_got, &got.1), "case {cases}");
        fast.locks_with_clear(
            &got.0,
            &got.1,
            clear,
            true,
            &mut again.1,
            &mut KeySet::default(),
        );
        fast.locks(&got.0, &got.1, true, &mut got.2, &mut KeySet::default());
        assert_eq!(again.1, got.2, "case {cases}: {json}");
        cached_rows += clear.max(0) as usize;
    });
    assert!(
        cached_rows > 10_000,
        "only {cached_rows} rows above the stacks"
    );
}

/// The probes' lazy reach ([`UnitSpace::reach_on`]) is the eager one's ([`UnitSpace::free_map`]
/// then [`UnitSpace::reach`]), to the bit, on random boards and units: stacks of random height
/// and density, a band of filled rows with a few gaps across the middle (a shelf the unit may
/// not get through), the spawn filled at times, boards one to three words wide, and the space
/// without its empty board's rows. And the laziness is not idle: in many cases rows of the map
/// are left unworked.
#[test]
fn the_lazy_reach_is_the_eager_one() {
    use rand::Rng;
    let mut lazier = 0;
    each_random_stack(44, 3000, |cases, p, json, rng| {
        let (w, h) = (p.width, p.height);
        let mut board = p.board.clone();
        if rng.gen_bool(0.4) {
            // A shelf: rows filled but for a few gaps, somewhere below the top.
            let (y0, rows) = (rng.gen_range(0..h), rng.gen_range(1..=3));
            for y in y0..(y0 + rows).min(h) {
                for x in 0..w {
                    if !rng.gen_bool(0.1) {
                        board.fill(x, y);
                    }
                }
            }
        }
        let fast = UnitSpace::new(&p.units[0], p.width, p.height);
        for space in [&fast, &fast.uncached()] {
            let mut bufs = ReachBufs::default();
            let (mut free, mut reach) = (vec![], vec![]);
            space.free_map(&board, &mut free);
            let want = space.reach(&free, &mut reach, &mut bufs);
            let (mut lazy_free, mut lazy_reach) = (vec![1], vec![1]);
            let got = space.reach_on(&board, &mut lazy_free, &mut lazy_reach, &mut bufs);
            assert_eq!((got, &lazy_reach), (want, &reach), "case {cases}: {json}");
            lazier += usize::from(lazy_free != free);
        }
    });
    assert!(lazier > 500, "only {lazier} lazy maps left rows unworked");
}

/// The locks by their definition, the slow twin of [`UnitSpace::locks`]: every reachable state,
/// in the order of the dense state index (orientation, row, column), where some command leaves
/// the free states (and, with `supported`, a descent does), the first state of each member set.
fn naive_locks(space: &UnitSpace, free: &[u64], reach: &[u64], supported: bool) -> Vec<Lock> {
    let mut keys = std::collections::HashSet::new();
    let mut out = Vec::new();
    for idx in 0..space.states {
        let state = space.state_of(idx);
        if space.index(state) != Some(idx) || !space.is_free(reach, state) {
            continue;
        }
        let cmds = space.lock_cmds(free, state);
        if cmds == 0 || supported && cmds & DESCENDS == 0 {
            continue;
        }
        let key = space.key(state);
        if keys.insert(key) {
            out.push(Lock { state, cmds, key });
        }
    }
    out
}

/// The locks of move generation against their definition ([`naive_locks`]), supported or not,
/// in order, with their commands, on random stacks (boards one to three words wide, units of
/// up to 6 cells with pivots on and off their cells, so that orientations share member sets),
/// the empty board's cached rows included.
#[test]
fn the_locks_are_the_reachable_states_that_lock_first_per_member_set() {
    let (mut shared, mut locks_seen) = (0, 0);
    each_random_stack(71, 3000, |cases, p, json, _| {
        let space = UnitSpace::new(&p.units[0], p.width, p.height);
        let (mut free, mut reach, mut bufs) = (vec![], vec![], ReachBufs::default());
        space.free_map(&p.board, &mut free);
        if !space.reach(&free, &mut reach, &mut bufs) {
            return;
        }
        let mut seen = KeySet::default();
        for supported in [false, true] {
            let mut got = Vec::new();
            space.locks(&free, &reach, supported, &mut got, &mut seen);
            let want = naive_locks(&space, &free, &reach, supported);
            assert_eq!(got, want, "case {cases} supported {supported}: {json}");
            locks_seen += got.len();
        }
        shared += (space.classes < space.k as usize) as usize;
    });
    assert!(
        shared > 500 && locks_seen > 100_000,
        "{shared} shared, {locks_seen} locks"
    );
}
