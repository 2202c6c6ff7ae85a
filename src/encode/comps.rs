//! The row components of a unit on a board: sets of free states connected by moves along a row
//! (E, W and the rotations), which cost no descent, so a whole component shares one fate. A
//! component is *alive* when the target can be reached from it: it holds a target state or a
//! state that can descend into an alive component of the next row. With word values, every
//! component also gets the best word score of a path from it to the target (the dynamic
//! programme of [`super::walk::dp`]), computed bottom-up with bit-parallel word masks.
//!
//! Coordinates are those of [`crate::plan::space`]: states `(x, y, o)` with canonical
//! orientations, rows of the unit's [`RowMask`] layout.

use super::unit::{Job, NEG};
use crate::plan::bits;
use crate::plan::{RowMask, State, UnitSpace};

/// The row components of a unit on a board, their liveness and values.
#[derive(Debug, Default)]
pub struct Comps {
    /// Per component.
    pub alive: Vec<bool>,
    pub value: Vec<i32>,
    has_target: Vec<bool>,
    /// Per component, its row mask (see [`RowMask`]).
    masks: Vec<u64>,
    /// Per row from `y0`: the range of its component ids.
    row_comps: Vec<(u32, u32)>,
    /// Per row from `y0`: the best value of its alive components, `NEG` if none.
    row_best: Vec<i32>,
    y0: i64,
    layout: RowMask,
    remaining: Vec<u64>,
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

    /// Splits the free states from the start's row down into components and marks which are
    /// alive. With `values`, also runs the dynamic programme with word values `wval`.
    pub fn build(&mut self, job: &Job, values: Option<&[i32]>) {
        let sp = job.space;
        self.layout.clone_from(sp.layout());
        let n = self.layout.len;
        self.masks.clear();
        self.row_comps.clear();
        self.alive.clear();
        self.value.clear();
        self.has_target.clear();
        let rows = job.rows();
        self.y0 = job.start.y;
        for y in rows.clone() {
            let first = self.alive.len() as u32;
            self.remaining.clear();
            self.remaining.resize(n, 0);
            self.layout.load(sp, job.free, y, &mut self.remaining);
            while let Some((o, i)) = self.layout.first_bit(&self.remaining) {
                let start = self.masks.len();
                self.masks.resize(start + n, 0);
                let cm = &mut self.masks[start..];
                self.layout.set(cm, o, i);
                self.layout.flood(sp, cm, &self.remaining, &mut self.tmp);
                for (r, c) in self.remaining.iter_mut().zip(cm.iter()) {
                    *r &= !c;
                }
                self.alive.push(false);
                self.value.push(NEG);
                self.has_target.push(false);
            }
            self.row_comps.push((first, self.alive.len() as u32));
        }
        for t in sp.lock_states(job.free, job.target) {
            if let Some(c) = self.comp(sp, t) {
                self.has_target[c] = true;
            }
        }
        // Words that end by locking the unit at the target are worth their value from where they
        // start, like a lock.
        let lock_words = if values.is_some() {
            job.lock_word_starts()
        } else {
            Vec::new()
        };
        // Bottom-up: liveness, and the values.
        let mut d = std::mem::take(&mut self.tmp);
        for y in rows.rev() {
            for c in self.row_range(y) {
                let mut alive = self.has_target[c];
                let mut value = if alive { 0 } else { NEG };
                self.descents(sp, job.free, c, y, &mut d, |c2, me| {
                    if me.alive[c2] {
                        alive = true;
                        value = value.max(me.value[c2]);
                    }
                });
                self.alive[c] = alive;
                self.value[c] = value;
            }
            if let Some(wval) = values {
                for &(s, w) in lock_words.iter().filter(|(s, _)| s.y == y) {
                    if let Some(c) = self.comp(sp, s) {
                        if self.alive[c] {
                            self.value[c] = self.value[c].max(wval[w]);
                        }
                    }
                }
                self.word_values(job, y, wval);
            }
        }
        // The walk asks for a row's best value at every word it considers: kept, not recounted.
        self.row_best.clear();
        self.row_best.extend(self.row_comps.iter().map(|&(a, b)| {
            (a as usize..b as usize)
                .filter(|&c| self.alive[c])
                .map(|c| self.value[c])
                .max()
                .unwrap_or(NEG)
        }));
        self.tmp = d;
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

    /// Raises the values of row `y`'s components by the words that can start in them.
    fn word_values(&mut self, job: &Job, y: i64, wval: &[i32]) {
        if !self.row_range(y).any(|c| self.alive[c]) {
            return;
        }
        let parity = y.rem_euclid(2) as usize;
        let mut links = Vec::new();
        for (w, geo) in job.geometry.iter().enumerate() {
            let Some(geo) = geo else { continue };
            // A word that ends on a row without an alive component is worth nothing here.
            let ldy = geo[parity].last().expect("words are not empty").1;
            if !self.row_range(y + ldy).any(|c| self.alive[c]) {
                continue;
            }
            self.word_links(job, y, &geo[parity], &mut links);
            for &(cs, ce) in &links {
                if self.alive[ce] {
                    self.value[cs] = self.value[cs].max(wval[w] + self.value[ce]);
                }
            }
        }
    }

    /// Lists in `links` every (start, end) pair of components such that the word with these
    /// steps, played from some state of the start component (row `y`), moves through free states
    /// only and ends in the end component. The test is bit-parallel over whole rows.
    fn word_links(
        &mut self,
        job: &Job,
        y: i64,
        steps: &[(i64, i64, u8)],
        links: &mut Vec<(usize, usize)>,
    ) {
        links.clear();
        let sp = job.space;
        let &(ldx, ldy, lrot) = steps.last().expect("words are not empty");
        for o in 0..sp.k {
            let Some((b, nw)) = sp.row(o, y) else {
                continue;
            };
            // Starts where every state of the word is free.
            self.word_mask.clear();
            self.word_mask.extend_from_slice(&job.free[b..b + nw]);
            for &(dx, dy, rot) in steps {
                let o2 = (o + rot) % sp.k;
                match sp.row(o2, y + dy) {
                    Some((b2, n2)) => {
                        let shift = dx + sp.x_lo(o) - sp.x_lo(o2);
                        bits::and_shifted(&mut self.word_mask, &job.free[b2..b2 + n2], shift);
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

    /// The best value of an alive component of row `y`, `NEG` if none.
    pub fn row_max(&self, y: i64) -> i32 {
        let i = y - self.y0;
        if i < 0 {
            return NEG;
        }
        self.row_best.get(i as usize).copied().unwrap_or(NEG)
    }

    /// The value of the component of `s`, `NEG` if none or dead.
    pub fn value_of(&self, sp: &UnitSpace, s: State) -> i32 {
        match self.comp(sp, s) {
            Some(c) if self.alive[c] => self.value[c],
            _ => NEG,
        }
    }

    /// Whether `s` lies in an alive component.
    pub fn alive_at(&self, sp: &UnitSpace, s: State) -> bool {
        self.comp(sp, s).is_some_and(|c| self.alive[c])
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
}
