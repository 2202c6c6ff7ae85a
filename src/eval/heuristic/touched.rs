//! What a lock's outline touches on the board (neighbours filled, walls, floor, holes, run
//! ends), read a row of the outline's box at a time, and the memo that takes the counts over
//! from one board to the next where the box's cells are the same (see [`TouchMemo`]).

use crate::engine::Board;
use crate::plan::outline::{NEAR_BELOW, NEAR_END, NEAR_FILLED};
use crate::plan::{Outline, State, UnitSpace};

/// What [`touched`] counted at each state of one unit on the board scored last, kept for the
/// next board: the beam scores the locks of partial games that mostly share their parents'
/// cells (siblings differ by one lock), and what a lock touches depends only on the cells of
/// its outline's box. A state's counts are taken over where it was counted on the last board,
/// for the same unit, and no cell of its box differs between the two boards (per row, the span
/// of the columns that differ); else they are counted anew. The row counts and all the rest
/// are worked out for each board as before.
#[derive(Default)]
pub struct TouchMemo {
    /// The board begun last, and the unit (its space's index) scored on it.
    board: Option<Board>,
    unit: usize,
    /// Whether the counts of the board before the one begun last may be taken over.
    reuse: bool,
    /// The number of the board begun last: an entry of `at` counted on it holds this number.
    stamp: u32,
    /// Per state (its index in the unit's space), the board it was counted on and the counts.
    at: Vec<(u32, Touched)>,
    /// Per row, the least and the most column in which the last two boards differ (`lo > hi`
    /// where none does), and the first and last row that differ.
    dirty: Vec<(i64, i64)>,
    rows: (i64, i64),
}

impl TouchMemo {
    /// Starts scoring the locks of unit `unit` (its index; `space` its space) on `board`.
    pub fn begin(&mut self, board: &Board, unit: usize, space: &UnitSpace) {
        if self.stamp == u32::MAX {
            // The board numbers wrap: forget every count rather than mistake an old one.
            *self = TouchMemo::default();
        }
        self.stamp += 1;
        if self.at.len() < space.states {
            self.at.resize(space.states, (0, Touched::default()));
        }
        let same = self.board.as_ref().filter(|b| {
            self.unit == unit && b.width() == board.width() && b.height() == board.height()
        });
        self.reuse = false;
        if let Some(last) = same {
            self.reuse = true;
            let stride = Board::row_bits(board.width()) / 64;
            self.dirty.clear();
            self.rows = (i64::MAX, i64::MIN);
            for y in 0..board.height() {
                let (a, b) = (last.row(y), board.row(y));
                let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                for (i, (p, q)) in a.iter().zip(b).enumerate().take(stride) {
                    let d = p ^ q;
                    if d != 0 {
                        lo = lo.min(i as i64 * 64 + d.trailing_zeros() as i64);
                        hi = hi.max(i as i64 * 64 + 63 - d.leading_zeros() as i64);
                    }
                }
                if lo <= hi {
                    self.rows = (self.rows.0.min(y as i64), y as i64);
                }
                self.dirty.push((lo, hi));
            }
        }
        match self.board.as_mut() {
            Some(b) => b.clone_from(board),
            None => self.board = Some(board.clone()),
        }
        self.unit = unit;
    }

    /// What the unit at `s` touches on the board begun last (see [`touched`]).
    #[inline]
    pub(super) fn touched(&mut self, board: &Board, space: &UnitSpace, s: State) -> Touched {
        let outline = space.outline(s);
        let Some(i) = space.index(s) else {
            return touched(board, outline, s.x, s.y);
        };
        let (stamp, last) = self.at[i];
        if self.reuse && stamp == self.stamp - 1 && self.clean(outline, s) {
            self.at[i].0 = self.stamp;
            return last;
        }
        let t = touched(board, outline, s.x, s.y);
        self.at[i] = (self.stamp, t);
        t
    }

    /// Whether no cell of the box of `outline` at `s` differs between the last two boards.
    #[inline]
    fn clean(&self, outline: &Outline, s: State) -> bool {
        let (top, bottom) = (s.y + outline.lo.1, s.y + outline.hi.1);
        if bottom < self.rows.0 || top > self.rows.1 {
            return true;
        }
        let (left, right) = (s.x + outline.lo.0, s.x + outline.hi.0);
        (top.max(self.rows.0)..=bottom.min(self.rows.1)).all(|y| {
            let (lo, hi) = self.dirty[y as usize];
            lo > right || hi < left
        })
    }
}

/// What a lock's outline touches, counted per (member, neighbour) pair and per run end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Touched {
    pub(super) floor: u32,
    pub(super) wall: u32,
    pub(super) filled: u32,
    pub(super) holes: u32,
    pub(super) ends: u32,
    pub(super) ends_filled: u32,
}

/// Counts what `outline` touches with the pivot at `(x, y)` on `board`: a neighbour below the
/// floor is the floor's (whatever its column); one off the left or right edge is a wall's; one
/// above the board touches nothing else; a filled cell is a contact and an empty cell below its
/// member a hole. A run end off the board counts as filled. Each row of the outline's box is
/// read once as a window of bits, and each of its cells adds its packed counts where it is
/// filled, with no branch; where the box lies on the board (most locks), nothing else is done.
#[inline]
pub(super) fn touched(board: &Board, outline: &Outline, x: i64, y: i64) -> Touched {
    let (w, h) = (board.width() as i64, board.height() as i64);
    let x0 = x + outline.lo.0;
    if !outline.windowed || x0 >= w || x0 <= -64 {
        return touched_at_edges(board, outline, x, y);
    }
    if x0 < 0 || x + outline.hi.0 >= w || y + outline.lo.1 < 0 || y + outline.hi.1 >= h {
        return touched_windowed_at_edges(board, outline, x, y);
    }
    let x0 = x0 as usize;
    let mut sum = 0u64;
    for &(dy, first, end) in &outline.near_rows {
        let row = board.window((y + dy) as usize, x0);
        sum += near_sum(&outline.near_cells[first as usize..end as usize], row);
    }
    Touched {
        floor: 0,
        wall: 0,
        filled: near_field(sum, NEAR_FILLED),
        holes: outline.below - near_field(sum, NEAR_BELOW),
        ends: outline.run_ends.len() as u32,
        ends_filled: near_field(sum, NEAR_END),
    }
}

/// The packed counts of the cells of one row of an outline's box (see [`Outline::near_cells`])
/// that are set in `row`, the row's window from the box's left column.
#[inline]
fn near_sum(cells: &[(u32, u64)], row: u64) -> u64 {
    cells
        .iter()
        .map(|&(dx, add)| std::hint::select_unpredictable(row >> dx & 1 != 0, add, 0))
        .sum()
}

/// One field of a packed count (see [`Outline::near_cells`]).
#[inline]
fn near_field(sum: u64, at: u32) -> u32 {
    (sum >> at) as u32 & 0xffff
}

/// [`touched`] for a box that leaves the board (its left column within 64 of the board, its
/// outline windowed), still a row at a time: a row below the floor gives all its pairs to the
/// floor; in the others, the cells off the left or right edge read as filled (a run end there
/// counts as filled, a neighbour's pair is a wall's, not a contact, and none is a hole), and
/// in a row above the board only those cells count.
fn touched_windowed_at_edges(board: &Board, outline: &Outline, x: i64, y: i64) -> Touched {
    let (w, h) = (board.width() as i64, board.height() as i64);
    let x0 = x + outline.lo.0;
    // The window's columns off the board: left of column 0, and from column `w` on.
    let mut off = if x0 < 0 { (1u64 << -x0) - 1 } else { 0 };
    if w - x0 < 64 {
        off |= u64::MAX << (w - x0);
    }
    let (mut sum, mut walls, mut floor, mut below) = (0u64, 0u64, 0u64, outline.below);
    for &(dy, first, end) in &outline.near_rows {
        let cells = &outline.near_cells[first as usize..end as usize];
        let ny = y + dy;
        if ny >= h {
            let all = near_sum(cells, u64::MAX);
            floor += all;
            below -= near_field(all, NEAR_BELOW);
            continue;
        }
        let row = if ny < 0 {
            off
        } else if x0 < 0 {
            board.window(ny as usize, 0) << -x0 | off
        } else {
            board.window(ny as usize, x0 as usize)
        };
        sum += near_sum(cells, row);
        // Most locks here touch the floor alone: no cell of theirs is off the sides.
        if off != 0 {
            walls += near_sum(cells, off);
        }
    }
    let walls = near_field(walls, NEAR_FILLED);
    Touched {
        floor: near_field(floor, NEAR_FILLED),
        wall: walls,
        filled: near_field(sum, NEAR_FILLED) - walls,
        holes: below - near_field(sum, NEAR_BELOW),
        ends: outline.run_ends.len() as u32,
        ends_filled: near_field(sum, NEAR_END),
    }
}

/// [`touched`] cell by cell, each tested against the edges: the outlines too wide for a window,
/// and the slow twin of the others in the tests.
pub(super) fn touched_at_edges(board: &Board, outline: &Outline, x: i64, y: i64) -> Touched {
    let (w, h) = (board.width() as i64, board.height() as i64);
    let mut t = Touched::default();
    for &(dx, dy) in &outline.run_ends {
        t.ends += 1;
        t.ends_filled += board.is_filled(x + dx, y + dy) as u32;
    }
    for &(dx, dy, below) in &outline.neighbours {
        let (nx, ny) = (x + dx, y + dy);
        if ny >= h {
            t.floor += 1;
        } else if nx < 0 || nx >= w {
            t.wall += 1;
        } else if ny >= 0 && board.is_filled(nx, ny) {
            t.filled += 1;
        } else if below && ny >= 0 {
            t.holes += 1;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo of what locks touch ([`TouchMemo`]) against counting every state anew
    /// ([`touched_at_edges`], the slow twin): on random sequences of boards of one problem,
    /// each the last with a few cells flipped near one spot (a lock, mostly), anywhere, or a
    /// whole board new or with its rows dropped (a line clear), of one unit or another, at
    /// random subsets of the states whose members lie on the board (so that a state skipped on
    /// one board is not taken over on the next), edges and full rows included.
    #[test]
    fn memoized_touches_match_them_counted_anew() {
        use crate::testkit::random_unit;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(72);
        let (mut checked, mut reused) = (0, 0);
        for round in 0..150 {
            let (w, h): (usize, usize) = if round % 4 == 0 {
                (rng.gen_range(60..150), rng.gen_range(3..10))
            } else {
                (rng.gen_range(1..16), rng.gen_range(1..14))
            };
            let units: Vec<String> = (0..rng.gen_range(1..3))
                .map(|_| random_unit(&mut rng, 10, 0.3))
                .collect();
            let problem = crate::testkit::problem_json((w as i64, h as i64), &units, &[], 1, &[0]);
            let Ok(p) = crate::engine::Problem::from_json(&problem, std::path::Path::new("t"))
            else {
                continue;
            };
            let spaces: Vec<UnitSpace> = p.units.iter().map(|u| UnitSpace::new(u, w, h)).collect();
            let random_board = |rng: &mut rand_pcg::Pcg64Mcg| {
                let mut b = Board::new(w, h);
                let density = [0.0, 0.3, 0.7, 1.0][rng.gen_range(0..4)];
                for y in 0..h {
                    for x in 0..w {
                        if rng.gen_bool(density) {
                            b.fill(x, y);
                        }
                    }
                }
                b
            };
            let flip = |b: &Board, x: usize, y: usize| {
                let mut cells: Vec<(usize, usize)> = (0..h)
                    .flat_map(|yy| (0..w).map(move |xx| (xx, yy)))
                    .filter(|&(xx, yy)| b.is_filled(xx as i64, yy as i64) != ((xx, yy) == (x, y)))
                    .collect();
                let mut n = Board::new(w, h);
                for (xx, yy) in cells.drain(..) {
                    n.fill(xx, yy);
                }
                n
            };
            let mut memo = TouchMemo::default();
            let mut board = random_board(&mut rng);
            let mut unit = 0;
            for _ in 0..25 {
                match rng.gen_range(0..10) {
                    0 => board = random_board(&mut rng),
                    1 => {
                        // A line clear: the rows above a row drop by one.
                        let y0 = rng.gen_range(0..h);
                        let mut n = Board::new(w, h);
                        for y in 1..=y0 {
                            for x in 0..w {
                                if board.is_filled(x as i64, y as i64 - 1) {
                                    n.fill(x, y);
                                }
                            }
                        }
                        for y in y0 + 1..h {
                            for x in 0..w {
                                if board.is_filled(x as i64, y as i64) {
                                    n.fill(x, y);
                                }
                            }
                        }
                        board = n;
                    }
                    2 => unit = rng.gen_range(0..spaces.len()),
                    k => {
                        let (cx, cy) = (rng.gen_range(0..w), rng.gen_range(0..h));
                        for _ in 0..rng.gen_range(0..6) {
                            let (x, y) = if k == 3 {
                                (rng.gen_range(0..w), rng.gen_range(0..h))
                            } else {
                                let x = (cx + rng.gen_range(0..3)).min(w - 1);
                                (x, (cy + rng.gen_range(0..3)).min(h - 1))
                            };
                            board = flip(&board, x, y);
                        }
                    }
                }
                let space = &spaces[unit];
                memo.begin(&board, unit, space);
                let part = rng.gen_range(0.2..1.0);
                for o in 0..space.k {
                    for y in -2..h as i64 + 2 {
                        for x in -2..w as i64 + 2 {
                            let s = State { x, y, o };
                            let on = space.cells(s).iter().all(|&(dx, dy)| {
                                (0..w as i64).contains(&(x + dx))
                                    && (0..h as i64).contains(&(y + dy))
                            });
                            if !on || !rng.gen_bool(part) {
                                continue;
                            }
                            let outline = space.outline(s);
                            reused += space.index(s).is_some_and(|i| {
                                memo.reuse
                                    && memo.at[i].0 == memo.stamp - 1
                                    && memo.clean(outline, s)
                            }) as usize;
                            checked += 1;
                            let want = touched_at_edges(&board, outline, x, y);
                            assert_eq!(memo.touched(&board, space, s), want, "{s:?}");
                        }
                    }
                }
            }
        }
        assert!(
            checked > 100_000 && reused > checked / 4 && reused < checked * 9 / 10,
            "{checked} checked, {reused} reused"
        );
    }
}
