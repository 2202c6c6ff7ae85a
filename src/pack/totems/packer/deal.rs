//! The large boxes' blocks: a box cut into a grid of blocks of at most 8 x 8, the bag dealt to
//! them shape by shape, and the swaps that move pieces between a block that failed and a
//! partner (see [`super`] for why the deal and the swaps are made the way they are).
//!
//! Invariants: the blocks of a box hold the bag exactly (the deal places every piece, a swap
//! moves as many pieces each way), and a block without holes always holds an even number of T
//! (the checkerboard's parity condition), which every swap keeps.

use crate::pack::totems::shapes::{Kind, KINDS};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_pcg::Pcg64;

/// Splits a side into parts of at most 8, as equal as possible (larger parts first).
fn split(side: usize) -> Vec<usize> {
    let k = side.div_ceil(8);
    (0..k)
        .map(|i| side / k + usize::from(i < side % k))
        .collect()
}

/// A block of the grid: its corner, its size, its share of the bag.
#[derive(Debug, Clone)]
pub(super) struct Block {
    pub(super) x: usize,
    pub(super) y: usize,
    pub(super) w: usize,
    pub(super) h: usize,
    /// Pieces of each shape dealt to it.
    pub(super) counts: [u32; KINDS],
}

impl Block {
    fn pieces(&self) -> u32 {
        self.counts.iter().sum()
    }
    #[cfg(test)]
    fn holes(&self) -> u32 {
        (self.w * self.h) as u32 - 4 * self.pieces()
    }
}

/// A block's place in the box before dealing: x, y, width, height, pieces it will hold.
type Slot = (usize, usize, usize, usize, u32);

/// Cuts a w x h box into blocks and decides how many pieces each holds (sum = n), or `None` if
/// the box is too small.
pub(super) fn layout(w: usize, h: usize, n: usize) -> Option<Vec<Slot>> {
    let mut blocks = Vec::new();
    let mut y = 0;
    for bh in split(h) {
        let mut x = 0;
        for bw in split(w) {
            blocks.push((x, y, bw, bh, ((bw * bh) / 4) as u32));
            x += bw;
        }
        y += bh;
    }
    let capacity: u32 = blocks.iter().map(|b| b.4).sum();
    if (capacity as usize) < n {
        return None;
    }
    // Remove the pieces there is no room for from the blocks with the fewest holes (ties: the
    // larger block), spreading the slack so that no block is needlessly tight.
    for _ in 0..(capacity as usize - n) {
        let i = (0..blocks.len())
            .filter(|&i| blocks[i].4 > 0)
            .min_by_key(|&i| {
                let (_, _, bw, bh, k) = blocks[i];
                ((bw * bh) as u32 - 4 * k, std::cmp::Reverse(bw * bh))
            })
            .expect("capacity left");
        blocks[i].4 -= 1;
    }
    Some(blocks)
}

/// Deals the bag to blocks of given sizes: shape by shape, each piece to the block with the
/// largest share of its room still free; T in pairs so that blocks without holes get an even
/// number; a last odd T to a block with holes. `None` if parity cannot be met.
pub(super) fn deal(slots: &[Slot], bag: [u32; KINDS], rng: &mut Pcg64) -> Option<Vec<Block>> {
    let mut blocks: Vec<Block> = slots
        .iter()
        .map(|&(x, y, w, h, _)| Block {
            x,
            y,
            w,
            h,
            counts: [0; KINDS],
        })
        .collect();
    let want: Vec<u32> = slots.iter().map(|s| s.4).collect();
    let holey: Vec<bool> = slots
        .iter()
        .map(|&(_, _, w, h, k)| (w * h) as u32 > 4 * k)
        .collect();
    // Random tie-breaks so that re-deals differ.
    let jitter: Vec<f64> = (0..blocks.len()).map(|_| rng.gen::<f64>() * 1e-6).collect();
    let pick = |blocks: &[Block], need: u32, only_holey: bool| -> Option<usize> {
        (0..blocks.len())
            .filter(|&i| want[i] >= blocks[i].pieces() + need && (!only_holey || holey[i]))
            .max_by(|&i, &j| {
                let fi = (want[i] - blocks[i].pieces()) as f64 / want[i] as f64 + jitter[i];
                let fj = (want[j] - blocks[j].pieces()) as f64 / want[j] as f64 + jitter[j];
                fi.partial_cmp(&fj).expect("finite")
            })
    };
    let t = Kind::T.index();
    let mut tees = bag[t];
    if tees % 2 == 1 {
        let i = pick(&blocks, 1, true)?;
        blocks[i].counts[t] += 1;
        tees -= 1;
    }
    while tees > 0 {
        let i = pick(&blocks, 2, false)?;
        blocks[i].counts[t] += 2;
        tees -= 2;
    }
    // S and Z first and one right after the other: dealt round-robin together, every block gets
    // an even share of the two, and blocks crowded with S and Z are the ones that cannot be tiled.
    let mut kinds: Vec<usize> = (0..KINDS).filter(|&k| k != t).collect();
    kinds.shuffle(rng);
    kinds.sort_by_key(|&k| (!is_skew(k), std::cmp::Reverse(bag[k])));
    for k in kinds {
        for _ in 0..bag[k] {
            let i = pick(&blocks, 1, false)?;
            blocks[i].counts[k] += 1;
        }
    }
    Some(blocks)
}

/// Is shape k an S or a Z (the shapes that leave the most awkward borders)?
fn is_skew(k: usize) -> bool {
    k == Kind::S.index() || k == Kind::Z.index()
}

/// The number of S and Z in a block.
fn skews(b: &Block) -> u32 {
    b.counts[Kind::S.index()] + b.counts[Kind::Z.index()]
}

/// Moves pieces from a failed block to a partner in the direction that evens them out: the
/// failed block gives a shape it holds more of (in proportion) than the partner and takes one the
/// partner holds more of; sometimes it takes a pair of T (the most versatile shape) for two of its
/// own. Keeps both blocks' piece counts and T parity. Returns false if no such move exists.
pub(super) fn directed_swap(failed: &mut Block, partner: &mut Block, rng: &mut Pcg64) -> bool {
    let t = Kind::T.index();
    let (fp, pp) = (failed.pieces() as f64, partner.pieces() as f64);
    if fp == 0.0 || pp == 0.0 {
        return false;
    }
    // Surplus of each shape in the failed block over the partner, in proportion, with jitter.
    let surplus: Vec<f64> = (0..KINDS)
        .map(|k| {
            failed.counts[k] as f64 / fp - partner.counts[k] as f64 / pp + rng.gen::<f64>() * 0.05
        })
        .collect();
    let give = |counts: &[u32; KINDS], exclude: Option<usize>| {
        (0..KINDS)
            .filter(|&k| k != t && counts[k] > 0 && Some(k) != exclude)
            .max_by(|&x, &y| surplus[x].partial_cmp(&surplus[y]).expect("finite"))
    };
    if partner.counts[t] >= 2 && failed.counts[t] == 0 && rng.gen_bool(0.5) {
        let Some(x1) = give(&failed.counts, None) else {
            return false;
        };
        failed.counts[x1] -= 1;
        let Some(x2) = give(&failed.counts, None) else {
            failed.counts[x1] += 1;
            return false;
        };
        failed.counts[x2] -= 1;
        failed.counts[t] += 2;
        partner.counts[t] -= 2;
        partner.counts[x1] += 1;
        partner.counts[x2] += 1;
        return true;
    }
    if skews(failed) > skews(partner) {
        // Hand over an S or Z for a shape that is neither.
        let x = [Kind::S.index(), Kind::Z.index()]
            .into_iter()
            .filter(|&k| failed.counts[k] > 0)
            .max_by(|&a, &b| surplus[a].partial_cmp(&surplus[b]).expect("finite"));
        let y = (0..KINDS)
            .filter(|&k| k != t && !is_skew(k) && partner.counts[k] > 0)
            .min_by(|&a, &b| surplus[a].partial_cmp(&surplus[b]).expect("finite"));
        if let (Some(x), Some(y)) = (x, y) {
            failed.counts[x] -= 1;
            failed.counts[y] += 1;
            partner.counts[y] -= 1;
            partner.counts[x] += 1;
            return true;
        }
    }
    let Some(x) = give(&failed.counts, None) else {
        return false;
    };
    let Some(y) = (0..KINDS)
        .filter(|&k| k != t && k != x && partner.counts[k] > 0)
        .min_by(|&a, &b| surplus[a].partial_cmp(&surplus[b]).expect("finite"))
    else {
        return false;
    };
    failed.counts[x] -= 1;
    failed.counts[y] += 1;
    partner.counts[y] -= 1;
    partner.counts[x] += 1;
    true
}

/// Moves pieces between a failed block and a partner: one non-T each way, or a pair of T for two
/// non-T. Keeps both blocks' piece counts, so holes and T parity are unchanged.
pub(super) fn swap(a: &mut Block, b: &mut Block, rng: &mut Pcg64) -> bool {
    let t = Kind::T.index();
    for _ in 0..20 {
        if rng.gen_bool(0.25) {
            // Two T from one side for two non-T from the other.
            let (from, to) = if rng.gen_bool(0.5) {
                (&mut *a, &mut *b)
            } else {
                (&mut *b, &mut *a)
            };
            if from.counts[t] < 2 {
                continue;
            }
            let others: Vec<usize> = (0..KINDS).filter(|&k| k != t && to.counts[k] > 0).collect();
            let Some(&k1) = others.choose(rng) else {
                continue;
            };
            to.counts[k1] -= 1;
            let others: Vec<usize> = (0..KINDS).filter(|&k| k != t && to.counts[k] > 0).collect();
            let Some(&k2) = others.choose(rng) else {
                to.counts[k1] += 1;
                continue;
            };
            to.counts[k2] -= 1;
            to.counts[t] += 2;
            from.counts[t] -= 2;
            from.counts[k1] += 1;
            from.counts[k2] += 1;
            return true;
        }
        let ka: Vec<usize> = (0..KINDS).filter(|&k| k != t && a.counts[k] > 0).collect();
        let kb: Vec<usize> = (0..KINDS).filter(|&k| k != t && b.counts[k] > 0).collect();
        let (Some(&x), Some(&y)) = (ka.choose(rng), kb.choose(rng)) else {
            continue;
        };
        if x == y || (is_skew(y) && !is_skew(x)) {
            // Never crowd the failed block (a) with more S and Z.
            continue;
        }
        a.counts[x] -= 1;
        a.counts[y] += 1;
        b.counts[y] -= 1;
        b.counts[x] += 1;
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::solve;
    use super::*;
    use rand::SeedableRng;
    use std::time::{Duration, Instant};

    #[test]
    fn split_is_even_and_at_most_8() {
        assert_eq!(split(32), vec![8, 8, 8, 8]);
        assert_eq!(split(23), vec![8, 8, 7]);
        assert_eq!(split(46), vec![8, 8, 8, 8, 7, 7]);
        assert_eq!(split(12), vec![6, 6]);
        assert_eq!(split(5), vec![5]);
    }

    #[test]
    fn layout_spreads_the_slack() {
        let l = layout(23, 23, 128).unwrap();
        let pieces: u32 = l.iter().map(|b| b.4).sum();
        assert_eq!(pieces, 128);
        assert!(layout(4, 4, 5).is_none());
    }

    #[test]
    fn deal_gives_even_t_to_blocks_without_holes() {
        let mut rng = Pcg64::seed_from_u64(3);
        let slots = layout(16, 16, 64).unwrap();
        let mut bag = [9u32; KINDS];
        bag[Kind::T.index()] = 10;
        let n: u32 = bag.iter().sum();
        assert_eq!(n, 64);
        let blocks = deal(&slots, bag, &mut rng).unwrap();
        for b in &blocks {
            assert_eq!(b.holes(), 0);
            assert_eq!(b.counts[Kind::T.index()] % 2, 0);
        }
        let mut total = [0u32; KINDS];
        for b in &blocks {
            for (t, c) in total.iter_mut().zip(b.counts) {
                *t += c;
            }
        }
        assert_eq!(total, bag);
        // An odd T count has nowhere to go in a box without holes.
        bag[Kind::T.index()] += 1;
        bag[Kind::I.index()] -= 1;
        assert!(deal(&slots, bag, &mut rng).is_none());
    }

    /// Regression: the bag I13 J8 L6 O8 S14 T2 Z13 (level 7, eval round 527) once missed the
    /// 16x16 box in time because S and Z were dealt apart, leaving blocks with 8 S and Z and no T,
    /// which cannot be tiled. Dealt together, every block gets 6 or 7.
    #[test]
    fn s_and_z_are_spread_evenly_over_the_blocks() {
        let mut bag = [0u32; KINDS];
        for (k, c) in [
            (Kind::I, 13),
            (Kind::J, 8),
            (Kind::L, 6),
            (Kind::O, 8),
            (Kind::S, 14),
            (Kind::T, 2),
            (Kind::Z, 13),
        ] {
            bag[k.index()] = c;
        }
        let slots = layout(16, 16, 64).unwrap();
        for seed in 0..50 {
            let blocks = deal(&slots, bag, &mut Pcg64::seed_from_u64(seed)).unwrap();
            let sz: Vec<u32> = blocks.iter().map(skews).collect();
            let (lo, hi) = (*sz.iter().min().unwrap(), *sz.iter().max().unwrap());
            assert!(hi - lo <= 1, "seed {seed}: {sz:?}");
        }
        // And the box is packed.
        let far = Instant::now() + Duration::from_secs(20);
        let kinds: Vec<Kind> = Kind::ALL
            .iter()
            .flat_map(|&k| std::iter::repeat_n(k, bag[k.index()] as usize))
            .collect();
        assert_eq!(solve(&kinds, far, 528).score, 384.0);
    }
}
