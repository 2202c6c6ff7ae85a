//! Breadth-first searches along one row of a unit's states: the walkers' way to a state of the
//! row (moves E and W and, for a unit with several orientations, the rotations), which costs no
//! descent.
//!
//! A search works on row-local positions, the bit indices of the unit's [`RowMask`] layout
//! (orientation `o`'s span, then the column from its `x_lo`), so that a move is an addition and
//! a free, unvisited state a bit of one row mask loaded at the start: the positions visited on
//! the row are cleared from it. The order is that of a search over whole states: the queue in
//! order, each state's moves in the order of [`Job::row_moves`], a state queued when first met.
//! So the paths, and the first state met where a predicate holds, are the same.
//!
//! [`RowMask`]: crate::plan::RowMask

use super::unit::{Job, RowVisited};
use crate::engine::Command;
use crate::plan::rowmask::Runs;
use crate::plan::State;

/// The parent of the search's first state.
const ROOT: u32 = u32::MAX;

/// A breadth-first search along one row, with its buffers (kept between searches).
#[derive(Debug, Default)]
pub struct RowSearch {
    y: i64,
    /// Free states of the row not visited before the search (row mask).
    allowed: Vec<u64>,
    /// States queued so far (row mask).
    seen: Vec<u64>,
    /// Per position: the position it was reached from, and by which command.
    parent: Vec<(u32, u8)>,
    /// Per word of the row mask: its orientation.
    orient: Vec<u8>,
    /// Positions in the order they were queued.
    pub queue: Vec<u32>,
    /// Queued positions expanded so far.
    head: usize,
    /// Buffers of the floods that stand in for a search ([`super::comps::Comps::escapable`]).
    pub(super) flood: Vec<u64>,
    pub(super) good: Vec<u64>,
    pub(super) runs: Runs,
}

impl RowSearch {
    /// Starts a search from `s` through the free states of its row not in `visited`: `s` alone
    /// is queued (whether or not it was visited).
    pub fn begin(&mut self, job: &Job, s: State, visited: &RowVisited) {
        let sp = job.space;
        let layout = sp.layout();
        let n = layout.len;
        self.y = s.y;
        self.allowed.clear();
        self.allowed.resize(n, 0);
        layout.load(sp, job.free, s.y, &mut self.allowed);
        for &(x, o) in visited {
            if let Some(p) = self.position(job, x, o) {
                self.allowed[p as usize / 64] &= !(1 << (p % 64));
            }
        }
        self.seen.clear();
        self.seen.resize(n, 0);
        self.parent.resize(n * 64, (ROOT, 0));
        self.orient.clear();
        for o in 0..sp.k {
            let (_, nw) = layout.span(o);
            self.orient.extend(std::iter::repeat_n(o, nw));
        }
        self.queue.clear();
        self.head = 0;
        let p = self
            .position(job, s.x, s.o)
            .expect("the unit's state is free");
        self.seen[p as usize / 64] |= 1 << (p % 64);
        self.parent[p as usize] = (ROOT, 0);
        self.queue.push(p);
    }

    /// The row-local position of column `x` in orientation `o`, if it lies in the layout.
    fn position(&self, job: &Job, x: i64, o: u8) -> Option<u32> {
        let (off, nw) = job.space.layout().span(o);
        let i = x - job.space.x_lo(o);
        (i >= 0 && (i as usize) < nw * 64).then(|| (off * 64) as u32 + i as u32)
    }

    /// The state at position `p`.
    pub fn state(&self, job: &Job, p: u32) -> State {
        let o = self.orient[p as usize / 64];
        let (off, _) = job.space.layout().span(o);
        State {
            x: job.space.x_lo(o) + (p as i64 - off as i64 * 64),
            y: self.y,
            o,
        }
    }

    /// Whether every queued state has been expanded.
    pub fn done(&self) -> bool {
        self.head >= self.queue.len()
    }

    /// Expands the next queued state: queues its neighbours by the row moves that are allowed
    /// and not seen yet, calling `found` on each (the state, and the queue's new length); stops
    /// at the first for which it returns true and returns its position.
    pub fn grow(&mut self, job: &Job, mut found: impl FnMut(State, usize) -> bool) -> Option<u32> {
        let sp = job.space;
        let layout = sp.layout();
        let p = self.queue[self.head];
        self.head += 1;
        let o = self.orient[p as usize / 64];
        let (off, _) = layout.span(o);
        let i = p as i64 - off as i64 * 64;
        let k = sp.k;
        for &cmd in job.row_moves() {
            let (o2, i2) = match cmd {
                Command::W => (o, i - 1),
                Command::E => (o, i + 1),
                Command::CW | Command::CCW => {
                    let o2 = if cmd == Command::CW {
                        (o + 1) % k
                    } else {
                        (o + k - 1) % k
                    };
                    (o2, i + sp.x_lo(o) - sp.x_lo(o2))
                }
                _ => unreachable!("row moves stay on the row"),
            };
            let (off2, nw2) = layout.span(o2);
            if i2 < 0 || i2 as usize >= nw2 * 64 {
                continue;
            }
            let q = (off2 * 64) as u32 + i2 as u32;
            let (w, b) = (q as usize / 64, q % 64);
            if self.allowed[w] >> b & 1 == 0 || self.seen[w] >> b & 1 == 1 {
                continue;
            }
            self.seen[w] |= 1 << b;
            self.parent[q as usize] = (p, cmd as u8);
            self.queue.push(q);
            let t = State {
                x: sp.x_lo(o2) + i2,
                y: self.y,
                o: o2,
            };
            if found(t, self.queue.len()) {
                return Some(q);
            }
        }
        None
    }

    /// Searches from `s` (see [`RowSearch::begin`]) until `limit` states are queued or `stop`
    /// holds for one (`s` first); returns the position where it held.
    pub fn search(
        &mut self,
        job: &Job,
        s: State,
        visited: &RowVisited,
        limit: usize,
        mut stop: impl FnMut(State) -> bool,
    ) -> Option<u32> {
        self.begin(job, s, visited);
        if stop(s) {
            return Some(self.queue[0]);
        }
        while !self.done() {
            let (mut stopped, mut full) = (false, false);
            let hit = self.grow(job, |t, len| {
                stopped = stop(t);
                full = len >= limit;
                stopped || full
            });
            if stopped {
                return hit;
            }
            if full {
                return None;
            }
        }
        None
    }

    /// Appends the positions of the states on the way from the search's first state to position
    /// `p` (`p` included, the first state not) to `visited`, in no particular order.
    pub fn visit_path(&self, job: &Job, p: u32, visited: &mut RowVisited) {
        let mut cur = p;
        while self.parent[cur as usize].0 != ROOT {
            let s = self.state(job, cur);
            visited.push((s.x, s.o));
            cur = self.parent[cur as usize].0;
        }
    }

    /// A path along the row from `s` (avoiding `visited`) to the nearest state where `good`
    /// holds, if any.
    pub fn escape_to(
        &mut self,
        job: &Job,
        s: State,
        visited: &RowVisited,
        good: impl Fn(State) -> bool,
    ) -> Option<Vec<(Command, State)>> {
        let found = self.search(job, s, visited, usize::MAX, good)?;
        Some(self.path(job, found))
    }

    /// The commands from the search's first state to position `p`, with the states on the way.
    pub fn path(&self, job: &Job, p: u32) -> Vec<(Command, State)> {
        let mut path = Vec::new();
        let mut cur = p;
        loop {
            let (from, c) = self.parent[cur as usize];
            if from == ROOT {
                break;
            }
            path.push((Command::from_index(c as usize), self.state(job, cur)));
            cur = from;
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::unit::fixture::Case;
    use rand::{Rng, SeedableRng};

    /// A search over whole states, as the walkers did it before: the states in the order it
    /// queues them, each with its parent's index in that order.
    fn naive(job: &Job, s: State, visited: &RowVisited) -> Vec<(State, Option<usize>, Command)> {
        let sp = job.space;
        let mut queue = vec![(s, None, Command::W)];
        let mut head = 0;
        while head < queue.len() {
            let cur = queue[head].0;
            for &cmd in job.row_moves() {
                let n = sp.step(cur, cmd);
                if !sp.is_free(job.free, n)
                    || visited.contains(&(n.x, n.o))
                    || queue.iter().any(|q| q.0 == n)
                {
                    continue;
                }
                queue.push((n, Some(head), cmd));
            }
            head += 1;
        }
        queue
    }

    /// On random boards, from random free states with random positions of their row visited,
    /// the search queues the states of a search over whole states in the same order, with the
    /// same paths, and stops where the same predicate first holds.
    #[test]
    fn row_searches_equal_a_search_over_whole_states() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(32);
        let (mut cases, mut states) = (0, 0);
        let mut rs = RowSearch::default();
        while cases < 300 {
            let Some(case) = Case::random(&mut rng) else {
                continue;
            };
            cases += 1;
            let job = case.job(0);
            let sp = &case.space;
            for idx in 0..sp.states {
                let s = sp.state_of(idx);
                if !sp.is_free(job.free, s) || !rng.gen_bool(0.3) {
                    continue;
                }
                let visited: RowVisited = (0..sp.states)
                    .map(|j| sp.state_of(j))
                    .filter(|t| t.y == s.y && rng.gen_bool(0.2))
                    .map(|t| (t.x, t.o))
                    .collect();
                let want = naive(&job, s, &visited);
                rs.begin(&job, s, &visited);
                while !rs.done() {
                    rs.grow(&job, |_, _| false);
                }
                let got: Vec<State> = rs.queue.iter().map(|&p| rs.state(&job, p)).collect();
                let want_states: Vec<State> = want.iter().map(|w| w.0).collect();
                assert_eq!(got, want_states, "case {cases} from {s:?}");
                for (k, &p) in rs.queue.iter().enumerate() {
                    let mut path = Vec::new();
                    let mut at = Some(k);
                    while let Some(i) = at {
                        if want[i].1.is_some() {
                            path.push((want[i].2, want[i].0));
                        }
                        at = want[i].1;
                    }
                    path.reverse();
                    assert_eq!(rs.path(&job, p), path, "case {cases}");
                }
                // A predicate that holds at a random few states: the first one met.
                let marked: Vec<State> = want_states
                    .iter()
                    .copied()
                    .filter(|_| rng.gen_bool(0.1))
                    .collect();
                let first = want_states.iter().position(|t| marked.contains(t));
                let hit = rs.search(&job, s, &visited, usize::MAX, |t| marked.contains(&t));
                assert_eq!(
                    hit.map(|p| rs.state(&job, p)),
                    first.map(|i| want_states[i])
                );
                states += want.len();
            }
        }
        assert!(states > 5000, "only {states} states");
    }
}
