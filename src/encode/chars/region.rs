//! The region of one unit: the states of its way from the spawn to its planned lock, numbered row
//! by row, with their transitions and the commands that lock there; and the buffers the
//! encoder reuses.
//!
//! Positions are those of [`crate::plan::space`]: a pivot (x, y), y growing downwards, and a
//! canonical orientation. A region keeps the states reachable from the spawn that can still
//! reach the planned lock (on a wide board, only those within a corridor of a shortest path),
//! so that every walk through it can end at the lock.

use super::NONE;
use crate::engine::Command;
use crate::plan::{Bfs, LockKey, State, UnitSpace};

/// The states of one unit that matter: reachable from the spawn, free, and able to reach the
/// planned lock; compact indices row by row.
#[derive(Debug, Default)]
pub(super) struct Region {
    pub(super) states: Vec<State>,
    /// Per compact state and command: the compact index of the successor, or [`NONE`].
    pub(super) next: Vec<[u32; 6]>,
    /// Per compact state: the commands that lock the unit there at the target (bit per
    /// command), 0 when it is not a target state.
    pub(super) locks: Vec<u8>,
    /// Per row from the spawn's: the range of its compact states.
    pub(super) rows: Vec<(u32, u32)>,
    /// Dense index -> compact index.
    pub(super) compact: Vec<u32>,
    pub(super) spawn: u32,
}

impl Region {
    /// Builds the region of unit `sp` on free map `free` with target `key`; false when the spawn
    /// cannot reach the target.
    ///
    /// With `corridor`, only the states within that many columns of a shortest path from the
    /// spawn to the target (on the same row) are kept: on a wide board a unit that spells well
    /// rarely strays far from its way down, and the programme's cost falls with the width it
    /// covers. The shortest path itself stays in, so the target is still reached.
    pub(super) fn build(
        &mut self,
        sp: &UnitSpace,
        free: &[u64],
        key: LockKey,
        corridor: Option<i64>,
        bufs: &mut Bufs,
    ) -> bool {
        self.states.clear();
        self.next.clear();
        self.locks.clear();
        self.rows.clear();
        self.compact.clear();
        self.compact.resize(sp.states, NONE);
        let targets = sp.lock_states(free, key);
        let Some(y_end) = targets.iter().map(|t| t.y).max() else {
            return false;
        };
        if !sp.reach(free, &mut bufs.reach, &mut bufs.reach_bufs) {
            return false;
        }
        let y0 = sp.spawn_state().y;
        // Only the rows a descent can reach from the spawn: the orientations of a unit whose
        // pivot lies far away occupy far-apart rows, and a target past the gap is unreachable
        // (without this the loops below would walk billions of empty rows).
        let rows = y0..=y_end.min(sp.rows_from(y0).end - 1);
        if rows.is_empty() {
            return false;
        }
        if let Some(c) = corridor {
            if !keep_corridor(sp, free, key, &rows, c, bufs) {
                return false;
            }
        }
        // The states on some way to the target, within the reach: the reach alone bounds the
        // flood, as it lies within the free map (it was flooded through free states only).
        let Bufs {
            reach,
            reach_bufs,
            alive,
            ..
        } = bufs;
        sp.reach_back(reach, &targets, &rows, alive, reach_bufs);
        self.index_rows(sp, &rows, bufs);
        let s0 = sp.spawn_state();
        self.spawn = sp.index(s0).map_or(NONE, |i| self.compact[i]);
        if self.spawn == NONE {
            return false;
        }
        self.link(sp, free, key);
        true
    }

    /// Numbers the region's states row by row: the states marked alive (reachable, free, and
    /// on some way to the target), by orientation, then column.
    pub(super) fn index_rows(
        &mut self,
        sp: &UnitSpace,
        rows: &std::ops::RangeInclusive<i64>,
        bufs: &Bufs,
    ) {
        for y in rows.clone() {
            let first = self.states.len() as u32;
            for o in 0..sp.k {
                for s in sp.free_in_row(&bufs.alive, o, y) {
                    let i = sp.index(s).expect("alive states lie in the box");
                    self.compact[i] = self.states.len() as u32;
                    self.states.push(s);
                }
            }
            self.rows.push((first, self.states.len() as u32));
        }
    }

    /// The transitions between the region's states, and the commands that lock each at the
    /// target.
    pub(super) fn link(&mut self, sp: &UnitSpace, free: &[u64], key: LockKey) {
        for &s in &self.states {
            let next = std::array::from_fn(|c| {
                let cmd = Command::ALL[c];
                if !sp.rotates() && matches!(cmd, Command::CW | Command::CCW) {
                    return NONE;
                }
                sp.index(sp.step(s, cmd)).map_or(NONE, |j| self.compact[j])
            });
            self.next.push(next);
            self.locks.push(if sp.is_lock_state(free, s, key) {
                sp.lock_cmds(free, s)
            } else {
                0
            });
        }
    }

    /// Whether the commands `cmds` can be played from some state of the region through its
    /// states (positions visited are not checked), the last one possibly as the lock.
    pub(super) fn fits(&self, cmds: &[Command]) -> bool {
        let Some((&last, init)) = cmds.split_last() else {
            return true;
        };
        (0..self.states.len()).any(|start| {
            let mut i = start;
            for &c in init {
                let n = self.next[i][c as usize];
                if n == NONE {
                    return false;
                }
                i = n as usize;
            }
            self.next[i][last as usize] != NONE || self.locks[i] >> last as u8 & 1 == 1
        })
    }

    pub(super) fn row_of(&self, y0: i64, y: i64) -> std::ops::Range<usize> {
        let (a, b) = self.rows[(y - y0) as usize];
        a as usize..b as usize
    }
}

/// Keeps in `bufs.reach` only the states within `c` columns of a shortest path from the spawn
/// to the target `key`, row by row (rows below the path's end, other states of the target's
/// member set, take the path's last row's columns); false when no path exists.
pub(super) fn keep_corridor(
    sp: &UnitSpace,
    free: &[u64],
    key: LockKey,
    rows: &std::ops::RangeInclusive<i64>,
    c: i64,
    bufs: &mut Bufs,
) -> bool {
    let Some((cmds, _)) = sp.path(free, sp.spawn_state(), key, &mut bufs.bfs) else {
        return false;
    };
    let y0 = *rows.start();
    // Per row, the columns of the path's states.
    let mut span: Vec<(i64, i64)> = vec![(i64::MAX, i64::MIN); rows.clone().count()];
    let mut s = sp.spawn_state();
    let mut mark = |s: State| {
        if let Some(r) = span.get_mut((s.y - y0) as usize) {
            *r = (r.0.min(s.x), r.1.max(s.x));
        }
    };
    mark(s);
    for &cmd in &cmds {
        s = sp.step(s, cmd);
        mark(s);
    }
    let mut last = (i64::MIN, i64::MAX);
    for (r, &(lo, hi)) in span.iter().enumerate() {
        if lo <= hi {
            last = (lo, hi);
        }
        let y = y0 + r as i64;
        for o in 0..sp.k {
            let Some((b, n)) = sp.row(o, y) else {
                continue;
            };
            let x_lo = sp.x_lo(o);
            keep_range(
                &mut bufs.reach[b..b + n],
                last.0.saturating_sub(c) - x_lo,
                last.1.saturating_add(c) - x_lo,
            );
        }
    }
    true
}

/// The slow twin of [`UnitSpace::reach_back`] (the region's flood before it): per dense state
/// index, whether the state of `reach` can reach one of `targets` by moves along rows and
/// descents; a flood bottom-up, row by row, state by state, each row from the states that
/// descend into an alive state or are targets, then back along the row's reversed moves.
#[cfg(test)]
fn mark_alive_slow(
    sp: &UnitSpace,
    free: &[u64],
    targets: &[State],
    rows: &std::ops::RangeInclusive<i64>,
    reach: &[u64],
) -> Vec<bool> {
    let mut alive = vec![false; sp.states];
    let moves = Command::usable(sp.rotates())
        .iter()
        .filter(|c| !c.is_descent());
    let mut row: Vec<State> = Vec::new();
    let mut stack: Vec<State> = Vec::new();
    for y in rows.clone().rev() {
        row.clear();
        for o in 0..sp.k {
            row.extend(sp.free_in_row(reach, o, y).filter(|&s| sp.is_free(free, s)));
        }
        for &s in &row {
            let i = sp.index(s).expect("free states lie in the box");
            let down = [Command::SW, Command::SE].iter().any(|&c| {
                let n = sp.step(s, c);
                sp.index(n).is_some_and(|j| alive[j])
            });
            if down || targets.contains(&s) {
                alive[i] = true;
                stack.push(s);
            }
        }
        while let Some(s) = stack.pop() {
            for &c in moves.clone() {
                // A state from which `c` leads to `s`: the reverse move.
                let Some(back) = c.reverse() else {
                    continue;
                };
                let p = sp.step(s, back);
                if !sp.is_free(free, p) || !sp.is_free(reach, p) {
                    continue;
                }
                let j = sp.index(p).expect("free states lie in the box");
                if !alive[j] {
                    alive[j] = true;
                    stack.push(p);
                }
            }
        }
    }
    alive
}

/// Clears the bits of `row` outside `lo..=hi` (bit indices, possibly out of range).
pub(super) fn keep_range(row: &mut [u64], lo: i64, hi: i64) {
    for (j, w) in row.iter_mut().enumerate() {
        let base = j as i64 * 64;
        let (a, b) = ((lo - base).clamp(0, 64), (hi - base + 1).clamp(0, 64));
        let mask = if a >= b {
            0
        } else {
            let upper = if b == 64 { u64::MAX } else { (1u64 << b) - 1 };
            upper & !((1u64 << a) - 1)
        };
        *w &= mask;
    }
}

/// Reusable buffers.
#[derive(Debug, Default)]
pub(super) struct Bufs {
    pub(super) reach: Vec<u64>,
    pub(super) reach_bufs: crate::plan::ReachBufs,
    /// The states on some way to the target, a bit map of the space as `reach`.
    pub(super) alive: Vec<u64>,
    pub(super) bfs: Bfs,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Problem;
    use crate::plan::{gen_locks, Lock, Scratch as PlanScratch, Tables};
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    /// The states of `sp` reachable from `from` through free states (every usable command),
    /// `from` included when free.
    fn reachable(sp: &UnitSpace, free: &[u64], from: State) -> HashSet<State> {
        let mut seen = HashSet::new();
        let mut stack = vec![from];
        while let Some(s) = stack.pop() {
            if sp.index(s).is_none() || !sp.is_free(free, s) || !seen.insert(s) {
                continue;
            }
            for &c in Command::usable(sp.rotates()) {
                stack.push(sp.step(s, c));
            }
        }
        seen
    }

    /// The bit flood of the states on some way to the target ([`UnitSpace::reach_back`]) marks
    /// the states its slow twin marks one by one, on random boards up to 150 columns wide (bit
    /// rows of several words), units of up to 6 cells, with and without a corridor, and targets
    /// anywhere (locks, or any reachable state, or none reachable).
    #[test]
    fn the_bit_flood_marks_what_the_state_flood_marks() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3707);
        let (mut checked, mut marked) = (0, 0);
        for case in 0..3000 {
            let w = match rng.gen_range(0..4) {
                0 => rng.gen_range(60..=150),
                1 => rng.gen_range(1..=4),
                _ => rng.gen_range(5..=40),
            };
            let h = rng.gen_range(2..=24);
            let size = rng.gen_range(1..=6);
            let unit = crate::testkit::random_unit(&mut rng, size, 0.4);
            let fill = rng.gen_range(0.0..0.45);
            let json =
                crate::testkit::random_problem(&mut rng, (w, h), (2, fill), &[unit], (1, &[0]));
            let Ok(p) = Problem::from_json(&json, std::path::Path::new("t")) else {
                continue;
            };
            let tables = Tables::new(&p);
            let sp = &tables.spaces[0];
            let mut free = Vec::new();
            sp.free_map(&p.board, &mut free);
            let mut bufs = Bufs::default();
            if !sp.reach(&free, &mut bufs.reach, &mut bufs.reach_bufs) {
                continue;
            }
            let mut reachable: Vec<State> = Vec::new();
            for o in 0..sp.k {
                for y in sp.rows_from(sp.spawn_state().y) {
                    reachable.extend(sp.free_in_row(&bufs.reach, o, y));
                }
            }
            let mut scratch = PlanScratch::default();
            let locks = gen_locks(&tables, 0, &p.board, &mut scratch);
            let y0 = sp.spawn_state().y;
            let (targets, y_end) = match rng.gen_range(0..3) {
                0 if locks && !scratch.locks.is_empty() => {
                    let lock = scratch.locks[rng.gen_range(0..scratch.locks.len())];
                    let t = sp.lock_states(&free, lock.key);
                    let y_end = t.iter().map(|t| t.y).max().unwrap_or(y0);
                    if rng.gen_bool(0.5) {
                        // A corridor cuts the reach (where a path exists): the flood stays
                        // within what is left.
                        let c = rng.gen_range(0..6);
                        keep_corridor(sp, &free, lock.key, &(y0..=y_end), c, &mut bufs);
                    }
                    (t, y_end)
                }
                1 if !reachable.is_empty() => {
                    let t: Vec<State> = (0..rng.gen_range(1..4))
                        .map(|_| reachable[rng.gen_range(0..reachable.len())])
                        .collect();
                    let y_end = t.iter().map(|t| t.y).max().unwrap_or(y0) + rng.gen_range(0..2);
                    (t, y_end)
                }
                _ => (vec![], y0 + rng.gen_range(0..h as i64)),
            };
            let rows = y0..=y_end;
            let slow = mark_alive_slow(sp, &free, &targets, &rows, &bufs.reach);
            let Bufs {
                reach,
                reach_bufs,
                alive,
                ..
            } = &mut bufs;
            sp.reach_back(reach, &targets, &rows, alive, reach_bufs);
            for (o, y) in (0..sp.k).flat_map(|o| (y0 - 1..=y_end + 2).map(move |y| (o, y))) {
                let fast: Vec<State> = sp.free_in_row(alive, o, y).collect();
                let want: Vec<State> = sp
                    .free_in_row(reach, o, y)
                    .filter(|&s| slow[sp.index(s).unwrap()])
                    .collect();
                assert_eq!(fast, want, "case {case}: row {y} orientation {o}: {json}");
                marked += want.len();
            }
            checked += 1;
        }
        eprintln!("{checked} cases, {marked} states marked");
        assert!(
            checked > 2000 && marked > 50_000,
            "{checked} cases, {marked} marked"
        );
    }

    /// A region holds exactly the states reachable from the spawn from which the target can
    /// still be reached (without a corridor), every one of them can reach a lock through the
    /// region's own transitions, and the spawn is among them.
    #[test]
    fn a_region_holds_the_states_on_some_way_to_the_target() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(31);
        let mut checked = 0;
        for case in 0..400 {
            let (w, h) = (rng.gen_range(3..=6), rng.gen_range(3..=6));
            let unit = crate::testkit::random_unit(&mut rng, 3, 0.4);
            let json =
                crate::testkit::random_problem(&mut rng, (w, h), (2, 0.3), &[unit], (1, &[0]));
            let Ok(p) = Problem::from_json(&json, std::path::Path::new("t")) else {
                continue;
            };
            let tables = Tables::new(&p);
            let mut scratch = PlanScratch::default();
            if !gen_locks(&tables, 0, &p.board, &mut scratch) || scratch.locks.is_empty() {
                continue;
            }
            let lock: Lock = scratch.locks[rng.gen_range(0..scratch.locks.len())];
            let sp = &tables.spaces[0];
            let mut free = Vec::new();
            sp.free_map(&p.board, &mut free);
            let mut region = Region::default();
            assert!(
                region.build(sp, &free, lock.key, None, &mut Bufs::default()),
                "case {case}: {json}"
            );
            let on_the_way: HashSet<State> = reachable(sp, &free, sp.spawn_state())
                .into_iter()
                .filter(|&s| {
                    reachable(sp, &free, s)
                        .iter()
                        .any(|&t| sp.is_lock_state(&free, t, lock.key))
                })
                .collect();
            let got: HashSet<State> = region.states.iter().copied().collect();
            assert_eq!(got, on_the_way, "case {case}: {json}");
            assert_eq!(region.states[region.spawn as usize], sp.spawn_state());
            // Every state reaches a lock through the region's transitions.
            let mut alive: Vec<bool> = region.locks.iter().map(|&m| m != 0).collect();
            loop {
                let mut changed = false;
                for i in 0..region.states.len() {
                    if !alive[i]
                        && region.next[i]
                            .iter()
                            .any(|&n| n != NONE && alive[n as usize])
                    {
                        alive[i] = true;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            assert!(alive.iter().all(|&a| a), "case {case}: {json}");
            checked += 1;
        }
        assert!(checked > 200, "{checked} cases");
    }
}
