//! The orientations a unit can never reach, emptied before the state space is laid out.
//!
//! Coordinates are the board's offset coordinates (row 0 at the top), as in the parent module;
//! an emptied orientation keeps no state and its box sits at the spawn, so every box of a space
//! lies within a few board sizes of the spawn.

use super::Orient;
use crate::engine::Cell;

/// Empties the box of every orientation that no pivot reachable from `spawn` lies in.
///
/// Moves change the pivot by one step and never raise it; turns keep it. So a state of
/// orientation `o` is reachable only if `o`'s box meets the boxes of the orientations reached
/// before it, starting from orientation 0's box, which must hold the spawn. The hull of the
/// boxes met so far over-approximates the reachable pivots, so an orientation left out can never
/// be reached. Why it matters: a member far from its pivot (up to 2^32 columns or rows away in a
/// hostile file) puts a turned orientation's box billions of rows away, and the row loops, which
/// run from the first box's row to the last's, would take minutes. Each emptied box is moved to
/// the spawn, so every box that remains lies within a few board sizes of it.
pub(super) fn prune_unreachable(orients: &mut [Orient], spawn: Cell) {
    let span = |r: &Orient| {
        (
            r.x_lo,
            r.x_lo + r.nx as i64 - 1,
            r.y_lo.max(spawn.y),
            r.y_lo + r.ny as i64 - 1,
        )
    };
    let meets = |a: (i64, i64, i64, i64), b: (i64, i64, i64, i64)| {
        a.0 <= b.1 && b.0 <= a.1 && a.2 <= b.3 && b.2 <= a.3
    };
    let mut kept = vec![false; orients.len()];
    let point = (spawn.x, spawn.x, spawn.y, spawn.y);
    let fits = |r: &Orient| r.nx > 0 && r.ny > 0;
    if let Some(first) = orients.first().filter(|r| fits(r) && meets(point, span(r))) {
        kept[0] = true;
        let mut hull = span(first);
        let mut grew = true;
        while grew {
            grew = false;
            for (o, r) in orients.iter().enumerate() {
                let b = span(r);
                if kept[o] || !fits(r) || b.2 > b.3 || !meets(hull, b) {
                    continue;
                }
                (kept[o], grew) = (true, true);
                hull = (
                    hull.0.min(b.0),
                    hull.1.max(b.1),
                    hull.2.min(b.2),
                    hull.3.max(b.3),
                );
            }
        }
    }
    for (r, kept) in orients.iter_mut().zip(kept) {
        if !kept {
            (r.x_lo, r.nx, r.nw, r.y_lo, r.ny) = (spawn.x, 0, 0, spawn.y, 0);
        }
    }
}
