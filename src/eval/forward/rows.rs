//! The row steps of the forward programme (see the module doc of [`super`], "Model"): a row's
//! values settled by the steps east and west along it, then carried down by the descents into
//! fresh arrivals on the next row.
//!
//! Invariant: a step only raises values, and a row's buffer is left all impossible ([`NEG`])
//! once its values went down to the next row, as the programme expects of both buffers between
//! calls.

use super::{slot_base, Forward, EAST, FRESH, NEG, WEST};
use crate::engine::Command;
use crate::plan::{bits, UnitSpace};

impl Forward {
    /// Settles the current row (its free columns `cols`): one step east or west at a time.
    pub(super) fn settle(&mut self, cols: &[usize]) {
        // East: from a fresh arrival or going east, one step on; west, the mirror.
        for j in 1..cols.len() {
            let (p, xi) = (cols[j - 1], cols[j]);
            if p + 1 == xi {
                self.step_along(p, xi, EAST);
            }
        }
        for j in (0..cols.len().saturating_sub(1)).rev() {
            let (p, xi) = (cols[j + 1], cols[j]);
            if xi + 1 == p {
                self.step_along(p, xi, WEST);
            }
        }
    }

    /// The descents from row `y` (free columns `cols`) into the next: fresh arrivals there. The
    /// row's values go (only its free columns were written) and the arrivals become the current
    /// row; false when none arrived.
    pub(super) fn descend_row(
        &mut self,
        sp: &UnitSpace,
        free: &[u64],
        y: i64,
        cols: &[usize],
    ) -> bool {
        let na = self.ac.len();
        let x_lo = sp.x_lo(0);
        let [sw, se] = [Command::SW, Command::SE].map(|c| {
            let s = sp.step(crate::plan::State { x: x_lo, y, o: 0 }, c);
            s.x - x_lo
        });
        let below = sp.row(0, y + 1).map_or(&[][..], |(b, n)| &free[b..b + n]);
        let mut any = false;
        for &xi in cols {
            let targets = [(Command::SW, sw), (Command::SE, se)].map(|(c, dx)| {
                let nxi = xi as i64 + dx;
                let open = nxi >= 0 && (nxi as usize) < below.len() * 64;
                (open && bits::get(below, nxi as usize)).then_some((c, nxi as usize))
            });
            if targets.iter().any(Option::is_some) {
                any |= self.descend(xi, targets);
            }
        }
        for &xi in cols {
            let base = slot_base(xi, na);
            self.cur[base..base + 3 * na].fill(NEG);
        }
        std::mem::swap(&mut self.cur, &mut self.next);
        any
    }

    /// One step along a row from column `p` to its neighbour `xi`, heading `heading` (east or
    /// west): from a fresh arrival at `p` or one going that way already.
    fn step_along(&mut self, p: usize, xi: usize, heading: usize) {
        let na = self.ac.len();
        let Forward {
            cur,
            best,
            shared,
            edges,
            ..
        } = self;
        // `best` holds `na` values (see `Forward::run`): written in place, not collected.
        let (fresh, along) = ((p * 3 + FRESH) * na, (p * 3 + heading) * na);
        let mut top = NEG;
        for (a, b) in best[..na].iter_mut().enumerate() {
            *b = cur[fresh + a].max(cur[along + a]);
            top = top.max(*b);
        }
        if top <= NEG {
            return;
        }
        let cmd = if heading == EAST {
            Command::E
        } else {
            Command::W
        };
        let base = (xi * 3 + heading) * na;
        for &(t, gain) in &shared[cmd as usize] {
            let t = &mut cur[base + t as usize];
            *t = (*t).max(top + gain);
        }
        for e in &edges[cmd as usize] {
            let v = best[e.from as usize];
            if v > NEG {
                let t = &mut cur[base + e.to as usize];
                *t = (*t).max(v + e.gain);
            }
        }
    }

    /// The descents from column `xi` into the free columns `targets` of the next row (by SW and
    /// SE), where they arrive fresh; whether any value there rose. A descent's value does not
    /// depend on the heading it leaves, so the best of the three is carried.
    fn descend(&mut self, xi: usize, targets: [Option<(Command, usize)>; 2]) -> bool {
        let na = self.ac.len();
        let Forward {
            cur,
            next,
            best,
            shared,
            edges,
            ..
        } = self;
        let base = slot_base(xi, na);
        let mut top = NEG;
        for (a, b) in best[..na].iter_mut().enumerate() {
            *b = cur[base + a]
                .max(cur[base + na + a])
                .max(cur[base + 2 * na + a]);
            top = top.max(*b);
        }
        if top <= NEG {
            return false;
        }
        let mut any = false;
        for (c, nxi) in targets.into_iter().flatten() {
            let to = (nxi * 3 + FRESH) * na;
            for &(t, gain) in &shared[c as usize] {
                let t = &mut next[to + t as usize];
                if top + gain > *t {
                    *t = top + gain;
                    any = true;
                }
            }
            for e in &edges[c as usize] {
                let v = best[e.from as usize];
                let t = &mut next[to + e.to as usize];
                if v > NEG && v + e.gain > *t {
                    *t = v + e.gain;
                    any = true;
                }
            }
        }
        any
    }
}
