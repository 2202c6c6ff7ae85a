//! Puzzle 4 of `../shared/pack/PUZZLES.md` (`hextris pack totems`): Coveo Blitz 2022. Pack the
//! n totems of a question into a box as close to the best square as possible, within a time
//! limit (one second by default, process start-up included).
//!
//! **Coordinates.** The server's: absolute cells (x, y), x to the right, **y up**, all >= 0; the
//! box is measured from the origin (w = max x + 1, h = max y + 1, a = min, b = max) and the score
//! is (10 n - a b) a / b. Every totem is a rotation of its shape, never a mirror image.
//!
//! **Pieces.** [`shapes`] (the shapes and their rotations), [`block`] (exact search in one block
//! of at most 8 x 8), [`packer`] (boxes by decreasing score, large boxes cut into blocks solved in
//! parallel), [`trials`] (random bags, each solved by a separate process whose wall time is
//! measured).
//!
//! Invariant: every answer printed is valid (the packer ends with a trivial packing if nothing
//! better was found in time), and its totems are listed in the question's order.

pub mod block;
pub mod packer;
pub mod shapes;
pub mod trials;

use crate::error::Error;
use serde::Serialize;
use shapes::Kind;
use std::collections::HashSet;
use std::path::Path;

/// The best possible score of each level 1..=10 (PUZZLES.md): boxes 1x4, 3x3, 4x4, 6x6, 8x8,
/// 12x12, 16x16, 23x23, 32x32, 46x46.
pub const BEST: [f64; 10] = [
    1.5, 11.0, 24.0, 44.0, 96.0, 176.0, 384.0, 751.0, 1536.0, 3004.0,
];

/// The number of totems at a level (1..=10): 2^(level - 1).
pub fn level_size(level: u32) -> usize {
    1usize << (level - 1)
}

/// Reads a question file (`-` for standard input): `{"tick": N, "payload": {"totems":
/// [{"shape": "I"}, ...]}}`.
pub fn read_question(path: &Path) -> Result<Vec<Kind>, Error> {
    let text = crate::io::read_text_or_stdin(path)?;
    parse_question(&text).map_err(|what| Error::invalid(path, what))
}

/// Parses a question's text; the error says what is wrong.
pub fn parse_question(text: &str) -> Result<Vec<Kind>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let totems = v
        .get("payload")
        .and_then(|p| p.get("totems"))
        .and_then(|t| t.as_array())
        .ok_or("expected {\"payload\": {\"totems\": [...]}}")?;
    if totems.is_empty() {
        return Err("no totems in payload.totems".into());
    }
    totems
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let name = t
                .get("shape")
                .and_then(|s| s.as_str())
                .ok_or(format!("payload.totems[{i}]: no \"shape\" string"))?;
            Kind::from_name(name).ok_or(format!(
                "payload.totems[{i}]: unknown shape {name:?} (expected one of IJLOSTZ)"
            ))
        })
        .collect()
}

/// One totem of an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnswerTotem {
    pub shape: Kind,
    pub coordinates: Vec<[i64; 2]>,
}

/// Turns a packing into the answer, totems in the question's order.
pub fn to_answer(question: &[Kind], packing: &[block::Placed]) -> Vec<AnswerTotem> {
    let mut pools: Vec<Vec<&block::Placed>> = vec![Vec::new(); shapes::KINDS];
    for p in packing.iter().rev() {
        pools[p.kind.index()].push(p);
    }
    question
        .iter()
        .map(|k| {
            let p = pools[k.index()].pop().expect("the packing holds the bag");
            AnswerTotem {
                shape: *k,
                coordinates: p.cells.iter().map(|&(x, y)| [x as i64, y as i64]).collect(),
            }
        })
        .collect()
}

/// The answer as the server wants it: `{"totems": [{"shape", "coordinates"}, ...]}`.
pub fn answer_json(answer: &[AnswerTotem]) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        totems: &'a [AnswerTotem],
    }
    serde_json::to_string(&Out { totems: answer }).expect("plain structs serialise")
}

/// A totem as an answer gives it: its shape and its cells, not yet checked.
pub type RawTotem = (Kind, Vec<(i64, i64)>);

/// Parses an answer's text into totems (shape and raw coordinates).
pub fn parse_answer(text: &str) -> Result<Vec<RawTotem>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let totems = v
        .get("totems")
        .and_then(|t| t.as_array())
        .ok_or("expected {\"totems\": [...]}")?;
    totems
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let name = t
                .get("shape")
                .and_then(|s| s.as_str())
                .ok_or(format!("totems[{i}]: no \"shape\" string"))?;
            let kind =
                Kind::from_name(name).ok_or(format!("totems[{i}]: unknown shape {name:?}"))?;
            let coords = t
                .get("coordinates")
                .and_then(|c| c.as_array())
                .ok_or(format!("totems[{i}]: no \"coordinates\" array"))?;
            let cells = coords
                .iter()
                .map(|c| {
                    let pair = c.as_array().filter(|a| a.len() == 2);
                    let xy = pair.and_then(|a| Some((a[0].as_i64()?, a[1].as_i64()?)));
                    xy.ok_or(format!("totems[{i}]: coordinate {c} is not [x, y]"))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok((kind, cells))
        })
        .collect()
}

/// Checks an answer against a question: the same multiset of shapes, each totem four cells
/// forming a rotation of its shape, no negative coordinate, no overlap. Returns the box (w, h).
pub fn validate(
    question: &[Kind],
    answer: &[(Kind, Vec<(i64, i64)>)],
) -> Result<(usize, usize), String> {
    let mut want = [0usize; shapes::KINDS];
    question.iter().for_each(|k| want[k.index()] += 1);
    let mut got = [0usize; shapes::KINDS];
    answer.iter().for_each(|(k, _)| got[k.index()] += 1);
    if want != got {
        return Err(format!(
            "the answer's shapes {} differ from the question's {}",
            bag_string(&got),
            bag_string(&want)
        ));
    }
    let mut seen = HashSet::new();
    let (mut w, mut h) = (0i64, 0i64);
    for (i, (k, cells)) in answer.iter().enumerate() {
        if cells.len() != 4 {
            return Err(format!("totems[{i}]: {} cells, not 4", cells.len()));
        }
        for &(x, y) in cells {
            if x < 0 || y < 0 {
                return Err(format!("totems[{i}]: negative coordinate ({x}, {y})"));
            }
            if x > 1 << 20 || y > 1 << 20 {
                return Err(format!("totems[{i}]: coordinate ({x}, {y}) out of range"));
            }
            if !seen.insert((x, y)) {
                return Err(format!("totems[{i}]: cell ({x}, {y}) already used"));
            }
            w = w.max(x + 1);
            h = h.max(y + 1);
        }
        let arr = [cells[0], cells[1], cells[2], cells[3]].map(|(x, y)| (x as i32, y as i32));
        if !k.orientations().contains(&shapes::normalise(arr)) {
            return Err(format!("totems[{i}]: cells are not a rotation of {k}"));
        }
    }
    Ok((w as usize, h as usize))
}

fn bag_string(counts: &[usize; shapes::KINDS]) -> String {
    Kind::ALL
        .iter()
        .filter(|k| counts[k.index()] > 0)
        .map(|k| format!("{}{}", k, counts[k.index()]))
        .collect::<Vec<_>>()
        .join(",")
}

/// The best possible score for n totems when n is a level's size.
pub fn best_for(n: usize) -> Option<f64> {
    (1..=10u32)
        .find(|&l| level_size(l) == n)
        .map(|l| BEST[l as usize - 1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn question_parsing_names_the_problem() {
        let q = r#"{"tick": 1, "payload": {"totems": [{"shape": "I"}, {"shape": "T"}]}}"#;
        assert_eq!(parse_question(q).unwrap(), vec![Kind::I, Kind::T]);
        assert!(
            parse_question(r#"{"payload": {"totems": [{"shape": "X"}]}}"#)
                .unwrap_err()
                .contains("unknown shape")
        );
        assert!(parse_question("{").unwrap_err().contains("JSON"));
        assert!(parse_question(r#"{"payload": {}}"#).is_err());
    }

    #[test]
    fn validate_rejects_mirrors_overlaps_and_wrong_bags() {
        let q = vec![Kind::J];
        // The server's J is valid; its mirror image (an L) is not a J.
        let j = vec![(Kind::J, vec![(0, 0), (1, 0), (1, 1), (1, 2)])];
        assert_eq!(validate(&q, &j), Ok((2, 3)));
        let mirrored = vec![(Kind::J, vec![(0, 0), (1, 0), (0, 1), (0, 2)])];
        assert!(validate(&q, &mirrored).is_err());
        let q2 = vec![Kind::O, Kind::O];
        let overlap = vec![
            (Kind::O, vec![(0, 0), (1, 0), (0, 1), (1, 1)]),
            (Kind::O, vec![(1, 0), (2, 0), (1, 1), (2, 1)]),
        ];
        assert!(validate(&q2, &overlap)
            .unwrap_err()
            .contains("already used"));
        let wrong = vec![(Kind::I, vec![(0, 0), (0, 1), (0, 2), (0, 3)])];
        assert!(validate(&q, &wrong).is_err());
        let negative = vec![(Kind::J, vec![(-1, 0), (0, 0), (0, 1), (0, 2)])];
        assert!(validate(&q, &negative).is_err());
    }

    #[test]
    fn answers_round_trip_through_json_in_question_order() {
        let q = vec![Kind::T, Kind::I, Kind::T, Kind::O];
        let far = Instant::now() + Duration::from_secs(10);
        let r = packer::solve(&q, far, 5);
        let ans = to_answer(&q, &r.packing);
        let shapes: Vec<Kind> = ans.iter().map(|a| a.shape).collect();
        assert_eq!(shapes, q);
        let parsed = parse_answer(&answer_json(&ans)).unwrap();
        let (w, h) = validate(&q, &parsed).unwrap();
        assert!((packer::score(4, w, h) - r.score).abs() < 1e-9);
    }

    #[test]
    fn best_scores_match_level_sizes() {
        assert_eq!(best_for(256), Some(1536.0));
        assert_eq!(best_for(3), None);
        assert_eq!(level_size(10), 512);
    }
}
