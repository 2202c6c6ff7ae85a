//! The programme's values, computed over *context nodes*: the automaton node folded with the
//! heading.
//!
//! **Why it is exact.** Every node of the automaton but the root stands for a phrase prefix,
//! whose last character belongs to one command; a walk that enters the node has just played that
//! command, so its heading ([`super::heading`]) is the one that command leaves. The programme of
//! reference encoder (the tests' `reference::values`) keeps a value per (state, heading, node),
//! but only the pairs where the
//! heading is the node's own are ever reached, but for the root, which any command may enter.
//! So a *context node* (cnode) is the root with one of the headings, or a node with its own:
//! `5 + nodes - 1` of them instead of `5 x nodes`. The spawn alone is entered with the fresh
//! heading in any node (the text before the unit ended with any command): its values for those
//! pairs are kept apart ([`Fast::spawn`]).
//!
//! **Why it is fast.** A command's characters lead most nodes where they lead the root (no
//! phrase continues there): such a node takes the root's value for that command, computed once
//! per state, a few vector operations for all of them. Only the *exceptions* (a node and a
//! command whose characters continue some phrase from it) are computed one by one. The context
//! nodes lie in blocks, one per heading (a *class*), and a row move reads only the class of the
//! heading it leaves: when a state's values rise, only the moves into it that read a class that
//! rose are valued again. The fresh class, which only descents read, never sends a state of its
//! own row back to work.
//!
//! Values are the same as the reference's programme gives at every pair a walk can reach (tested on
//! random boards and phrases, and on the sample problems' units).

use super::heading::{self, FRESH};
use super::region::Region;
use super::NONE;
use crate::encode::automaton::Automaton;
use crate::encode::NEG;
use crate::engine::Command;
use crate::plan::UnitSpace;

/// Headings, and so classes of context nodes (a unit that cannot rotate leaves its turning
/// classes with only their roots, never reached).
const CLASSES: usize = heading::ALL;

/// The transitions of one automaton with its gains, by context node.
#[derive(Debug, Default)]
pub(super) struct Kernel {
    /// Automaton nodes.
    na: usize,
    /// Context nodes.
    ncn: usize,
    /// Per node: the heading a walk has on entering it (the root's is unused).
    heading: Vec<u8>,
    /// Per class: its range of context nodes, the root's first.
    blocks: [(u32, u32); CLASSES],
    /// Per node but the root: its context node.
    cn_node: Vec<u32>,
    /// Per command: the root's distinct successors as (target cnode, gain minus penalty).
    root: [Vec<(u32, i32)>; 6],
    /// Per command: the exceptions whose heading allows it with at most one successor of
    /// their own (nearly all: a phrase prefix continues one way under a command), read through
    /// `own[0]` alone.
    exc: [Vec<Exception>; 6],
    /// Per command: the exceptions whose heading allows it with two successors of their own,
    /// kept apart so that the loop over [`Kernel::exc`] reads one successor, not two.
    exc2: [Vec<Exception>; 6],
    edges: Vec<(u32, i32)>,
    /// Per command, per context node: 0 when the node takes the root's value for the command
    /// (its heading allows it and it is no exception), [`OFF`] otherwise.
    off: [Vec<i32>; 6],
    /// Per command: the classes with some context node that takes the root's value for it.
    takes: [u8; 6],
    /// Per command, per context node: the value of locking with it.
    lock: [Vec<i32>; 6],
    /// Per node: a bit per command under which it is an exception, and its lock values (for
    /// the spawn's fresh values in any node).
    exc_mask: Vec<u8>,
    node_lock: [Vec<i32>; 6],
    node_exc: Vec<[(u32, u32); 6]>,
    /// Per context node: the bit of its class (0 for the padding).
    class_bits: Vec<i32>,
}

/// The context nodes are padded to a multiple of this, so that the raises compile to whole
/// vectors (one of AVX2's 8 x i32, or two of SSE2's 4).
const LANES: usize = 8;

/// An exception: a context node whose successors under a command differ from the root's. Its
/// characters that lead where they lead the root reach some of the root's successors (`mask`);
/// the others lead to successors of its own, usually one or two (`own`, padded with a context
/// node no transition enters, which stays impossible); a node with more has an exception per
/// two of them, the second with no root successor. One with a single successor of its own
/// (or none) is read through `own[0]` alone ([`Kernel::exc`]).
#[derive(Clone, Copy, Debug)]
struct Exception {
    cn: u16,
    /// The bit of its class.
    class: u8,
    /// Per successor of the root under the command (in [`Kernel::root`] order): a bit when
    /// this node reaches it too.
    mask: u8,
    own: [u16; 2],
    gain: [i32; 2],
}

/// The offset that keeps a value from a context node it does not apply to: any value plus it
/// lies below [`NEG`] (values stay within a few times 10^8 of 0), and [`NEG`] plus it stays
/// above `i32::MIN`.
const OFF: i32 = i32::MIN / 2;

/// The row moves, as command indices.
const ROW: [usize; 4] = [
    Command::W as usize,
    Command::E as usize,
    Command::CW as usize,
    Command::CCW as usize,
];

impl Kernel {
    /// The context node of automaton node `a` entered with heading `h` (`h` is the node's own
    /// unless `a` is the root).
    #[inline]
    pub fn cnode(&self, h: usize, a: usize) -> usize {
        if a == 0 {
            self.blocks[h].0 as usize
        } else {
            self.cn_node[a] as usize
        }
    }

    /// Whether node `a` can be entered with heading `h` (the root with any).
    #[inline]
    pub fn consistent(&self, h: usize, a: usize) -> bool {
        a == 0 || self.heading[a] as usize == h
    }
}

/// The values of one unit's region: `vals[i * cnodes + cnode]`, and the spawn's values with the
/// fresh heading in every node.
#[derive(Debug, Default)]
pub(super) struct Fast {
    pub vals: Vec<i32>,
    pub cnodes: usize,
    pub spawn: Vec<i32>,
}

impl Fast {
    /// The value at state `i` in automaton node `a` with heading `h`: only pairs a walk can
    /// reach (see [`Kernel::consistent`]), and the spawn's fresh heading in any node.
    #[inline]
    pub fn at(&self, k: &Kernel, spawn: u32, i: usize, h: usize, a: usize) -> i32 {
        if i == spawn as usize && h == FRESH && !k.consistent(h, a) {
            self.spawn[a]
        } else {
            debug_assert!(k.consistent(h, a));
            self.vals[i * self.cnodes + k.cnode(h, a)]
        }
    }
}

/// Reusable buffers of [`values`].
#[derive(Debug, Default)]
pub(super) struct FastBufs {
    /// Per state of the row: the row moves whose successor rose since they were valued.
    pending: Vec<u8>,
    /// Per state of the row: each row move's default value as last valued.
    defs: Vec<[i32; 4]>,
    preds: Vec<Vec<u32>>,
    queued: Vec<bool>,
    /// States taken off the row work lists, summed.
    pub pops: usize,
    /// Programmes computed, and their values (states times context nodes), summed.
    pub programmes: usize,
    pub cells: usize,
}

/// The value of the successors `succ` in the value slice `vn`.
#[inline(always)]
fn best_of(succ: &[(u32, i32)], vn: &[i32]) -> i32 {
    let mut v = NEG;
    for &(t, w) in succ {
        let x = vn[t as usize] + w;
        if x > v {
            v = x;
        }
    }
    v
}

/// Raises `v` to `d + off` element by element (`off` is 0 where `d` applies, [`OFF`] where it
/// does not); the classes that rose, as the union of the `bits` of the elements that did.
#[inline(always)]
fn raise(v: &mut [i32], d: i32, off: &[i32], bits: &[i32]) -> u8 {
    // Branch-free, so that it compiles to vector instructions.
    let mut rose = 0;
    for ((x, &o), &b) in v.iter_mut().zip(off).zip(bits) {
        let m = (*x).max(d + o);
        // All ones where the element rose (its difference is nonzero), else zero.
        let diff = m ^ *x;
        let ne = (diff | diff.wrapping_neg()) >> 31;
        rose |= ne & b;
        *x = m;
    }
    rose as u8
}

/// Raises `v` to `w` element by element.
#[inline(always)]
fn raise_to(v: &mut [i32], w: &[i32]) {
    for (x, &y) in v.iter_mut().zip(w) {
        *x = (*x).max(y);
    }
}

impl Kernel {
    /// Raises `vi` by command `c` whose successor's values are `vn`: the root's value `d` for
    /// the context nodes that take it, in the classes that have some, and the exceptions. The
    /// classes that rose, as a mask.
    #[inline(always)]
    fn apply(&self, c: usize, d: Option<i32>, vn: &[i32], vi: &mut [i32]) -> u8 {
        if self.root[c].len() <= 4 {
            self.apply_with::<16>(c, d, vn, vi)
        } else {
            self.apply_with::<64>(c, d, vn, vi)
        }
    }

    /// [`Kernel::apply`] with a table of `B` subsets of the root's successors (at least
    /// `2^successors`).
    #[inline(always)]
    fn apply_with<const B: usize>(
        &self,
        c: usize,
        d: Option<i32>,
        vn: &[i32],
        vi: &mut [i32],
    ) -> u8 {
        let mut rose = 0u8;
        // The best of the root's successors for every subset of them.
        let root = &self.root[c];
        let mut best = [NEG; B];
        for (j, &(t, w)) in root.iter().enumerate() {
            let v = vn[t as usize] + w;
            let bit = 1 << j;
            for m in 0..bit {
                best[bit | m] = best[m].max(v);
            }
        }
        if let Some(d) = d {
            if self.takes[c] != 0 {
                rose = raise(vi, d, &self.off[c], &self.class_bits);
            }
        }
        // Every exception's context nodes lie below `ncn` (checked once in `Kernel::new`), and
        // both slices hold `ncn` values: checked here once per call rather than at each of the
        // loop's three lookups, the loop's hottest instructions.
        assert!(vn.len() == self.ncn && vi.len() == self.ncn);
        for e in &self.exc[c] {
            // SAFETY: the indices lie below `ncn`, the slices' length (see above).
            let (v0, slot) = unsafe {
                (
                    *vn.get_unchecked(e.own[0] as usize),
                    vi.get_unchecked_mut(e.cn as usize),
                )
            };
            let v = best[e.mask as usize & (B - 1)].max(v0 + e.gain[0]);
            if v > *slot {
                *slot = v;
                rose |= e.class;
            }
        }
        for e in &self.exc2[c] {
            // SAFETY: the indices lie below `ncn`, the slices' length (see above).
            let (v0, v1, slot) = unsafe {
                (
                    *vn.get_unchecked(e.own[0] as usize),
                    *vn.get_unchecked(e.own[1] as usize),
                    vi.get_unchecked_mut(e.cn as usize),
                )
            };
            let v = best[e.mask as usize & (B - 1)]
                .max(v0 + e.gain[0])
                .max(v1 + e.gain[1]);
            if v > *slot {
                *slot = v;
                rose |= e.class;
            }
        }
        rose
    }
}

/// The value slices of states `i` (to raise) and `n` (to read), `i != n`.
#[inline(always)]
fn pair(vals: &mut [i32], i: usize, n: usize, ncn: usize) -> (&mut [i32], &[i32]) {
    debug_assert_ne!(i, n);
    if i < n {
        let (a, b) = vals.split_at_mut(n * ncn);
        (&mut a[i * ncn..(i + 1) * ncn], &b[..ncn])
    } else {
        let (a, b) = vals.split_at_mut(i * ncn);
        (&mut b[..ncn], &a[n * ncn..(n + 1) * ncn])
    }
}

/// Computes the values of `region` under kernel `k` (see the module doc). With `rows`, only
/// the first `rows` rows from the spawn's are valued, every state of the row below them worth 0
/// in every context node.
///
/// On a processor with AVX2 the same code runs compiled for it (its raises on 8 lanes at a
/// time instead of SSE2's 4), chosen at run time so that the binary still runs on any x86-64:
/// the values are the same integers either way (the tests compare both with the reference).
pub(super) fn values(
    sp: &UnitSpace,
    region: &Region,
    k: &Kernel,
    rows: Option<usize>,
    bufs: &mut FastBufs,
    out: &mut Fast,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { values_avx2(sp, region, k, rows, bufs, out) };
        return;
    }
    values_portable(sp, region, k, rows, bufs, out);
}

/// [`values`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn values_avx2(
    sp: &UnitSpace,
    region: &Region,
    k: &Kernel,
    rows: Option<usize>,
    bufs: &mut FastBufs,
    out: &mut Fast,
) {
    values_portable(sp, region, k, rows, bufs, out);
}

/// [`values`] for any processor; inlined into [`values_avx2`] so that it compiles there for
/// AVX2, with the kernel's operations it calls.
#[inline(always)]
pub(super) fn values_portable(
    sp: &UnitSpace,
    region: &Region,
    k: &Kernel,
    rows: Option<usize>,
    bufs: &mut FastBufs,
    out: &mut Fast,
) {
    let ncn = k.ncn;
    let cells = region.states.len() * ncn;
    crate::work::add(crate::work::Op::CharsCell, cells as u64);
    bufs.programmes += 1;
    bufs.cells += cells;
    out.cnodes = ncn;
    out.vals.clear();
    out.vals.resize(region.states.len() * ncn, NEG);
    let y0 = sp.spawn_state().y;
    let mut n_rows = region.rows.len() as i64;
    if let Some(r) = rows {
        if (r as i64) < n_rows {
            n_rows = r as i64;
            let below = region.row_of(y0, y0 + n_rows);
            out.vals[below.start * ncn..below.end * ncn].fill(0);
        }
    }
    let row_cmds: &[usize] = if sp.rotates() { &ROW } else { &ROW[..2] };
    for y in (y0..y0 + n_rows).rev() {
        let range = region.row_of(y0, y);
        if range.is_empty() {
            continue;
        }
        let first = range.start;
        let len = range.len();
        // Each state starts at its base: descents (every heading allows them) and locks.
        for i in range.clone() {
            for c in [Command::SW as usize, Command::SE as usize] {
                let n = region.next[i][c];
                if n == NONE || k.root[c].is_empty() {
                    continue;
                }
                // A descent's successor lies in a row below, valued already.
                let (vi, vn) = pair(&mut out.vals, i, n as usize, ncn);
                let d = best_of(&k.root[c], vn);
                k.apply(c, Some(d), vn, vi);
            }
            let lm = region.locks[i];
            if lm != 0 {
                let vi = &mut out.vals[i * ncn..(i + 1) * ncn];
                for c in 0..6 {
                    if lm >> c & 1 == 1 {
                        raise_to(vi, &k.lock[c]);
                    }
                }
            }
        }
        // Then a work list of (state, row move) whose successor rose in the class the move
        // reads: the move's default value and its exceptions are valued again, and the classes
        // they raise put back the states that move into this one by a move reading them.
        // Values only rise, so the values reached are the least fixed point, whatever the
        // order.
        let preds = &mut bufs.preds;
        preds.iter_mut().for_each(|p| p.clear());
        if preds.len() < len {
            preds.resize(len, Vec::new());
        }
        let pending = &mut bufs.pending;
        pending.clear();
        pending.resize(len, 0);
        let defs = &mut bufs.defs;
        defs.clear();
        defs.resize(len, [NEG; 4]);
        for (r, moves) in pending.iter_mut().enumerate() {
            for (j, &c) in row_cmds.iter().enumerate() {
                let n = region.next[first + r][c];
                if n != NONE && range.contains(&(n as usize)) {
                    preds[n as usize - first].push((r as u32) << 2 | j as u32);
                    *moves |= 1 << j;
                }
            }
        }
        let queued = &mut bufs.queued;
        queued.clear();
        queued.resize(len, true);
        let mut left = len;
        // Sweeps along the row, alternately from its east end (eastward moves read the state
        // to the east) and from its west end: a state put back to work ahead of the sweep is
        // valued in the same sweep, one behind it in the next, the other way.
        let mut from_east = true;
        while left > 0 {
            for step in 0..len {
                let r = if from_east { len - 1 - step } else { step };
                if !queued[r] {
                    continue;
                }
                let moves = std::mem::take(&mut pending[r]);
                queued[r] = false;
                left -= 1;
                bufs.pops += 1;
                let i = first + r;
                let mut rose = 0u8;
                for (j, &c) in row_cmds.iter().enumerate() {
                    if moves >> j & 1 == 0 {
                        continue;
                    }
                    let n = region.next[i][c] as usize;
                    let (vi, vn) = pair(&mut out.vals, i, n, ncn);
                    let d = best_of(&k.root[c], vn);
                    let d = (d > defs[r][j]).then(|| {
                        defs[r][j] = d;
                        d
                    });
                    rose |= k.apply(c, d, vn, vi);
                }
                if rose != 0 {
                    for &pj in &preds[r] {
                        let (p, j) = ((pj >> 2) as usize, (pj & 3) as usize);
                        // The move reads the class of the heading it leaves.
                        if rose >> heading::after(Command::ALL[row_cmds[j]]) & 1 == 0 {
                            continue;
                        }
                        pending[p] |= 1 << j;
                        if !queued[p] {
                            queued[p] = true;
                            left += 1;
                        }
                    }
                }
            }
            from_east = !from_east;
        }
    }
    spawn_values(region, k, row_cmds, out);
}

/// The spawn's values with the fresh heading in every automaton node (see [`Fast::spawn`]).
fn spawn_values(region: &Region, k: &Kernel, row_cmds: &[usize], out: &mut Fast) {
    let ncn = out.cnodes;
    let s0 = region.spawn as usize;
    let at = |n: u32| &out.vals[n as usize * ncn..(n as usize + 1) * ncn];
    let mut spawn = Vec::with_capacity(k.na);
    for a in 0..k.na {
        let mut v = NEG;
        let lm = region.locks[s0];
        for c in Command::ALL {
            let c = c as usize;
            if lm >> c & 1 == 1 {
                v = v.max(k.node_lock[c][a]);
            }
            let n = region.next[s0][c];
            if n == NONE || (!row_cmds.contains(&c) && !matches!(c, 2 | 3)) {
                continue;
            }
            let succ = if k.exc_mask[a] >> c & 1 == 1 {
                let (s, e) = k.node_exc[a][c];
                &k.edges[s as usize..e as usize]
            } else {
                &k.root[c][..]
            };
            v = v.max(best_of(succ, at(n)));
        }
        spawn.push(v);
    }
    out.spawn = spawn;
}

/// The fast programme's values with what they were computed with, for the walk.
#[derive(Debug, Default)]
pub(super) struct FastValues {
    pub kernel: Kernel,
    pub fast: Fast,
    pub spawn: u32,
}

impl super::walk::Bound for FastValues {
    #[inline]
    fn at(&self, i: usize, h: usize, a: usize) -> i32 {
        self.fast.at(&self.kernel, self.spawn, i, h, a)
    }
}

/// The fast programme, for [`super::rounds::UnitWalk::best`] and the encoder's walks: its
/// buffers and last values.
#[derive(Debug, Default)]
pub(super) struct FastProgramme {
    pub bufs: FastBufs,
    pub out: FastValues,
    /// Rows to value from the spawn's (see [`values`]); all when `None`.
    pub rows: Option<usize>,
}

impl super::rounds::Programme for FastProgramme {
    type Out = FastValues;
    fn value(
        &mut self,
        sp: &UnitSpace,
        region: &Region,
        ac: &Automaton,
        gains: &[i32],
        terminal: &[i32],
    ) -> &FastValues {
        self.out.kernel = Kernel::new(ac, gains, terminal, sp.rotates());
        values(
            sp,
            region,
            &self.out.kernel,
            self.rows,
            &mut self.bufs,
            &mut self.out.fast,
        );
        self.out.spawn = region.spawn;
        &self.out
    }
}

mod build;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing;
