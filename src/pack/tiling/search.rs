//! The depth-first search of the [`Tiler`]: frames over cells, placements and their undo,
//! the waste branch that leaves a cell empty while slack remains, and the failed-state memo.
//!
//! Invariant: every placement the search makes is undone before [`Tiler::solve`] returns.

use super::{
    sign, Frame, Outcome, Placement, Priority, Stats, Tiler, MAX_KINDS, MEMO_CAP, NONE, WASTE,
};

impl Tiler {
    /// Searches for a tiling of the empty cells by exactly the remaining counts, leaving at most
    /// `empty cells - 4 * pieces` cells uncovered (the slack, 0 when they match). Gives up after
    /// `max_nodes` placements if a limit is set. The board and counts are unchanged on return.
    pub fn solve(&mut self, max_nodes: Option<u64>) -> Outcome {
        self.stats = Stats::default();
        let pieces: u64 = self.counts.iter().map(|&c| c as u64).sum();
        let empty = self.order.iter().filter(|&&i| !self.filled(i)).count() as u64;
        if 4 * pieces > empty {
            return Outcome::Exhausted;
        }
        let slack = (empty - 4 * pieces) as usize;
        if slack == 0 && self.colouring_obstruction().is_some() {
            return Outcome::Exhausted;
        }
        let mut st = Search {
            slack,
            imbalance: self.imbalances(),
            stack: Vec::with_capacity(empty as usize + 1),
            max_nodes: max_nodes.unwrap_or(u64::MAX),
        };
        let out = self.run(&mut st);
        // Undo whatever is still on the stack (after a solution or a give-up).
        while let Some(f) = st.stack.pop() {
            self.undo(&f, &mut st);
        }
        out
    }

    /// The depth-first search proper, iterative so that 10 000 levels (a 200 x 200 board) need
    /// no deep call stack.
    pub(super) fn run(&mut self, st: &mut Search) -> Outcome {
        let Some(root) = self.enter(0, st.slack) else {
            return Outcome::Exhausted;
        };
        match root {
            Entered::Done => return Outcome::Solved(Vec::new()),
            Entered::Frame(f) => st.stack.push(f),
        }
        loop {
            let top = st.stack.len() - 1;
            let f = st.stack[top].clone();
            self.undo(&f, st);
            st.stack[top].placed = NONE;
            if self.stats.nodes >= st.max_nodes {
                return Outcome::GaveUp;
            }
            // Next candidate that fits and survives pruning.
            let mut advanced = false;
            let valid = if f.any {
                self.inside[f.cell]
            } else {
                self.valid[f.cell]
            };
            let (mut ki, mut ci) = (f.ki as usize, f.ci as usize);
            'kinds: while ki < f.nkinds as usize {
                let k = f.kinds[ki] as usize;
                if self.counts[k] > 0 {
                    while ci < self.kind_cands[k].len() {
                        let c = self.kind_cands[k][ci] as usize;
                        ci += 1;
                        if valid >> c & 1 == 0 || !self.fits(f.cell, c) {
                            continue;
                        }
                        self.place(f.cell, c, st);
                        self.stats.nodes += 1;
                        if self.prune_after(f.cell, c, st) {
                            self.unplace(f.cell, c, st);
                            continue;
                        }
                        let fr = &mut st.stack[top];
                        fr.ki = ki as u8;
                        fr.ci = ci as u8;
                        fr.placed = c as u16;
                        advanced = true;
                        break 'kinds;
                    }
                }
                ki += 1;
                ci = 0;
            }
            if !advanced && st.slack > 0 && !f.waste_done {
                // Leave the cell empty: it costs one cell of slack.
                let fr = &mut st.stack[top];
                fr.ki = f.nkinds;
                fr.waste_done = true;
                fr.placed = WASTE;
                self.set_waste(f.cell, true, st);
                self.stats.nodes += 1;
                advanced = true;
            }
            if !advanced {
                // Exhausted: remember the state and backtrack.
                if self.memo.len() < MEMO_CAP {
                    self.memo.insert(f.key);
                }
                st.stack.pop();
                if st.stack.is_empty() {
                    return Outcome::Exhausted;
                }
                continue;
            }
            // The frame's cell is filled now, but with cells picked out of order an earlier one
            // may still be empty: the scan starts again at the frame's first empty cell.
            match self.enter(f.pos, st.slack) {
                None => {} // Known dead: the loop tries the next candidate.
                Some(Entered::Done) => return Outcome::Solved(self.solution(st)),
                Some(Entered::Frame(child)) => st.stack.push(child),
            }
        }
    }

    /// Opens the frame for the first empty cell at or after order position `pos`: `None` when
    /// the state is known to be dead, `Done` when the board is full.
    pub(super) fn enter(&mut self, mut pos: usize, slack: usize) -> Option<Entered> {
        while pos < self.order.len() && self.filled(self.order[pos]) {
            pos += 1;
        }
        if pos == self.order.len() {
            return Some(Entered::Done);
        }
        let key = self.board_hash ^ self.count_hash;
        if self.memo.contains(&key) {
            self.stats.memo_hits += 1;
            return None;
        }
        let mut cell = self.order[pos];
        let mut any = false;
        if self.cover_on() {
            if self.forced_waste() as usize > slack {
                return None;
            }
            if let Some(c) = self.constrained_cell() {
                any = c != cell;
                cell = c;
            }
        }
        let mut kinds = [0u8; MAX_KINDS];
        let n = self.kinds.len();
        let mut m = 0;
        for j in 0..n {
            let k = (j + self.tie_shift) % n;
            if self.counts[k] > 0 {
                kinds[m] = k as u8;
                m += 1;
            }
        }
        // A stable sort keeps the rotated index order among equal keys.
        let counts = &self.counts;
        match self.priority {
            Priority::Fixed => {}
            Priority::MostRemaining => {
                kinds[..m].sort_by_key(|&k| std::cmp::Reverse(counts[k as usize]));
            }
            Priority::Weighted => {
                let w = &self.weights;
                kinds[..m]
                    .sort_by_key(|&k| std::cmp::Reverse(counts[k as usize] as u64 * w[k as usize]));
            }
        }
        Some(Entered::Frame(Frame {
            pos,
            cell,
            any,
            key,
            kinds,
            nkinds: m as u8,
            ki: 0,
            ci: 0,
            placed: NONE,
            waste_done: false,
        }))
    }

    /// Removes the frame's current placement, if any.
    pub(super) fn undo(&mut self, f: &Frame, st: &mut Search) {
        match f.placed {
            NONE => {}
            WASTE => self.set_waste(f.cell, false, st),
            c => self.unplace(f.cell, c as usize, st),
        }
    }

    /// Leaves a cell empty for good (it becomes filled for the search) or takes that back,
    /// keeping the slack and the colouring imbalances of the empty cells up to date.
    pub(super) fn set_waste(&mut self, cell: usize, waste: bool, st: &mut Search) {
        self.flip(cell);
        let par = self.parity[cell] as i32;
        let (x, y) = (par & 1, par >> 1);
        let signs = [sign(x + y), sign(x), sign(y)];
        for (im, s) in st.imbalance.iter_mut().zip(signs) {
            *im += if waste { -s } else { s };
        }
        if waste {
            st.slack -= 1;
        } else {
            st.slack += 1;
        }
    }

    /// The placements on the stack, as a solution.
    pub(super) fn solution(&self, st: &Search) -> Vec<Placement> {
        st.stack
            .iter()
            .filter(|f| f.placed != NONE && f.placed != WASTE)
            .map(|f| {
                let c = &self.cands[f.placed as usize];
                let o = (f.cell as isize + c.origin) as usize;
                Placement {
                    kind: c.kind as usize,
                    shape: c.shape as usize,
                    x: o % self.stride,
                    y: o / self.stride - 1,
                }
            })
            .collect()
    }

    #[inline]
    pub(super) fn index(&self, x: usize, y: usize) -> usize {
        assert!(x < self.width && y < self.height, "cell off the board");
        (y + 1) * self.stride + x
    }

    #[inline]
    pub(super) fn filled(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 == 1
    }

    #[inline]
    pub(super) fn flip(&mut self, i: usize) {
        self.words[i >> 6] ^= 1 << (i & 63);
        self.board_hash ^= self.zobrist[i];
        if let Some(cv) = &mut self.cover {
            cv.fresh = false;
        }
    }

    #[inline]
    pub(super) fn fits(&self, cell: usize, c: usize) -> bool {
        let o = &self.cands[c].others;
        !self.filled((cell as isize + o[0]) as usize)
            && !self.filled((cell as isize + o[1]) as usize)
            && !self.filled((cell as isize + o[2]) as usize)
    }

    pub(super) fn place(&mut self, cell: usize, c: usize, st: &mut Search) {
        let cand = &self.cands[c];
        let (others, kind, d) = (
            cand.others,
            cand.kind as usize,
            cand.delta[self.parity[cell] as usize],
        );
        self.flip(cell);
        for o in others {
            self.flip((cell as isize + o) as usize);
        }
        self.counts[kind] -= 1;
        self.count_hash = self.count_hash.wrapping_sub(self.count_keys[kind]);
        for (im, dd) in st.imbalance.iter_mut().zip(d) {
            *im -= dd;
        }
    }

    pub(super) fn unplace(&mut self, cell: usize, c: usize, st: &mut Search) {
        let cand = &self.cands[c];
        let (others, kind, d) = (
            cand.others,
            cand.kind as usize,
            cand.delta[self.parity[cell] as usize],
        );
        self.flip(cell);
        for o in others {
            self.flip((cell as isize + o) as usize);
        }
        self.counts[kind] += 1;
        self.count_hash = self.count_hash.wrapping_add(self.count_keys[kind]);
        for (im, dd) in st.imbalance.iter_mut().zip(d) {
            *im += dd;
        }
    }
}

/// The mutable part of one search besides the board.
pub(super) struct Search {
    pub(super) slack: usize,
    pub(super) imbalance: [i32; 3],
    pub(super) stack: Vec<Frame>,
    pub(super) max_nodes: u64,
}

pub(super) enum Entered {
    Done,
    Frame(Frame),
}
