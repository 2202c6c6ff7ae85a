//! The stack evaluation's map of a problem: the spawn footprints of its units, the danger band
//! under them and the probe units whose room on a board measures how cramped it is. It depends
//! only on the problem, so it is built once with the move-generation tables ([`super::Tables`]);
//! the evaluation that reads it (its methods on boards and locks) lives in `crate::eval::stack`,
//! which the planner reaches only through [`super::Evaluator`].

use super::space::UnitSpace;
use super::Scratch;
use crate::engine::{Board, Unit};

/// The problem's spawn footprints and danger band, computed once per problem.
#[derive(Clone, Debug, Default)]
pub struct StackMap {
    pub(crate) width: usize,
    /// Rows from the top that some unit's spawn position covers.
    pub(crate) spawn_rows: usize,
    /// Per cell of the `spawn_rows` top rows (row-major), the units whose spawn position covers
    /// it, as bits (unit `i` as bit `i % 64`).
    pub(crate) spawn_units: Vec<u64>,
    /// Per unit (up to 64), the cells of its spawn position as (x, y).
    pub(crate) footprints: Vec<Vec<(usize, usize)>>,
    /// Distinct bits in use (the units, up to 64).
    pub(crate) unit_bits: u32,
    /// Per row from the top, the danger of a filled cell there (0 past the band).
    pub(crate) danger_rows: Vec<f64>,
    pub(crate) height: usize,
    /// Words per bit row of the board's cells.
    pub(crate) words: usize,
    /// The units whose reach measures `cramped` (the one with the most cells and the one that
    /// spans the most rows), each with the states it reaches on an empty board.
    pub(crate) probes: Vec<(usize, f64)>,
}

impl StackMap {
    /// The map of a `width` x `height` board with these units, whose spaces are `spaces`.
    pub fn new(units: &[Unit], spaces: &[UnitSpace], width: usize, height: usize) -> StackMap {
        let mut spawn_rows = 0;
        let mut reserve = 0;
        for u in units {
            for c in u.cells(u.spawn(), 0) {
                if c.y >= 0 {
                    spawn_rows = spawn_rows.max(c.y as usize + 1);
                }
            }
            for o in 0..6 {
                let s = u.shape(o, 0);
                reserve = reserve.max((s.max_dy - s.min_dy + 1) as usize);
            }
        }
        let spawn_rows = spawn_rows.min(height);
        let mut spawn_units = vec![0u64; spawn_rows * width];
        let mut footprints = vec![Vec::new(); units.len().min(64)];
        for (i, u) in units.iter().enumerate() {
            for c in u.cells(u.spawn(), 0) {
                if c.x >= 0 && (c.x as usize) < width && c.y >= 0 && (c.y as usize) < spawn_rows {
                    spawn_units[c.y as usize * width + c.x as usize] |= 1 << (i % 64);
                    footprints[i % 64].push((c.x as usize, c.y as usize));
                }
            }
        }
        let band = (spawn_rows + reserve).min(height);
        let danger_rows = (0..band)
            .map(|y| {
                if y < spawn_rows {
                    1.0
                } else {
                    (spawn_rows + reserve - y) as f64 / (reserve + 1) as f64
                }
            })
            .collect();
        let rows = |u: &Unit| {
            (0..6)
                .map(|o| {
                    let s = u.shape(o, 0);
                    s.max_dy - s.min_dy
                })
                .max()
                .unwrap_or(0)
        };
        let biggest = (0..units.len()).max_by_key(|&i| (units[i].size(), std::cmp::Reverse(i)));
        let tallest = (0..units.len()).max_by_key(|&i| (rows(&units[i]), std::cmp::Reverse(i)));
        let mut probes: Vec<(usize, f64)> = Vec::new();
        let empty = Board::new(width, height);
        let mut scratch = Scratch::default();
        for u in biggest.into_iter().chain(tallest) {
            if probes.iter().any(|p| p.0 == u) {
                continue;
            }
            let (n, _) = reached(&spaces[u], &empty, 0, &mut scratch);
            if n > 0 {
                probes.push((u, n as f64));
            }
        }
        debug_assert!(probes.len() <= MAX_PROBES);
        StackMap {
            probes,
            width,
            spawn_rows,
            spawn_units,
            footprints,
            unit_bits: units.len().min(64) as u32,
            danger_rows,
            height,
            words: width.div_ceil(64),
        }
    }
}

/// The most probe units a [`StackMap`] has (the biggest and the tallest).
pub const MAX_PROBES: usize = 2;

/// The states `space`'s unit reaches from its spawn on `board` (0 when it cannot spawn), whose
/// rows below the stack's top are `below` (counted as work), and the lowest board row a cell of
/// a reached state covers (-1 when none is reached; see [`UnitSpace::deepest_row`]).
pub(crate) fn reached(
    space: &UnitSpace,
    board: &Board,
    below: u64,
    scratch: &mut Scratch,
) -> (u64, i64) {
    // A survival beam asks for it once per probe unit per partial game: uncounted, its
    // attempts took 1.5 times their counted work on problem 18.
    crate::work::add(crate::work::Op::ProbeRow, space.states_per_row() * below);
    // The reach clears its maps and copies the empty board's rows above the stack, as a move
    // generation does: on a small board this, not the rows below the stack, is most of a probe.
    crate::work::add(crate::work::Op::GenWord, space.row_words as u64);
    crate::work::add(crate::work::Op::MapCell, space.map_cells_per_row() * below);
    // Only the number of states reached is wanted, so the free map is worked out only as far
    // as the reach goes: on a board whose stack a big unit cannot get through, a few rows.
    if !space.reach_on(
        board,
        &mut scratch.free,
        &mut scratch.reach,
        &mut scratch.bufs,
    ) {
        return (0, -1);
    }
    let count = scratch.reach.iter().map(|w| w.count_ones() as u64).sum();
    (count, space.deepest_row(&scratch.reach))
}
