//! One row of a unit's state space as a bit mask over every orientation: the bit rows of the
//! orientations `0..k` of one pivot row, side by side. Used to flood along a row (moves E, W and
//! the rotations) and to hold the row components of the encoders.

use super::bits;
use super::space::UnitSpace;

/// The layout of a row mask: where each orientation's bits start, in words.
#[derive(Clone, Debug, Default)]
pub struct RowMask {
    /// Words in a whole row mask.
    pub len: usize,
    spans: Vec<(usize, usize)>,
}

impl RowMask {
    pub fn new(sp: &UnitSpace) -> RowMask {
        let mut spans = Vec::with_capacity(sp.k as usize);
        let mut len = 0;
        for o in 0..sp.k {
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
    pub fn load(&self, sp: &UnitSpace, free: &[u64], y: i64, out: &mut [u64]) {
        for o in 0..sp.k {
            let (off, n) = self.span(o);
            match sp.row(o, y) {
                Some((b, _)) => out[off..off + n].copy_from_slice(&free[b..b + n]),
                None => out[off..off + n].iter_mut().for_each(|w| *w = 0),
            }
        }
    }

    /// Writes a row mask back into the bit rows of row `y` of a flat buffer.
    pub fn store(&self, sp: &UnitSpace, m: &[u64], y: i64, out: &mut [u64]) {
        for o in 0..sp.k {
            let (off, n) = self.span(o);
            if let Some((b, _)) = sp.row(o, y) {
                out[b..b + n].copy_from_slice(&m[off..off + n]);
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

    /// Expands `m` to everything reachable from it along the row through `allowed` (moves E
    /// and W within an orientation, rotations between neighbouring orientations). `m` must be a
    /// subset of `allowed`.
    pub fn flood(&self, sp: &UnitSpace, m: &mut [u64], allowed: &[u64], tmp: &mut Vec<u64>) {
        let k = sp.k;
        loop {
            let mut changed = false;
            for o in 0..k {
                let (off, n) = self.span(o);
                changed |= bits::fill_runs(&mut m[off..off + n], &allowed[off..off + n]);
            }
            if sp.rotates() {
                for o in 0..k {
                    let (off, n) = self.span(o);
                    for o2 in [(o + 1) % k, (o + k - 1) % k] {
                        let (off2, n2) = self.span(o2);
                        tmp.clear();
                        tmp.resize(n2, 0);
                        bits::or_shifted(tmp, &m[off..off + n], sp.x_lo(o2) - sp.x_lo(o));
                        for j in 0..n2 {
                            let add = tmp[j] & allowed[off2 + j] & !m[off2 + j];
                            if add != 0 {
                                m[off2 + j] |= add;
                                changed = true;
                            }
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
