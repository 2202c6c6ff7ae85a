//! The board of a [`Tiler`] as [`Tiler::new`] lays it out: the padded bit words, the order in
//! which the search fills the cells, and the candidate anchorings of every shape with the cells
//! where the search may try each.
//!
//! Invariants: the padding (a column past the right edge, a row above and below, the bits past
//! the last row) is filled, so no scan runs off the board; an anchoring the search tries at a
//! cell lies inside the board and has its other cells later in the fill order.

use super::{sign, Cand, FillOrder, Kind};

/// The board's bit words, every cell empty and the padding (a column past the right edge, a row
/// above and below, and the bits past the last row) filled, so that no scan runs off the board;
/// and each cell's parity class (its column's and row's parities).
pub(super) fn padded_board(width: usize, height: usize) -> (Vec<u64>, Vec<u8>) {
    let stride = width + 1;
    let bits = (height + 2) * stride;
    let mut words = vec![0u64; bits.div_ceil(64) + 1];
    let mut parity = vec![0u8; bits];
    for i in 0..bits {
        let (x, y) = (i % stride, i / stride);
        let pad = x == width || y == 0 || y == height + 1;
        if pad {
            words[i >> 6] |= 1 << (i & 63);
        } else {
            parity[i] = ((x & 1) | (((y - 1) & 1) << 1)) as u8;
        }
    }
    // Bits past the last row are padding too, so that no scan runs off the board.
    for i in bits..words.len() * 64 {
        words[i >> 6] |= 1 << (i & 63);
    }
    (words, parity)
}

/// The cells in the order the search fills them, as (x, y).
pub(super) fn fill_cells(width: usize, height: usize, order: FillOrder) -> Vec<(usize, usize)> {
    let mut cells: Vec<(usize, usize)> = Vec::with_capacity(width * height);
    match order {
        FillOrder::RowMajor => {
            for y in 0..height {
                for x in 0..width {
                    cells.push((x, y));
                }
            }
        }
        FillOrder::Bands(band) => {
            // Bands of equal height (differing by at most one row), none shorter than
            // `band` unless the board is.
            let nbands = (height / band.max(1)).max(1);
            let mut top = 0;
            for b in 0..nbands {
                let bottom = top + height / nbands + usize::from(b < height % nbands);
                for x in 0..width {
                    for y in top..bottom {
                        cells.push((x, y));
                    }
                }
                top = bottom;
            }
        }
    }
    cells
}

/// The anchorings of every shape of every kind at each of its four cells, the anchorings of
/// each kind, and each anchoring's cells relative to its anchor.
#[allow(clippy::type_complexity)]
pub(super) fn candidates(
    kinds: &[Kind],
    stride: usize,
) -> (Vec<Cand>, Vec<Vec<u16>>, Vec<[(i32, i32); 4]>) {
    let mut cands = Vec::new();
    let mut kind_cands = vec![Vec::new(); kinds.len()];
    let mut rel: Vec<[(i32, i32); 4]> = Vec::new();
    for (k, kind) in kinds.iter().enumerate() {
        for (s, shape) in kind.shapes.iter().enumerate() {
            for p in 0..4 {
                let (px, py) = (shape.cells[p].0 as i32, shape.cells[p].1 as i32);
                let mut r = [(0, 0); 4];
                let mut others = [0isize; 3];
                let mut o = 0;
                for (j, &(cx, cy)) in shape.cells.iter().enumerate() {
                    let (dx, dy) = (cx as i32 - px, cy as i32 - py);
                    r[j] = (dx, dy);
                    if j != p {
                        others[o] = dy as isize * stride as isize + dx as isize;
                        o += 1;
                    }
                }
                let mut delta = [[0i32; 3]; 4];
                for (par, d) in delta.iter_mut().enumerate() {
                    let (bx, by) = ((par & 1) as i32, (par >> 1) as i32);
                    for &(dx, dy) in &r {
                        let (x, y) = (bx + dx, by + dy);
                        d[0] += sign(x + y);
                        d[1] += sign(x);
                        d[2] += sign(y);
                    }
                }
                kind_cands[k].push(cands.len() as u16);
                cands.push(Cand {
                    kind: k as u8,
                    shape: s as u8,
                    others,
                    origin: -(py as isize * stride as isize + px as isize),
                    delta,
                });
                rel.push(r);
            }
        }
    }
    (cands, kind_cands, rel)
}

/// Per bit of the board, the anchorings (bit `c` for candidate `c`, whose relative cells are
/// `rel[c]`) that lie inside a `width` x `height` board there, and those whose other cells all
/// come later in the fill order (`rank`): the only ones the search tries.
pub(super) fn anchorings(
    cells: &[(usize, usize)],
    rel: &[[(i32, i32); 4]],
    rank: &[usize],
    (width, height): (usize, usize),
) -> (Vec<u128>, Vec<u128>) {
    let stride = width + 1;
    let bits = rank.len();
    let mut valid = vec![0u128; bits];
    let mut inside = vec![0u128; bits];
    for &(x, y) in cells {
        let i = (y + 1) * stride + x;
        for (c, r) in rel.iter().enumerate() {
            let mut later = true;
            let within = r.iter().all(|&(dx, dy)| {
                let (u, v) = (x as i32 + dx, y as i32 + dy);
                if u < 0 || v < 0 || u >= width as i32 || v >= height as i32 {
                    return false;
                }
                let j = (v as usize + 1) * stride + u as usize;
                later &= j == i || rank[j] > rank[i];
                true
            });
            if within {
                inside[i] |= 1 << c;
                if later {
                    valid[i] |= 1 << c;
                }
            }
        }
    }
    (valid, inside)
}

#[cfg(test)]
mod tests {
    use super::super::figure_kinds;
    use super::*;

    /// The stages of [`Tiler::new`]: the padding is filled and the cells empty; the fill order
    /// names every cell once; an anchoring the search tries lies inside the board, with its
    /// other cells later in the order.
    #[test]
    fn a_new_tiler_pads_orders_and_anchors_the_board() {
        for (w, h) in [(1, 1), (4, 4), (7, 3), (13, 12)] {
            let stride = w + 1;
            let (words, _) = padded_board(w, h);
            let bit = |i: usize| words[i >> 6] >> (i & 63) & 1 == 1;
            for i in 0..words.len() * 64 {
                let (x, y) = (i % stride, i / stride);
                let cell = x < w && (1..=h).contains(&y) && i < (h + 2) * stride;
                assert_eq!(bit(i), !cell, "{w} x {h}: bit {i}");
            }
            for order in [FillOrder::RowMajor, FillOrder::Bands(4)] {
                let mut cells = fill_cells(w, h, order);
                let rank: Vec<usize> = {
                    let mut rank = vec![usize::MAX; (h + 2) * stride];
                    for (r, &(x, y)) in cells.iter().enumerate() {
                        rank[(y + 1) * stride + x] = r;
                    }
                    rank
                };
                let kinds = figure_kinds(&[1, 1, 1, 1, 1, 1, 1]);
                let (_, _, rel) = candidates(&kinds, stride);
                let (valid, inside) = anchorings(&cells, &rel, &rank, (w, h));
                for &(x, y) in &cells {
                    let i = (y + 1) * stride + x;
                    assert_eq!(valid[i] & !inside[i], 0);
                    for (c, r) in rel.iter().enumerate() {
                        let at = |&(dx, dy): &(i32, i32)| {
                            let (u, v) = (x as i32 + dx, y as i32 + dy);
                            (u >= 0 && v >= 0 && u < w as i32 && v < h as i32)
                                .then(|| (v as usize + 1) * stride + u as usize)
                        };
                        let within = r.iter().all(|d| at(d).is_some());
                        assert_eq!(inside[i] >> c & 1 == 1, within);
                        let later = within && r.iter().all(|d| rank[at(d).unwrap()] >= rank[i]);
                        assert_eq!(valid[i] >> c & 1 == 1, later);
                    }
                }
                cells.sort();
                cells.dedup();
                assert_eq!(cells.len(), w * h);
            }
        }
    }
}
