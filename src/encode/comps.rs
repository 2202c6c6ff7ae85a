//! The row components of a unit on a board: sets of free states connected by moves along a row
//! (E, W and the rotations), which cost no descent, so a whole component shares one fate. A
//! component is *alive* when the target can be reached from it: it holds a target state or a
//! state that can descend into an alive component of the next row. With word values, every
//! component also gets the best word score of a path from it to the target (the dynamic
//! programme of [`super::walk::dp`]), computed bottom-up with bit-parallel word masks.
//!
//! Only the alive components are kept: the walkers never enter a dead one, and a state of a
//! dead component reads as one of no component (not alive, no value). They are found bottom-up,
//! a row at a time from the lowest target state's: a row's alive states are the components of
//! its free states that hold a target state or a state descending into the alive states of the
//! row below, and the components come from the runs of free states by union-find
//! ([`RowMask::components`]). The alive states are also kept as bit rows shaped like the free
//! map: every state a word passes through on its way to an alive component is alive itself (the
//! rest of the word leads it there), so the word masks are built from them instead of the free
//! states, with the same links and fewer states to carry.
//!
//! Coordinates are those of [`crate::plan::space`]: states `(x, y, o)` with canonical
//! orientations, rows of the unit's [`RowMask`] layout.

use super::row::RowSearch;
use super::unit::{Job, RowVisited};
use super::NEG;
use crate::engine::Command;
use crate::plan::bits;
use crate::plan::rowmask::Runs;
use crate::plan::{RowMask, State, UnitSpace};

/// The alive row components of a unit on a board, and their values.
#[derive(Debug, Default)]
pub struct Comps {
    /// Per component.
    value: Vec<i32>,
    /// Per component, its row mask (see [`RowMask`]).
    masks: Vec<u64>,
    /// Per row from `y0`: the range of its component ids.
    row_comps: Vec<(u32, u32)>,
    /// Per row from `y0`: the best value of its components, `NEG` if none.
    row_best: Vec<i32>,
    y0: i64,
    layout: RowMask,
    /// The states of the alive components, as bit rows shaped like the free map.
    alive_map: Vec<u64>,
    /// The states that keep the unit viable at once (target states and states with a descent
    /// into an alive state), shaped like the free map.
    good_map: Vec<u64>,
    runs: Runs,
    /// Per component of the row in hand, its id among the kept ones (`u32::MAX`: dead).
    ids: Vec<u32>,
    allowed: Vec<u64>,
    seeds: Vec<u64>,
    union: Vec<u64>,
    tmp: Vec<u64>,
    word_mask: Vec<u64>,
}

impl Comps {
    /// The component holding `s`: the few components of its row are tested bit by bit, which
    /// is cheaper than keeping a component index per state.
    fn comp(&self, space: &UnitSpace, s: State) -> Option<usize> {
        let i = s.x - space.x_lo(s.o);
        if i < 0 {
            return None;
        }
        let (off, n) = self.layout.span(s.o);
        let (w, b) = (i as usize / 64, i as usize % 64);
        if w >= n {
            return None;
        }
        self.row_range(s.y)
            .find(|&c| self.masks[c * self.layout.len + off + w] >> b & 1 == 1)
    }

    fn mask(&self, c: usize) -> &[u64] {
        let n = self.layout.len;
        &self.masks[c * n..(c + 1) * n]
    }

    fn row_range(&self, y: i64) -> std::ops::Range<usize> {
        let i = y - self.y0;
        if i < 0 || i as usize >= self.row_comps.len() {
            return 0..0;
        }
        let (a, b) = self.row_comps[i as usize];
        a as usize..b as usize
    }

    /// Finds the alive components from the target's row up to the start's. With `values`, also
    /// runs the dynamic programme with word values `wval`.
    pub fn build(&mut self, job: &Job, values: Option<&[i32]>) {
        let sp = job.space;
        self.layout.clone_from(sp.layout());
        self.masks.clear();
        self.value.clear();
        self.alive_map.clear();
        self.alive_map.resize(sp.row_words, 0);
        self.good_map.clear();
        self.good_map.resize(sp.row_words, 0);
        let rows = job.rows();
        self.y0 = rows.start;
        self.row_comps.clear();
        self.row_comps
            .resize((rows.end - rows.start).max(0) as usize, (0, 0));
        self.row_best.clear();
        self.row_best.resize(self.row_comps.len(), NEG);
        let targets = sp.lock_states(job.free, job.target);
        // Words that end by locking the unit at the target are worth their value from where they
        // start, like a lock.
        let lock_words = if values.is_some() {
            job.lock_word_starts()
        } else {
            Vec::new()
        };
        let mut d = std::mem::take(&mut self.tmp);
        for y in rows.rev() {
            let first = self.value.len();
            self.alive_row(job, y, &targets);
            let last = self.value.len();
            let op = match values {
                Some(_) => crate::work::Op::EncComp,
                None => crate::work::Op::EncCompBare,
            };
            crate::work::add(op, (last - first) as u64);
            self.row_comps[(y - self.y0) as usize] = (first as u32, last as u32);
            for c in first..last {
                let mut value = NEG;
                if targets.iter().any(|&t| t.y == y && self.holds(c, sp, t)) {
                    value = 0;
                }
                self.descents(sp, job.free, c, y, &mut d, |c2, me| {
                    value = value.max(me.value[c2]);
                });
                self.value[c] = value;
            }
            if let Some(wval) = values {
                for &(s, w) in lock_words.iter().filter(|(s, _)| s.y == y) {
                    if let Some(c) = self.comp(sp, s) {
                        self.value[c] = self.value[c].max(wval[w]);
                    }
                }
                self.word_values(job, y, wval);
            }
            // Final now: the words of the rows above and the walk ask for it.
            let best = (first..last).map(|c| self.value[c]).max().unwrap_or(NEG);
            self.row_best[(y - self.y0) as usize] = best;
        }
        self.tmp = d;
    }

    /// Whether component `c` holds state `s` (of its row).
    fn holds(&self, c: usize, sp: &UnitSpace, s: State) -> bool {
        let (off, n) = self.layout.span(s.o);
        let i = s.x - sp.x_lo(s.o);
        i >= 0 && (i as usize) < n * 64 && bits::get(&self.mask(c)[off..off + n], i as usize)
    }

    /// Appends the alive components of row `y` (the rows below done): the components of its free
    /// states that hold a target state or a state descending into an alive state of row `y + 1`;
    /// their values start at `NEG`. Writes their states into the alive map.
    fn alive_row(&mut self, job: &Job, y: i64, targets: &[State]) {
        let sp = job.space;
        let (layout, n) = (&self.layout, self.layout.len);
        self.allowed.clear();
        self.allowed.resize(n, 0);
        layout.load(sp, job.free, y, &mut self.allowed);
        self.seeds.clear();
        self.seeds.resize(n, 0);
        for t in targets.iter().filter(|t| t.y == y) {
            layout.set(&mut self.seeds, t.o, (t.x - sp.x_lo(t.o)) as usize);
        }
        // A state descends by SW or SE to the columns `i + sw` and `i + se` of the next row.
        let [sw, se] = crate::plan::space::descent_offsets(y);
        for o in 0..sp.k {
            let Some((b, nw)) = sp.row(o, y + 1) else {
                continue;
            };
            let (off, _) = layout.span(o);
            let below = &self.alive_map[b..b + nw];
            bits::or_shifted(&mut self.seeds[off..off + nw], below, se);
            bits::or_shifted(&mut self.seeds[off..off + nw], below, sw);
        }
        let mut any = false;
        for (s, a) in self.seeds.iter_mut().zip(&self.allowed) {
            *s &= a;
            any |= *s != 0;
        }
        if !any {
            return;
        }
        layout.store(sp, &self.seeds, y, &mut self.good_map);
        let count = layout.components(sp, &self.allowed, &mut self.runs);
        // Which components are alive, and their ids among the kept ones.
        let id = &mut self.ids;
        id.clear();
        id.resize(count, u32::MAX);
        for (r, &c) in self.runs.runs.iter().zip(&self.runs.comp) {
            if id[c as usize] == u32::MAX && layout.meets(&self.seeds, *r) {
                id[c as usize] = 0;
            }
        }
        let base = self.value.len();
        let mut kept = 0;
        for slot in id.iter_mut().filter(|s| **s == 0) {
            *slot = (base + kept) as u32;
            kept += 1;
        }
        self.value.resize(base + kept, NEG);
        self.masks.resize((base + kept) * n, 0);
        self.union.clear();
        self.union.resize(n, 0);
        for (r, &c) in self.runs.runs.iter().zip(&self.runs.comp) {
            let k = id[c as usize];
            if k != u32::MAX {
                let k = k as usize;
                layout.set_run(&mut self.masks[k * n..(k + 1) * n], *r);
                layout.set_run(&mut self.union, *r);
            }
        }
        layout.store(sp, &self.union, y, &mut self.alive_map);
    }

    /// Calls `f` for every component of row `y + 1` that a state of component `c` (row `y`) can
    /// descend into.
    fn descents(
        &self,
        sp: &UnitSpace,
        free: &[u64],
        c: usize,
        y: i64,
        d: &mut Vec<u64>,
        mut f: impl FnMut(usize, &Self),
    ) {
        let [sw, se] = crate::plan::space::descent_offsets(y);
        let cm = self.mask(c);
        d.clear();
        d.resize(self.layout.len, 0);
        for o in 0..sp.k {
            let Some((b2, n2)) = sp.row(o, y + 1) else {
                continue;
            };
            let (off, nw) = self.layout.span(o);
            let dst = &mut d[off..off + nw];
            bits::or_shifted(dst, &cm[off..off + nw], -se);
            bits::or_shifted(dst, &cm[off..off + nw], -sw);
            for (w, fr) in dst.iter_mut().zip(&free[b2..b2 + n2]) {
                *w &= fr;
            }
        }
        for c2 in self.row_range(y + 1) {
            if self.mask(c2).iter().zip(d.iter()).any(|(a, b)| a & b != 0) {
                f(c2, self);
            }
        }
    }

    /// Raises the values of row `y`'s components by the words that can start in them (the rows
    /// below done, their best values in `row_best`).
    ///
    /// A word can raise a component's value only above what it has: to at most its value plus
    /// the best of the row where it ends. So a word starts only from the components below that
    /// (none: it is skipped), which leaves the values as if it were tried from every one.
    fn word_values(&mut self, job: &Job, y: i64, wval: &[i32]) {
        let here = self.row_range(y);
        if here.is_empty() {
            return;
        }
        let parity = y.rem_euclid(2) as usize;
        let n = self.layout.len;
        let mut links = Vec::new();
        let mut start = std::mem::take(&mut self.union);
        for (w, geo) in job.geometry.iter().enumerate() {
            let Some(geo) = geo else { continue };
            // A word that ends on a row without an alive component is worth nothing here.
            let ldy = geo[parity].last().expect("words are not empty").1;
            let ends = self.row_range(y + ldy);
            if ends.is_empty() {
                continue;
            }
            // The end row's values are final, unless it is this row.
            let best = if ldy == 0 {
                ends.clone().map(|c| self.value[c]).max().unwrap_or(NEG)
            } else {
                self.row_max(y + ldy)
            };
            let reach = wval[w].saturating_add(best);
            let open = here.clone().filter(|&c| self.value[c] < reach).count();
            if open == 0 {
                continue;
            }
            start.clear();
            if open == here.len() {
                start.resize(n, 0);
                self.layout.load(job.space, &self.alive_map, y, &mut start);
            } else {
                start.resize(n, 0);
                for c in here.clone().filter(|&c| self.value[c] < reach) {
                    for (s, m) in start.iter_mut().zip(self.mask(c)) {
                        *s |= m;
                    }
                }
            }
            crate::work::add(crate::work::Op::EncLink, 1);
            self.word_links(job, y, &geo[parity], &start, &mut links);
            for &(cs, ce) in &links {
                self.value[cs] = self.value[cs].max(wval[w] + self.value[ce]);
            }
        }
        self.union = start;
    }

    /// Lists in `links` every (start, end) pair of components such that the word with these
    /// steps, played from some state of `start` (a row mask of row `y`), moves through free
    /// states only and ends in the end component. The test is bit-parallel over whole rows, on
    /// the alive states (a word that ends in an alive component passes through alive states
    /// only), the deepest first (near the target, where fewest states are alive, a word that
    /// does not fit is told soonest).
    fn word_links(
        &mut self,
        job: &Job,
        y: i64,
        steps: &[(i64, i64, u8)],
        start: &[u64],
        links: &mut Vec<(usize, usize)>,
    ) {
        links.clear();
        let sp = job.space;
        let &(ldx, ldy, lrot) = steps.last().expect("words are not empty");
        for o in 0..sp.k {
            let (off, nw) = self.layout.span(o);
            if sp.row(o, y).is_none() {
                continue;
            }
            self.word_mask.clear();
            self.word_mask.extend_from_slice(&start[off..off + nw]);
            if self.word_mask.iter().all(|&m| m == 0) {
                continue;
            }
            for &(dx, dy, rot) in steps.iter().rev() {
                let o2 = (o + rot) % sp.k;
                match sp.row(o2, y + dy) {
                    Some((b2, n2)) => {
                        let shift = dx + sp.x_lo(o) - sp.x_lo(o2);
                        let alive = &self.alive_map[b2..b2 + n2];
                        bits::and_shifted(&mut self.word_mask, alive, shift);
                    }
                    None => self.word_mask.iter_mut().for_each(|m| *m = 0),
                }
                if self.word_mask.iter().all(|&m| m == 0) {
                    break;
                }
            }
            if self.word_mask.iter().all(|&m| m == 0) {
                continue;
            }
            // Which component each start ends in, and which component it starts from.
            let o_end = (o + lrot) % sp.k;
            let shift = ldx + sp.x_lo(o) - sp.x_lo(o_end);
            let (eoff, enw) = self.layout.span(o_end);
            let (soff, _) = self.layout.span(o);
            let n = self.layout.len;
            for ce in self.row_range(y + ldy) {
                self.tmp.clear();
                self.tmp.resize(nw, 0);
                bits::or_shifted(
                    &mut self.tmp,
                    &self.masks[ce * n + eoff..ce * n + eoff + enw],
                    shift,
                );
                let mut any = false;
                for (t, m) in self.tmp.iter_mut().zip(&self.word_mask) {
                    *t &= m;
                    any |= *t != 0;
                }
                if !any {
                    continue;
                }
                for cs in self.row_range(y) {
                    let sm = &self.masks[cs * n + soff..cs * n + soff + nw];
                    if sm.iter().zip(&self.tmp).any(|(a, b)| a & b != 0) {
                        links.push((cs, ce));
                    }
                }
            }
        }
    }

    /// The best value of a component of row `y`, `NEG` if none.
    pub fn row_max(&self, y: i64) -> i32 {
        let i = y - self.y0;
        if i < 0 {
            return NEG;
        }
        self.row_best.get(i as usize).copied().unwrap_or(NEG)
    }

    /// The value of the component of `s`, `NEG` if none (or a dead one).
    pub fn value_of(&self, sp: &UnitSpace, s: State) -> i32 {
        self.comp(sp, s).map_or(NEG, |c| self.value[c])
    }

    /// Whether `s` keeps the unit viable at once: a target state, or one with a free descent
    /// into an alive component (a bit of the map kept when the components were found).
    pub fn good(&self, sp: &UnitSpace, s: State) -> bool {
        sp.row(s.o, s.y).is_some_and(|(b, n)| {
            let i = s.x - sp.x_lo(s.o);
            i >= 0 && (i as usize) < n * 64 && bits::get(&self.good_map[b..b + n], i as usize)
        })
    }

    /// Whether a path along the row from `s`, through free states not in `visited`, reaches a
    /// target state or a state with a descent into an alive component: whether
    /// [`Comps::escape`] finds one, without the path. A flood of the row (the component of `s`
    /// less the visited positions) instead of a search state by state.
    pub fn escapable(
        &self,
        sp: &UnitSpace,
        s: State,
        visited: &RowVisited,
        bfs: &mut RowSearch,
    ) -> bool {
        let Some(c) = self.comp(sp, s) else {
            return false;
        };
        let layout = &self.layout;
        crate::work::add(crate::work::Op::EncEscape, layout.len as u64);
        let i = (s.x - sp.x_lo(s.o)) as usize;
        let (off, n) = layout.span(s.o);
        let good = &mut bfs.good;
        good.clear();
        good.resize(layout.len, 0);
        layout.load(sp, &self.good_map, s.y, good);
        if bits::get(&good[off..off + n], i) {
            return true;
        }
        let row = &mut bfs.flood;
        row.clear();
        row.extend_from_slice(self.mask(c));
        for &(x, o) in visited {
            let j = x - sp.x_lo(o);
            let (off, n) = layout.span(o);
            if (x, o) != (s.x, s.o) && j >= 0 && (j as usize) < n * 64 {
                row[off + j as usize / 64] &= !(1 << (j % 64));
            }
        }
        layout.joined(sp, row, (s.o, i), good, &mut bfs.runs)
    }

    /// Whether `s` lies in an alive component.
    pub fn alive_at(&self, sp: &UnitSpace, s: State) -> bool {
        self.comp(sp, s).is_some()
    }

    /// A free descent of `job`'s unit from `s` into an alive component, if any.
    pub(super) fn alive_descent(&self, job: &Job, s: State) -> Option<(Command, State)> {
        [Command::SW, Command::SE].into_iter().find_map(|c| {
            let n = job.space.step(s, c);
            (job.space.is_free(job.free, n) && self.alive_at(job.space, n)).then_some((c, n))
        })
    }

    /// A path along the row to the nearest state that is the target or can descend into an
    /// alive component: what keeps the unit viable ([`Comps::good`]).
    pub(super) fn escape(
        &self,
        job: &Job,
        s: State,
        visited: &RowVisited,
        rs: &mut RowSearch,
    ) -> Option<Vec<(Command, State)>> {
        rs.escape_to(job, s, visited, |t| self.good(job.space, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::unit::fixture::Case;
    use rand::{Rng, SeedableRng};

    /// Whether the target can be reached from `s` through free states, by a plain search over
    /// the unit's commands (positions may repeat: liveness ignores the no-repeat rule).
    fn naive_alive(job: &Job, s: State) -> bool {
        let sp = job.space;
        let mut seen = std::collections::HashSet::from([s]);
        let mut stack = vec![s];
        while let Some(t) = stack.pop() {
            if sp.is_lock_state(job.free, t, job.target) {
                return true;
            }
            for &c in sp.commands() {
                let n = sp.step(t, c);
                if sp.is_free(job.free, n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        false
    }

    /// On random boards, a state's component is alive exactly when the target can be reached
    /// from the state, for every free state from the start's row down; and the values without
    /// words are 0 on alive components.
    #[test]
    fn alive_components_are_those_that_reach_the_target() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(17);
        let (mut cases, mut alive, mut dead) = (0, 0, 0);
        while cases < 150 {
            let Some(case) = Case::random(&mut rng) else {
                continue;
            };
            cases += 1;
            let job = case.job(rng.gen_range(0..case.locks.len()));
            let mut comps = Comps::default();
            let no_words = vec![NEG; case.words.len()];
            comps.build(&job, Some(&no_words));
            let sp = &case.space;
            for idx in 0..sp.states {
                let s = sp.state_of(idx);
                if s.y < job.start.y || !sp.is_free(job.free, s) {
                    continue;
                }
                let want = naive_alive(&job, s);
                assert_eq!(comps.alive_at(sp, s), want, "case {cases} {s:?}");
                if want {
                    assert_eq!(comps.value_of(sp, s), 0, "case {cases} {s:?}");
                    alive += 1;
                } else {
                    assert_eq!(comps.value_of(sp, s), NEG);
                    dead += 1;
                }
            }
        }
        // The cases exercise both sides.
        assert!(alive > 1000 && dead > 100, "{alive} alive, {dead} dead");
    }

    /// On random boards, targets and visited positions, the flood of [`Comps::escapable`] says
    /// what a search along the row finds: whether some state keeps the unit viable, a target
    /// state or one with an alive descent; and [`Comps::good`] says which states those are.
    #[test]
    fn escapable_agrees_with_the_search_along_the_row() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(31);
        let (mut cases, mut yes, mut no) = (0, 0, 0);
        let mut bfs = RowSearch::default();
        let mut bfs2 = RowSearch::default();
        while cases < 400 {
            let Some(case) = Case::random(&mut rng) else {
                continue;
            };
            cases += 1;
            let job = case.job(rng.gen_range(0..case.locks.len()));
            let mut comps = Comps::default();
            comps.build(&job, None);
            let sp = &case.space;
            for idx in 0..sp.states {
                let s = sp.state_of(idx);
                if s.y < job.start.y || !comps.alive_at(sp, s) {
                    continue;
                }
                // Random positions of the row visited (the state's own among them, at times).
                let mut visited: RowVisited = Vec::new();
                for j in 0..sp.states {
                    let t = sp.state_of(j);
                    if t.y == s.y && sp.is_free(job.free, t) && rng.gen_bool(0.3) {
                        visited.push((t.x, t.o));
                    }
                }
                let viable = |t: State| job.at_target(t) || comps.alive_descent(&job, t).is_some();
                assert_eq!(comps.good(sp, s), viable(s), "case {cases} {s:?}");
                let want = bfs2.escape_to(&job, s, &visited, viable).is_some();
                assert_eq!(
                    comps.escapable(sp, s, &visited, &mut bfs),
                    want,
                    "case {cases} {s:?}"
                );
                yes += want as usize;
                no += !want as usize;
            }
        }
        eprintln!("{yes} escapable, {no} not");
        assert!(yes > 1000 && no > 100, "{yes} escapable, {no} not");
    }
}
