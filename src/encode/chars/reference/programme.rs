//! The reference encoder's programme: the values of one unit over (state, heading, automaton
//! node), each row settled by a work list of states valued again whole.

use super::super::heading::{self, CCW, CW, EAST, FRESH, WEST};
use super::super::region::Region;
use super::super::NONE;
use crate::encode::automaton::{Automaton, Node};
use crate::encode::NEG;
use crate::engine::Command;
use crate::plan::UnitSpace;
use crate::work::Op;

/// The programme's values of one unit: `vals[(i * ctxs + ctx) * nodes + a]`.
#[derive(Debug, Default)]
pub(in crate::encode::chars) struct Values {
    pub(in crate::encode::chars) vals: Vec<i32>,
    pub(in crate::encode::chars) ctxs: usize,
    pub(super) nodes: usize,
}

/// The row moves and the heading each leaves.
const ROW_MOVES: [(Command, usize); 4] = [
    (Command::W, WEST),
    (Command::E, EAST),
    (Command::CW, CW),
    (Command::CCW, CCW),
];

/// The programme's reusable buffers.
#[derive(Debug, Default)]
pub(in crate::encode::chars) struct SlowBufs {
    base: Vec<i32>,
    t: [Vec<i32>; 4],
    common: Vec<i32>,
    cand: Vec<i32>,
    preds: Vec<Vec<u32>>,
    queue: std::collections::VecDeque<u32>,
    queued: Vec<bool>,
    /// States taken off the row work lists, summed.
    pub(super) pops: usize,
}

impl super::super::walk::Bound for Values {
    fn at(&self, i: usize, ctx: usize, a: usize) -> i32 {
        Values::at(self, i, ctx, a)
    }
}

impl Values {
    #[inline]
    pub(in crate::encode::chars) fn at(&self, i: usize, ctx: usize, a: usize) -> i32 {
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

/// Computes the values of a region: `gains` per node (scaled), `terminal` per node (scaled, the
/// value of the game after the lock when the lock leaves the automaton in that node).
pub(in crate::encode::chars) fn values(
    sp: &UnitSpace,
    region: &Region,
    ac: &Automaton,
    gains: &[i32],
    terminal: &[i32],
    bufs: &mut SlowBufs,
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

/// The programme of [`values`] for [`super::super::rounds::UnitWalk::best`].
pub(in crate::encode::chars) struct Slow<'a> {
    pub(super) bufs: &'a mut SlowBufs,
    pub(super) vals: &'a mut Values,
}

impl super::super::rounds::Programme for Slow<'_> {
    type Out = Values;
    fn value(
        &mut self,
        sp: &UnitSpace,
        region: &Region,
        ac: &Automaton,
        gains: &[i32],
        terminal: &[i32],
    ) -> &Values {
        values(sp, region, ac, gains, terminal, self.bufs, self.vals);
        self.vals
    }
}
