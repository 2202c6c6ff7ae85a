//! The seven totems of Coveo Blitz 2022 (`../shared/pack/PUZZLES.md`, puzzle 4) and their
//! rotations.
//!
//! **Coordinates.** Cells are (x, y) with x to the right and **y up**, as the server sends and
//! expects them. The chirality is the server's: J = {(0,0),(1,0),(1,1),(1,2)}, L =
//! {(0,0),(1,0),(0,1),(0,2)}, S = {(1,0),(0,1),(1,1),(0,2)}, Z = {(0,0),(0,1),(1,1),(1,2)}, T =
//! {(0,1),(1,1),(2,1),(1,0)}. Rotations are quarter turns (x, y) -> (-y, x); mirroring is never
//! allowed, so J and L (and S and Z) stay distinct.
//!
//! Invariant: every orientation is normalised (smallest x and smallest y are 0) and its cells are
//! sorted by (y, x), so the first cell is the one a row-by-row scan meets first.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A totem shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    I,
    J,
    L,
    O,
    S,
    T,
    Z,
}

/// Number of shapes.
pub const KINDS: usize = 7;

impl Kind {
    /// All shapes, indexed by [`Kind::index`].
    pub const ALL: [Kind; KINDS] = [
        Kind::I,
        Kind::J,
        Kind::L,
        Kind::O,
        Kind::S,
        Kind::T,
        Kind::Z,
    ];

    /// The shape's position in [`Kind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The shape named by a one-letter string such as `"L"`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "I" => Kind::I,
            "J" => Kind::J,
            "L" => Kind::L,
            "O" => Kind::O,
            "S" => Kind::S,
            "T" => Kind::T,
            "Z" => Kind::Z,
            _ => return None,
        })
    }

    /// The one-letter name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::I => "I",
            Kind::J => "J",
            Kind::L => "L",
            Kind::O => "O",
            Kind::S => "S",
            Kind::T => "T",
            Kind::Z => "Z",
        }
    }

    /// The server's reference cells (y up).
    fn cells(self) -> [(i32, i32); 4] {
        match self {
            Kind::I => [(0, 0), (0, 1), (0, 2), (0, 3)],
            Kind::J => [(0, 0), (1, 0), (1, 1), (1, 2)],
            Kind::L => [(0, 0), (1, 0), (0, 1), (0, 2)],
            Kind::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
            Kind::S => [(1, 0), (0, 1), (1, 1), (0, 2)],
            Kind::T => [(0, 1), (1, 1), (2, 1), (1, 0)],
            Kind::Z => [(0, 0), (0, 1), (1, 1), (1, 2)],
        }
    }

    /// The distinct rotations, each normalised and sorted by (y, x).
    pub fn orientations(self) -> Vec<[(i32, i32); 4]> {
        let mut out: Vec<[(i32, i32); 4]> = Vec::new();
        let mut cur = self.cells();
        for _ in 0..4 {
            let n = normalise(cur);
            if !out.contains(&n) {
                out.push(n);
            }
            cur = cur.map(|(x, y)| (-y, x));
        }
        out
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Translates cells so the smallest x and y are 0 and sorts them by (y, x).
pub fn normalise(cells: [(i32, i32); 4]) -> [(i32, i32); 4] {
    let mx = cells.iter().map(|c| c.0).min().expect("four cells");
    let my = cells.iter().map(|c| c.1).min().expect("four cells");
    let mut n = cells.map(|(x, y)| (x - mx, y - my));
    n.sort_by_key(|&(x, y)| (y, x));
    n
}

/// One fixed orientation of a shape, as the block search uses it.
#[derive(Debug, Clone, Copy)]
pub struct Orientation {
    pub kind: Kind,
    /// Cells relative to the first cell in (y, x) order, which is (0, 0).
    pub offsets: [(i32, i32); 4],
}

/// All 19 fixed orientations, shape by shape.
pub fn all_orientations() -> Vec<Orientation> {
    let mut v = Vec::new();
    for k in Kind::ALL {
        for o in k.orientations() {
            let (ax, ay) = o[0];
            v.push(Orientation {
                kind: k,
                offsets: o.map(|(x, y)| (x - ax, y - ay)),
            });
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_counts_match_the_tetrominoes() {
        let counts: Vec<usize> = Kind::ALL.iter().map(|k| k.orientations().len()).collect();
        // I, J, L, O, S, T, Z.
        assert_eq!(counts, vec![2, 4, 4, 1, 2, 4, 2]);
        assert_eq!(all_orientations().len(), 19);
    }

    #[test]
    fn j_and_l_are_mirror_images_not_rotations() {
        let j = Kind::J.orientations();
        let l = Kind::L.orientations();
        assert!(j.iter().all(|o| !l.contains(o)));
        let mirrored = normalise(Kind::J.cells().map(|(x, y)| (-x, y)));
        assert!(l.contains(&mirrored));
        let s = Kind::S.orientations();
        let z = Kind::Z.orientations();
        assert!(s.iter().all(|o| !z.contains(o)));
    }

    #[test]
    fn first_offset_is_the_origin_and_others_come_later_in_scan_order() {
        for o in all_orientations() {
            assert_eq!(o.offsets[0], (0, 0));
            for &(dx, dy) in &o.offsets[1..] {
                assert!(dy > 0 || (dy == 0 && dx > 0), "{o:?}");
            }
        }
    }
}
