//! The exact search behind `hextris pack drop`: the lowest final stack and the canonical
//! (lexicographically first) placement vector reaching it.
//!
//! **State.** The skyline: the height of each column (rows counted from the floor), one byte per
//! column. Holes never matter again once covered (a falling piece cannot reach them), so two
//! grids with the same skyline have the same future.
//!
//! **Method.** A decision search "can the remaining pieces be placed from this skyline without
//! exceeding height H?" is run for H = lower bound, lower bound + 1, ... until it succeeds; the
//! first H that succeeds is the optimum. Inside the decision search the moves are tried in a
//! heuristic order (least wasted area first) to find a witness fast. Results are memoised per
//! (depth, skyline relative to its lowest column) as bounds on the best reachable height
//! relative to that lowest column, since adding c to every column adds c to the answer. The
//! bounds stay valid across the H iterations, so later iterations reuse earlier work.
//!
//! **Canonical answer.** With H* known, the placement vector is rebuilt piece by piece: for each
//! piece the moves are scanned in the canonical order (rotation 0 before 1..., column 0 before
//! 1...) and the first whose resulting skyline can still finish within H* is taken. That yields
//! the lexicographically smallest optimal vector, exactly what a full scan in canonical order
//! (the original program) returns, because the first optimal vector in that order is the one
//! whose every prefix is the first prefix that can still be completed within H*.
//!
//! **Pruning** (every test is a necessary condition, so no optimum is ever cut off):
//! - the highest column exceeds H;
//! - segment capacity: the free space below H splits into segments separated by columns already
//!   at H; no piece straddles such a column, so a segment of area A holds at most A / 4 pieces,
//!   and a one- or two-column segment only pieces having a rotation that narrow;
//! - pits: a column k >= 2 below both neighbours can have its bottom cell filled without a hole
//!   only by a piece with a column hanging k below its neighbours, one pit per piece; every other
//!   pit leaves an empty cell below H, which the slack (free area minus 4 per piece) must absorb;
//! - colourings (by x + y, by x, by y): each piece unbalances the two colours by an amount fixed
//!   by its rotation and each empty cell by one, so the free region's imbalance must be within
//!   the slack of a sum the remaining pieces can make (precomputed per depth).
//!
//! Coordinates: columns 0..W from the left, rows counted up from the floor.

use super::{Placement, Problem, Solution, MAX_WIDTH};
use rustc_hash::FxHashMap;

/// A skyline: the height of each column; columns at and beyond the width stay 0.
type Sky = [u8; MAX_WIDTH];

/// One candidate move for a given piece: a rotation at a column, with the rotation's profile.
#[derive(Debug, Clone, Copy)]
struct Move {
    rotation: u8,
    column: u8,
    width: u8,
    bottom: [u8; 4],
    top: [u8; 4],
}

impl Move {
    /// Where the piece's bounding box comes to rest: the lowest base row at which no column
    /// of the piece goes below that column's skyline.
    #[inline]
    fn base(&self, sky: &Sky) -> u8 {
        let c = self.column as usize;
        let mut base = 0u8;
        for j in 0..self.width as usize {
            base = base.max(sky[c + j].saturating_sub(self.bottom[j]));
        }
        base
    }

    /// Applies the move at a known base; returns the new highest column among those touched and
    /// the area wasted (cells left empty under the piece).
    #[inline]
    fn apply(&self, sky: &mut Sky, base: u8) -> (u8, u8) {
        let c = self.column as usize;
        let mut high = 0u8;
        let mut waste = 0u8;
        for j in 0..self.width as usize {
            waste += base + self.bottom[j] - sky[c + j];
            let t = base + self.top[j];
            sky[c + j] = t;
            high = high.max(t);
        }
        (high, waste)
    }
}

/// The deepest pit (a column below both its neighbours) whose bottom cell a move's rotation
/// can fill without leaving a hole: for some column of the piece, how far its lowest cell hangs
/// below the lowest cells of its neighbours inside the piece (unbounded for a one-column piece).
fn pit_reach(m: &Move) -> u8 {
    let w = m.width as usize;
    (0..w)
        .map(|j| {
            let mut reach = u8::MAX;
            if j > 0 {
                reach = reach.min(m.bottom[j - 1].saturating_sub(m.bottom[j]));
            }
            if j + 1 < w {
                reach = reach.min(m.bottom[j + 1].saturating_sub(m.bottom[j]));
            }
            reach
        })
        .max()
        .unwrap_or(0)
}

/// Memo entries (about 40 bytes each) kept before the memo is cleared: about 2 GB.
pub const MAX_MEMO_ENTRIES: usize = 50_000_000;

/// The two-colourings of the grid used for parity bounds.
#[derive(Debug, Clone, Copy)]
enum Colouring {
    /// By x + y (a checkerboard).
    Checker = 0,
    /// By x (alternate columns).
    Columns = 1,
    /// By y (alternate rows).
    Rows = 2,
}

const COLOURINGS: [Colouring; 3] = [Colouring::Checker, Colouring::Columns, Colouring::Rows];

/// Beyond this slack the colouring bounds are not checked: they would almost never fail.
const MAX_COLOUR_SLACK: u32 = 48;

/// The colour of cell (x, y): +1 or -1.
#[inline]
fn colour(c: Colouring, x: usize, y: usize) -> i32 {
    let even = match c {
        Colouring::Checker => (x + y).is_multiple_of(2),
        Colouring::Columns => x.is_multiple_of(2),
        Colouring::Rows => y.is_multiple_of(2),
    };
    if even {
        1
    } else {
        -1
    }
}

/// Bounds on the lowest final height reachable from a skyline, relative to its lowest column.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    /// The best reachable relative height is at least this.
    lower: u8,
    /// The best reachable relative height is at most this.
    upper: u8,
}

/// A child in the decision search: its ordering key and the index of its move.
#[derive(Debug, Clone, Copy)]
struct Child {
    waste: u8,
    high: u8,
    index: u8,
}

/// The search over one problem; its memo lives as long as the searcher.
pub struct Searcher {
    width: usize,
    /// The moves of the piece at each depth, in canonical order.
    moves: Vec<Vec<Move>>,
    /// Bounds per depth, keyed by the relative skyline packed in a `u128`.
    memo: Vec<FxHashMap<u128, Bounds>>,
    /// One child buffer per depth, reused to avoid allocating in the recursion.
    buffers: Vec<Vec<Child>>,
    /// For each depth: how many pieces from there on have a rotation at most one column wide,
    /// and at most two columns wide.
    narrow: Vec<[u32; 2]>,
    /// For each depth: how many pieces from there on can fill the bottom of a pit 2 deep, and
    /// of a pit 3 deep, without leaving a hole.
    fillers: Vec<[u32; 2]>,
    /// For each depth and colouring: `reach[d][c][x + offset]` tells whether the pieces from
    /// depth d on can cover the colours of [`Colouring`] c with imbalance x.
    reach: Vec<[Vec<bool>; 3]>,
    /// Offset of imbalance 0 in the `reach` tables (4 times the number of pieces).
    offset: i32,
    /// Number of entries in all memo tables.
    entries: usize,
    /// The memo is cleared when it reaches this many entries (default [`MAX_MEMO_ENTRIES`]).
    pub max_entries: usize,
    /// Number of decision-search nodes expanded (for benchmarks).
    pub nodes: u64,
}

impl Searcher {
    /// Prepares the moves of every piece (all rotations when allowed, only rotation 0 otherwise).
    pub fn new(problem: &Problem) -> Searcher {
        let w = problem.width;
        let moves: Vec<Vec<Move>> = problem
            .pieces
            .iter()
            .map(|p| {
                let rots = p.rotations();
                let usable = if problem.rotations { rots.len() } else { 1 };
                let mut v = Vec::new();
                for (r, s) in rots.iter().take(usable).enumerate() {
                    for c in 0..=(w.saturating_sub(s.width)) {
                        if c + s.width <= w {
                            v.push(Move {
                                rotation: r as u8,
                                column: c as u8,
                                width: s.width as u8,
                                bottom: s.bottom,
                                top: s.top,
                            });
                        }
                    }
                }
                v
            })
            .collect();
        let n = moves.len();
        let mut narrow = vec![[0u32; 2]; n + 1];
        for d in (0..n).rev() {
            let min_width = moves[d].iter().map(|m| m.width).min().unwrap_or(u8::MAX);
            narrow[d] = narrow[d + 1];
            if min_width <= 1 {
                narrow[d][0] += 1;
            }
            if min_width <= 2 {
                narrow[d][1] += 1;
            }
        }
        let mut fillers = vec![[0u32; 2]; n + 1];
        for d in (0..n).rev() {
            let reach = moves[d].iter().map(pit_reach).max().unwrap_or(0);
            fillers[d] = fillers[d + 1];
            if reach >= 2 {
                fillers[d][0] += 1;
            }
            if reach >= 3 {
                fillers[d][1] += 1;
            }
        }
        let offset = 4 * n as i32;
        let size = (2 * offset + 1) as usize;
        let mut reach: Vec<[Vec<bool>; 3]> = Vec::with_capacity(n + 1);
        let mut last: [Vec<bool>; 3] = std::array::from_fn(|_| {
            let mut v = vec![false; size];
            v[offset as usize] = true;
            v
        });
        reach.push(last.clone());
        for d in (0..n).rev() {
            let rots = problem.pieces[d].rotations();
            let usable = if problem.rotations { rots.len() } else { 1 };
            for c in COLOURINGS {
                let amounts: Vec<i32> = rots[..usable]
                    .iter()
                    .map(|s| {
                        s.cells
                            .iter()
                            .map(|&(x, y)| colour(c, x as usize, y as usize))
                            .sum::<i32>()
                            .abs()
                    })
                    .collect();
                let prev = &last[c as usize];
                let mut next = vec![false; size];
                for (x, _) in prev.iter().enumerate().filter(|(_, &r)| r) {
                    for &a in &amounts {
                        for v in [x as i32 + a, x as i32 - a] {
                            if (0..size as i32).contains(&v) {
                                next[v as usize] = true;
                            }
                        }
                    }
                }
                last[c as usize] = next;
            }
            reach.push(last.clone());
        }
        reach.reverse();
        Searcher {
            reach,
            offset,
            fillers,
            narrow,
            width: w,
            moves,
            memo: (0..n).map(|_| FxHashMap::default()).collect(),
            buffers: (0..n).map(|_| Vec::new()).collect(),
            entries: 0,
            max_entries: MAX_MEMO_ENTRIES,
            nodes: 0,
        }
    }

    fn pieces(&self) -> usize {
        self.moves.len()
    }

    /// Can the pieces from `depth` on be dropped onto `sky` without any column exceeding
    /// `limit`?
    pub fn feasible(&mut self, depth: usize, sky: &Sky, limit: u8) -> bool {
        let w = self.width;
        let n = self.pieces();
        let low = *sky[..w].iter().min().expect("width >= 1");
        let high = *sky[..w].iter().max().expect("width >= 1");
        if high > limit {
            return false;
        }
        if depth == n {
            return true;
        }
        if !self.room_for_the_rest(depth, sky, limit) {
            return false;
        }
        self.nodes += 1;
        let last = depth + 1 == n;
        let rel_limit = limit - low;
        let mut key_bytes = [0u8; 16];
        for (k, &h) in key_bytes.iter_mut().zip(&sky[..w]) {
            *k = h - low;
        }
        let key = u128::from_le_bytes(key_bytes);
        if !last {
            if let Some(b) = self.memo[depth].get(&key) {
                if b.upper <= rel_limit {
                    return true;
                }
                if b.lower > rel_limit {
                    return false;
                }
            }
        }

        let mut kids = std::mem::take(&mut self.buffers[depth]);
        kids.clear();
        for (i, mv) in self.moves[depth].iter().enumerate() {
            let base = mv.base(sky);
            let mut child = *sky;
            let (top, waste) = mv.apply(&mut child, base);
            if top <= limit {
                if last {
                    kids.push(Child {
                        waste,
                        high: top,
                        index: i as u8,
                    });
                    break;
                }
                kids.push(Child {
                    waste,
                    high: top.max(high),
                    index: i as u8,
                });
            }
        }
        let mut found = false;
        if last {
            found = !kids.is_empty();
        } else {
            kids.sort_unstable_by_key(|k| (k.waste, k.high, k.index));
            for k in &kids {
                let mv = self.moves[depth][k.index as usize];
                let mut child = *sky;
                let base = mv.base(&child);
                mv.apply(&mut child, base);
                if self.feasible(depth + 1, &child, limit) {
                    found = true;
                    break;
                }
            }
        }
        self.buffers[depth] = kids;
        if !last {
            if self.entries >= self.max_entries {
                // The memo is only a cache of proven bounds: dropping it costs time, never
                // correctness, and keeps memory bounded on the hardest wide-well searches.
                self.memo.iter_mut().for_each(|m| *m = FxHashMap::default());
                self.entries = 0;
            }
            let e = self.memo[depth].entry(key).or_insert_with(|| {
                self.entries += 1;
                Bounds {
                    lower: 0,
                    upper: u8::MAX,
                }
            });
            if found {
                e.upper = e.upper.min(rel_limit);
            } else {
                e.lower = e.lower.max(rel_limit + 1);
            }
        }
        found
    }

    /// Is there room below `limit` for the pieces from `depth` on? The free space splits into
    /// segments: maximal runs of columns below the limit, separated by columns already at it.
    /// No piece can straddle a column at the limit, so a segment of area A holds at most A / 4
    /// pieces, and only pieces at most as wide as the segment: a one-column segment holds only
    /// pieces with a one-column rotation, a two-column one only pieces with a rotation at most
    /// two columns wide.
    #[inline]
    fn room_for_the_rest(&self, depth: usize, sky: &Sky, limit: u8) -> bool {
        let rest = (self.pieces() - depth) as u32;
        // Capacity in pieces of segments of width 1, of width 2, and wider.
        let mut cap = [0u32; 3];
        let mut area = 0u32;
        let mut run = 0usize;
        for &h in sky[..self.width].iter() {
            if h < limit {
                area += (limit - h) as u32;
                run += 1;
            } else if run > 0 {
                cap[run.min(3) - 1] += area / 4;
                area = 0;
                run = 0;
            }
        }
        if run > 0 {
            cap[run.min(3) - 1] += area / 4;
        }
        if cap[0] + cap[1] + cap[2] < rest {
            return false;
        }
        // Pits: columns at least k below both neighbours (walls count as high). Only a piece
        // with a column hanging k below its neighbours inside the piece can fill a pit's bottom
        // cell without leaving a hole, and one piece fills at most one pit's bottom; every other
        // pit keeps an empty cell below the limit, which the slack must absorb.
        let free: u32 = sky[..self.width].iter().map(|&h| (limit - h) as u32).sum();
        let slack = free - 4 * rest;
        let mut pits = [0u32; 2];
        for i in 0..self.width {
            let left = if i == 0 { u8::MAX } else { sky[i - 1] };
            let right = if i + 1 == self.width {
                u8::MAX
            } else {
                sky[i + 1]
            };
            let depth_here = left.min(right).saturating_sub(sky[i]);
            if depth_here >= 2 {
                pits[0] += 1;
                if depth_here >= 3 {
                    pits[1] += 1;
                }
            }
        }
        // Two-colourings of the free region (by x + y, by x, by y): a piece covers the colours
        // unevenly by a fixed amount per rotation (a T by 2 on the checkerboard, an upright I by
        // 4 by columns, a J or an L always by 2 by columns and rows), and each cell left empty
        // shifts the balance by one. So the region's imbalance must be within `slack` of a sum
        // the remaining pieces can make. A large slack always passes and is not checked.
        if slack <= MAX_COLOUR_SLACK {
            for c in COLOURINGS {
                let mut imbalance = 0i32;
                for (i, &h) in sky[..self.width].iter().enumerate() {
                    let depth_here = (limit - h) as i32;
                    imbalance += match c {
                        Colouring::Checker => (depth_here % 2) * colour(c, i, h as usize),
                        Colouring::Columns => depth_here * colour(c, i, 0),
                        Colouring::Rows => (depth_here % 2) * colour(c, 0, h as usize),
                    };
                }
                let reach = &self.reach[depth][c as usize];
                let slack = slack as i32;
                let lo = (imbalance - slack + self.offset).max(0);
                let hi = (imbalance + slack + self.offset).min(reach.len() as i32 - 1);
                if lo > hi || !(lo..=hi).any(|x| reach[x as usize]) {
                    return false;
                }
            }
        }
        let [fill2, fill3] = self.fillers[depth];
        if pits[0] > fill2 + slack || pits[1] > fill3 + slack {
            return false;
        }
        let [fit1, fit2] = self.narrow[depth];
        // Width-1 segments take only pieces fitting one column; width <= 2 segments only pieces
        // fitting two columns.
        if cap[0].min(fit1) + cap[1] + cap[2] < rest {
            return false;
        }
        (cap[0] + cap[1]).min(fit2) + cap[2] >= rest
    }

    /// A lower bound on the optimum: the area bound and the tallest unavoidable piece.
    fn lower_bound(&self) -> u8 {
        let cells = 4 * self.pieces();
        let area = cells.div_ceil(self.width);
        let tallest = self
            .moves
            .iter()
            .map(|ms| {
                ms.iter()
                    .map(|m| m.top[..m.width as usize].iter().copied().max().unwrap_or(0))
                    .min()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0) as usize;
        area.max(tallest) as u8
    }

    /// The optimum height and the canonical placement vector.
    pub fn solve(&mut self, problem: &Problem) -> Solution {
        let start: Sky = [0; MAX_WIDTH];
        let mut limit = self.lower_bound();
        while !self.feasible(0, &start, limit) {
            limit += 1;
        }
        // Rebuild the lexicographically first vector that stays within the optimum.
        let mut sky = start;
        let mut placements = Vec::with_capacity(self.pieces());
        for depth in 0..self.pieces() {
            let mut chosen = None;
            for i in 0..self.moves[depth].len() {
                let mv = self.moves[depth][i];
                let mut child = sky;
                let base = mv.base(&child);
                let (top, _) = mv.apply(&mut child, base);
                if top <= limit && self.feasible(depth + 1, &child, limit) {
                    chosen = Some((mv, child));
                    break;
                }
            }
            let (mv, child) = chosen.expect("a feasible state has a feasible move");
            placements.push(Placement {
                piece: problem.pieces[depth],
                column: mv.column as usize,
                rotation: mv.rotation as usize,
            });
            sky = child;
        }
        Solution {
            height: limit as usize,
            placements,
        }
    }
}

/// Solves a problem with a fresh searcher.
pub fn solve(problem: &Problem) -> Solution {
    Searcher::new(problem).solve(problem)
}

#[cfg(test)]
mod tests {
    use super::super::{stack_height, Piece};
    use super::*;

    /// The plain scan in canonical order, pruned only by "height already >= best": the
    /// reference the memoised search must agree with on small problems.
    fn brute(problem: &Problem) -> Solution {
        fn rec(p: &Problem, prefix: &mut Vec<Placement>, best: &mut Option<Solution>) {
            let h = stack_height(p.width, prefix).expect("in range");
            if let Some(b) = best {
                if h >= b.height {
                    return;
                }
            }
            if prefix.len() == p.pieces.len() {
                *best = Some(Solution {
                    height: h,
                    placements: prefix.clone(),
                });
                return;
            }
            let piece = p.pieces[prefix.len()];
            let rots = piece.rotations();
            let usable = if p.rotations { rots.len() } else { 1 };
            for (r, s) in rots.iter().take(usable).enumerate() {
                for c in 0..=(p.width - s.width.min(p.width)) {
                    if c + s.width > p.width {
                        continue;
                    }
                    prefix.push(Placement {
                        piece,
                        column: c,
                        rotation: r,
                    });
                    rec(p, prefix, best);
                    prefix.pop();
                }
            }
        }
        let mut best = None;
        rec(problem, &mut Vec::new(), &mut best);
        best.expect("some placement exists")
    }

    #[test]
    fn agrees_with_the_plain_scan_on_small_problems() {
        let cases = [
            ("ZOZS", 6, false),
            ("ZISS", 6, true),
            ("TSZL", 4, true),
            ("IJLOS", 5, true),
            ("SSSS", 4, true),
            ("TTLJ", 7, false),
            ("OIOIT", 4, true),
        ];
        for (seq, w, r) in cases {
            let p = Problem::new(seq, w, r).unwrap();
            let want = brute(&p);
            let got = solve(&p);
            assert_eq!(got, want, "{seq} width {w} rotations {r}");
            assert_eq!(stack_height(w, &got.placements), Some(got.height));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// The pruned, memoised search gives exactly the plain scan's answer (height and
        /// placements) on random small problems, so no bound cuts off the canonical optimum.
        #[test]
        fn agrees_with_the_plain_scan_on_random_problems(
            idx in proptest::collection::vec(0usize..7, 1..6),
            width in 4usize..8,
            rotations in proptest::prelude::any::<bool>(),
        ) {
            let len = if rotations { idx.len().min(4) } else { idx.len() };
            let seq: String = idx[..len].iter().map(|&i| Piece::ALL[i].letter()).collect();
            let p = Problem::new(&seq, width, rotations).unwrap();
            proptest::prop_assert_eq!(solve(&p), brute(&p), "{} width {} rotations {}", seq, width, rotations);
        }
    }

    #[test]
    fn a_tiny_memo_that_is_cleared_often_gives_the_same_answer() {
        for (seq, w, r) in [
            ("IOTSLJZI", 6, true),
            ("TTTTTTTT", 6, true),
            ("SZSZTLJO", 7, true),
        ] {
            let p = Problem::new(seq, w, r).unwrap();
            let mut s = Searcher::new(&p);
            s.max_entries = 16;
            assert_eq!(s.solve(&p), solve(&p), "{seq}");
        }
    }

    #[test]
    fn single_vertical_i_needs_four_rows() {
        let p = Problem::new("I", 6, false).unwrap();
        let s = solve(&p);
        assert_eq!(s.height, 4);
        assert_eq!(
            s.placements,
            vec![Placement {
                piece: Piece::I,
                column: 0,
                rotation: 0
            }]
        );
    }
}
