//! The no-repeat rule along a row as the encoders' dynamic programmes model it: a *heading*
//! says how the unit arrived at its position on the current row.
//!
//! A descent empties the set of positions visited on a row (no command climbs), so a unit that
//! arrives by a descent, or stands at its spawn, is [`FRESH`]: nothing else of its row is
//! visited. After a move along the row the position it came from is visited, so the move's
//! reversal is forbidden: a unit that last moved [`WEST`] may not move east, and so on. For a
//! unit that cannot rotate this is exact (once it has moved one way along a row it can only
//! keep going that way); for a unit that rotates ([`CW`], [`CCW`]) it is a relaxation (a walk
//! such as E, CW, W, CCW returns to its start), so a programme over it gives upper bounds.
//!
//! Positions are those of [`crate::plan::space`]: a pivot (x, y), y growing downwards, and a
//! canonical orientation; a row is one value of y, west and east are x decreasing and
//! increasing along it, and the turns change the orientation in place.
//!
//! Headings are indices into the programmes' value tables: the first [`LINE`] serve a unit
//! that cannot rotate ([`super::line`], [`crate::eval::forward`]), all [`ALL`] a unit that can
//! ([`super::chars`]).

use crate::engine::Command;

/// Arrived by a descent or at the spawn: nothing else of the row is visited.
pub const FRESH: usize = 0;
/// Last moved west: the east neighbour is visited.
pub const WEST: usize = 1;
/// Last moved east: the west neighbour is visited.
pub const EAST: usize = 2;
/// Last turned clockwise: the counter-clockwise neighbour is visited.
pub const CW: usize = 3;
/// Last turned counter-clockwise: the clockwise neighbour is visited.
pub const CCW: usize = 4;

/// The number of headings of a unit that cannot rotate (fresh, west, east).
pub const LINE: usize = 3;
/// The number of headings of a unit that can rotate.
pub const ALL: usize = 5;

/// The heading after command `c`: a descent (or a lock) leaves the unit fresh.
#[inline]
pub fn after(c: Command) -> usize {
    match c {
        Command::W => WEST,
        Command::E => EAST,
        Command::CW => CW,
        Command::CCW => CCW,
        Command::SW | Command::SE => FRESH,
    }
}

/// The heading after command `c` for a unit that cannot rotate, whose programmes keep only
/// the first [`LINE`] headings: a turn, which such a unit never plays usefully, counts as
/// fresh.
#[inline]
pub fn after_along_row(c: Command) -> usize {
    match c {
        Command::W => WEST,
        Command::E => EAST,
        _ => FRESH,
    }
}

/// Whether heading `h` forbids command `c`: the reversal of the last move would return to the
/// position just left.
#[inline]
pub fn forbids(h: usize, c: Command) -> bool {
    matches!(
        (h, c),
        (WEST, Command::E) | (EAST, Command::W) | (CW, Command::CCW) | (CCW, Command::CW)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move is forbidden exactly when it reverses the move the heading records, and every
    /// command leads to the heading that forbids its own reversal.
    #[test]
    fn a_heading_forbids_only_the_reversal_of_its_move() {
        for c in Command::ALL {
            for d in Command::ALL {
                assert_eq!(
                    forbids(after(c), d),
                    c.reverse() == Some(d),
                    "{c:?} then {d:?}"
                );
            }
            assert!(after_along_row(c) < LINE);
            if !matches!(c, Command::CW | Command::CCW) {
                assert_eq!(after_along_row(c), after(c));
            }
            assert!(after(c) < ALL);
        }
        for h in 0..ALL {
            assert!(!forbids(h, Command::SW) && !forbids(h, Command::SE));
        }
        assert!(!Command::ALL.iter().any(|&c| forbids(FRESH, c)));
    }
}
