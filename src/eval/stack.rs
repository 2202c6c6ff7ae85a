//! The stack evaluation for survival: what a lock costs the room that the units after it need to
//! spawn and fall. A game ends when a unit cannot spawn, and on a board with a tall stack (or a
//! shelf under the spawn, problem 18) the locks that keep a game alive are not the ones that look
//! best locally: the greedy game of problem 18 dies after 33 of its 1,000 units.
//!
//! Four features, each zero-weighted in the systems that came before them:
//! - **spawn**: the share of the problem's units whose spawn position a lock's cells cover (each
//!   of them ends the game when it comes next);
//! - **height**: the rows by which a lock raises the top of the stack;
//! - **danger**: the filled cells near the spawn, each weighted by how close it lies to the
//!   rows the spawned units occupy (1 in those rows, falling linearly to 0 over the `reserve`
//!   rows below them, the most rows a unit spans);
//! - **sealed**: the empty cells that no unit can reach any more: a single cell, which moves
//!   E, W, SE and SW, cannot get there from the top row. A shelf whose gaps get filled seals the
//!   whole board below it (problem 18's games died with its lower half empty).
//!
//! `danger` and `sealed` are states of the board, not of a lock: the beam keeps each partial
//! game's weighted sum of them as a state (a row cleared lowers both), not as a sum of its
//! locks' deltas; a lock is ranked by what it adds to them, and the partial game it makes gets
//! its board's exact state (see [`crate::plan::beam`]).
//!
//! Everything that depends only on the problem is computed once, with the move-generation
//! tables ([`StackMap`], in the planner's [`crate::plan::Tables`]); this module reads it. A lock's
//! features cost one look-up per cell, plus the flood of the rows it spans and the row below
//! them for `sealed` ([`StackMap::seal`], which the scorer works out only for the locks that may
//! still rank among the beam's best: see [`super::scorer`]); a board's state one flood of its
//! rows.

use super::Weights;
use crate::engine::Board;
use crate::plan::stackmap::{reached, MAX_PROBES};
use crate::plan::{bits, stack_top, Scratch, StackMap, State, StateMemo, UnitSpace};

/// What a lock's features need to know of the board it locks on ([`StackMap::node`]), and the
/// buffers they use.
#[derive(Clone, Debug, Default)]
pub struct StackNode {
    /// The first row with a filled cell (the board's height when it is empty).
    pub top: usize,
    /// The units whose spawn position is already covered, as bits (see [`StackMap`]).
    pub blocked: u64,
    /// Per row, the empty cells a single cell can reach from the top row (`words` per row);
    /// empty unless `sealed` or `dead` is counted.
    reach: Vec<u64>,
    /// Per row, whether it holds an empty cell out of reach (it cannot be completed).
    dead: Vec<bool>,
    /// The lock's cells per row it spans, the row being flooded and the one above it.
    lock_rows: Vec<u64>,
    cur: Vec<u64>,
    prev: Vec<u64>,
    seeds: Vec<u64>,
}

impl StackNode {
    /// Whether the locks on this board count the cells they seal ([`StackMap::seal`]).
    pub fn seals(&self) -> bool {
        !self.reach.is_empty()
    }
}

/// A lock's features of the stack evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LockStack {
    pub spawn: f64,
    pub height: f64,
    pub danger: f64,
    pub sealed: f64,
    pub dead: f64,
}

impl LockStack {
    /// The weighted sum, added to the lock's [`super::Features::score`] where the weights
    /// count the stack evaluation ([`Weights::stacked`]).
    pub fn score(&self, w: &Weights) -> f64 {
        w.spawn * self.spawn
            + w.height * self.height
            + w.danger * self.danger
            + w.sealed * self.sealed
            + w.dead * self.dead
    }

    /// The part of [`LockStack::score`] that a state of the board replaces once the partial
    /// game's board is made (danger, sealed cells and dead rows).
    pub fn state(&self, w: &Weights) -> f64 {
        w.danger * self.danger + w.sealed * self.sealed + w.dead * self.dead
    }
}

impl StackMap {
    /// The danger of a filled cell on row `y`.
    #[inline]
    pub fn danger_row(&self, y: i64) -> f64 {
        usize::try_from(y)
            .ok()
            .and_then(|y| self.danger_rows.get(y))
            .copied()
            .unwrap_or(0.0)
    }

    /// The danger of a board: its filled cells, each weighted by its row's danger.
    pub fn danger(&self, board: &Board) -> f64 {
        self.danger_rows
            .iter()
            .enumerate()
            .map(|(y, d)| board.row_count(y) as f64 * d)
            .sum()
    }

    /// Fills `node` with what the features of the locks on `board` need to know of it (the
    /// reach only when `sealed` counts).
    pub fn node(&self, board: &Board, sealed: bool, node: &mut StackNode) {
        node.blocked = self
            .footprints
            .iter()
            .enumerate()
            .filter(|(_, cells)| {
                cells
                    .iter()
                    .any(|&(x, y)| board.is_filled(x as i64, y as i64))
            })
            .fold(0u64, |m, (i, _)| m | 1 << i);
        node.top = stack_top(board);
        node.reach.clear();
        node.dead.clear();
        if sealed {
            node.reach.resize(self.height * self.words, 0);
            self.flood(board, &mut node.reach);
            let n = self.words;
            node.dead.extend((0..self.height).map(|y| {
                let reach = &node.reach[y * n..(y + 1) * n];
                board.row(y).iter().zip(reach).any(|(b, r)| !b & !r != 0)
            }));
        }
    }

    /// The empty cells of row `y` of `board` (`words` words: the padding reads as filled).
    fn empty_row(&self, board: &Board, y: usize, out: &mut [u64]) {
        for (o, w) in out.iter_mut().zip(board.row(y)) {
            *o = !w;
        }
    }

    /// Row `y`'s reach into `cur` (which holds its empty cells on entry), from the reach of the
    /// row above (`prev`; none for the top row, whose every empty cell counts as reached).
    fn flood_row(y: usize, prev: Option<&[u64]>, cur: &mut [u64], seeds: &mut Vec<u64>) {
        let Some(prev) = prev else {
            return;
        };
        // A cell of an even row falls SW and SE to columns x - 1 and x of the row below, one
        // of an odd row to x and x + 1.
        seeds.clear();
        seeds.extend_from_slice(prev);
        bits::or_shifted(seeds, prev, if (y - 1).is_multiple_of(2) { 1 } else { -1 });
        for (s, e) in seeds.iter_mut().zip(cur.iter()) {
            *s &= e;
        }
        bits::fill_runs(seeds, cur);
        cur.copy_from_slice(seeds);
    }

    /// Every row's reach on `board` into `reach` (`height` x `words` words).
    fn flood(&self, board: &Board, reach: &mut [u64]) {
        let n = self.words;
        let mut seeds = Vec::with_capacity(n);
        for y in 0..self.height {
            let (done, rest) = reach.split_at_mut(y * n);
            let cur = &mut rest[..n];
            self.empty_row(board, y, cur);
            let prev = (y > 0).then(|| &done[(y - 1) * n..]);
            Self::flood_row(y, prev, cur, &mut seeds);
        }
    }

    /// The empty cells of `board` that a single cell cannot reach from the top row, and the
    /// rows that hold one (which no lock can complete).
    pub fn sealed(&self, board: &Board) -> (usize, usize) {
        let n = self.words;
        let mut reach = vec![0; self.height * n];
        self.flood(board, &mut reach);
        let (mut cells, mut rows) = (0, 0);
        for y in 0..self.height {
            let out: usize = board
                .row(y)
                .iter()
                .zip(&reach[y * n..(y + 1) * n])
                .map(|(b, r)| (!b & !r).count_ones() as usize)
                .sum();
            cells += out;
            rows += (out > 0) as usize;
        }
        (cells, rows)
    }

    /// How little room the probe units have on `board`: the mean over them of the share of
    /// their empty board's reachable states that they cannot reach (1 where one cannot spawn);
    /// and the memo of their reaches. With `parent` (the board `board` was made from by filling
    /// cells, no row cleared, and its memo), a probe whose reach covers no row down to the
    /// first one the new cells fill keeps its reach: filling cells out of a reach changes
    /// nothing in it.
    pub fn cramped(
        &self,
        board: &Board,
        parent: Option<(&Board, &StateMemo)>,
        spaces: &[UnitSpace],
        scratch: &mut Scratch,
    ) -> (f64, StateMemo) {
        let mut memo = StateMemo::default();
        if self.probes.is_empty() {
            return (0.0, memo);
        }
        let first = parent.map(|(p, m)| (first_filled_row(board, p, self.words), m));
        let below = (board.height() - stack_top(board)) as u64;
        let mut lost = 0.0;
        for (i, &(u, empty)) in self.probes.iter().take(MAX_PROBES).enumerate() {
            let (count, deepest) = match first {
                Some((first, m)) if m.0[MAX_PROBES + i] < first => {
                    (m.0[i] as u64, m.0[MAX_PROBES + i])
                }
                _ => reached(&spaces[u], board, below, scratch),
            };
            memo.0[i] = count as i64;
            memo.0[MAX_PROBES + i] = deepest;
            lost += 1.0 - count as f64 / empty;
        }
        (lost / self.probes.len() as f64, memo)
    }

    /// The weighted state of `board` (`danger`, `sealed` and `cramped`), as the beam holds it,
    /// and the memo of its probes' reaches (see [`StackMap::cramped`]).
    pub fn state(
        &self,
        board: &Board,
        parent: Option<(&Board, &StateMemo)>,
        w: &Weights,
        spaces: &[UnitSpace],
        scratch: &mut Scratch,
    ) -> (f64, StateMemo) {
        let mut v = 0.0;
        let mut memo = StateMemo::default();
        if w.cramped != 0.0 {
            let (c, m) = self.cramped(board, parent, spaces, scratch);
            v += w.cramped * c;
            memo = m;
        }
        if w.danger != 0.0 {
            v += w.danger * self.danger(board);
        }
        if w.sealed != 0.0 || w.dead != 0.0 {
            let (cells, rows) = self.sealed(board);
            v += w.sealed * cells as f64 + w.dead * rows as f64;
        }
        (v, memo)
    }

    /// A lock's features on `board`, which `node` describes: the share of the units that could
    /// spawn and whose spawn position its cells cover, the rows by which it raises the top of
    /// the stack, the danger its cells add, and, where `sealing`, the empty cells it seals and
    /// the rows it makes dead (0 unless `node` holds the reach; see [`StackMap::seal`]).
    pub fn lock(
        &self,
        board: &Board,
        space: &UnitSpace,
        s: State,
        node: &mut StackNode,
        sealing: bool,
    ) -> LockStack {
        let cells = space.cells(s);
        let (mut covered, mut highest, mut danger) = (0u64, i64::MAX, 0.0);
        for &(dx, dy) in cells {
            let (x, y) = (s.x + dx, s.y + dy);
            highest = highest.min(y);
            danger += self.danger_row(y);
            if y >= 0 && (y as usize) < self.spawn_rows && x >= 0 && (x as usize) < self.width {
                covered |= self.spawn_units[y as usize * self.width + x as usize];
            }
        }
        let spawn = if self.unit_bits == 0 {
            0.0
        } else {
            (covered & !node.blocked).count_ones() as f64 / self.unit_bits as f64
        };
        let height = (node.top as i64 - highest).max(0) as f64;
        let mut st = LockStack {
            spawn,
            height,
            danger,
            sealed: 0.0,
            dead: 0.0,
        };
        if sealing {
            self.seal(board, space, s, node, &mut st);
        }
        st
    }

    /// Adds to `st`, the features [`StackMap::lock`] gave without sealing, the empty cells the
    /// lock at `s` seals and the rows it makes dead (none unless `node` holds the reach). Both
    /// are counts, so with weights that are not positive they only lower a lock's score: the
    /// scorer works them out only for the locks that could still rank among the best.
    pub fn seal(
        &self,
        board: &Board,
        space: &UnitSpace,
        s: State,
        node: &mut StackNode,
        st: &mut LockStack,
    ) {
        if !node.reach.is_empty() {
            let (sealed, dead) = self.newly_sealed(board, space.cells(s), s, node);
            st.sealed = sealed as f64;
            st.dead = dead as f64;
        }
    }

    /// The empty cells that filling the lock's `cells` (at `s`) cuts off from the top row, and
    /// the rows that had none out of reach and now have: the rows from its first down are
    /// flooded again until one below it reaches what it reached.
    fn newly_sealed(
        &self,
        board: &Board,
        cells: &[(i64, i64)],
        s: State,
        node: &mut StackNode,
    ) -> (usize, usize) {
        let n = self.words;
        // Cells are sorted by row.
        let y0 = (s.y + cells[0].1) as usize;
        let y1 = (s.y + cells[cells.len() - 1].1) as usize;
        let StackNode {
            reach,
            dead,
            lock_rows,
            cur,
            prev,
            seeds,
            ..
        } = node;
        lock_rows.clear();
        lock_rows.resize((y1 - y0 + 1) * n, 0);
        for &(dx, dy) in cells {
            let (x, y) = ((s.x + dx) as usize, (s.y + dy) as usize);
            bits::set(&mut lock_rows[(y - y0) * n..(y - y0 + 1) * n], x);
        }
        cur.resize(n, 0);
        prev.clear();
        prev.extend_from_slice(&reach[y0.saturating_sub(1) * n..][..n]);
        let (mut sealed, mut killed) = (0, 0);
        let mut rows = 0;
        for y in y0..self.height {
            rows += 1;
            self.empty_row(board, y, cur);
            let lock = (y <= y1).then(|| &lock_rows[(y - y0) * n..(y - y0 + 1) * n]);
            if let Some(l) = lock {
                for (c, l) in cur.iter_mut().zip(l) {
                    *c &= !l;
                }
            }
            Self::flood_row(y, (y > 0).then_some(&prev[..]), cur, seeds);
            let old = &reach[y * n..(y + 1) * n];
            let mut row = 0;
            for (i, (&o, &c)) in old.iter().zip(cur.iter()).enumerate() {
                let l = lock.map_or(0, |l| l[i]);
                row += (o & !c & !l).count_ones() as usize;
            }
            sealed += row;
            killed += (row > 0 && !dead[y]) as usize;
            if y > y1 && old == &cur[..] {
                break;
            }
            std::mem::swap(prev, cur);
        }
        crate::work::add(crate::work::Op::StackWord, rows * n as u64);
        (sealed, killed)
    }
}

/// The first row in which `board` has a filled cell that `parent` has not (the board's height
/// when none), `board` being `parent` with cells filled and no row cleared; its comparison of
/// `words` words per row is counted as work.
fn first_filled_row(board: &Board, parent: &Board, words: usize) -> i64 {
    let h = board.height();
    let first = (0..h).find(|&y| board.row(y) != parent.row(y)).unwrap_or(h);
    crate::work::add(
        crate::work::Op::StackWord,
        ((first + 1).min(h) * words) as u64,
    );
    first as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cell, Problem, Unit};
    use crate::plan::{gen_locks, Sim, Tables};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// A problem with a random stack and a few units of up to 6 cells, pivots sometimes off
    /// their cells.
    fn random_problem(rng: &mut Pcg64Mcg) -> Problem {
        use crate::testkit::{random_problem, random_unit};
        let (w, h) = (rng.gen_range(6..20), rng.gen_range(8..24));
        let units: Vec<String> = (0..rng.gen_range(1..5))
            .map(|_| random_unit(rng, 6, 0.2))
            .collect();
        let from = rng.gen_range(h / 3..h);
        let seed: u32 = rng.gen();
        let json = random_problem(rng, (w, h), (from, 0.6), &units, (50, &[seed]));
        Problem::from_json(&json, std::path::Path::new("t")).unwrap()
    }

    /// The empty cells a single cell reaches from the top row, cell by cell (the slow twin of
    /// the flood): a search over E, W, SW and SE steps through empty cells.
    fn reach_by_cells(board: &Board) -> std::collections::HashSet<(i64, i64)> {
        use crate::engine::Dir;
        let mut seen: std::collections::HashSet<(i64, i64)> = (0..board.width() as i64)
            .filter(|&x| !board.is_filled(x, 0))
            .map(|x| (x, 0))
            .collect();
        let mut todo: Vec<(i64, i64)> = seen.iter().copied().collect();
        while let Some((x, y)) = todo.pop() {
            for dir in [Dir::E, Dir::W, Dir::SW, Dir::SE] {
                let n = Cell::new(x, y).step(dir);
                if !board.is_filled(n.x, n.y) && seen.insert((n.x, n.y)) {
                    todo.push((n.x, n.y));
                }
            }
        }
        seen
    }

    /// The features, against slow twins on random boards: `spawn` is the share of units that
    /// no longer fit at their spawn once the lock's cells are filled (where they fitted
    /// before), `height` the rise of the first filled row, the danger of the board after a lock
    /// (its cells filled, no line cleared) is the danger before plus the lock's, `sealed` counts
    /// the empty cells reached before and not after (the lock's own cells aside), and a
    /// board's sealed cells are its empty cells not reached.
    #[test]
    fn lock_features_match_their_slow_twins() {
        let mut rng = Pcg64Mcg::seed_from_u64(36);
        let (mut checked, mut sealing) = (0, 0);
        for _ in 0..60 {
            let p = random_problem(&mut rng);
            let tables = Tables::new(&p);
            let map = &tables.stack;
            let mut sim = Sim::new(&p);
            let mut scratch = Scratch::default();
            let mut node = StackNode::default();
            for _ in 0..20 {
                let unit = rng.gen_range(0..p.units.len());
                if !gen_locks(&tables, unit, &sim.board, &mut scratch) {
                    break;
                }
                let space = &tables.spaces[unit];
                map.node(&sim.board, true, &mut node);
                let top = stack_top(&sim.board);
                let before = map.danger(&sim.board);
                let reached = reach_by_cells(&sim.board);
                let empty = (0..p.height)
                    .map(|y| p.width - sim.board.row_count(y))
                    .sum::<usize>();
                assert_eq!(map.sealed(&sim.board).0, empty - reached.len());
                for lock in &scratch.locks {
                    let f = map.lock(&sim.board, space, lock.state, &mut node, true);
                    let mut after = sim.board.clone();
                    let mut cells = Vec::new();
                    for &(dx, dy) in space.cells(lock.state) {
                        let (x, y) = (lock.state.x + dx, lock.state.y + dy);
                        after.fill(x as usize, y as usize);
                        cells.push((x, y));
                    }
                    let blocked = p
                        .units
                        .iter()
                        .filter(|u| {
                            let fits =
                                |b: &Board| u.cells(u.spawn(), 0).all(|c| !b.is_filled(c.x, c.y));
                            fits(&sim.board) && !fits(&after)
                        })
                        .count();
                    assert_eq!(f.spawn, blocked as f64 / p.units.len() as f64);
                    assert_eq!(f.height, top.saturating_sub(stack_top(&after)) as f64);
                    assert!((map.danger(&after) - before - f.danger).abs() < 1e-9);
                    let still = reach_by_cells(&after);
                    let lost = reached
                        .iter()
                        .filter(|c| !still.contains(c) && !cells.contains(c))
                        .count();
                    assert_eq!(f.sealed, lost as f64, "lock {:?}", lock.state);
                    // The rows with an empty cell out of reach after the lock and not before.
                    let dead = |b: &Board, reach: &std::collections::HashSet<(i64, i64)>| {
                        (0..p.height as i64)
                            .filter(|&y| {
                                (0..p.width as i64)
                                    .any(|x| !b.is_filled(x, y) && !reach.contains(&(x, y)))
                            })
                            .collect::<Vec<i64>>()
                    };
                    let (was, now) = (dead(&sim.board, &reached), dead(&after, &still));
                    let newly = now.iter().filter(|y| !was.contains(y)).count();
                    assert_eq!(f.dead, newly as f64, "lock {:?}", lock.state);
                    assert_eq!(map.sealed(&after).1, now.len());
                    sealing += (lost > 0) as usize;
                    checked += 1;
                }
                let l = scratch.locks[rng.gen_range(0..scratch.locks.len())];
                sim.lock(&p, unit, l.state);
            }
        }
        assert!(checked > 5_000, "{checked} locks");
        assert!(sealing > 100, "{sealing} locks seal cells");
    }

    /// A state worked out from the parent's memo is the one worked out anew, memo included,
    /// on random boards and locks (those that clear rows get no parent, as the beam gives
    /// them none); and the memo spares some probes.
    #[test]
    fn states_from_a_parents_memo_are_the_states_anew() {
        let mut rng = Pcg64Mcg::seed_from_u64(4444);
        let w = Weights::system("survive").unwrap();
        let (mut checked, mut spared) = (0, 0);
        for _ in 0..60 {
            let p = random_problem(&mut rng);
            let tables = Tables::new(&p);
            let map = &tables.stack;
            let mut sim = Sim::new(&p);
            let mut scratch = Scratch::default();
            let (_, mut memo) = map.state(&sim.board, None, &w, &tables.spaces, &mut scratch);
            for _ in 0..30 {
                let unit = rng.gen_range(0..p.units.len());
                if !gen_locks(&tables, unit, &sim.board, &mut scratch) {
                    break;
                }
                let locks = scratch.locks.clone();
                let mut next = None;
                for lock in &locks {
                    let mut child = sim.clone();
                    let lines = child.lock(&p, unit, lock.state);
                    let fresh = map.state(&child.board, None, &w, &tables.spaces, &mut scratch);
                    let from = (lines == 0).then_some((&sim.board, &memo));
                    let (got, counts) = crate::work::measure(|| {
                        map.state(&child.board, from, &w, &tables.spaces, &mut scratch)
                    });
                    let probed = counts.0[crate::work::Op::GenWord as usize];
                    assert_eq!(got, fresh, "lock {:?}", lock.state);
                    spared += (lines == 0 && probed == 0 && !map.probes.is_empty()) as usize;
                    checked += 1;
                    if next.is_none() || rng.gen_bool(0.2) {
                        next = Some((child, fresh.1));
                    }
                }
                let (child, m) = next.unwrap();
                sim = child;
                memo = m;
            }
        }
        assert!(checked > 5_000, "{checked} states");
        assert!(
            spared > 500,
            "{spared} of {checked} states spared their probes"
        );
    }

    /// Boards wider than a word: the flood carries runs across words.
    #[test]
    fn sealed_cells_on_a_board_wider_than_a_word() {
        let mut b = Board::new(150, 6);
        // A floor on row 3 with one gap at column 120: everything below is reached through it.
        for x in 0..150 {
            if x != 120 {
                b.fill(x, 3);
            }
        }
        let u = Unit::new(&[Cell::new(0, 0)], Cell::new(0, 0), 150);
        let spaces = [UnitSpace::new(&u, 150, 6)];
        let map = StackMap::new(&[u], &spaces, 150, 6);
        assert_eq!(map.sealed(&b), (0, 0));
        assert_eq!(map.sealed(&b).0, 6 * 150 - 149 - reach_by_cells(&b).len());
        b.fill(120, 3);
        assert_eq!(map.sealed(&b), (2 * 150, 2));
    }

    /// The danger band: 1 in the rows the spawned units cover, then falling by one step per row
    /// over the reserve (the most rows a unit spans), 0 below.
    #[test]
    fn the_danger_band_follows_the_spawn_rows_and_the_tallest_unit() {
        // A unit of three rows: (0,0), (0,1), (0,2); spawn rows 0..3, reserve 3 (or more when
        // a rotation spans more rows; this one spans at most 3).
        let u = Unit::new(
            &[Cell::new(0, 0), Cell::new(0, 1), Cell::new(0, 2)],
            Cell::new(0, 1),
            8,
        );
        let spaces = [UnitSpace::new(&u, 8, 12)];
        let map = StackMap::new(&[u], &spaces, 8, 12);
        assert_eq!(map.spawn_rows, 3);
        let d: Vec<f64> = (0..8).map(|y| map.danger_row(y)).collect();
        assert_eq!(d, [1.0, 1.0, 1.0, 0.75, 0.5, 0.25, 0.0, 0.0]);
        assert_eq!(map.danger_row(-1), 0.0);
        let mut b = Board::new(8, 12);
        b.fill(0, 4);
        b.fill(1, 4);
        b.fill(5, 11);
        assert_eq!(map.danger(&b), 1.0);
    }
}
