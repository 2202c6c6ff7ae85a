//! Problems: the JSON shape at the boundary and the validated internal type.
//!
//! [`ProblemJson`] mirrors the file exactly (RULES.md section 1) and is converted with
//! [`TryFrom`] into a [`Problem`], which holds only values the engine can trust: a board of at
//! least 1x1 and at most [`MAX_CELLS`] cells, units with at least one member and no duplicate
//! member, member and pivot coordinates within `i32`, filled cells on the board, a source length
//! and seeds within `u32`. Unknown extra fields are ignored. Integers are read as `i64` so that an
//! out-of-range value gets a message naming the field rather than a bare type error.

use super::board::Board;
use super::hex::Cell;
use super::unit::Unit;
use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;

/// The largest board accepted, in cells; anything larger is treated as absurd input.
pub const MAX_CELLS: u64 = 100_000_000;
/// The largest width or height accepted.
pub const MAX_SIDE: i64 = 1_000_000;

/// A cell as the JSON writes it.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct CellJson {
    pub x: i64,
    pub y: i64,
}

/// A unit as the JSON writes it.
#[derive(Clone, Debug, Deserialize)]
pub struct UnitJson {
    pub members: Vec<CellJson>,
    pub pivot: CellJson,
}

/// A problem file as it is written.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProblemJson {
    pub id: i64,
    pub units: Vec<UnitJson>,
    pub width: i64,
    pub height: i64,
    pub filled: Vec<CellJson>,
    pub source_length: i64,
    pub source_seeds: Vec<i64>,
}

/// A validated problem, with its units precomputed for its board width.
#[derive(Clone, Debug)]
pub struct Problem {
    pub id: i64,
    pub width: usize,
    pub height: usize,
    pub units: Vec<Unit>,
    /// The board before the first unit.
    pub board: Board,
    pub source_length: u32,
    /// The seeds as listed, duplicates included (the official aggregate divides by this count).
    pub seeds: Vec<u32>,
}

fn in_i32(v: i64) -> bool {
    i32::try_from(v).is_ok()
}

impl TryFrom<ProblemJson> for Problem {
    type Error = String;

    fn try_from(j: ProblemJson) -> std::result::Result<Problem, String> {
        if j.width < 1 || j.height < 1 {
            return Err(format!(
                "width and height must be at least 1 (got {}x{})",
                j.width, j.height
            ));
        }
        if j.width > MAX_SIDE
            || j.height > MAX_SIDE
            || (j.width as u64) * (j.height as u64) > MAX_CELLS
        {
            return Err(format!(
                "board {}x{} is too large (at most {MAX_SIDE} a side and {MAX_CELLS} cells)",
                j.width, j.height
            ));
        }
        let (width, height) = (j.width as usize, j.height as usize);
        if j.units.is_empty() {
            return Err("units is empty: a problem needs at least one unit".into());
        }
        let mut units = Vec::with_capacity(j.units.len());
        for (i, u) in j.units.iter().enumerate() {
            if u.members.is_empty() {
                return Err(format!("unit {i} has no members"));
            }
            let mut seen = rustc_hash::FxHashSet::default();
            for m in &u.members {
                if !in_i32(m.x) || !in_i32(m.y) {
                    return Err(format!(
                        "unit {i}: member ({}, {}) is outside the i32 range",
                        m.x, m.y
                    ));
                }
                if !seen.insert((m.x, m.y)) {
                    return Err(format!("unit {i}: duplicate member ({}, {})", m.x, m.y));
                }
            }
            if !in_i32(u.pivot.x) || !in_i32(u.pivot.y) {
                return Err(format!(
                    "unit {i}: pivot ({}, {}) is outside the i32 range",
                    u.pivot.x, u.pivot.y
                ));
            }
            let members: Vec<Cell> = u.members.iter().map(|m| Cell::new(m.x, m.y)).collect();
            units.push(Unit::new(&members, Cell::new(u.pivot.x, u.pivot.y), width));
        }
        let mut board = Board::new(width, height);
        for c in &j.filled {
            if c.x < 0 || c.y < 0 || c.x >= j.width || c.y >= j.height {
                return Err(format!(
                    "filled cell ({}, {}) is off the {}x{} board",
                    c.x, c.y, j.width, j.height
                ));
            }
            board.fill(c.x as usize, c.y as usize);
        }
        let source_length = u32::try_from(j.source_length).map_err(|_| {
            format!(
                "sourceLength {} is outside 0..={}",
                j.source_length,
                u32::MAX
            )
        })?;
        let seeds = j
            .source_seeds
            .iter()
            .map(|&s| u32::try_from(s).map_err(|_| format!("seed {s} is outside 0..={}", u32::MAX)))
            .collect::<std::result::Result<Vec<u32>, String>>()?;
        Ok(Problem {
            id: j.id,
            width,
            height,
            units,
            board,
            source_length,
            seeds,
        })
    }
}

impl Problem {
    /// Parses and validates a problem from JSON text; `path` names it in errors.
    pub fn from_json(text: &str, path: &Path) -> Result<Problem> {
        let raw: ProblemJson = serde_json::from_str(text).map_err(|source| Error::Json {
            path: path.to_path_buf(),
            source,
        })?;
        Problem::try_from(raw).map_err(|what| Error::invalid(path, what))
    }

    /// The seeds without duplicates, in the order first listed.
    pub fn distinct_seeds(&self) -> Vec<u32> {
        let mut seen = rustc_hash::FxHashSet::default();
        self.seeds
            .iter()
            .copied()
            .filter(|s| seen.insert(*s))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> std::result::Result<Problem, String> {
        Problem::from_json(s, Path::new("p.json")).map_err(|e| e.to_string())
    }

    const GOOD: &str = r#"{"id":1,"width":5,"height":4,"filled":[{"x":1,"y":3}],
        "sourceLength":3,"sourceSeeds":[0,7],
        "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#;

    #[test]
    fn a_good_problem_loads() {
        let p = parse(GOOD).unwrap();
        assert_eq!((p.id, p.width, p.height, p.source_length), (1, 5, 4, 3));
        assert!(p.board.is_filled(1, 3));
        assert_eq!(p.seeds, vec![0, 7]);
    }

    #[test]
    fn bad_problems_name_what_is_wrong() {
        let cases = [
            (GOOD.replace("\"width\":5", "\"width\":0"), "at least 1"),
            (
                GOOD.replace("\"width\":5", "\"width\":2000000"),
                "too large",
            ),
            (GOOD.replace("\"width\":5,", ""), "missing field `width`"),
            (
                GOOD.replace("\"width\":5", "\"width\":\"5\""),
                "invalid type",
            ),
            (
                GOOD.replace("{\"x\":1,\"y\":3}", "{\"x\":5,\"y\":3}"),
                "off the 5x4 board",
            ),
            (
                GOOD.replace("\"sourceLength\":3", "\"sourceLength\":-1"),
                "sourceLength -1",
            ),
            (GOOD.replace("[0,7]", "[0,4294967296]"), "seed 4294967296"),
            (GOOD.replace("[0,7]", "[-1]"), "seed -1"),
            (
                GOOD.replace(
                    "{\"x\":1,\"y\":0}],\"pivot\"",
                    "{\"x\":0,\"y\":0}],\"pivot\"",
                ),
                "duplicate member",
            ),
            (
                GOOD.replace(
                    "\"members\":[{\"x\":0,\"y\":0},{\"x\":1,\"y\":0}]",
                    "\"members\":[]",
                ),
                "no members",
            ),
            (
                GOOD.replace("{\"x\":1,\"y\":0}]", "{\"x\":3000000000,\"y\":0}]"),
                "i32 range",
            ),
            (GOOD[..40].to_string(), "EOF"),
        ];
        for (text, want) in cases {
            let err = parse(&text).expect_err(want);
            assert!(err.starts_with("p.json: "), "{err}");
            assert!(err.contains(want), "{err} should mention {want}");
        }
    }

    #[test]
    fn odd_but_legal_problems_load() {
        let extra = GOOD.replace("\"id\":1", "\"id\":1,\"extra\":[1,2]");
        assert!(parse(&extra).is_ok());
        let tiny = r#"{"id":2,"width":1,"height":1,"filled":[],"sourceLength":0,"sourceSeeds":[],
            "units":[{"members":[{"x":-3,"y":-2}],"pivot":{"x":2000000000,"y":-2000000000}}]}"#;
        let p = parse(tiny).unwrap();
        assert_eq!(p.units[0].size(), 1);
    }
}
