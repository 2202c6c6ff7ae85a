//! One row of a unit's state space as a bit mask over every orientation: the bit rows of the
//! orientations `0..k` of one pivot row, side by side. Used to flood along a row (moves E, W and
//! the rotations) and to hold the row components of the encoders.
//!
//! Two ways to find what the row moves join: [`RowMask::flood`] grows a set to a fixpoint (a
//! few passes over the whole mask each), and [`RowMask::components`] labels every component at
//! once from the runs of set bits (a run is joined along its row; rotations join runs of
//! neighbouring orientations that share a pivot column), by union-find, in one pass. A test
//! checks that both join the same states.
//!
//! A layout knows of the unit's state space only what [`RowSpace`] says (the space builds its
//! layout, so this file cannot use the space itself).

use super::bits;

/// What a row layout needs of a unit's state space ([`crate::plan::UnitSpace`]): its
/// orientations, and where each orientation's rows of states lie.
pub trait RowSpace {
    /// The unit's distinct orientations (`k`): more than one when it rotates.
    fn orientations(&self) -> u8;
    /// Words in a row of orientation `o`.
    fn row_len(&self, o: u8) -> usize;
    /// The pivot column of bit 0 of orientation `o`'s rows.
    fn x_lo(&self, o: u8) -> i64;
    /// Where row `y` of orientation `o` lies in a flat buffer of bit rows (a free map, a reach
    /// map): its first word and its words; `None` outside the space.
    fn row(&self, o: u8, y: i64) -> Option<(usize, usize)>;
}

/// One run of set bits of a row mask: orientation, first bit and one past the last (bit
/// indices within the orientation's span).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub o: u8,
    pub lo: u32,
    pub hi: u32,
}

/// The components of a row mask (see [`RowMask::components`]), with reusable buffers.
#[derive(Clone, Debug, Default)]
pub struct Runs {
    /// The runs, in layout order (orientation, then column).
    pub runs: Vec<Run>,
    /// Per run, its component: components are numbered in the order of their first bit.
    pub comp: Vec<u32>,
    parent: Vec<u32>,
    /// Per orientation, the range of its runs.
    by_o: Vec<(usize, usize)>,
}

impl Runs {
    fn root(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            self.parent[i as usize] = self.parent[p as usize];
            i = p;
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a as u32), self.root(b as u32));
        if ra != rb {
            self.parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

/// The layout of a row mask: where each orientation's bits start, in words.
#[derive(Clone, Debug, Default)]
pub struct RowMask {
    /// Words in a whole row mask.
    pub len: usize,
    spans: Vec<(usize, usize)>,
}

impl RowMask {
    pub fn new(sp: &impl RowSpace) -> RowMask {
        let mut spans = Vec::with_capacity(sp.orientations() as usize);
        let mut len = 0;
        for o in 0..sp.orientations() {
            let n = sp.row_len(o);
            spans.push((len, n));
            len += n;
        }
        RowMask { len, spans }
    }

    /// Offset and length (words) of orientation `o`.
    #[inline]
    pub fn span(&self, o: u8) -> (usize, usize) {
        self.spans[o as usize]
    }

    /// Copies row `y` of a flat buffer of bit rows (a free map, a reach map) into `out` (which
    /// has `len` words).
    pub fn load(&self, sp: &impl RowSpace, free: &[u64], y: i64, out: &mut [u64]) {
        for o in 0..sp.orientations() {
            let (off, n) = self.span(o);
            match sp.row(o, y) {
                Some((b, _)) => bits::copy_row(&mut out[off..off + n], &free[b..b + n]),
                None => out[off..off + n].iter_mut().for_each(|w| *w = 0),
            }
        }
    }

    /// Writes a row mask back into the bit rows of row `y` of a flat buffer.
    pub fn store(&self, sp: &impl RowSpace, m: &[u64], y: i64, out: &mut [u64]) {
        for o in 0..sp.orientations() {
            let (off, n) = self.span(o);
            if let Some((b, _)) = sp.row(o, y) {
                bits::copy_row(&mut out[b..b + n], &m[off..off + n]);
            }
        }
    }

    /// The first set bit: orientation and bit index.
    pub fn first_bit(&self, m: &[u64]) -> Option<(u8, usize)> {
        self.spans
            .iter()
            .enumerate()
            .find_map(|(o, &(off, n))| bits::ones(&m[off..off + n]).next().map(|i| (o as u8, i)))
    }

    pub fn set(&self, m: &mut [u64], o: u8, i: usize) {
        let (off, _) = self.span(o);
        bits::set(&mut m[off..], i);
    }

    /// Splits `m` into its components: the sets of its states joined by moves E and W within an
    /// orientation and by rotations between neighbouring orientations (what [`RowMask::flood`]
    /// joins). Fills `out.runs` and, per run, `out.comp`; returns the number of components,
    /// numbered in the order of their first bit in the layout (the order in which repeated
    /// floods from the first bit left would find them).
    pub fn components(&self, sp: &impl RowSpace, m: &[u64], out: &mut Runs) -> usize {
        out.runs.clear();
        out.by_o.clear();
        for o in 0..sp.orientations() {
            let (off, n) = self.span(o);
            let first = out.runs.len();
            out.runs
                .extend(bits::runs(&m[off..off + n]).map(|(lo, hi)| Run {
                    o,
                    lo: lo as u32,
                    hi: hi as u32,
                }));
            out.by_o.push((first, out.runs.len()));
        }
        out.parent.clear();
        out.parent.extend(0..out.runs.len() as u32);
        if sp.orientations() > 1 {
            // A rotation keeps the pivot: runs of orientations o and o + 1 (mod k) whose pivot
            // columns overlap are joined. With two orientations the pair is the same both ways.
            let k = sp.orientations();
            let pairs = if k == 2 { 1 } else { k };
            for o in 0..pairs {
                let o2 = (o + 1) % k;
                let (a0, a1) = out.by_o[o as usize];
                let (b0, b1) = out.by_o[o2 as usize];
                let (xa, xb) = (sp.x_lo(o), sp.x_lo(o2));
                let (mut i, mut j) = (a0, b0);
                while i < a1 && j < b1 {
                    let (ra, rb) = (out.runs[i], out.runs[j]);
                    let (alo, ahi) = (xa + ra.lo as i64, xa + ra.hi as i64);
                    let (blo, bhi) = (xb + rb.lo as i64, xb + rb.hi as i64);
                    if alo < bhi && blo < ahi {
                        out.union(i, j);
                    }
                    // The run that ends first cannot meet any later run of the other side.
                    if ahi <= bhi {
                        i += 1;
                    } else {
                        j += 1;
                    }
                }
            }
        }
        // Components numbered by their first run in layout order; a root is its component's
        // smallest run index, so it is met first.
        out.comp.clear();
        let mut count = 0u32;
        for r in 0..out.runs.len() {
            let root = out.root(r as u32) as usize;
            let c = if root == r {
                count += 1;
                count - 1
            } else {
                out.comp[root]
            };
            out.comp.push(c);
        }
        count as usize
    }

    /// Whether the component of `m` holding the state `(o, i)` (bit `i` of orientation `o`,
    /// which must be set) meets `target`: what a flood of `m` from that state would reach.
    pub fn joined(
        &self,
        sp: &impl RowSpace,
        m: &[u64],
        (o, i): (u8, usize),
        target: &[u64],
        out: &mut Runs,
    ) -> bool {
        self.components(sp, m, out);
        let i = i as u32;
        let Some(r) = out
            .runs
            .iter()
            .position(|r| r.o == o && r.lo <= i && i < r.hi)
        else {
            return false;
        };
        let c = out.comp[r];
        out.runs
            .iter()
            .zip(&out.comp)
            .any(|(run, &rc)| rc == c && self.meets(target, *run))
    }

    /// Sets the bits of run `r` in the row mask `m`.
    pub fn set_run(&self, m: &mut [u64], r: Run) {
        let (off, _) = self.span(r.o);
        bits::set_range(&mut m[off..], r.lo as usize, r.hi as usize);
    }

    /// Whether the row mask `m` has a bit of run `r` set.
    pub fn meets(&self, m: &[u64], r: Run) -> bool {
        let (off, n) = self.span(r.o);
        bits::any_in(&m[off..off + n], r.lo as usize, r.hi as usize)
    }

    /// Expands `m` to everything reachable from it along the row through `allowed` (moves E
    /// and W within an orientation, rotations between neighbouring orientations). `m` must be a
    /// subset of `allowed`.
    pub fn flood(&self, sp: &impl RowSpace, m: &mut [u64], allowed: &[u64]) {
        let k = sp.orientations();
        // Each orientation's runs are filled again only once a rotation brought it new states,
        // and each pushes its states to its neighbours only once its runs were filled since
        // it last did: the fixpoint reached is the same whatever the order.
        debug_assert!(k as usize <= 6);
        let mut fill = [false; 6];
        fill[..k as usize].fill(true);
        let mut push = [false; 6];
        loop {
            for o in 0..k {
                if fill[o as usize] {
                    fill[o as usize] = false;
                    let (off, n) = self.span(o);
                    bits::fill_runs(&mut m[off..off + n], &allowed[off..off + n]);
                    push[o as usize] = true;
                }
            }
            if k == 1 {
                break;
            }
            let mut changed = false;
            for o in 0..k {
                if !push[o as usize] {
                    continue;
                }
                push[o as usize] = false;
                let (off, n) = self.span(o);
                for o2 in [(o + 1) % k, (o + k - 1) % k] {
                    let (off2, n2) = self.span(o2);
                    let shift = sp.x_lo(o2) - sp.x_lo(o);
                    for j in 0..n2 {
                        let from = bits::window(&m[off..off + n], j as i64 * 64 + shift);
                        let add = from & allowed[off2 + j] & !m[off2 + j];
                        if add != 0 {
                            m[off2 + j] |= add;
                            fill[o2 as usize] = true;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Problem;
    use crate::plan::UnitSpace;
    use rand::{Rng, SeedableRng};

    /// A random unit (one to six orientations, pivots on and off the shape) on an empty board
    /// of 3 to 189 columns (rows one to three words wide), and the free states of one of its
    /// rows, drawn at random; with the problem's JSON. `None` where the draw makes no problem.
    fn random_row(rng: &mut rand_pcg::Pcg64) -> Option<(UnitSpace, Vec<u64>, String)> {
        let (w, h) = (rng.gen_range(3..190usize), rng.gen_range(4..12usize));
        let units = [crate::testkit::random_unit(rng, 5, 0.4)];
        let json = crate::testkit::random_problem(rng, (w, h), (h, 0.0), &units, (1, &[0]));
        let p = Problem::from_json(&json, std::path::Path::new("t")).ok()?;
        let sp = UnitSpace::new(&p.units[0], w, h);
        let mut free = Vec::new();
        sp.free_map(&p.board, &mut free);
        let mut row = vec![0u64; sp.layout().len];
        sp.layout()
            .load(&sp, &free, rng.gen_range(0..h as i64), &mut row);
        Some((sp, row, json))
    }

    /// On random row masks of random units (one to six orientations, pivots on and off the
    /// shape, rows one to three words wide), the components found from the runs are those that
    /// repeated floods from the first bit left find, in the same order.
    #[test]
    fn components_from_runs_equal_repeated_floods() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(30);
        let (mut cases, mut multi) = (0, 0);
        while cases < 3000 {
            let Some((sp, mut m, _)) = random_row(&mut rng) else {
                continue;
            };
            cases += 1;
            let layout = sp.layout();
            // Random states of the row, dense or sparse.
            let density = rng.gen_range(0.2..0.95);
            for word in m.iter_mut() {
                let mut keep = 0u64;
                for b in 0..64 {
                    if rng.gen_bool(density) {
                        keep |= 1 << b;
                    }
                }
                *word &= keep;
            }
            let mut runs = Runs::default();
            let count = layout.components(&sp, &m, &mut runs);
            let mut remaining = m.clone();
            let mut want: Vec<Vec<u64>> = Vec::new();
            while let Some((o, i)) = layout.first_bit(&remaining) {
                let mut c = vec![0u64; layout.len];
                layout.set(&mut c, o, i);
                layout.flood(&sp, &mut c, &remaining);
                for (r, w) in remaining.iter_mut().zip(&c) {
                    *r &= !w;
                }
                want.push(c);
            }
            assert_eq!(count, want.len(), "case {cases}");
            let mut got = vec![vec![0u64; layout.len]; count];
            for (r, &c) in runs.runs.iter().zip(&runs.comp) {
                layout.set_run(&mut got[c as usize], *r);
            }
            assert_eq!(got, want, "case {cases}");
            multi += (count > 1 && sp.rotates()) as usize;
            // From a random state of the mask, whether its flood meets a random target.
            let target: Vec<u64> = m
                .iter()
                .map(|&w| w & rng.gen::<u64>() & rng.gen::<u64>())
                .collect();
            if let Some((o, i)) = layout.first_bit(&m) {
                let mut c = vec![0u64; layout.len];
                layout.set(&mut c, o, i);
                layout.flood(&sp, &mut c, &m);
                let meets = c.iter().zip(&target).any(|(a, b)| a & b != 0);
                assert_eq!(
                    layout.joined(&sp, &m, (o, i), &target, &mut runs),
                    meets,
                    "case {cases}"
                );
            }
        }
        assert!(
            multi > 500,
            "only {multi} rows of several components that rotate"
        );
    }

    /// The slow twin of [`RowMask::flood`]: every orientation's runs filled and every rotation
    /// pushed, all of them, until a sweep changes nothing.
    fn flood_by_sweeps(layout: &RowMask, sp: &impl RowSpace, m: &mut [u64], allowed: &[u64]) {
        let k = sp.orientations();
        loop {
            let mut changed = false;
            for o in 0..k {
                let (off, n) = layout.span(o);
                changed |= bits::fill_runs(&mut m[off..off + n], &allowed[off..off + n]);
            }
            for o in 0..k {
                let (off, n) = layout.span(o);
                for o2 in [(o + 1) % k, (o + k - 1) % k] {
                    let (off2, n2) = layout.span(o2);
                    let mut tmp = vec![0u64; n2];
                    bits::or_shifted(&mut tmp, &m[off..off + n], sp.x_lo(o2) - sp.x_lo(o));
                    for j in 0..n2 {
                        let add = tmp[j] & allowed[off2 + j] & !m[off2 + j];
                        changed |= add != 0;
                        m[off2 + j] |= add;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The flood against its sweeps on random rows of random units (one to six orientations,
    /// pivots on and off the shape, rows one to three words wide): a few random states spread
    /// through random allowed states, dense or sparse.
    #[test]
    fn the_flood_reaches_what_sweeps_reach() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(71);
        let (mut cases, mut rotating) = (0, 0);
        while cases < 3000 {
            let Some((sp, mut allowed, json)) = random_row(&mut rng) else {
                continue;
            };
            cases += 1;
            let layout = sp.layout();
            let density = rng.gen_range(0.2..1.0);
            for word in allowed.iter_mut() {
                *word &= (0..64).fold(0u64, |a, b| a | (rng.gen_bool(density) as u64) << b);
            }
            let mut seeds = allowed.clone();
            for word in seeds.iter_mut() {
                *word &= (0..64).fold(0u64, |a, b| a | (rng.gen_bool(0.02) as u64) << b);
            }
            let (mut got, mut want) = (seeds.clone(), seeds);
            layout.flood(&sp, &mut got, &allowed);
            flood_by_sweeps(layout, &sp, &mut want, &allowed);
            assert_eq!(got, want, "case {cases}: {json}");
            rotating += (sp.rotates() && got.iter().any(|&w| w != 0)) as usize;
        }
        assert!(rotating > 1000, "{rotating} rotating cases");
    }
}
