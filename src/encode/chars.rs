//! The character encoder ([`super::Mode::Chars`]): spells a plan character by character with
//! the phrase automaton ([`super::automaton`]), so that every occurrence counts, overlapping or
//! spanning two units, and a lock command is a phrase character like any other.
//!
//! **Model.** Within one unit, the state of the search is the unit's position (pivot and canonical
//! orientation, as in [`crate::plan::space`]), the automaton node, and what the no-repeat rule
//! needs of the positions visited on the current row. A descent empties that set (no command
//! climbs), so at a row entry the state is exact. Within a row the dynamic programme keeps only the
//! last move, the [`super::heading`] (fresh, W, E, CW, CCW), and forbids its reversal: for a unit
//! that cannot rotate this is exact (it can only keep going one way along a row), for the others it
//! is a relaxation (a walk such as E, CW, W, CCW returns to its start), so the values are upper
//! bounds. The values are computed bottom-up, row by row, with sweeps along each row until they
//! settle; every row move costs a tiny penalty, so that among equal scores the shorter walk wins
//! and the values have no cycles.
//!
//! **Whole game.** A backward pass over the units gives, for each unit, the value of entering it
//! at its spawn in each automaton node (the *terminal* values of the unit before). The forward
//! walk then spells unit after unit: an A* search over exact states (visited positions of the
//! row included) under the programme's values, which are admissible, finds the best path to the
//! planned lock and the best locking character for what follows. Should the search exceed its
//! budget, a depth-first search with backtracking finds a valid path under the same values, and
//! as a last resort the plain shortest path is used: every unit always ends at its planned lock.
//!
//! **First uses.** The backward pass values repetitions only (2 x length per occurrence), on the
//! automaton of the phrases; while a phrase is unused, the units that can spell it are re-valued
//! in the forward walk with its first-use value ([`super::Phrase::first_use`]) added, so that the
//! first units spell the long phrases while the board still has room for them.
//!
//! **Spans.** An unused phrase with more descents than a unit's fall but fewer than its fall and
//! the next unit's together may begin in one unit and end in the next, the first unit's lock a
//! character of the phrase: the next unit is valued first, on the same automaton with only the
//! spans' first uses counted, and its value at its spawn in each node becomes the terminal value
//! of the unit before; the next unit then counts the phrase begun among the ones it may finish.
//! (Spans over three or four units were measured on the official problems: over three, scores
//! within 6 points; over four, some gained and some lost, for 2.6 to 4.5 times the time.)

use super::automaton::{Automaton, Node};
use super::heading::{self, CCW, CW, EAST, FRESH, WEST};
use super::{Encoder, Phrase, PhraseTable, NEG};
use crate::engine::{Board, Command, Problem};
use crate::plan::{Bfs, LockKey, Placement, Plan, Sim, State, Tables, UnitSpace};
use crate::work::Op;
use std::collections::BinaryHeap;
use std::time::Instant;

/// Scale of the phrase points in the programme's values: a row move costs one unit of value.
const SCALE: i32 = 64;

/// Memory the encoder may keep the backward pass's values in, for the forward walk.
const KEEP_BYTES: usize = 64 << 20;

/// The row moves and the heading each leaves.
const ROW_MOVES: [(Command, usize); 4] = [
    (Command::W, WEST),
    (Command::E, EAST),
    (Command::CW, CW),
    (Command::CCW, CCW),
];

/// No compact index.
const NONE: u32 = u32::MAX;

/// The states of one unit that matter: reachable from the spawn, free, and able to reach the
/// planned lock; compact indices row by row.
#[derive(Debug, Default)]
struct Region {
    states: Vec<State>,
    /// Per compact state and command: the compact index of the successor, or [`NONE`].
    next: Vec<[u32; 6]>,
    /// Per compact state: the commands that lock the unit there at the target (bit per
    /// command), 0 when it is not a target state.
    locks: Vec<u8>,
    /// Per row from the spawn's: the range of its compact states.
    rows: Vec<(u32, u32)>,
    /// Dense index -> compact index.
    compact: Vec<u32>,
    spawn: u32,
}

impl Region {
    /// Builds the region of unit `sp` on free map `free` with target `key`; false when the spawn
    /// cannot reach the target.
    ///
    /// With `corridor`, only the states within that many columns of a shortest path from the
    /// spawn to the target (on the same row) are kept: on a wide board a unit that spells well
    /// rarely strays far from its way down, and the programme's cost falls with the width it
    /// covers. The shortest path itself stays in, so the target is still reached.
    fn build(
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
        mark_alive(sp, free, &targets, &rows, bufs);
        self.index_rows(sp, free, &rows, bufs);
        let s0 = sp.spawn_state();
        self.spawn = sp.index(s0).map_or(NONE, |i| self.compact[i]);
        if self.spawn == NONE {
            return false;
        }
        self.link(sp, free, key);
        true
    }

    /// Numbers the region's states row by row: the reachable free states marked alive.
    fn index_rows(
        &mut self,
        sp: &UnitSpace,
        free: &[u64],
        rows: &std::ops::RangeInclusive<i64>,
        bufs: &Bufs,
    ) {
        for y in rows.clone() {
            let first = self.states.len() as u32;
            for o in 0..sp.k {
                for s in sp.free_in_row(&bufs.reach, o, y) {
                    let i = sp.index(s).expect("reachable states lie in the box");
                    if bufs.alive[i] && sp.is_free(free, s) {
                        self.compact[i] = self.states.len() as u32;
                        self.states.push(s);
                    }
                }
            }
            self.rows.push((first, self.states.len() as u32));
        }
    }

    /// The transitions between the region's states, and the commands that lock each at the
    /// target.
    fn link(&mut self, sp: &UnitSpace, free: &[u64], key: LockKey) {
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
    fn fits(&self, cmds: &[Command]) -> bool {
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

    fn row_of(&self, y0: i64, y: i64) -> std::ops::Range<usize> {
        let (a, b) = self.rows[(y - y0) as usize];
        a as usize..b as usize
    }
}

/// Keeps in `bufs.reach` only the states within `c` columns of a shortest path from the spawn
/// to the target `key`, row by row (rows below the path's end, other states of the target's
/// member set, take the path's last row's columns); false when no path exists.
fn keep_corridor(
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

/// Marks in `bufs.alive` the states of `bufs.reach` that can reach one of `targets` by moves
/// along rows and descents: a flood bottom-up, row by row, each row from the states that
/// descend into an alive state or are targets, then back along the row's moves.
fn mark_alive(
    sp: &UnitSpace,
    free: &[u64],
    targets: &[State],
    rows: &std::ops::RangeInclusive<i64>,
    bufs: &mut Bufs,
) {
    bufs.alive.clear();
    bufs.alive.resize(sp.states, false);
    let moves = Command::usable(sp.rotates())
        .iter()
        .filter(|c| !c.is_descent());
    let mut row: Vec<State> = Vec::new();
    let mut stack: Vec<State> = Vec::new();
    for y in rows.clone().rev() {
        row.clear();
        for o in 0..sp.k {
            row.extend(
                sp.free_in_row(&bufs.reach, o, y)
                    .filter(|&s| sp.is_free(free, s)),
            );
        }
        for &s in &row {
            let i = sp.index(s).expect("free states lie in the box");
            let down = [Command::SW, Command::SE].iter().any(|&c| {
                let n = sp.step(s, c);
                sp.index(n).is_some_and(|j| bufs.alive[j])
            });
            if down || targets.contains(&s) {
                bufs.alive[i] = true;
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
                if !sp.is_free(free, p) || !sp.is_free(&bufs.reach, p) {
                    continue;
                }
                let j = sp.index(p).expect("free states lie in the box");
                if !bufs.alive[j] {
                    bufs.alive[j] = true;
                    stack.push(p);
                }
            }
        }
    }
}

/// Clears the bits of `row` outside `lo..=hi` (bit indices, possibly out of range).
fn keep_range(row: &mut [u64], lo: i64, hi: i64) {
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
struct Bufs {
    reach: Vec<u64>,
    reach_bufs: crate::plan::ReachBufs,
    alive: Vec<bool>,
    free: Vec<u64>,
    base: Vec<i32>,
    t: [Vec<i32>; 4],
    bfs: Bfs,
    common: Vec<i32>,
    cand: Vec<i32>,
    preds: Vec<Vec<u32>>,
    queue: std::collections::VecDeque<u32>,
    queued: Vec<bool>,
    /// States taken off the row work lists, summed.
    pops: usize,
}

/// The programme's values of one unit: `vals[(i * ctxs + ctx) * nodes + a]`.
#[derive(Debug, Default)]
struct Values {
    vals: Vec<i32>,
    ctxs: usize,
    nodes: usize,
}

impl Values {
    #[inline]
    fn at(&self, i: usize, ctx: usize, a: usize) -> i32 {
        self.vals[(i * self.ctxs + ctx) * self.nodes + a]
    }
}

/// The transitions of an automaton for one command as `(node, next node, gain of entering it)`,
/// gains included, so that the inner loops of the programme are flat.
type Triples = Vec<(u16, u16, i32)>;

fn triples(ac: &Automaton, gains: &[i32], c: Command, penalty: i32) -> Triples {
    let mut t = Vec::new();
    for a in 0..ac.len() {
        for &(a2, _) in ac.edges(a as Node, c) {
            t.push((a as u16, a2, gains[a2 as usize] - penalty));
        }
    }
    t
}

/// `t[a] = max(t[a], vn[a2] + g)` over the transitions.
#[inline]
fn gather_max(t: &mut [i32], trip: &[(u16, u16, i32)], vn: &[i32]) {
    for &(a, a2, g) in trip {
        let v = vn[a2 as usize] + g;
        let slot = &mut t[a as usize];
        if v > *slot {
            *slot = v;
        }
    }
}

/// `dst = max(dst, src)` element by element.
#[inline]
fn max_into(dst: &mut [i32], src: &[i32]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = (*d).max(s);
    }
}

/// Whether a value stands for a possible way on: impossible ones are [`NEG`] plus at most the
/// gains of a path, far below this.
#[inline]
fn possible(v: i32) -> bool {
    v > NEG / 2
}

/// Computes the values of a region: `gains` per node (scaled), `terminal` per node (scaled, the
/// value of the game after the lock when the lock leaves the automaton in that node).
fn values(
    sp: &UnitSpace,
    region: &Region,
    ac: &Automaton,
    gains: &[i32],
    terminal: &[i32],
    bufs: &mut Bufs,
    out: &mut Values,
) {
    let na = ac.len();
    let ctxs = if !sp.rotates() {
        heading::LINE
    } else {
        heading::ALL
    };
    crate::work::add(Op::CharsCell, (region.states.len() * ctxs * na) as u64);
    out.ctxs = ctxs;
    out.nodes = na;
    out.vals.clear();
    out.vals.resize(region.states.len() * ctxs * na, NEG);
    let y0 = sp.spawn_state().y;
    let n_rows = region.rows.len() as i64;
    let moves: &[(Command, usize)] = if !sp.rotates() {
        &ROW_MOVES[..2]
    } else {
        &ROW_MOVES
    };
    // Transitions per command: locks and descents without penalty, row moves with it.
    let trip: [Triples; 6] = std::array::from_fn(|c| {
        let cmd = Command::ALL[c];
        triples(ac, gains, cmd, if cmd.is_descent() { 0 } else { 1 })
    });
    let lock_trip: [Triples; 6] = std::array::from_fn(|c| triples(ac, gains, Command::ALL[c], 0));
    let slot = |i: usize, ctx: usize| (i * ctxs + ctx) * na;
    for y in (y0..y0 + n_rows).rev() {
        let range = region.row_of(y0, y);
        if range.is_empty() {
            continue;
        }
        // The base of each state: descents and locks, which do not change while the row settles.
        let base = &mut bufs.base;
        base.clear();
        base.resize(range.len() * na, NEG);
        for (r, i) in range.clone().enumerate() {
            let b = &mut base[r * na..(r + 1) * na];
            for c in [Command::SW, Command::SE] {
                let n = region.next[i][c as usize];
                if n != NONE {
                    let at = slot(n as usize, FRESH);
                    gather_max(b, &trip[c as usize], &out.vals[at..at + na]);
                }
            }
            let lm = region.locks[i];
            for c in Command::ALL {
                if lm >> c as u8 & 1 == 1 {
                    gather_max(b, &lock_trip[c as usize], terminal);
                }
            }
        }
        // Along the row: a work list of the states whose values may rise, each re-valued from
        // its row moves; a state that rises puts back the states that move into it.
        let first = range.start;
        let len = range.len();
        let preds = &mut bufs.preds;
        preds.iter_mut().for_each(|p| p.clear());
        if preds.len() < len {
            preds.resize(len, Vec::new());
        }
        for r in 0..len {
            for &(c, _) in moves {
                let n = region.next[first + r][c as usize];
                if n != NONE && range.contains(&(n as usize)) {
                    preds[n as usize - first].push(r as u32);
                }
            }
        }
        let queue = &mut bufs.queue;
        queue.clear();
        queue.extend(0..len as u32);
        let queued = &mut bufs.queued;
        queued.clear();
        queued.resize(len, true);
        let [tw, te, tcw, tccw] = &mut bufs.t;
        let (common, cand) = (&mut bufs.common, &mut bufs.cand);
        while let Some(r) = queue.pop_front() {
            let r = r as usize;
            queued[r] = false;
            bufs.pops += 1;
            let i = first + r;
            // The value of each row move from here, whatever the context.
            for ((c, cx), t) in ROW_MOVES
                .iter()
                .zip([&mut *tw, &mut *te, &mut *tcw, &mut *tccw])
            {
                t.clear();
                t.resize(na, NEG);
                if !sp.rotates() && matches!(c, Command::CW | Command::CCW) {
                    continue;
                }
                let n = region.next[i][*c as usize];
                if n != NONE {
                    let at = slot(n as usize, *cx);
                    gather_max(t, &trip[*c as usize], &out.vals[at..at + na]);
                }
            }
            // Each context forbids the reversal of its last move.
            common.clear();
            common.extend_from_slice(&base[r * na..(r + 1) * na]);
            max_into(common, tcw);
            max_into(common, tccw);
            let mut changed = false;
            for ctx in 0..ctxs {
                cand.clear();
                match ctx {
                    CW | CCW => {
                        cand.extend_from_slice(&base[r * na..(r + 1) * na]);
                        max_into(cand, if ctx == CW { tcw } else { tccw });
                        max_into(cand, tw);
                        max_into(cand, te);
                    }
                    _ => {
                        cand.extend_from_slice(common);
                        if ctx != EAST {
                            max_into(cand, tw);
                        }
                        if ctx != WEST {
                            max_into(cand, te);
                        }
                    }
                }
                let at = slot(i, ctx);
                for (d, &v) in out.vals[at..at + na].iter_mut().zip(cand.iter()) {
                    if v > *d {
                        *d = v;
                        changed = true;
                    }
                }
            }
            if changed {
                for &p in &preds[r] {
                    if !queued[p as usize] {
                        queued[p as usize] = true;
                        queue.push_back(p);
                    }
                }
            }
        }
    }
}

/// A node of the walk's search.
#[derive(Clone, Copy, Debug)]
struct SearchNode {
    /// Compact state.
    i: u32,
    ctx: u8,
    a: Node,
    /// Value earned so far (scaled, penalties included).
    g: i32,
    parent: u32,
    /// The character that led here.
    ch: u8,
    /// Whether this node is the lock (the end of the unit).
    done: bool,
}

/// One unit's walk: the programme's values and what they were computed with.
struct Walk<'a> {
    sp: &'a UnitSpace,
    region: &'a Region,
    vals: &'a Values,
    ac: &'a Automaton,
    gains: &'a [i32],
    terminal: &'a [i32],
}

impl Walk<'_> {
    /// The positions visited on the row of node `ni`: up the parents to the last descent.
    fn row(&self, nodes: &[SearchNode], ni: u32, row: &mut Vec<(i64, u8)>) {
        row.clear();
        let y = self.region.states[nodes[ni as usize].i as usize].y;
        let mut p = ni;
        loop {
            let q = nodes[p as usize];
            let st = self.region.states[q.i as usize];
            if st.y != y {
                break;
            }
            row.push((st.x, st.o));
            if q.parent == u32::MAX {
                break;
            }
            p = q.parent;
        }
    }

    /// The children of a node that obey the no-repeat rule exactly, each with its bound
    /// `g + value` (exact for a lock).
    fn children(
        &self,
        node: &SearchNode,
        ni: u32,
        row: &[(i64, u8)],
        out: &mut Vec<(i32, SearchNode)>,
    ) {
        out.clear();
        let region = self.region;
        let i = node.i as usize;
        let s = region.states[i];
        let lm = region.locks[i];
        for c in Command::ALL {
            if !self.sp.rotates() && matches!(c, Command::CW | Command::CCW) {
                continue;
            }
            let n = region.next[i][c as usize];
            let locks = lm >> c as u8 & 1 == 1;
            if !locks {
                if n == NONE || heading::forbids(node.ctx as usize, c) {
                    continue;
                }
                let t = region.states[n as usize];
                if t.y == s.y && row.contains(&(t.x, t.o)) {
                    continue;
                }
            }
            for &(a2, ch) in self.ac.edges(node.a, c) {
                let gain = self.gains[a2 as usize];
                let (h, g) = if locks {
                    (self.terminal[a2 as usize], node.g + gain)
                } else {
                    let pen = if c.is_descent() { 0 } else { 1 };
                    (
                        self.vals.at(n as usize, heading::after(c), a2 as usize),
                        node.g + gain - pen,
                    )
                };
                if !possible(h) {
                    continue;
                }
                out.push((
                    g + h,
                    SearchNode {
                        i: if locks { node.i } else { n },
                        ctx: heading::after(c) as u8,
                        a: a2,
                        g,
                        parent: ni,
                        ch,
                        done: locks,
                    },
                ));
            }
        }
    }

    fn root(&self, a0: Node) -> Option<SearchNode> {
        let start = self.region.spawn;
        possible(self.vals.at(start as usize, FRESH, a0 as usize)).then_some(SearchNode {
            i: start,
            ctx: FRESH as u8,
            a: a0,
            g: 0,
            parent: u32::MAX,
            ch: 0,
            done: false,
        })
    }

    /// The best path under the values (A*: they bound every exact path from above), or `None`
    /// past `budget` expansions.
    fn astar(&self, a0: Node, budget: usize, expanded: &mut usize) -> Option<String> {
        let root = self.root(a0)?;
        let h0 = self.vals.at(root.i as usize, FRESH, a0 as usize);
        let mut nodes = vec![root];
        // Max-heap on (f, g, -index): deeper and older first among equals.
        let mut heap: BinaryHeap<(i32, i32, std::cmp::Reverse<u32>)> = BinaryHeap::new();
        heap.push((h0, 0, std::cmp::Reverse(0)));
        let mut closed: rustc_hash::FxHashSet<(u32, u8, Node, u64)> = Default::default();
        let mut expansions = 0;
        let mut row = Vec::new();
        let mut kids = Vec::new();
        while let Some((_, _, std::cmp::Reverse(ni))) = heap.pop() {
            let node = nodes[ni as usize];
            if node.done {
                return Some(rebuild(&nodes, ni));
            }
            self.row(&nodes, ni, &mut row);
            if !closed.insert((node.i, node.ctx, node.a, visited_hash(&row))) {
                continue;
            }
            expansions += 1;
            *expanded += 1;
            if expansions > budget {
                return None;
            }
            self.children(&node, ni, &row, &mut kids);
            for &(f, child) in &kids {
                nodes.push(child);
                heap.push((f, child.g, std::cmp::Reverse(nodes.len() as u32 - 1)));
            }
        }
        None
    }

    /// The best path by A* within `budget` expansions or, past that, a valid one found depth
    /// first within as many nodes; `None` when neither finds one.
    fn search(&self, a0: Node, budget: usize, stats: &mut CharStats) -> Option<String> {
        self.astar(a0, budget, &mut stats.expansions).or_else(|| {
            stats.depth_first += 1;
            self.depth_first(a0, budget)
        })
    }

    /// A valid path found depth first, the most promising child first, backtracking from dead
    /// ends; `None` past `limit` nodes.
    fn depth_first(&self, a0: Node, limit: usize) -> Option<String> {
        let root = self.root(a0)?;
        let mut nodes = vec![root];
        // Per level: the children still to try, best last.
        let mut stack: Vec<Vec<(i32, SearchNode)>> = Vec::new();
        let mut row = Vec::new();
        let mut kids = Vec::new();
        let mut at = 0u32;
        loop {
            if nodes[at as usize].done {
                return Some(rebuild(&nodes, at));
            }
            if nodes.len() > limit {
                return None;
            }
            self.row(&nodes, at, &mut row);
            self.children(&nodes[at as usize], at, &row, &mut kids);
            kids.sort_by_key(|k| k.0);
            stack.push(kids.clone());
            // Go down the best untried child, backtracking while a level has none left.
            loop {
                let level = stack.last_mut()?;
                if let Some((_, child)) = level.pop() {
                    nodes.push(child);
                    at = nodes.len() as u32 - 1;
                    break;
                }
                stack.pop();
            }
        }
    }
}

/// Rounds of the Lagrangian relaxation of first uses in one unit (see [`UnitWalk::best`]):
/// re-spelling the stored games of six official problems (1, 2, 3, 5, 7, 13), 4 rounds scored
/// less than 8 on three of them (2, 3, 13), more on two (5, 7); 16 no more than 8 on 13.
const FIRST_USE_ROUNDS: usize = 8;

/// What the phrases of a unit's automaton are worth, per pattern of the automaton: the value of
/// a first use, counted at the first occurrence only, and of every occurrence.
struct PatternValues {
    first: Vec<i32>,
    repeat: Vec<i32>,
}

/// What one unit's walk may spend: expansions per A* search, Lagrangian rounds, and the
/// deadline past which no further round starts.
#[derive(Clone, Copy, Debug)]
struct Effort {
    budget: usize,
    rounds: usize,
    deadline: Option<Instant>,
}

/// One unit to walk, with first uses counted once.
struct UnitWalk<'a> {
    sp: &'a UnitSpace,
    region: &'a Region,
    ac: &'a Automaton,
    values: &'a PatternValues,
    terminal: &'a [i32],
}

impl UnitWalk<'_> {
    /// The unit's best text found from automaton node `a0`.
    ///
    /// The programme's values cannot tell which phrases the unit has spelt, so a first use
    /// counted in them counts at every occurrence: a short phrase spelt again and again looks
    /// worth its first use each time (problem 13, whose first unit spelt "ei!" 14 times instead
    /// of "case nightmare green" and others). Rounds of a Lagrangian relaxation correct that: a
    /// phrase the round's walk spelt `n` times has its first-use value in the programme divided
    /// by `n` for the next round, until a walk spells no phrase twice or `rounds` are done; the
    /// walk of the highest exact value ([`UnitWalk::exact`]) is kept. The first round is the
    /// plain programme, so the result is never worse than it by the exact value.
    fn best(
        &self,
        a0: Node,
        effort: Effort,
        bufs: &mut Bufs,
        vals: &mut Values,
        stats: &mut CharStats,
    ) -> Option<String> {
        let PatternValues { first, repeat } = self.values;
        let mut lambda = first.clone();
        let mut kept: Option<(i64, String)> = None;
        let Effort {
            budget,
            rounds,
            deadline,
        } = effort;
        for round in 0..rounds.max(1) {
            if round > 0 && crate::stop::passed(deadline) {
                break;
            }
            let weights: Vec<i32> = lambda.iter().zip(repeat).map(|(l, r)| l + r).collect();
            let gains = self.ac.gains(&weights);
            values(
                self.sp,
                self.region,
                self.ac,
                &gains,
                self.terminal,
                bufs,
                vals,
            );
            stats.states += self.region.states.len();
            let w = Walk {
                sp: self.sp,
                region: self.region,
                vals,
                ac: self.ac,
                gains: &gains,
                terminal: self.terminal,
            };
            let Some(text) = w.search(a0, budget, stats) else {
                break;
            };
            let (value, counts) = self.exact(a0, &text);
            if kept.as_ref().is_none_or(|(v, _)| value > *v) {
                kept = Some((value, text));
            }
            let mut again = false;
            for (j, &n) in counts.iter().enumerate() {
                if n > 1 && lambda[j] > 0 {
                    lambda[j] /= n as i32;
                    again = true;
                }
            }
            if !again {
                break;
            }
        }
        kept.map(|(_, t)| t)
    }

    /// The exact value of the unit's text `walk` from node `a0`: per character the points of
    /// the patterns it ends, a first use counted once; minus one per row move; plus the
    /// terminal value of the node after the lock (the last character). Also how many times
    /// the text spells each pattern.
    fn exact(&self, a0: Node, walk: &str) -> (i64, Vec<u32>) {
        let PatternValues { first, repeat } = self.values;
        let mut counts = vec![0u32; first.len()];
        let mut total = 0i64;
        let mut a = a0;
        let last = walk.len().saturating_sub(1);
        for (k, b) in walk.bytes().enumerate() {
            a = self.ac.step(a, b);
            for &j in self.ac.ends(a) {
                let j = j as usize;
                if counts[j] == 0 {
                    total += first[j] as i64;
                }
                total += repeat[j] as i64;
                counts[j] += 1;
            }
            let descent = matches!(
                Command::decode(b as char),
                crate::engine::Decoded::Command(c) if c.is_descent()
            );
            if k < last && !descent {
                total -= 1;
            }
        }
        (total + self.terminal[a as usize] as i64, counts)
    }
}

/// The rows a placement's unit passes through from its spawn to its lock, both included: a
/// phrase needs as many as it has descents, but for the last one, which may be the lock.
fn fall_rows(tables: &Tables, pl: &Placement) -> usize {
    pl.descent(tables) as usize + 1
}

/// An order-independent hash of a row's visited positions.
fn visited_hash(row: &[(i64, u8)]) -> u64 {
    row.iter()
        .map(|&(x, o)| {
            let v = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (o as u64) << 59;
            v ^ (v >> 29)
        })
        .fold(0u64, |h, v| {
            h.wrapping_add(v.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        })
}

fn rebuild(nodes: &[SearchNode], mut i: u32) -> String {
    let mut out = Vec::new();
    while nodes[i as usize].parent != u32::MAX {
        out.push(nodes[i as usize].ch);
        i = nodes[i as usize].parent;
    }
    out.reverse();
    String::from_utf8(out).expect("command characters are ASCII")
}

/// The automata and values the character encoder shares between the games of a problem.
pub struct CharTables {
    /// The phrases some unit of the problem can play, as indices into the phrase table.
    full_ids: Vec<usize>,
    /// The automaton of those phrases.
    full: Automaton,
    /// The phrases worth repeating, and their smaller automaton (see [`CharTables::new`]).
    rep_ids: Vec<usize>,
    rep: Automaton,
    /// Per phrase of the table: its repetition value (scaled), 2 x length.
    repeat: Vec<i32>,
    /// Per phrase of the table: its first-use value (scaled).
    first: Vec<i32>,
    /// Per unit of the problem, per phrase of the table: whether the unit can ever play it.
    playable: Vec<Vec<bool>>,
    /// Per phrase of the table: its descents.
    descents: Vec<usize>,
    /// Columns each side of a unit's shortest path the programme covers (`None`: all).
    pub corridor: Option<i64>,
}

/// Columns each side of a unit's shortest path the programme covers on wide boards.
pub const CORRIDOR: i64 = 10;

/// The corridor for a board `width` columns wide: none where the board is at most three
/// corridors wide, because there the whole width costs little more and a corridor was measured
/// to lose words (boards 8 and 10 wide); on wider boards the programme's size follows the path,
/// not the board.
pub fn corridor_for(width: usize) -> Option<i64> {
    (width as i64 > 3 * CORRIDOR).then_some(CORRIDOR)
}

/// The most nodes the automaton of repeated phrases may have.
const REPEAT_NODES: usize = 64;

impl CharTables {
    /// The automata for `table` on a problem whose units have these spaces. Phrases no unit can
    /// play are left out. Repetitions are valued on a smaller automaton: the phrases with the
    /// most points per descent (a chain of a self-overlapping phrase counted at its period), as
    /// many as fit in [`REPEAT_NODES`] nodes; after its first use a long phrase is worth less
    /// per row than a short one repeated, so the others are spelt once, for their first use.
    pub fn new(table: &PhraseTable, spaces: &[UnitSpace], width: usize) -> CharTables {
        let playable: Vec<Vec<bool>> = spaces
            .iter()
            .map(|sp| table.phrases.iter().map(|p| p.playable(sp.k)).collect())
            .collect();
        // A phrase without a descent could be spelt again and again along one row in the
        // programme's relaxed model (a walk may come back to a position there), whose values
        // would then grow without bound: such phrases are left to the other encoders.
        let full_ids: Vec<usize> = (0..table.phrases.len())
            .filter(|&p| playable.iter().any(|u| u[p]) && table.phrases[p].descents > 0)
            .collect();
        let density = |p: usize| {
            let ph = &table.phrases[p];
            let len = ph.text.chars().count();
            // A self-overlapping phrase repeats every `period` characters.
            let bytes = ph.text.as_bytes();
            let period = (1..len)
                .find(|&d| bytes[d..] == bytes[..len - d])
                .unwrap_or(len);
            let desc = ph.cmds[len - period..]
                .iter()
                .filter(|c| c.is_descent())
                .count()
                .max(1);
            2.0 * len as f64 / desc as f64
        };
        let mut ranked = full_ids.clone();
        ranked.sort_by(|&a, &b| density(b).total_cmp(&density(a)).then(a.cmp(&b)));
        // Every unit keeps its two best phrases (a unit that cannot rotate plays only two);
        // the others join by density while the automaton stays small.
        let mut rep_ids: Vec<usize> = Vec::new();
        for u in &playable {
            for &p in ranked.iter().filter(|&&p| u[p]).take(2) {
                if !rep_ids.contains(&p) {
                    rep_ids.push(p);
                }
            }
        }
        for p in ranked {
            if rep_ids.contains(&p) {
                continue;
            }
            let mut with = rep_ids.clone();
            with.push(p);
            let texts: Vec<&str> = with
                .iter()
                .map(|&q| table.phrases[q].text.as_str())
                .collect();
            if Automaton::new(&texts).len() <= REPEAT_NODES {
                rep_ids = with;
            }
        }
        rep_ids.sort();
        let texts = |ids: &[usize]| -> Vec<String> {
            ids.iter().map(|&q| table.phrases[q].text.clone()).collect()
        };
        let full = Automaton::new(&texts(&full_ids));
        let rep = Automaton::new(&texts(&rep_ids));
        CharTables {
            full_ids,
            full,
            rep_ids,
            rep,
            repeat: table
                .phrases
                .iter()
                .map(|p| p.repetition_points(1) * SCALE)
                .collect(),
            first: table
                .phrases
                .iter()
                .map(|p| p.first_use() * SCALE)
                .collect(),
            playable,
            descents: table.phrases.iter().map(|p| p.descents).collect(),
            corridor: corridor_for(width),
        }
    }

    /// Node gains of `ac`, whose phrases are `ids`, when table phrase `p` is worth `value(p)`.
    fn gains(ac: &Automaton, ids: &[usize], value: impl Fn(usize) -> i32) -> Vec<i32> {
        let v: Vec<i32> = ids.iter().map(|&p| value(p)).collect();
        ac.gains(&v)
    }
}

/// The automaton of a unit that may spell phrases for their first use, with its maps.
struct Fresh {
    ac: Automaton,
    /// Node of `ac` for each node of the full automaton.
    of_full: Vec<Node>,
    /// Node of the repetition automaton for each node of `ac`.
    rep_of: Vec<Node>,
}

/// What the character encoder did, for the solver's cost model.
#[derive(Clone, Copy, Debug, Default)]
pub struct CharStats {
    /// Compact states valued (summed over both passes).
    pub states: usize,
    /// Units whose search fell back to a plain path.
    pub fallbacks: usize,
    /// States re-valued along the rows (at least one per state).
    pub pops: usize,
    /// Nodes the walks expanded.
    pub expansions: usize,
    /// Units whose A* search ran out of budget, spelt by the depth-first search instead.
    pub depth_first: usize,
}

/// Search expansions the A* search of one unit may spend per compact state of its region...
const BUDGET_PER_STATE: usize = 64;
/// ...and besides, whatever the region's size.
const BUDGET_BASE: usize = 4096;

/// The A* search's budget for a unit whose region has `states` compact states: a few dozen
/// expansions per state, so that it grows with the unit's freedom. Past it the walk falls back
/// to the depth-first search, which is given as many nodes (see [`Walk::search`]).
fn search_budget(states: usize) -> usize {
    BUDGET_PER_STATE * states + BUDGET_BASE
}

/// The board before each unit of `plan`, from the problem's initial board.
fn boards_before(problem: &Problem, plan: &Plan) -> Vec<Board> {
    let mut boards = Vec::with_capacity(plan.placements.len());
    let mut sim = Sim::new(problem);
    for pl in &plan.placements {
        boards.push(sim.board.clone());
        sim.lock(problem, pl.unit, pl.lock.state);
    }
    boards
}

/// The text spelt so far, where it leaves both automata (the full one and the repetition one),
/// and which phrases it has used: the one place the text is read back, for the opening and
/// after every unit alike.
struct SoFar {
    text: String,
    full: Node,
    rep: Node,
    /// Per phrase of the table: whether the text spells it.
    used: Vec<bool>,
}

impl SoFar {
    /// Nothing spelt, for a table of `phrases` phrases.
    fn new(phrases: usize) -> SoFar {
        SoFar {
            text: String::new(),
            full: 0,
            rep: 0,
            used: vec![false; phrases],
        }
    }

    /// Appends `text`, following it on both automata (case-folded, as the engine reads it).
    fn push(&mut self, ct: &CharTables, text: &str) {
        for b in text.bytes() {
            let b = b.to_ascii_lowercase();
            self.full = ct.full.step(self.full, b);
            self.rep = ct.rep.step(self.rep, b);
            for &p in ct.full.ends(self.full) {
                self.used[ct.full_ids[p as usize]] = true;
            }
        }
        self.text.push_str(text);
    }
}

/// An unused phrase that `text` ends inside (a span begun by the unit before): how many of its
/// characters the text ends with (the longest such prefix, 0 for none, never the whole
/// phrase), and the descents of the rest.
fn begun(phrase: &Phrase, text: &str) -> (usize, usize) {
    let d = (1..phrase.text.len())
        .rev()
        .find(|&d| text.ends_with(&phrase.text[..d]))
        .unwrap_or(0);
    let rest = phrase.cmds[d..].iter().filter(|c| c.is_descent()).count();
    (d, rest)
}

/// The phrases whose first use one unit's walk counts (see the module doc), as indices into
/// the phrase table.
#[derive(Debug, Default, PartialEq, Eq)]
struct FirstUses {
    /// Unused phrases the unit can spell on its way down (it can play them, they need no more
    /// rows than it falls, and its region fits their commands), and the rest of a phrase the
    /// unit before began.
    wanted: Vec<usize>,
    /// Unused phrases too long for the unit's way down but not for it and the next unit's
    /// together: the unit may begin them, its lock a character of the phrase.
    spans: Vec<usize>,
    /// The phrases of the unit's automaton: the repeated ones, the wanted ones and the spans,
    /// sorted (empty when no first use is counted).
    ids: Vec<usize>,
}

impl FirstUses {
    /// Whether the walk counts no first use: the repetition automaton serves.
    fn is_empty(&self) -> bool {
        self.wanted.is_empty() && self.spans.is_empty()
    }

    /// Whether phrase `p` counts once, for its first use.
    fn once(&self, p: usize) -> bool {
        self.wanted.contains(&p) || self.spans.contains(&p)
    }

    /// The values of the unit automaton's patterns (`ids`, in order): a wanted phrase's or a
    /// span's first use counts once; the repeated phrases, and those, at every occurrence.
    fn pattern_values(&self, ct: &CharTables) -> PatternValues {
        let repeated = |p: usize| self.once(p) || ct.rep_ids.contains(&p);
        PatternValues {
            first: self
                .ids
                .iter()
                .map(|&p| if self.once(p) { ct.first[p] } else { 0 })
                .collect(),
            repeat: self
                .ids
                .iter()
                .map(|&p| if repeated(p) { ct.repeat[p] } else { 0 })
                .collect(),
        }
    }

    /// The node gains of the unit automaton `ac` for the next unit, which may finish a span:
    /// there only the spans' first uses count (a wanted phrase that this unit spells would
    /// otherwise count twice), and the repeated phrases' occurrences.
    fn next_gains(&self, ct: &CharTables, ac: &Automaton) -> Vec<i32> {
        CharTables::gains(ac, &self.ids, |p| {
            if self.spans.contains(&p) {
                ct.first[p] + ct.repeat[p]
            } else if ct.rep_ids.contains(&p) {
                ct.repeat[p]
            } else {
                0
            }
        })
    }
}

/// The automata of the units that count first uses, one per set of phrases, each built once
/// per encoding.
#[derive(Default)]
struct FreshAutomata {
    map: rustc_hash::FxHashMap<Vec<usize>, Fresh>,
}

impl FreshAutomata {
    /// The automaton of the table's phrases `ids`, with its maps from the full automaton and
    /// to the repetition one.
    fn get(&mut self, table: &PhraseTable, ct: &CharTables, ids: &[usize]) -> &Fresh {
        self.map.entry(ids.to_vec()).or_insert_with(|| {
            let texts: Vec<&str> = ids
                .iter()
                .map(|&p| table.phrases[p].text.as_str())
                .collect();
            let ac = Automaton::new(&texts);
            Fresh {
                of_full: ac.map_from(&ct.full),
                rep_of: ct.rep.map_from(&ac),
                ac,
            }
        })
    }
}

/// What the backward pass leaves for the forward walk.
#[derive(Default)]
struct Backward {
    /// Node gains of the repetition automaton: the repeated phrases' occurrences.
    gains: Vec<i32>,
    /// Per unit (and one past the last: the game's end, worth nothing), per node of the
    /// repetition automaton: the value of entering the unit at its spawn in that node, counting
    /// repetitions only; the *terminal* values of the unit before. Zero before the opening's end.
    enter: Vec<Vec<i32>>,
    /// Per unit: its region and values, kept while they fit in [`KEEP_BYTES`], so that a unit
    /// the forward walk values on the repetition automaton again needs no new programme.
    saved: Vec<Option<(Region, Values)>>,
}

/// The buffers one encoding reuses from unit to unit.
#[derive(Default)]
struct Scratch {
    bufs: Bufs,
    /// The region and values of the unit in hand.
    region: Region,
    vals: Values,
    /// The region and values of the next unit, for spans.
    next_region: Region,
    next_vals: Values,
    fresh: FreshAutomata,
}

/// One plan being spelt by the character encoder: what every stage reads.
struct Spelling<'a> {
    encoder: &'a Encoder<'a>,
    ct: &'a CharTables,
    plan: &'a Plan,
    /// The board before each unit.
    boards: Vec<Board>,
    deadline: Option<Instant>,
    back: Backward,
}

impl Spelling<'_> {
    fn space(&self, u: usize) -> &UnitSpace {
        &self.encoder.tables.spaces[self.plan.placements[u].unit]
    }

    /// The rows unit `u` passes through (see [`fall_rows`]).
    fn rows(&self, u: usize) -> usize {
        fall_rows(self.encoder.tables, &self.plan.placements[u])
    }

    /// The backward pass over the units from `first` on (see [`Backward`]); `None` past the
    /// deadline.
    fn backward(
        &self,
        first: usize,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> Option<Backward> {
        let (ct, n) = (self.ct, self.plan.placements.len());
        let rep = &ct.rep;
        let Scratch {
            bufs, region, vals, ..
        } = scratch;
        let mut back = Backward {
            gains: CharTables::gains(rep, &ct.rep_ids, |p| ct.repeat[p]),
            enter: vec![vec![0; rep.len()]; n + 1],
            saved: (0..n).map(|_| None).collect(),
        };
        let mut kept = 0usize;
        for u in (first..n).rev() {
            if crate::stop::passed(self.deadline) {
                return None;
            }
            let sp = self.space(u);
            sp.free_map(&self.boards[u], &mut bufs.free);
            let free = std::mem::take(&mut bufs.free);
            let key = self.plan.placements[u].lock.key;
            if region.build(sp, &free, key, ct.corridor, bufs) {
                let (head, tail) = back.enter.split_at_mut(u + 1);
                values(sp, region, rep, &back.gains, &tail[0], bufs, vals);
                stats.states += region.states.len();
                let s0 = region.spawn as usize;
                head[u] = (0..rep.len()).map(|a| vals.at(s0, FRESH, a)).collect();
                // The forward walk needs these values again unless the unit spells a first
                // use: keep them while they fit.
                let bytes = vals.vals.len() * 4 + region.states.len() * 48;
                if kept + bytes <= KEEP_BYTES {
                    kept += bytes;
                    region.compact = Vec::new();
                    back.saved[u] = Some((std::mem::take(region), std::mem::take(vals)));
                }
            }
            bufs.free = free;
        }
        Some(back)
    }

    /// The phrases whose first use unit `u`'s walk counts, after the text `so_far`, the unit's
    /// region being `region`.
    fn first_uses(&self, u: usize, so_far: &SoFar, region: &Region) -> FirstUses {
        let (ct, table) = (self.ct, self.encoder.table);
        let unit = self.plan.placements[u].unit;
        // A phrase needs as many rows as it has descents, but for the last one, which may be
        // the lock; the unit goes down only from its spawn to its lock.
        let rows = self.rows(u);
        let unused = ct.full_ids.iter().copied().filter(|&p| !so_far.used[p]);
        let wanted: Vec<usize> = unused
            .clone()
            .filter(|&p| {
                let (d, rest) = begun(&table.phrases[p], &so_far.text);
                let fits = ct.playable[unit][p]
                    && ct.descents[p] <= rows
                    && region.fits(&table.phrases[p].cmds);
                (d > 0 && rest <= rows) || fits
            })
            .collect();
        let spans: Vec<usize> = match (u + 1 < self.plan.placements.len()).then(|| self.rows(u + 1))
        {
            Some(next_rows) => unused
                .filter(|&p| {
                    !wanted.contains(&p)
                        && ct.descents[p] > rows
                        && ct.descents[p] < rows + next_rows
                })
                .collect(),
            None => Vec::new(),
        };
        let mut uses = FirstUses {
            wanted,
            spans,
            ids: Vec::new(),
        };
        if !uses.is_empty() {
            let mut ids: Vec<usize> = ct.rep_ids.clone();
            ids.extend(uses.wanted.iter().chain(&uses.spans).copied());
            ids.sort();
            ids.dedup();
            uses.ids = ids;
        }
        uses
    }

    /// What the next unit makes of each node of `fresh`'s automaton when it may finish one of
    /// `uses.spans`: its values at its spawn, the unit after it valued by the backward pass.
    /// `None` when the next unit's region cannot be built.
    fn span_values(
        &self,
        u: usize,
        fresh: &Fresh,
        uses: &FirstUses,
        bufs: &mut Bufs,
        next: (&mut Region, &mut Values),
        stats: &mut CharStats,
    ) -> Option<Vec<i32>> {
        let (next_region, next_vals) = next;
        let q = &self.plan.placements[u + 1];
        let nsp = self.space(u + 1);
        // The next unit's region: kept from the backward pass, or built.
        let region = match &self.back.saved[u + 1] {
            Some((r, _)) => r,
            None => {
                let mut nfree = Vec::new();
                nsp.free_map(&self.boards[u + 1], &mut nfree);
                if !next_region.build(nsp, &nfree, q.lock.key, self.ct.corridor, bufs) {
                    return None;
                }
                &*next_region
            }
        };
        let after: Vec<i32> = fresh
            .rep_of
            .iter()
            .map(|&r| self.back.enter[u + 2][r as usize])
            .collect();
        let gains = uses.next_gains(self.ct, &fresh.ac);
        values(nsp, region, &fresh.ac, &gains, &after, bufs, next_vals);
        stats.states += region.states.len();
        let s0 = region.spawn as usize;
        Some(
            (0..fresh.ac.len())
                .map(|a| next_vals.at(s0, FRESH, a))
                .collect(),
        )
    }

    /// Unit `u`'s text from the programme's values, on free map `free`, after the text
    /// `so_far`; `None` when its region cannot be built or its searches find no path (the
    /// caller falls back to a plain path).
    fn walk_unit(
        &self,
        u: usize,
        free: &[u64],
        so_far: &SoFar,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> Option<String> {
        let ct = self.ct;
        let sp = self.space(u);
        let key = self.plan.placements[u].lock.key;
        let Scratch {
            bufs,
            region,
            vals,
            next_region,
            next_vals,
            fresh,
        } = scratch;
        // The region: kept from the backward pass, or built again.
        let (region, kept_vals) = match &self.back.saved[u] {
            Some((r, v)) => (r, Some(v)),
            None => {
                if !region.build(sp, free, key, ct.corridor, bufs) {
                    return None;
                }
                (&*region, None)
            }
        };
        let uses = self.first_uses(u, so_far, region);
        let budget = search_budget(region.states.len());
        if uses.is_empty() {
            // Repetitions only: the backward pass's values serve, kept or computed again.
            let terminal = &self.back.enter[u + 1];
            let vals = match kept_vals {
                Some(v) => v,
                None => {
                    values(sp, region, &ct.rep, &self.back.gains, terminal, bufs, vals);
                    stats.states += region.states.len();
                    &*vals
                }
            };
            let walk = Walk {
                sp,
                region,
                vals,
                ac: &ct.rep,
                gains: &self.back.gains,
                terminal,
            };
            return walk.search(so_far.rep, budget, stats);
        }
        let f = fresh.get(self.encoder.table, ct, &uses.ids);
        // The terminal values: the backward pass's, raised by what the next unit makes of a
        // span begun here.
        let mut terminal: Vec<i32> = f
            .rep_of
            .iter()
            .map(|&r| self.back.enter[u + 1][r as usize])
            .collect();
        if !uses.spans.is_empty() {
            let next = (next_region, next_vals);
            if let Some(span) = self.span_values(u, f, &uses, bufs, next, stats) {
                for (t, v) in terminal.iter_mut().zip(span) {
                    if possible(v) {
                        *t = (*t).max(v);
                    }
                }
            }
        }
        let unit = UnitWalk {
            sp,
            region,
            ac: &f.ac,
            values: &uses.pattern_values(ct),
            terminal: &terminal,
        };
        let effort = Effort {
            budget,
            rounds: FIRST_USE_ROUNDS,
            deadline: self.deadline,
        };
        unit.best(f.of_full[so_far.full as usize], effort, bufs, vals, stats)
    }

    /// Unit `u`'s text: the walk's, or the plain shortest path when the walk finds none. It
    /// always locks the unit at its planned lock.
    fn spell_unit(
        &self,
        u: usize,
        so_far: &SoFar,
        scratch: &mut Scratch,
        stats: &mut CharStats,
    ) -> String {
        let sp = self.space(u);
        sp.free_map(&self.boards[u], &mut scratch.bufs.free);
        let free = std::mem::take(&mut scratch.bufs.free);
        let text = self
            .walk_unit(u, &free, so_far, scratch, stats)
            .unwrap_or_else(|| {
                stats.fallbacks += 1;
                let key = self.plan.placements[u].lock.key;
                super::plain_text(sp, &free, sp.spawn_state(), key, &mut scratch.bufs.bfs)
            });
        scratch.bufs.free = free;
        text
    }
}

impl Encoder<'_> {
    /// Spells `plan` with the character encoder. `None` when the deadline passes first (the
    /// caller keeps its other encoding). The text always replays without error.
    pub fn encode_chars(
        &self,
        ct: &CharTables,
        plan: &Plan,
        deadline: Option<Instant>,
        stats: &mut CharStats,
    ) -> Option<String> {
        self.encode_chars_after(ct, plan, super::Opening::default(), deadline, stats)
    }

    /// As [`Encoder::encode_chars`], the plan's first `opening.units` placements taken as spelt
    /// by `opening.text` (the caller's promise: that text locks exactly them): only the rest is
    /// spelt, from the automaton's node after the opening and with its phrases counted as used.
    ///
    /// The stages: the boards before each unit; the backward pass over the units after the
    /// opening ([`Backward`]); the opening followed on the automata ([`SoFar`]); then unit after
    /// unit, the phrases whose first use counts ([`FirstUses`]), their automaton
    /// ([`FreshAutomata`]), the next unit's values for spans, and the walk with its fallbacks.
    pub fn encode_chars_after(
        &self,
        ct: &CharTables,
        plan: &Plan,
        opening: super::Opening,
        deadline: Option<Instant>,
        stats: &mut CharStats,
    ) -> Option<String> {
        let n = plan.placements.len();
        let first = opening.units.min(n);
        // The work counts ([`crate::work`]): the units to spell here; the programme counts
        // its own cells.
        crate::work::add(crate::work::Op::CharsUnit, (n - first) as u64);
        let mut spelling = Spelling {
            encoder: self,
            ct,
            plan,
            boards: boards_before(self.problem, plan),
            deadline,
            back: Backward::default(),
        };
        let mut scratch = Scratch::default();
        spelling.back = spelling.backward(first, &mut scratch, stats)?;
        let mut so_far = SoFar::new(self.table.phrases.len());
        so_far.push(ct, opening.text);
        for u in first..n {
            if crate::stop::passed(deadline) {
                return None;
            }
            let text = spelling.spell_unit(u, &so_far, &mut scratch, stats);
            so_far.push(ct, &text);
        }
        stats.pops += scratch.bufs.pops;
        Some(so_far.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::test_util::target_of;
    use crate::engine::{Game, Outcome, Problem};
    use crate::plan::{gen_locks, Lock, Scratch, Tables};
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// The reference: the best objective of any command string from the spawn that locks the
    /// unit at `target` (its member set), found by trying every character of every command
    /// with the engine's own game (which enforces the no-repeat rule), memoised on the exact
    /// state: position, positions visited on the row, and the text's last characters. The
    /// objective is the one the walk maximises: per character the gain of the automaton node it
    /// enters, minus one per row move, plus the terminal value of the node after the lock.
    /// A reference state: pivot, canonical orientation, positions visited on the row, node.
    /// With first uses ([`Reference::first`]), the state also holds the patterns spelt so far.
    type RefKey = (i64, i64, u8, Vec<(i64, u8)>, Node, u32);

    struct Reference<'a> {
        ac: &'a Automaton,
        gains: &'a [i32],
        /// Per pattern of `ac`: a value earned at its first occurrence only (empty: none).
        first: &'a [i32],
        terminal: &'a [i32],
        target: Vec<(i64, i64)>,
        memo: HashMap<RefKey, (i32, String)>,
        /// Set when the memo outgrew [`REFERENCE_STATES`]: the case is then skipped.
        aborted: bool,
    }

    /// The most states the reference may memoise: its state holds the set of positions visited
    /// on the current row, which grows exponentially on the rare wide, many-orientation case.
    const REFERENCE_STATES: usize = 20_000;

    impl Reference<'_> {
        /// The gain of entering node `a` with the patterns of `mask` spelt, and the mask after.
        fn gain(&self, a: Node, mask: u32) -> (i32, u32) {
            let mut g = self.gains[a as usize];
            let mut m = mask;
            for &j in self.ac.ends(a) {
                if let Some(&f) = self.first.get(j as usize) {
                    if m >> j & 1 == 0 {
                        g += f;
                    }
                    m |= 1 << j;
                }
            }
            (g, m)
        }

        fn best_text(
            &mut self,
            game: &Game,
            row: &[(i64, u8)],
            a: Node,
            mask: u32,
        ) -> (i32, String) {
            let piece = game.piece().expect("a unit in play");
            let unit = &game.problem().units[piece.unit];
            let mut sorted = row.to_vec();
            sorted.sort();
            let key = (
                piece.pivot.x,
                piece.pivot.y,
                unit.canon(piece.orient),
                sorted,
                a,
                mask,
            );
            if let Some(v) = self.memo.get(&key) {
                return v.clone();
            }
            if self.memo.len() > REFERENCE_STATES {
                self.aborted = true;
                return (NEG, String::new());
            }
            let mut cells: Vec<(i64, i64)> =
                game.piece_cells().iter().map(|c| (c.x, c.y)).collect();
            cells.sort();
            let mut best = (NEG, String::new());
            for c in Command::ALL {
                for ch in c.chars().bytes() {
                    let a2 = self.ac.step(a, ch);
                    let (gain, mask2) = self.gain(a2, mask);
                    let mut g = game.clone();
                    match g.step(c) {
                        Err(_) | Ok(Outcome::Ignored) => {}
                        Ok(Outcome::Locked { .. }) => {
                            let v = gain + self.terminal[a2 as usize];
                            if cells == self.target && v > best.0 {
                                best = (v, (ch as char).to_string());
                            }
                        }
                        Ok(Outcome::Moved) => {
                            let p = g.piece().expect("moved");
                            let pos = (p.pivot.x, unit.canon(p.orient));
                            let (next_row, pen) = if c.is_descent() {
                                (vec![pos], 0)
                            } else {
                                let mut r = row.to_vec();
                                r.push(pos);
                                (r, 1)
                            };
                            let (v, t) = self.best_text(&g, &next_row, a2, mask2);
                            if possible(v) && v + gain - pen > best.0 {
                                best = (v + gain - pen, format!("{}{t}", ch as char));
                            }
                        }
                    }
                }
            }
            self.memo.insert(key, best.clone());
            best
        }

        /// The objective of a text (which must lock the unit at the target).
        fn score(&self, game: &Game, text: &str) -> i32 {
            let mut g = game.clone();
            let (mut a, mut mask) = (0, 0);
            let mut total = 0;
            for ch in text.bytes() {
                let c = match Command::decode(ch as char) {
                    crate::engine::Decoded::Command(c) => c,
                    _ => panic!("not a command: {ch}"),
                };
                let cells: Vec<(i64, i64)> = {
                    let mut v: Vec<(i64, i64)> =
                        g.piece_cells().iter().map(|c| (c.x, c.y)).collect();
                    v.sort();
                    v
                };
                a = self.ac.step(a, ch);
                let (gain, m) = self.gain(a, mask);
                total += gain;
                mask = m;
                match g.step(c).expect("the walk obeys the rules") {
                    Outcome::Locked { .. } => {
                        assert_eq!(cells, self.target, "locked at the target");
                        return total + self.terminal[a as usize];
                    }
                    Outcome::Moved if !c.is_descent() => total -= 1,
                    _ => {}
                }
            }
            panic!("the text does not lock the unit: {text:?}");
        }
    }

    /// Random short phrases over the command characters, each with a descent (the encoder
    /// leaves the others out), with "ei!" among them now and then.
    fn random_phrases(rng: &mut impl Rng) -> Vec<String> {
        crate::encode::test_util::random_phrases(rng, "pbalmdkei! ", &[("ei!", 0.3)])
    }

    /// A random problem of one unit on a board of 3 to 5 x 3 to 5 (its text too), and a lock
    /// of the unit on the initial board; `None` when the draw has no lock.
    fn tiny_case(rng: &mut impl Rng) -> Option<(String, Problem, Tables, Lock)> {
        let (w, h) = (rng.gen_range(3..=5), rng.gen_range(3..=5));
        let unit = crate::testkit::random_unit(rng, 3, 0.4);
        let json = crate::testkit::random_problem(rng, (w, h), (2, 0.3), &[unit], (1, &[0]));
        let p = Problem::from_json(&json, std::path::Path::new("t")).ok()?;
        let tables = Tables::new(&p);
        let mut scratch = Scratch::default();
        if !gen_locks(&tables, 0, &p.board, &mut scratch) || scratch.locks.is_empty() {
            return None;
        }
        let lock = scratch.locks[rng.gen_range(0..scratch.locks.len())];
        Some((json, p, tables, lock))
    }

    /// The region of unit `sp` on `p`'s initial board towards `lock`; `None` when the spawn
    /// cannot reach it.
    fn region_of(
        sp: &UnitSpace,
        p: &Problem,
        lock: &Lock,
        corridor: Option<i64>,
        bufs: &mut Bufs,
    ) -> Option<Region> {
        let mut free = Vec::new();
        sp.free_map(&p.board, &mut free);
        let mut region = Region::default();
        region
            .build(sp, &free, lock.key, corridor, bufs)
            .then_some(region)
    }

    /// First uses count once: on tiny boards, against the reference with the patterns spelt
    /// in its state, the walk of the Lagrangian rounds is valued exactly, is never worse than
    /// the plain programme's walk (its first round) nor better than the optimum, and reaches
    /// the optimum more often than the plain walk.
    #[test]
    fn a_first_use_counts_once() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(12);
        let (mut checked, mut skipped, mut plain_best, mut rounds_best) = (0, 0, 0, 0);
        for case in 0..800 {
            let Some((json, p, tables, lock)) = tiny_case(&mut rng) else {
                continue;
            };
            let sp = &tables.spaces[0];
            let phrases = random_phrases(&mut rng);
            let ac = Automaton::new(&phrases);
            let values_of = PatternValues {
                first: phrases
                    .iter()
                    .map(|_| rng.gen_range(2..12) * SCALE)
                    .collect(),
                repeat: phrases.iter().map(|s| 2 * s.len() as i32 * SCALE).collect(),
            };
            let terminal: Vec<i32> = (0..ac.len()).map(|_| rng.gen_range(0..3) * SCALE).collect();
            let mut bufs = Bufs::default();
            let region = region_of(sp, &p, &lock, None, &mut bufs)
                .unwrap_or_else(|| panic!("case {case}: {json} lock {lock:?}"));
            let unit = UnitWalk {
                sp,
                region: &region,
                ac: &ac,
                values: &values_of,
                terminal: &terminal,
            };
            let (mut vals, mut stats) = (Values::default(), CharStats::default());
            let mut walk = |rounds| {
                let effort = Effort {
                    budget: usize::MAX,
                    rounds,
                    deadline: None,
                };
                unit.best(0, effort, &mut bufs, &mut vals, &mut stats)
                    .unwrap_or_else(|| panic!("case {case}: no path"))
            };
            let (plain, relaxed) = (walk(1), walk(FIRST_USE_ROUNDS));
            let gains = ac.gains(&values_of.repeat);
            let game = Game::new(&p, 0);
            let mut reference = Reference {
                ac: &ac,
                gains: &gains,
                first: &values_of.first,
                terminal: &terminal,
                target: target_of(sp, &lock),
                memo: HashMap::new(),
                aborted: false,
            };
            let (best, best_text) =
                reference.best_text(&game, &[(game.piece().unwrap().pivot.x, 0)], 0, 0);
            if reference.aborted {
                skipped += 1;
                continue;
            }
            let (pv, rv) = (
                reference.score(&game, &plain),
                reference.score(&game, &relaxed),
            );
            assert_eq!(unit.exact(0, &plain).0, pv as i64, "case {case}: {plain:?}");
            assert_eq!(
                unit.exact(0, &relaxed).0,
                rv as i64,
                "case {case}: {relaxed:?}"
            );
            assert!(
                pv <= rv && rv <= best,
                "case {case}: {json}\nphrases {phrases:?} plain {plain:?} {pv}, rounds {relaxed:?} {rv}, best {best_text:?} {best}"
            );
            plain_best += (pv == best) as usize;
            rounds_best += (rv == best) as usize;
            checked += 1;
        }
        eprintln!(
            "{checked} cases checked ({skipped} skipped as too big): optimum reached by the plain walk {plain_best}, by the rounds {rounds_best}"
        );
        assert!(checked > 300 && skipped * 4 < checked, "{checked} cases");
        assert!(rounds_best > plain_best, "{rounds_best} <= {plain_best}");
    }

    #[test]
    fn the_walk_finds_the_best_valid_path_on_tiny_boards() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let mut checked = 0;
        let mut rotating = 0;
        let mut skipped = 0;
        for case in 0..1500 {
            let Some((json, p, tables, lock)) = tiny_case(&mut rng) else {
                continue;
            };
            let sp = &tables.spaces[0];
            let phrases = random_phrases(&mut rng);
            let ac = Automaton::new(&phrases);
            let values_of: Vec<i32> = phrases.iter().map(|s| 2 * s.len() as i32 * SCALE).collect();
            let gains = ac.gains(&values_of);
            let terminal: Vec<i32> = (0..ac.len()).map(|_| rng.gen_range(0..3) * SCALE).collect();
            let mut bufs = Bufs::default();
            let corridor = if rng.gen_bool(0.3) { Some(1) } else { None };
            let region = region_of(sp, &p, &lock, corridor, &mut bufs).unwrap_or_else(|| {
                panic!("case {case}: {json} lock {lock:?} corridor {corridor:?}")
            });
            let mut vals = Values::default();
            values(sp, &region, &ac, &gains, &terminal, &mut bufs, &mut vals);
            let walk = Walk {
                sp,
                region: &region,
                vals: &vals,
                ac: &ac,
                gains: &gains,
                terminal: &terminal,
            };
            let mut expanded = 0;
            let text = walk
                .astar(0, usize::MAX, &mut expanded)
                .unwrap_or_else(|| panic!("case {case}: no path"));
            let game = Game::new(&p, 0);
            let target = target_of(sp, &lock);
            let mut reference = Reference {
                ac: &ac,
                gains: &gains,
                first: &[],
                terminal: &terminal,
                target,
                memo: HashMap::new(),
                aborted: false,
            };
            let got = reference.score(&game, &text);
            // The region of a corridor may leave the best path out; the walk is then only
            // valid, never better than the reference.
            let (best, best_text) =
                reference.best_text(&game, &[(game.piece().unwrap().pivot.x, 0)], 0, 0);
            if reference.aborted {
                skipped += 1;
                continue;
            }
            if corridor.is_none() {
                assert_eq!(
                    got, best,
                    "case {case}: {json}\nphrases {phrases:?} lock {lock:?} terminal {terminal:?}\nwalk {text:?} reference {best_text:?} value at spawn {}",
                    vals.at(region.spawn as usize, FRESH, 0)
                );
                // The values bound every path from above.
                assert!(
                    vals.at(region.spawn as usize, FRESH, 0) >= best,
                    "case {case}"
                );
            } else {
                assert!(got <= best, "case {case}");
            }
            // The depth-first search finds a valid path as well.
            let dfs = walk.depth_first(0, usize::MAX).expect("a path exists");
            assert!(reference.score(&game, &dfs) <= best);
            checked += 1;
            rotating += sp.rotates() as usize;
        }
        eprintln!("{checked} cases checked, {rotating} rotating, {skipped} skipped as too big");
        assert!(
            checked > 500 && rotating > 150 && skipped * 5 < checked,
            "{checked} cases, {rotating} rotating, {skipped} skipped"
        );
    }
}

#[cfg(test)]
mod opening_tests {
    use crate::encode::test_util::{Setup, SAMPLES};
    use crate::encode::{CharStats, Opening};
    use crate::engine::evaluate;
    use crate::plan::text_of_opening;

    /// Spelling a plan after an opening taken from the encoder's own text for it gives that
    /// text back (the units after the cut are valued and walked exactly as in the whole
    /// encoding), at every cut; and the text replays to the planned locks.
    #[test]
    fn an_opening_of_its_own_text_gives_the_same_text() {
        for json in SAMPLES {
            let setup = Setup::new(json);
            let (problem, phrases) = (&setup.problem, &setup.phrases);
            let (encoder, ct) = (setup.encoder(), setup.char_tables());
            let seed = problem.seeds[0];
            let plan = setup.greedy_plan(seed);
            let mut stats = CharStats::default();
            let whole = encoder.encode_chars(&ct, &plan, None, &mut stats).unwrap();
            let e = evaluate(problem, seed, &whole, phrases);
            assert!(!e.end.is_error());
            assert_eq!(e.locked as usize, plan.placements.len());
            let n = plan.placements.len();
            for units in [0, 1, n / 3, n / 2, n - 1, n] {
                let opening = text_of_opening(problem, seed, &whole, units).unwrap();
                let again = encoder
                    .encode_chars_after(
                        &ct,
                        &plan,
                        Opening {
                            units,
                            text: opening,
                        },
                        None,
                        &mut stats,
                    )
                    .unwrap();
                assert_eq!(again, whole, "cut at {units} of {n}");
            }
        }
    }
}

#[cfg(test)]
mod span_tests {
    use crate::encode::test_util::Setup;
    use crate::encode::CharStats;
    use crate::engine::evaluate;

    /// On an 8-row board no unit falls far enough to spell "necronomicon", "vigintillion",
    /// "cthulhu fhtagn!", "john bigboote" or "case nightmare green" alone: the character
    /// encoder spells them across two units, the lock a character of the phrase, and the text
    /// replays to the planned locks. (Measured: 15 of the 15 (seed, phrase) pairs with spans,
    /// 3 without.)
    #[test]
    fn long_phrases_are_spelt_across_two_units() {
        let json = r#"{"id":8,"width":10,"height":8,"filled":[],"sourceLength":120,
            "sourceSeeds":[0, 2629, 4491],"units":[
            {"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":2,"y":0},{"x":3,"y":0}],"pivot":{"x":1,"y":0}},
            {"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
            {"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
            {"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(json);
        let (problem, phrases) = (&setup.problem, &setup.phrases);
        let (encoder, ct) = (setup.encoder(), setup.char_tables());
        let long = [
            "necronomicon",
            "vigintillion",
            "cthulhu fhtagn!",
            "john bigboote",
            "case nightmare green",
        ];
        let mut spanned = 0;
        for &seed in &problem.seeds {
            let plan = setup.greedy_plan(seed);
            let text = encoder
                .encode_chars(&ct, &plan, None, &mut CharStats::default())
                .unwrap();
            let e = evaluate(problem, seed, &text, phrases);
            assert!(!e.end.is_error(), "seed {seed}: {}", e.end);
            assert_eq!(e.locked as usize, plan.placements.len());
            spanned += phrases
                .iter()
                .zip(&e.phrase_counts)
                .filter(|(p, &n)| long.contains(p) && n > 0)
                .count();
        }
        assert!(
            spanned >= 12,
            "only {spanned} of 15 (seed, long phrase) pairs spelt"
        );
    }
}

#[cfg(test)]
mod first_use_tests {
    use crate::encode::test_util::Setup;
    use crate::encode::CharStats;
    use crate::engine::evaluate;

    /// Regression: the first unit of a game on an empty 15 x 20 board (problem 13's size), with
    /// every phrase unused, spelt "ei!" again and again, each occurrence valued as a first use
    /// by the programme, instead of several phrases once each (see [`super::UnitWalk::best`]).
    #[test]
    fn a_first_unit_spells_many_phrases_not_one_many_times() {
        let json = r#"{"id":13,"width":15,"height":20,"filled":[],"sourceLength":1,
            "sourceSeeds":[0],"units":[{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":0,"y":1}],
            "pivot":{"x":0,"y":0}}]}"#;
        let setup = Setup::new(json);
        let (problem, phrases) = (&setup.problem, &setup.phrases);
        let (encoder, ct) = (setup.encoder(), setup.char_tables());
        let plan = setup.greedy_plan(0);
        let text = encoder
            .encode_chars(&ct, &plan, None, &mut CharStats::default())
            .unwrap();
        let e = evaluate(problem, 0, &text, phrases);
        let distinct = e.phrase_counts.iter().filter(|&&n| n > 0).count();
        assert!(!e.end.is_error());
        // Measured: "blue hadeskpppkyuggothe laundrynecronomicon", 4 phrases and 1,280 points;
        // before, "ei!" 18 times and "r'lyeh", 720 points.
        assert!(
            distinct >= 4 && e.power_score >= 1000,
            "{text:?}: {} points, {distinct} phrases",
            e.power_score
        );
    }
}

#[cfg(test)]
mod stage_tests {
    use super::*;
    use crate::encode::test_util::{Setup, SAMPLES};
    use crate::encode::{CharStats, PhraseTable};
    use crate::engine::{evaluate, Phrases, Problem};
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

    /// `begun` finds the longest proper prefix of a phrase that a text ends with, and the
    /// descents of the rest of the phrase.
    #[test]
    fn begun_finds_the_part_of_a_phrase_already_spelt() {
        let phrases = Phrases::official();
        let table = PhraseTable::new(&phrases);
        let ia = table
            .phrases
            .iter()
            .find(|p| p.text == "ia! ia!")
            .expect("an official phrase");
        let descents_from = |d: usize| ia.cmds[d..].iter().filter(|c| c.is_descent()).count();
        assert_eq!(begun(ia, "bbbia! i"), (5, descents_from(5)));
        assert_eq!(begun(ia, "bbbi"), (1, descents_from(1)));
        assert_eq!(begun(ia, "bbb"), (0, ia.descents));
        // The whole phrase is not begun but done; its own prefix "ia!" is begun again.
        assert_eq!(begun(ia, "ia! ia!"), (3, descents_from(3)));
    }

    /// The stages on a whole game of the sample problems: the boards are those before each
    /// lock; the values the backward pass keeps are those the programme computes again; the
    /// text followed on the automata records the phrases the engine counts, piece by piece as
    /// at once; each unit's first uses are unused phrases, spans too long for the unit alone
    /// but not for it and the next; and the stages run one by one give the encoder's text.
    #[test]
    fn the_stages_keep_their_contracts_on_a_sample_game() {
        for json in SAMPLES {
            let setup = Setup::new(json);
            let (problem, table, phrases) = (&setup.problem, &setup.table, &setup.phrases);
            let (encoder, ct) = (setup.encoder(), setup.char_tables());
            let seed = problem.seeds[0];
            let plan = setup.greedy_plan(seed);
            let n = plan.placements.len();
            let mut stats = CharStats::default();
            let whole = encoder.encode_chars(&ct, &plan, None, &mut stats).unwrap();

            let mut spelling = Spelling {
                encoder: &encoder,
                ct: &ct,
                plan: &plan,
                boards: boards_before(problem, &plan),
                deadline: None,
                back: Backward::default(),
            };
            assert_eq!(spelling.boards.len(), n);
            assert_eq!(spelling.boards[0], problem.board);
            let mut free = Vec::new();
            for (u, pl) in plan.placements.iter().enumerate() {
                let sp = spelling.space(u);
                sp.free_map(&spelling.boards[u], &mut free);
                assert!(
                    sp.is_lock_state(&free, pl.lock.state, pl.lock.key),
                    "unit {u}"
                );
            }

            let mut scratch = Scratch::default();
            spelling.back = spelling.backward(0, &mut scratch, &mut stats).unwrap();
            assert!(spelling.back.enter[n].iter().all(|&v| v == 0));
            let mut kept = 0;
            for u in 0..n {
                let Some((region, vals)) = &spelling.back.saved[u] else {
                    continue;
                };
                let sp = spelling.space(u);
                sp.free_map(&spelling.boards[u], &mut free);
                let (mut again, mut again_vals) = (Region::default(), Values::default());
                let key = plan.placements[u].lock.key;
                assert!(again.build(sp, &free, key, ct.corridor, &mut scratch.bufs));
                assert_eq!(again.states, region.states, "unit {u}");
                let terminal = &spelling.back.enter[u + 1];
                let gains = &spelling.back.gains;
                values(
                    sp,
                    &again,
                    &ct.rep,
                    gains,
                    terminal,
                    &mut scratch.bufs,
                    &mut again_vals,
                );
                assert_eq!(again_vals.vals, vals.vals, "unit {u}");
                kept += 1;
            }
            assert!(kept > 0);

            let mut so_far = SoFar::new(table.phrases.len());
            for u in 0..n {
                let region = match &spelling.back.saved[u] {
                    Some((r, _)) => r,
                    None => {
                        let sp = spelling.space(u);
                        sp.free_map(&spelling.boards[u], &mut free);
                        let key = plan.placements[u].lock.key;
                        assert!(scratch.region.build(
                            sp,
                            &free,
                            key,
                            ct.corridor,
                            &mut scratch.bufs
                        ));
                        &scratch.region
                    }
                };
                let uses = spelling.first_uses(u, &so_far, region);
                let rows = spelling.rows(u);
                for &p in uses.wanted.iter().chain(&uses.spans) {
                    assert!(!so_far.used[p], "unit {u}: phrase {p} used already");
                    assert!(
                        uses.ids.binary_search(&p).is_ok(),
                        "unit {u}: {p} not in the ids"
                    );
                }
                for &p in &uses.spans {
                    assert!(!uses.wanted.contains(&p));
                    assert!(u + 1 < n, "the last unit has no span");
                    let next = spelling.rows(u + 1);
                    assert!(ct.descents[p] > rows && ct.descents[p] < rows + next);
                }
                assert!(uses.ids.windows(2).all(|w| w[0] < w[1]));
                assert_eq!(uses.ids.is_empty(), uses.is_empty());
                let text = spelling.spell_unit(u, &so_far, &mut scratch, &mut stats);
                so_far.push(&ct, &text);
            }
            assert_eq!(so_far.text, whole);

            // Followed piece by piece or at once, the automata end in the same nodes, and the
            // phrases used are those the engine counts.
            let mut at_once = SoFar::new(table.phrases.len());
            at_once.push(&ct, &whole.to_ascii_uppercase());
            assert_eq!(
                (at_once.full, at_once.rep, &at_once.used),
                (so_far.full, so_far.rep, &so_far.used)
            );
            let e = evaluate(problem, seed, &whole, phrases);
            for &p in &ct.full_ids {
                let counted = e.phrase_counts[table.phrases[p].score_index] > 0;
                assert_eq!(
                    so_far.used[p], counted,
                    "phrase {:?}",
                    table.phrases[p].text
                );
            }
        }
    }
}
