//! The free map and the reach of a [`UnitSpace`]: the states where the unit fits on a board,
//! worked out bit row by bit row, and the flood from the spawn down those rows to every state a
//! no-repeat path gets to. The rows above a board's stack are the empty board's, which the space
//! keeps ([`Clear`], made here when the space is built), so they are copied rather than worked
//! out again. The same rows' flood, run from the bottom up, finds the states of a reach on some
//! way to given targets ([`UnitSpace::reach_back`], for the character encoder's regions).
//!
//! Invariants: a reach is the same, to the bit, whether its free map was worked out whole
//! ([`UnitSpace::reach`]) or row by row as the flood went down ([`UnitSpace::reach_on`]); and
//! the same with or without the empty board's rows (the tests compare both ways).

use super::{bits, descent_offsets, Clear, State, UnitSpace};
use crate::engine::Board;

/// Where a reach reads its free map: a whole map ([`Whole`]), or one worked out row by row as
/// the reach goes down ([`Lazy`]).
trait FreeRows {
    /// Makes the map's rows ready down to pivot row `y` (every orientation's).
    fn ready(&mut self, space: &UnitSpace, y: i64);
    /// The map, ready down to the last row asked for.
    fn map(&self) -> &[u64];
}

/// A free map worked out whole beforehand.
struct Whole<'a>(&'a [u64]);

impl FreeRows for Whole<'_> {
    fn ready(&mut self, _: &UnitSpace, _: i64) {}
    fn map(&self) -> &[u64] {
        self.0
    }
}

/// A free map on `board` (first filled row `top`) worked out down to pivot row `done - 1`.
struct Lazy<'a> {
    board: &'a Board,
    top: i64,
    done: i64,
    free: &'a mut Vec<u64>,
}

impl FreeRows for Lazy<'_> {
    fn ready(&mut self, space: &UnitSpace, y: i64) {
        if y >= self.done {
            space.free_rows(self.board, self.top, self.free, self.done..y + 1);
            self.done = y + 1;
        }
    }
    fn map(&self) -> &[u64] {
        self.free
    }
}

/// Buffers for [`UnitSpace::reach`], kept between calls so that move generation allocates
/// nothing.
#[derive(Debug, Default)]
pub struct ReachBufs {
    tmp: Vec<u64>,
    row: Vec<u64>,
    allowed: Vec<u64>,
}

impl UnitSpace {
    /// Move generation on an empty board of the space's size (see [`Clear`]).
    pub(super) fn empty_board(&self) -> Clear {
        let board = Board::new(self.width, self.height);
        let (mut free, mut reach) = (Vec::new(), Vec::new());
        self.free_map(&board, &mut free);
        self.reach(&free, &mut reach, &mut ReachBufs::default());
        let rows = self
            .orients
            .iter()
            .map(|r| {
                std::array::from_fn(|parity| {
                    let yi = (parity as i64 - r.y_lo).rem_euclid(2) as usize;
                    if yi < r.ny {
                        let b = r.row_base + yi * r.nw;
                        free[b..b + r.nw].to_vec()
                    } else {
                        vec![0; r.nw]
                    }
                })
            })
            .collect();
        // The first row from which every row has all its free states reachable.
        let row_full = |y: i64| {
            (0..self.k).all(|o| match self.row(o, y) {
                Some((b, n)) => reach[b..b + n] == free[b..b + n],
                None => true,
            })
        };
        // Rows above every orientation's first row hold no state; stopping at the first row
        // (rather than at row 0) matters when the spawn lies billions of rows down.
        let first = self.orients.iter().map(|r| r.y_lo).min().unwrap_or(0);
        let mut full_from = self.y_end;
        while full_from > first.max(0) && row_full(full_from - 1) {
            full_from -= 1;
        }
        let reach_rows = self
            .orients
            .iter()
            .map(|r| {
                let rows = (full_from - r.y_lo).clamp(0, r.ny as i64) as usize;
                reach[r.row_base..r.row_base + rows * r.nw].to_vec()
            })
            .collect();
        let locks = (0..self.k)
            .map(|o| {
                let mut v = Vec::new();
                let r = &self.orients[o as usize];
                for yi in 0..r.ny {
                    self.row_locks(&free, &reach, o, yi, false, None, |l| v.push(l));
                }
                let supported = v
                    .iter()
                    .filter(|l| l.cmds & super::DESCENDS != 0)
                    .copied()
                    .collect();
                [v, supported]
            })
            .collect();
        Clear {
            rows,
            reach: reach_rows,
            locks,
        }
    }

    /// The first pivot row where the free map `free` differs from an empty board's for some
    /// orientation: the rows above it are clear (`y_end` when none differs; the first row of any
    /// orientation while the space is being built).
    pub fn clear_until(&self, free: &[u64]) -> i64 {
        self.clear_until_in(&mut Whole(free), i64::MIN)
    }

    /// [`UnitSpace::clear_until`] on a free map that [`UnitSpace::free_map`] worked out on a
    /// board whose first filled row is `top` ([`crate::plan::stack_top`]): the rows whose cells
    /// all lie above `top` were copied from the empty board's, so the search starts below them
    /// (move generation's every call, where comparing those rows again was most of the search).
    pub fn clear_until_under(&self, free: &[u64], top: i64) -> i64 {
        let copied = self.orients.iter().map(|r| top - r.max_dy).min();
        self.clear_until_in(&mut Whole(free), copied.unwrap_or(i64::MIN))
    }

    /// The first pivot row of the run of rows at the bottom of the free map `free` that differ
    /// from an empty board's for some orientation: the top of the stack, whatever cells the
    /// board has higher up (`y_end` when the last row is clear; the first row of any orientation
    /// when every row differs or the space is being built).
    pub fn stack_top(&self, free: &[u64]) -> i64 {
        let first = self.orients.iter().map(|r| r.y_lo).min().unwrap_or(0);
        if self.clear.rows.is_empty() {
            return first;
        }
        for y in (first..self.y_end).rev() {
            if self.row_is_clear(free, y) {
                return y + 1;
            }
        }
        first
    }

    /// Whether row `y` of the free map `free` is an empty board's for every orientation (the
    /// empty board's rows must be built).
    fn row_is_clear(&self, free: &[u64], y: i64) -> bool {
        let parity = y.rem_euclid(2) as usize;
        (0..self.k).all(|o| {
            self.row(o, y)
                .is_none_or(|(b, n)| free[b..b + n] == self.clear.rows[o as usize][parity][..])
        })
    }

    /// [`UnitSpace::clear_until`] on a free map whose rows `src` works out as they are read,
    /// the rows above `from` known to be clear.
    fn clear_until_in<S: FreeRows>(&self, src: &mut S, from: i64) -> i64 {
        let first = self.orients.iter().map(|r| r.y_lo).min().unwrap_or(0);
        if self.clear.rows.is_empty() {
            return first;
        }
        for y in first.max(from)..self.y_end {
            src.ready(self, y);
            if !self.row_is_clear(src.map(), y) {
                return y;
            }
        }
        self.y_end
    }

    /// Fills `free` with the bit rows of the states where the unit fits on `board`.
    pub fn free_map(&self, board: &Board, free: &mut Vec<u64>) {
        self.free_map_under(board, crate::plan::stack_top(board) as i64, free);
    }

    /// [`UnitSpace::free_map`] where `board`'s first filled row, `top`, is known
    /// ([`crate::plan::stack_top`]; move generation needs it again, and finds it once).
    pub fn free_map_under(&self, board: &Board, top: i64, free: &mut Vec<u64>) {
        free.clear();
        free.resize(self.row_words, 0);
        self.free_rows(board, self.clear_top(top), free, i64::MIN..i64::MAX);
    }

    /// The row below which the free map must be worked out on a board whose first filled row
    /// is `top`: `top`, or 0 while the space is being built, which has no empty board's rows
    /// to copy yet.
    fn clear_top(&self, top: i64) -> i64 {
        if self.clear.rows.is_empty() {
            0
        } else {
            top
        }
    }

    /// Works out the rows of the free map `free` on `board`, whose first filled row is `top`,
    /// for the pivot rows `ys` of every orientation.
    fn free_rows(&self, board: &Board, top: i64, free: &mut [u64], ys: std::ops::Range<i64>) {
        for (o, r) in self.orients.iter().enumerate() {
            let lo = (ys.start.max(r.y_lo) - r.y_lo) as usize;
            let hi = (ys.end.min(r.y_lo + r.ny as i64) - r.y_lo).max(0) as usize;
            for yi in lo..hi {
                let y = r.y_lo + yi as i64;
                // Rows whose cells all lie above the stack are those of an empty board.
                let row = &mut free[r.row_base + yi * r.nw..r.row_base + (yi + 1) * r.nw];
                if y + r.max_dy < top {
                    bits::copy_row(row, &self.clear.rows[o][y.rem_euclid(2) as usize]);
                    continue;
                }
                if let ([w], true) = (&mut *row, board.width() <= 64) {
                    // One word of pivots on a board of one word and its padding (the planner's
                    // every probe on boards up to 64 wide): the window of each cell's board
                    // row read from its two words at once.
                    *w = narrow_row(board, r.nx, &r.cells[y.rem_euclid(2) as usize], y, r.x_lo);
                    continue;
                }
                bits::full_row(row, r.nx);
                for &(dx, dy) in &r.cells[y.rem_euclid(2) as usize] {
                    let board_row = board.row((y + dy) as usize);
                    let shift = r.x_lo + dx;
                    // Empty cells are the zero bits of the board row; the board's padding is
                    // filled, and columns left of 0 read as filled too.
                    for (j, w) in row.iter_mut().enumerate() {
                        *w &= bits::empty_window(board_row, board.width(), j as i64 * 64 + shift);
                    }
                    if row.iter().all(|&w| w == 0) {
                        break;
                    }
                }
            }
        }
    }

    /// Fills `reach` with the states reachable from the spawn (no-repeat paths exist to all of
    /// them). Returns false, with `reach` empty, when the spawn itself is not free.
    pub fn reach(&self, free: &[u64], reach: &mut Vec<u64>, bufs: &mut ReachBufs) -> bool {
        self.reach_in(&mut Whole(free), None, reach, bufs)
    }

    /// [`UnitSpace::reach`] where the first row of `free` that is not an empty board's is known
    /// (`clear`, what [`UnitSpace::clear_until`] finds).
    pub fn reach_with_clear(
        &self,
        free: &[u64],
        clear: i64,
        reach: &mut Vec<u64>,
        bufs: &mut ReachBufs,
    ) -> bool {
        self.reach_in(&mut Whole(free), Some(clear), reach, bufs)
    }

    /// [`UnitSpace::free_map`] then [`UnitSpace::reach`] at once, the free map's rows worked
    /// out only down to the row below the last one the reach gets to; the rows past it are left
    /// zero, as nothing reads them. A probe of the stack evaluation
    /// ([`crate::plan::stackmap::reached`]) on a board whose stack the unit cannot get through works
    /// out a few rows instead of all of them. The reach is theirs, to the bit (the test
    /// `the_lazy_reach_is_the_eager_one` compares them on random boards).
    pub fn reach_on(
        &self,
        board: &Board,
        free: &mut Vec<u64>,
        reach: &mut Vec<u64>,
        bufs: &mut ReachBufs,
    ) -> bool {
        free.clear();
        free.resize(self.row_words, 0);
        let mut src = Lazy {
            board,
            top: self.clear_top(crate::plan::stack_top(board) as i64),
            done: i64::MIN,
            free,
        };
        self.reach_in(&mut src, None, reach, bufs)
    }

    /// [`UnitSpace::reach`] on a free map whose rows `src` works out as they are read, with its
    /// first row that is not an empty board's where known.
    fn reach_in<S: FreeRows>(
        &self,
        src: &mut S,
        clear: Option<i64>,
        reach: &mut Vec<u64>,
        bufs: &mut ReachBufs,
    ) -> bool {
        reach.clear();
        reach.resize(self.row_words, 0);
        let s0 = self.spawn_state();
        src.ready(self, s0.y);
        if !self.is_free(src.map(), s0) {
            return false;
        }
        let mut y = s0.y;
        let clear = clear.unwrap_or_else(|| self.clear_until_in(src, i64::MIN));
        if clear > s0.y + 1 {
            // The rows above the stack are the empty board's: from the last of them on, the
            // rows are worked out (that row flooded again, which adds nothing).
            y = clear - 1;
            self.empty_reach(y, reach);
        } else {
            self.set_state(reach, s0);
        }
        let k = self.k;
        let layout = &self.layout;
        let ReachBufs { tmp, row, allowed } = bufs;
        row.resize(layout.len, 0);
        allowed.resize(layout.len, 0);
        while y < self.y_end {
            // The rows this one reads: its own and the one below.
            src.ready(self, y + 1);
            let free = src.map();
            // Close the row under E/W moves and rotations.
            layout.load(self, reach, y, row);
            layout.load(self, free, y, allowed);
            layout.flood(self, row, allowed);
            layout.store(self, row, y, reach);
            // Descend.
            let [sw, se] = descent_offsets(y);
            let mut any = false;
            for o in 0..k {
                let (Some((b, n)), Some((b2, _))) = (self.row(o, y), self.row(o, y + 1)) else {
                    continue;
                };
                tmp.clear();
                tmp.resize(n, 0);
                // Bit `i` of row `y + 1` comes from the bits `i - sw` and `i - se` of row `y`.
                bits::or_shifted(tmp, &reach[b..b + n], -se);
                bits::or_shifted(tmp, &reach[b..b + n], -sw);
                for j in 0..n {
                    let add = tmp[j] & free[b2 + j];
                    reach[b2 + j] |= add;
                    any |= add != 0;
                }
            }
            if !any {
                break;
            }
            y += 1;
        }
        true
    }

    /// Marks in `alive` (a bit map of this space, as [`UnitSpace::reach`] leaves one) the states
    /// of `within` in `rows` that can reach one of `targets` through states of `within`: by moves
    /// along a row, then a descent into an alive state of the next row (row `rows.end() + 1`
    /// holds none), and so on. A flood bottom-up, row by row: a row's seeds are its states that
    /// descend into an alive state or are targets, closed under E/W moves and rotations, which
    /// undo one another, so the states that reach a seed along a row are those a seed reaches.
    /// The bits are those of the state-by-state flood it replaced (its twin in the tests of the
    /// character encoder's regions, which it serves).
    pub fn reach_back(
        &self,
        within: &[u64],
        targets: &[State],
        rows: &std::ops::RangeInclusive<i64>,
        alive: &mut Vec<u64>,
        bufs: &mut ReachBufs,
    ) {
        alive.clear();
        alive.resize(self.row_words, 0);
        let layout = &self.layout;
        let ReachBufs { tmp, row, allowed } = bufs;
        row.resize(layout.len, 0);
        allowed.resize(layout.len, 0);
        for y in rows.clone().rev() {
            let [sw, se] = descent_offsets(y);
            for o in 0..self.k {
                let (Some((b, n)), Some((b2, _))) = (self.row(o, y), self.row(o, y + 1)) else {
                    continue;
                };
                tmp.clear();
                tmp.resize(n, 0);
                // Bit `i` of row `y` descends to the bits `i + sw` and `i + se` of row `y + 1`.
                bits::or_shifted(tmp, &alive[b2..b2 + n], sw);
                bits::or_shifted(tmp, &alive[b2..b2 + n], se);
                for j in 0..n {
                    alive[b + j] = tmp[j] & within[b + j];
                }
            }
            for &t in targets.iter().filter(|t| t.y == y) {
                if self.is_free(within, t) {
                    self.set_state(alive, t);
                }
            }
            layout.load(self, alive, y, row);
            layout.load(self, within, y, allowed);
            layout.flood(self, row, allowed);
            layout.store(self, row, y, alive);
        }
    }

    /// Writes the reachable states of an empty board into `reach`, for the rows down to `last`.
    fn empty_reach(&self, last: i64, reach: &mut [u64]) {
        let c = &self.clear;
        for (o, r) in self.orients.iter().enumerate() {
            let rows = (last + 1 - r.y_lo).clamp(0, r.ny as i64) as usize;
            let kept = c.reach[o].len() / r.nw.max(1);
            for yi in 0..rows {
                let b = r.row_base + yi * r.nw;
                let src = if yi < kept {
                    &c.reach[o][yi * r.nw..(yi + 1) * r.nw]
                } else {
                    &c.rows[o][(r.y_lo + yi as i64).rem_euclid(2) as usize][..]
                };
                bits::copy_row(&mut reach[b..b + r.nw], src);
            }
        }
    }

    /// The lowest board row that a cell of any state in `reach` (a reach of this space, as
    /// [`UnitSpace::reach_on`] leaves it) covers; -1 when the reach is empty. Filling cells
    /// below it cannot change the reach: no state it holds covers them, and filling cells frees
    /// no state.
    pub fn deepest_row(&self, reach: &[u64]) -> i64 {
        let mut deepest = -1;
        for r in &self.orients {
            if r.nw == 0 {
                continue;
            }
            let rows = &reach[r.row_base..r.row_base + r.ny * r.nw];
            if let Some(yi) = rows.chunks(r.nw).rposition(|w| w.iter().any(|&b| b != 0)) {
                deepest = deepest.max(r.y_lo + yi as i64 + r.max_dy);
            }
        }
        deepest
    }
}

/// The free bits of one word of pivots at row `y`, `nx` of them from column `x_lo`, for a unit
/// with `cells` (offsets from the pivot) on `board`, at most 64 columns wide: [`bits::full_row`]
/// then [`bits::empty_window_narrow`] of each cell's board row, the same bits as the general
/// loop (the test `a_narrow_row_is_the_general_one` compares them on random boards).
#[inline]
fn narrow_row(board: &Board, nx: usize, cells: &[(i64, i64)], y: i64, x_lo: i64) -> u64 {
    let mut w = [0u64];
    bits::full_row(&mut w, nx);
    for &(dx, dy) in cells {
        let row = board.row((y + dy) as usize);
        w[0] &= bits::empty_window_narrow(row, board.width(), x_lo + dx);
        if w[0] == 0 {
            break;
        }
    }
    w[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The general loop of [`UnitSpace::free_rows`] for one word of pivots.
    fn general_row(board: &Board, nx: usize, cells: &[(i64, i64)], y: i64, x_lo: i64) -> u64 {
        let mut row = [0u64];
        bits::full_row(&mut row, nx);
        for &(dx, dy) in cells {
            row[0] &= bits::empty_window(board.row((y + dy) as usize), board.width(), x_lo + dx);
        }
        row[0]
    }

    #[test]
    fn a_narrow_row_is_the_general_one() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(71);
        let mut nonzero = 0;
        for case in 0..20_000 {
            // Widths up to 64, the edges most often; boards from empty to nearly full.
            let width = match rng.gen_range(0..4) {
                0 => 64,
                1 => rng.gen_range(1..4),
                _ => rng.gen_range(1..=64),
            };
            let height = rng.gen_range(1..12);
            let mut board = Board::new(width, height);
            let fill = rng.gen_range(0.0..0.5);
            for y in 0..height {
                for x in 0..width {
                    if rng.gen_bool(fill) {
                        board.fill(x, y);
                    }
                }
            }
            let cells: Vec<(i64, i64)> = (0..rng.gen_range(1..8))
                .map(|_| {
                    // Near the pivot mostly, now and then a word or more away.
                    let dx = if rng.gen_bool(0.9) {
                        rng.gen_range(-4..4)
                    } else {
                        rng.gen_range(-70..70)
                    };
                    (dx, rng.gen_range(0..height as i64))
                })
                .collect();
            let max_dy = cells.iter().map(|c| c.1).max().unwrap();
            let y = rng.gen_range(0..height as i64 - max_dy);
            let nx = rng.gen_range(0..=64);
            let x_lo = if rng.gen_bool(0.8) {
                rng.gen_range(-6..width as i64 + 6)
            } else {
                rng.gen_range(-80..80)
            };
            let fast = narrow_row(&board, nx, &cells, y, x_lo);
            assert_eq!(
                fast,
                general_row(&board, nx, &cells, y, x_lo),
                "case {case}: width {width} cells {cells:?} y {y} nx {nx} x_lo {x_lo}"
            );
            nonzero += (fast != 0) as usize;
        }
        assert!(nonzero > 2_000, "{nonzero}");
    }
}
