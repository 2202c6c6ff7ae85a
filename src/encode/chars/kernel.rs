//! The programme's values, computed over *context nodes*: the automaton node folded with the
//! heading.
//!
//! **Why it is exact.** Every node of the automaton but the root stands for a phrase prefix,
//! whose last character belongs to one command; a walk that enters the node has just played that
//! command, so its heading ([`super::heading`]) is the one that command leaves. The programme of
//! [`super::values`] keeps a value per (state, heading, node), but only the pairs where the
//! heading is the node's own are ever reached, but for the root, which any command may enter.
//! So a *context node* (cnode) is the root with one of the headings, or a node with its own:
//! `ctxs + nodes - 1` of them instead of `ctxs x nodes`. The spawn alone is entered with the
//! fresh heading in any node (the text before the unit ended with any command): its values for
//! those pairs are kept apart ([`Fast::spawn`]).
//!
//! **Why it is fast.** A command's characters lead most nodes where they lead the root (no
//! phrase continues there): such a node takes the root's value for that command, computed once
//! per state. Only the *exceptions* (a node and a command whose characters continue some phrase
//! from it) are computed one by one.
//!
//! Values are the same as [`super::values`] gives at every pair a walk can reach (tested on
//! random boards and phrases, and on the official problems' units).

use super::heading::{self, FRESH};
use super::region::Region;
use super::NONE;
use crate::encode::automaton::Automaton;
use crate::encode::NEG;
use crate::engine::Command;
use crate::plan::UnitSpace;

/// The transitions of one automaton with its gains, by context node.
#[derive(Debug, Default)]
pub(super) struct Kernel {
    /// Automaton nodes.
    na: usize,
    /// Headings: 5 for a unit that rotates, 3 for one that cannot.
    ctxs: usize,
    /// Per node: the heading a walk has on entering it (the root's is unused).
    heading: Vec<u8>,
    /// Per command: the root's distinct successors as (target cnode, gain minus penalty).
    root: [Vec<(u32, i32)>; 6],
    /// Per command: the nodes whose successors differ from the root's, with the range of their
    /// own successors in `edges`.
    exc: [Vec<(u32, u32, u32)>; 6],
    edges: Vec<(u32, i32)>,
    /// Per node: a bit per command under which it is an exception.
    exc_mask: Vec<u8>,
    /// Per command, per node: the value of locking with that command from the node.
    lock: [Vec<i32>; 6],
    /// Per heading: the row moves it allows (a mask over [`ROW`]'s positions).
    allowed: [u8; 5],
    /// Per node: the row moves its heading allows where it is no exception.
    amask: Vec<u8>,
    /// Per row move (position in [`ROW`]), per context node: 0 when the node takes the root's
    /// value for it (its heading allows the move and it is no exception), [`OFF`] otherwise.
    row_off: [Vec<i32>; 4],
    /// The same for the descents (SW, SE), which every heading allows.
    desc_off: [Vec<i32>; 2],
    /// Per command: its exceptions whose heading allows it, as (context node, successors).
    exc_cn: [Vec<(u32, u32, u32)>; 6],
    /// Per command, per context node: the value of locking with it.
    lock_cn: [Vec<i32>; 6],
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

/// Per heading: the row moves it allows, as a mask over [`ROW`]'s positions.
fn allowed(h: usize) -> u8 {
    let mut m = 0;
    for (j, &c) in ROW.iter().enumerate() {
        if !heading::forbids(h, Command::ALL[c]) {
            m |= 1 << j;
        }
    }
    m
}

impl Kernel {
    /// The kernel of automaton `ac` with node gains `gains` (scaled), `terminal` values per node
    /// after a lock, for a unit that rotates or not.
    pub fn new(ac: &Automaton, gains: &[i32], terminal: &[i32], rotates: bool) -> Kernel {
        let na = ac.len();
        let ctxs = if rotates { heading::ALL } else { heading::LINE };
        // Each node's heading: the command of the character that enters it.
        let mut heading = vec![FRESH as u8; na];
        for a in 0..na {
            for c in Command::ALL {
                for &(a2, _) in ac.edges(a as u16, c) {
                    if a2 != 0 {
                        heading[a2 as usize] = heading::after(c) as u8;
                    }
                }
            }
        }
        let cn = |a2: u16, c: Command| -> u32 {
            if a2 == 0 {
                heading::after(c) as u32
            } else {
                (ctxs + a2 as usize - 1) as u32
            }
        };
        let mut k = Kernel {
            na,
            ctxs,
            heading,
            exc_mask: vec![0; na],
            ..Kernel::default()
        };
        for c in Command::ALL {
            let ci = c as usize;
            if !rotates && matches!(c, Command::CW | Command::CCW) {
                // Never a move for such a unit; locks are still valued below.
            } else {
                let pen = if c.is_descent() { 0 } else { 1 };
                k.root[ci] = ac
                    .edges(0, c)
                    .iter()
                    .map(|&(a2, _)| (cn(a2, c), gains[a2 as usize] - pen))
                    .collect();
                for a in 1..na {
                    // Exceptional when some character of the command leads elsewhere than
                    // from the root.
                    let differs = c
                        .chars()
                        .bytes()
                        .any(|b| ac.step(a as u16, b) != ac.step(0, b));
                    if !differs {
                        continue;
                    }
                    let start = k.edges.len() as u32;
                    for &(a2, _) in ac.edges(a as u16, c) {
                        k.edges.push((cn(a2, c), gains[a2 as usize] - pen));
                    }
                    k.exc[ci].push((a as u32, start, k.edges.len() as u32));
                    k.exc_mask[a] |= 1 << ci;
                }
            }
            k.lock[ci] = (0..na)
                .map(|a| {
                    ac.edges(a as u16, c)
                        .iter()
                        .map(|&(a2, _)| gains[a2 as usize] + terminal[a2 as usize])
                        .max()
                        .unwrap_or(NEG)
                })
                .collect();
        }
        k.allowed = std::array::from_fn(allowed);
        k.amask = (0..na)
            .map(|a| k.allowed[k.heading[a] as usize] & !row_mask(k.exc_mask[a]))
            .collect();
        let ncn = k.cnodes();
        // The node of each context node.
        let node_of = |cn: usize| if cn < ctxs { 0 } else { cn - ctxs + 1 };
        let heading_of = |cn: usize| {
            if cn < ctxs {
                cn
            } else {
                k.heading[cn - ctxs + 1] as usize
            }
        };
        for (j, &c) in ROW.iter().enumerate() {
            k.row_off[j] = (0..ncn)
                .map(|cn| {
                    let takes = k.allowed[heading_of(cn)] >> j & 1 == 1
                        && k.exc_mask[node_of(cn)] >> c & 1 == 0;
                    if takes {
                        0
                    } else {
                        OFF
                    }
                })
                .collect();
        }
        for (j, c) in [Command::SW as usize, Command::SE as usize]
            .into_iter()
            .enumerate()
        {
            k.desc_off[j] = (0..ncn)
                .map(|cn| {
                    if k.exc_mask[node_of(cn)] >> c & 1 == 0 {
                        0
                    } else {
                        OFF
                    }
                })
                .collect();
        }
        for c in 0..6 {
            let j = ROW.iter().position(|&r| r == c);
            k.exc_cn[c] = k.exc[c]
                .iter()
                .filter(|&&(a, _, _)| {
                    j.is_none_or(|j| k.allowed[k.heading[a as usize] as usize] >> j & 1 == 1)
                })
                .map(|&(a, s, e)| ((ctxs + a as usize - 1) as u32, s, e))
                .collect();
            k.lock_cn[c] = (0..ncn).map(|cn| k.lock[c][node_of(cn)]).collect();
        }
        k
    }

    /// Context nodes per state.
    pub fn cnodes(&self) -> usize {
        self.ctxs + self.na - 1
    }

    /// The context node of automaton node `a` entered with heading `h` (`h` is the node's own
    /// unless `a` is the root).
    #[inline]
    pub fn cnode(&self, h: usize, a: usize) -> usize {
        if a == 0 {
            h
        } else {
            self.ctxs + a - 1
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
    base: Vec<i32>,
    /// Per state of the row: the row moves whose successor rose since they were valued.
    pending: Vec<u8>,
    /// Per state of the row: each row move's default value as last valued.
    defs: Vec<[i32; 4]>,
    preds: Vec<Vec<u32>>,
    queue: std::collections::VecDeque<u32>,
    queued: Vec<bool>,
    /// The default value of each row move at the state in hand, and their maxima per mask.
    pub pops: usize,
}

/// The value of the successors `succ` in the value slice `vn`.
#[inline]
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
/// does not); true when some element rose.
#[inline]
fn raise(v: &mut [i32], d: i32, off: &[i32]) -> bool {
    let mut changed = false;
    for (x, &o) in v.iter_mut().zip(off) {
        let y = d + o;
        let gt = y > *x;
        *x = if gt { y } else { *x };
        changed |= gt;
    }
    changed
}

/// Raises `v` to `w` element by element.
#[inline]
fn raise_to(v: &mut [i32], w: &[i32]) {
    for (x, &y) in v.iter_mut().zip(w) {
        *x = (*x).max(y);
    }
}

/// Raises the context nodes of `vi` by the exceptions `exc` of one command, the successors'
/// values being `vn`; true when some rose.
#[inline]
fn raise_exceptions(k: &Kernel, exc: &[(u32, u32, u32)], vn: &[i32], vi: &mut [i32]) -> bool {
    let mut changed = false;
    for &(cn, s, e) in exc {
        let v = best_of(&k.edges[s as usize..e as usize], vn);
        let slot = &mut vi[cn as usize];
        if v > *slot {
            *slot = v;
            changed = true;
        }
    }
    changed
}

/// Computes the values of `region` under kernel `k` (see the module doc).
pub(super) fn values(
    sp: &UnitSpace,
    region: &Region,
    k: &Kernel,
    bufs: &mut FastBufs,
    out: &mut Fast,
) {
    let ncn = k.cnodes();
    crate::work::add(
        crate::work::Op::CharsCell,
        (region.states.len() * ncn) as u64,
    );
    out.cnodes = ncn;
    out.vals.clear();
    out.vals.resize(region.states.len() * ncn, NEG);
    let y0 = sp.spawn_state().y;
    let n_rows = region.rows.len() as i64;
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
                let n = region.next[i][c] as usize;
                if n == NONE as usize || k.root[c].is_empty() {
                    continue;
                }
                // A descent's successor lies in a row below, valued already.
                let (vi, vn) = pair(&mut out.vals, i, n, ncn);
                let d = best_of(&k.root[c], vn);
                raise(vi, d, &k.desc_off[c - 2]);
                raise_exceptions(k, &k.exc_cn[c], vn, vi);
            }
            let lm = region.locks[i];
            if lm != 0 {
                let vi = &mut out.vals[i * ncn..(i + 1) * ncn];
                for c in 0..6 {
                    if lm >> c & 1 == 1 {
                        raise_to(vi, &k.lock_cn[c]);
                    }
                }
            }
        }
        // Then a work list of (state, row move) whose successor rose: the move's default value
        // and its exceptions are valued again, and every value they raise puts back the states
        // that move into this one. Values only rise, so the values reached are the least fixed
        // point, whatever the order.
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
        for r in 0..len {
            for (j, &c) in row_cmds.iter().enumerate() {
                let n = region.next[first + r][c];
                if n != NONE && range.contains(&(n as usize)) {
                    preds[n as usize - first].push((r as u32) << 2 | j as u32);
                    pending[r] |= 1 << j;
                }
            }
        }
        let queue = &mut bufs.queue;
        queue.clear();
        // Eastward moves read the state to the east: the row is valued from its east end.
        queue.extend((0..len as u32).rev());
        let queued = &mut bufs.queued;
        queued.clear();
        queued.resize(len, true);
        while let Some(r) = queue.pop_front() {
            let r = r as usize;
            queued[r] = false;
            bufs.pops += 1;
            let i = first + r;
            let moves = std::mem::take(&mut pending[r]);
            let mut changed = false;
            for (j, &c) in row_cmds.iter().enumerate() {
                if moves >> j & 1 == 0 {
                    continue;
                }
                let n = region.next[i][c] as usize;
                let (vi, vn) = pair(&mut out.vals, i, n, ncn);
                let d = best_of(&k.root[c], vn);
                if d > defs[r][j] {
                    defs[r][j] = d;
                    changed |= raise(vi, d, &k.row_off[j]);
                }
                changed |= raise_exceptions(k, &k.exc_cn[c], vn, vi);
            }
            if changed {
                for &pj in &preds[r] {
                    let (p, j) = ((pj >> 2) as usize, pj & 3);
                    pending[p] |= 1 << j;
                    if !queued[p] {
                        queued[p] = true;
                        queue.push_back(p as u32);
                    }
                }
            }
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
                v = v.max(k.lock[c][a]);
            }
            let n = region.next[s0][c];
            if n == NONE || (!row_cmds.contains(&c) && !matches!(c, 2 | 3)) {
                continue;
            }
            let succ = if k.exc_mask[a] >> c & 1 == 1 {
                let &(_, s, e) = k.exc[c]
                    .iter()
                    .find(|x| x.0 as usize == a)
                    .expect("an exception of the command");
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

/// The value slices of states `i` (to raise) and `n` (to read), `i != n`.
#[inline]
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

/// The row-move bits of a command mask, as positions in [`ROW`].
#[inline]
fn row_mask(m: u8) -> u8 {
    let mut r = 0;
    for (j, &c) in ROW.iter().enumerate() {
        r |= (m >> c & 1) << j;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::super::region::{Bufs, Region};
    use super::super::tests::tiny_case_pub as tiny_case;
    use super::super::values::{values as slow, Values};
    use super::*;
    use crate::encode::automaton::Automaton;
    use crate::encode::test_util::{Setup, SAMPLES};
    use rand::{Rng, SeedableRng};

    /// Compares the fast values with the slow programme's at every pair a walk can reach.
    fn compare(
        sp: &UnitSpace,
        region: &Region,
        ac: &Automaton,
        gains: &[i32],
        terminal: &[i32],
        what: &str,
    ) {
        let mut bufs = Bufs::default();
        let mut old = Values::default();
        slow(sp, region, ac, gains, terminal, &mut bufs, &mut old);
        let k = Kernel::new(ac, gains, terminal, sp.rotates());
        let mut fast = Fast::default();
        values(sp, region, &k, &mut FastBufs::default(), &mut fast);
        for i in 0..region.states.len() {
            for h in 0..old.ctxs {
                for a in 0..ac.len() {
                    let spawn_fresh = i == region.spawn as usize && h == FRESH;
                    if !k.consistent(h, a) && !spawn_fresh {
                        continue;
                    }
                    assert_eq!(
                        fast.at(&k, region.spawn, i, h, a),
                        old.at(i, h, a),
                        "{what}: state {i} heading {h} node {a}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_fast_values_are_the_programmes_on_random_boards() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(41);
        let mut checked = 0;
        for case in 0..3000 {
            let Some((json, p, tables, lock)) = tiny_case(&mut rng) else {
                continue;
            };
            let sp = &tables.spaces[0];
            let phrases =
                crate::encode::test_util::random_phrases(&mut rng, "pbalmdkei! ", &[("ei!", 0.3)]);
            let ac = Automaton::new(&phrases);
            let weights: Vec<i32> = phrases.iter().map(|_| rng.gen_range(0..400)).collect();
            let gains = ac.gains(&weights);
            let terminal: Vec<i32> = (0..ac.len()).map(|_| rng.gen_range(0..300)).collect();
            let mut free = Vec::new();
            sp.free_map(&p.board, &mut free);
            let mut region = Region::default();
            if !region.build(sp, &free, lock.key, None, &mut Bufs::default()) {
                continue;
            }
            compare(
                sp,
                &region,
                &ac,
                &gains,
                &terminal,
                &format!("case {case}: {json}"),
            );
            checked += 1;
        }
        assert!(checked > 1500, "{checked}");
    }

    #[test]
    fn the_fast_values_are_the_programmes_on_sample_games() {
        for json in SAMPLES {
            let setup = Setup::new(json);
            let ct = setup.char_tables();
            let plan = setup.greedy_plan(setup.problem.seeds[0]);
            let mut sim = crate::plan::Sim::new(&setup.problem);
            let mut free = Vec::new();
            let gains = ct
                .rep
                .gains(&ct.rep_ids.iter().map(|&p| ct.repeat[p]).collect::<Vec<_>>());
            let terminal: Vec<i32> = (0..ct.rep.len()).map(|a| (a as i32 * 37) % 500).collect();
            for (u, pl) in plan.placements.iter().enumerate().take(40) {
                let sp = &setup.tables.spaces[pl.unit];
                sp.free_map(&sim.board, &mut free);
                let mut region = Region::default();
                if region.build(sp, &free, pl.lock.key, ct.corridor, &mut Bufs::default()) {
                    compare(
                        sp,
                        &region,
                        &ct.rep,
                        &gains,
                        &terminal,
                        &format!("unit {u}"),
                    );
                }
                sim.lock(&setup.problem, pl.unit, pl.lock.state);
            }
        }
    }
}

#[cfg(test)]
mod timing {
    use super::super::region::{Bufs, Region};
    use super::super::values::{values as slow, Values};
    use super::super::CharTables;
    use super::*;
    use crate::encode::PhraseTable;
    use crate::engine::{Phrases, Problem};
    use crate::plan::{plan_of_text, Sim, Tables};
    use std::time::Instant;

    /// Times the slow and fast programmes on the stored games' first units (run by hand:
    /// `cargo test --release --lib kernel::timing -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn time_fast_against_slow() {
        for id in [14, 18, 24, 3, 5] {
            let path = format!("../shared/icfp2015/problems/problem_{id}.json");
            let Ok(json) = std::fs::read_to_string(&path) else {
                return;
            };
            let p = Problem::from_json(&json, std::path::Path::new(&path)).unwrap();
            let tables = Tables::new(&p);
            let phrases = Phrases::official();
            let table = PhraseTable::new(&phrases);
            let ct = CharTables::new(&table, &tables.spaces, p.width);
            let store: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(format!("solutions/problem_{id}.json")).unwrap(),
            )
            .unwrap();
            let text = store[0]["solution"].as_str().unwrap();
            let plan = plan_of_text(&p, &tables, p.seeds[0], text).unwrap();
            let gains = ct
                .rep
                .gains(&ct.rep_ids.iter().map(|&q| ct.repeat[q]).collect::<Vec<_>>());
            let terminal = vec![0; ct.rep.len()];
            let mut sim = Sim::new(&p);
            let mut free = Vec::new();
            let (mut t_slow, mut t_fast, mut states, mut cells, mut units) = (0.0, 0.0, 0, 0, 0);
            let (mut bufs, mut fb) = (Bufs::default(), FastBufs::default());
            let (mut old, mut fast) = (Values::default(), Fast::default());
            for pl in plan.placements.iter().take(200) {
                let sp = &tables.spaces[pl.unit];
                sp.free_map(&sim.board, &mut free);
                let mut region = Region::default();
                if region.build(sp, &free, pl.lock.key, ct.corridor, &mut bufs) {
                    let t0 = Instant::now();
                    slow(sp, &region, &ct.rep, &gains, &terminal, &mut bufs, &mut old);
                    t_slow += t0.elapsed().as_secs_f64();
                    let t0 = Instant::now();
                    let k = Kernel::new(&ct.rep, &gains, &terminal, sp.rotates());
                    values(sp, &region, &k, &mut fb, &mut fast);
                    t_fast += t0.elapsed().as_secs_f64();
                    states += region.states.len();
                    cells += fast.vals.len();
                    units += 1;
                }
                sim.lock(&p, pl.unit, pl.lock.state);
            }
            let k = Kernel::new(&ct.rep, &gains, &terminal, true);
            eprintln!(
                "exceptions per command {:?} edges {} root succ {:?}",
                k.exc.iter().map(|e| e.len()).collect::<Vec<_>>(),
                k.edges.len(),
                k.root.iter().map(|e| e.len()).collect::<Vec<_>>()
            );
            eprintln!(
                "problem {id}: {units} units, {} states/unit, {} cnodes/state, rep nodes {}, slow {:.0} us/unit, fast {:.0} us/unit, pops/state {:.2}",
                states / units.max(1),
                cells / states.max(1),
                ct.rep.len(),
                t_slow * 1e6 / units as f64,
                t_fast * 1e6 / units as f64,
                fb.pops as f64 / states as f64
            );
        }
    }
}
