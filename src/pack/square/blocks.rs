//! Divide and conquer for large boards: cut the board into blocks of about 12 x 12, deal the
//! multiset out to the blocks in proportion, repair the deal where a block breaks a colouring
//! argument, and tile each block on its own with the exact search.
//!
//! This is a shortcut, not a proof: a board can be tileable while a given deal is not, so a
//! failure here says nothing and the caller goes on with the search of the whole board. Its use
//! is the signatures that the whole-board search handles badly on large boards, typically one or
//! two figures only (all L, all T): in small blocks each piece of the deal is easy.
//!
//! Invariants: every block's area is a multiple of 4 (both sides even, or one side a multiple of
//! 4), the blocks' counts add up to the signature exactly, and the pieces returned are in board
//! coordinates (x the column, y the row, from the top-left corner).

use super::{quick_impossibility, solve_with_stats, Instance, Piece, Verdict};

/// The side the blocks aim at.
const TARGET: usize = 12;
/// Node budget for one block's search.
const BLOCK_NODES: u64 = 200_000;
/// How many swaps between neighbouring blocks are tried after a block fails.
const MAX_REPAIRS: usize = 200;

/// One block: its corner, its size, and its share of the pieces (signature order).
#[derive(Debug, Clone)]
struct Block {
    x: usize,
    y: usize,
    inst: Instance,
}

/// Tries to tile the board block by block within about `budget` placements in all. Returns the
/// tiling, or `None` (which proves nothing) with the placements spent added to `nodes`.
pub fn solve(inst: &Instance, budget: u64, nodes: &mut u64) -> Option<Vec<Piece>> {
    let (w, h) = (inst.width, inst.height);
    // Parts with units that make every block's area a multiple of 4, and of 8 or 16 where the
    // board allows: some single-figure deals need it (L alone tiles only areas that are
    // multiples of 8, T alone only rectangles with both sides multiples of 4).
    let (xu, yu) = match (w % 4, h % 4) {
        (0, 0) => (4, 4),
        (0, 2) => (4, 2),
        (2, 0) => (2, 4),
        (2, 2) => (2, 2),
        (_, 0) if h % 8 == 0 => (1, 8),
        (0, _) if w % 8 == 0 => (8, 1),
        (_, 0) => (1, 4),
        (0, _) => (4, 1),
        _ => return None,
    };
    let xs = split(w, xu);
    let ys = split(h, yu);
    let mut blocks = Vec::new();
    let mut y = 0;
    for &bh in &ys {
        let mut x = 0;
        for &bw in &xs {
            blocks.push(Block {
                x,
                y,
                inst: Instance {
                    width: bw,
                    height: bh,
                    counts: [0; 7],
                },
            });
            x += bw;
        }
        y += bh;
    }
    deal(inst, &mut blocks);
    repair_colourings(&mut blocks)?;

    let mut solved: Vec<Option<Vec<Piece>>> = vec![None; blocks.len()];
    let mut repairs = 0;
    let mut i = 0;
    while i < blocks.len() {
        if solved[i].is_some() {
            i += 1;
            continue;
        }
        if *nodes >= budget {
            return None;
        }
        let (v, st) = solve_with_stats(&blocks[i].inst, Some(BLOCK_NODES));
        *nodes += st.nodes;
        if let Verdict::Solved(p) = v {
            solved[i] = Some(p);
            i += 1;
            continue;
        }
        // Swap one piece with a neighbour (the next block, or the previous one for the last)
        // and solve both again.
        repairs += 1;
        if repairs > MAX_REPAIRS || blocks.len() < 2 {
            return None;
        }
        let j = if i + 1 < blocks.len() { i + 1 } else { i - 1 };
        if !swap_one(&mut blocks, i, j, repairs) {
            return None;
        }
        solved[j] = None;
        i = i.min(j);
    }
    let mut out = Vec::new();
    for (b, pieces) in blocks.iter().zip(solved) {
        for p in pieces? {
            out.push(Piece {
                x: p.x + b.x,
                y: p.y + b.y,
                ..p
            });
        }
    }
    out.sort_by_key(|p| (p.y, p.x));
    Some(out)
}

/// Cuts `len` into parts of about [`TARGET`], each a multiple of `unit` (`len` is one).
fn split(len: usize, unit: usize) -> Vec<usize> {
    let units = len / unit;
    let n = ((len + TARGET / 2) / TARGET).clamp(1, units.max(1));
    (0..n)
        .map(|k| (units / n + usize::from(k < units % n)) * unit)
        .collect()
}

/// Deals the pieces out: a sequence in which every prefix has the signature's proportions (the
/// figure most behind its share comes next), cut into the blocks' numbers of pieces.
fn deal(inst: &Instance, blocks: &mut [Block]) {
    let total: u64 = inst.counts.iter().map(|&c| c as u64).sum();
    let mut dealt = [0u64; 7];
    let mut k = 0u64;
    for b in blocks.iter_mut() {
        let n = (b.inst.width * b.inst.height / 4) as u64;
        for _ in 0..n {
            k += 1;
            // Behind = share due after k pieces minus pieces dealt, scaled by `total`.
            let f = (0..7)
                .filter(|&f| dealt[f] < inst.counts[f] as u64)
                .max_by_key(|&f| (inst.counts[f] as u64 * k) as i128 - (dealt[f] * total) as i128)
                .expect("the blocks hold exactly the signature's pieces");
            dealt[f] += 1;
            b.inst.counts[f] += 1;
        }
    }
}

/// Makes every block pass the colouring arguments by swapping pieces between blocks that fail
/// them; `None` if that does not work out.
fn repair_colourings(blocks: &mut [Block]) -> Option<()> {
    for round in 0..4 * blocks.len() + 4 {
        let bad: Vec<usize> = (0..blocks.len())
            .filter(|&i| quick_impossibility(&blocks[i].inst).is_some())
            .collect();
        let Some(&i) = bad.first() else {
            return Some(());
        };
        // Pair the failing block with the next failing one if any (two wrongs make a right:
        // an odd T count moves from one to the other), else with its neighbour.
        let j = bad.get(1).copied().unwrap_or(if i + 1 < blocks.len() {
            i + 1
        } else {
            i.checked_sub(1)?
        });
        if !swap_one(blocks, i, j, round) {
            return None;
        }
    }
    None
}

/// Swaps one piece of block `i` for one of block `j` so that both pass the colouring arguments,
/// trying the figure pairs in an order rotated by `salt` (so repeated repairs vary). Returns
/// whether a swap was made.
fn swap_one(blocks: &mut [Block], i: usize, j: usize, salt: usize) -> bool {
    for n in 0..49 {
        let pair = (n + salt * 7) % 49;
        let (f, g) = (pair / 7, pair % 7);
        if f == g || blocks[i].inst.counts[f] == 0 || blocks[j].inst.counts[g] == 0 {
            continue;
        }
        blocks[i].inst.counts[f] -= 1;
        blocks[i].inst.counts[g] += 1;
        blocks[j].inst.counts[g] -= 1;
        blocks[j].inst.counts[f] += 1;
        if quick_impossibility(&blocks[i].inst).is_none()
            && quick_impossibility(&blocks[j].inst).is_none()
        {
            return true;
        }
        blocks[i].inst.counts[f] += 1;
        blocks[i].inst.counts[g] -= 1;
        blocks[j].inst.counts[g] += 1;
        blocks[j].inst.counts[f] -= 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_keep_units_and_sum() {
        for len in [2, 4, 6, 30, 50, 98, 200] {
            let p = split(len, 2);
            assert_eq!(p.iter().sum::<usize>(), len);
            assert!(p.iter().all(|&x| x % 2 == 0 && x > 0), "{len}: {p:?}");
        }
        assert_eq!(split(13, 1).iter().sum::<usize>(), 13);
        assert!(split(200, 4).iter().all(|&x| x % 4 == 0));
    }

    #[test]
    fn deal_is_exact_and_proportional() {
        let inst = Instance {
            width: 48,
            height: 48,
            counts: [42, 107, 38, 25, 127, 102, 135],
        };
        let mut blocks: Vec<Block> = (0..16)
            .map(|k| Block {
                x: (k % 4) * 12,
                y: (k / 4) * 12,
                inst: Instance {
                    width: 12,
                    height: 12,
                    counts: [0; 7],
                },
            })
            .collect();
        deal(&inst, &mut blocks);
        for f in 0..7 {
            let sum: u32 = blocks.iter().map(|b| b.inst.counts[f]).sum();
            assert_eq!(sum, inst.counts[f]);
            // Every prefix of the deal is within one piece of its share, so every block is
            // within two.
            for b in &blocks {
                let share = inst.counts[f] as f64 / 16.0;
                assert!((b.inst.counts[f] as f64 - share).abs() < 2.0);
            }
        }
    }

    #[test]
    fn single_figure_boards() {
        for (w, h, counts) in [
            (100, 100, [0, 0, 2500, 0, 0, 0, 0]),
            (100, 100, [0, 0, 0, 0, 0, 2500, 0]),
            (60, 44, [0, 330, 330, 0, 0, 0, 0]),
        ] {
            let inst = Instance {
                width: w,
                height: h,
                counts,
            };
            let mut nodes = 0;
            let p = solve(&inst, u64::MAX, &mut nodes).expect("tileable block by block");
            assert!(super::super::check(&inst, &p).is_empty());
        }
    }
}
