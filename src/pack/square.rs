//! Puzzle 1 of `../shared/pack/PUZZLES.md` (IT Duel 2015): tile an N x N square, or a W x H
//! rectangle, exactly with a given multiset of tetrominoes, rotations allowed.
//!
//! An instance is `{"size": N, "signature": "I49,J127,..."}` (or `"width"` and `"height"`
//! instead of `"size"`); an answer is `[["FIG", ANGLE, X, Y], ...]`, in the puzzle's own angle
//! table ([`shapes::Figure::angles`]). The search itself is the shared engine in
//! [`crate::pack::tiling`]; the command line (`hextris pack square`, `--check`) is in
//! `crate::cli::pack::square`.
//!
//! Coordinates: X is the column and Y the row of the top-left corner of the figure's bounding
//! box in that orientation, both from 0 at the top-left corner of the board.

mod blocks;
/// The tetrominoes and puzzle 1's angle table, kept with the shared tiling engine.
pub use super::tiling::shapes;

use super::tiling::{self, FillOrder, Outcome, Tiler};
use crate::error::{Error, Result};
use serde_json::Value;
use shapes::Figure;
use std::fmt::Write as _;
use std::path::Path;

/// The largest board side the solver accepts.
pub const MAX_SIDE: usize = 200;

/// A parsed instance: the board and the number of pieces of each figure (signature order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    pub width: usize,
    pub height: usize,
    pub counts: [u32; 7],
}

/// One piece of an answer: a figure at an angle, its bounding box's top-left corner at (x, y).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub figure: Figure,
    pub angle: usize,
    pub x: usize,
    pub y: usize,
}

/// What the solver concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A tiling, sorted by (y, x).
    Solved(Vec<Piece>),
    /// No tiling exists; the reason in words.
    Impossible(String),
    /// The node budget ran out.
    Undecided,
}

/// Reads and validates an instance file, returning the whole document too (for `--check`).
pub fn read_instance(path: &Path) -> Result<(Value, Instance)> {
    let doc = crate::io::read_json_value(path)?;
    let inst = parse_instance(&doc).map_err(|what| Error::invalid(path, what))?;
    Ok((doc, inst))
}

/// Parses an instance object; the error is a phrase saying what is wrong.
pub fn parse_instance(doc: &Value) -> std::result::Result<Instance, String> {
    let obj = doc.as_object().ok_or("the instance is not a JSON object")?;
    let side = |name: &str| -> std::result::Result<Option<usize>, String> {
        match obj.get(name) {
            None => Ok(None),
            Some(v) => {
                let n = v
                    .as_u64()
                    .ok_or_else(|| format!("\"{name}\" is not a non-negative integer: {v}"))?;
                if n == 0 || n > MAX_SIDE as u64 {
                    return Err(format!(
                        "\"{name}\" is {n}, outside 1..={MAX_SIDE} (the supported sizes)"
                    ));
                }
                Ok(Some(n as usize))
            }
        }
    };
    let (width, height) = match (side("size")?, side("width")?, side("height")?) {
        (Some(n), None, None) => (n, n),
        (None, Some(w), Some(h)) => (w, h),
        (Some(_), _, _) => {
            return Err("give either \"size\" or \"width\" and \"height\", not both".into())
        }
        _ => return Err("missing \"size\" (or \"width\" and \"height\")".into()),
    };
    let sig = obj
        .get("signature")
        .ok_or("missing \"signature\"")?
        .as_str()
        .ok_or("\"signature\" is not a string")?;
    let counts = parse_signature(sig)?;
    Ok(Instance {
        width,
        height,
        counts,
    })
}

/// Parses a signature such as `I49,J127,L49,O13,S127,T126,Z134` into counts in signature
/// order. Figures may come in any order, absent ones count 0, none may appear twice.
pub fn parse_signature(sig: &str) -> std::result::Result<[u32; 7], String> {
    let mut counts = [0u32; 7];
    let mut seen = [false; 7];
    if sig.trim().is_empty() {
        return Ok(counts);
    }
    for token in sig.split(',') {
        let token = token.trim();
        let mut chars = token.chars();
        let letter = chars.next().ok_or("an empty item in the signature")?;
        let fig = Figure::from_letter(letter)
            .ok_or_else(|| format!("unknown figure '{letter}' in the signature (I J L O S T Z)"))?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "\"{token}\" in the signature is not a figure and a count"
            ));
        }
        let n: u32 = digits
            .parse()
            .map_err(|_| format!("count too large in \"{token}\""))?;
        if std::mem::replace(&mut seen[fig as usize], true) {
            return Err(format!("figure {letter} appears twice in the signature"));
        }
        counts[fig as usize] = n;
    }
    Ok(counts)
}

/// Parses an answer: an array of `["FIG", ANGLE, X, Y]`. Only the syntax is checked here;
/// whether the pieces tile the board is [`check`]'s job.
pub fn parse_answer(path: &Path, v: &Value) -> Result<Vec<Piece>> {
    let bad = |what: String| Error::invalid(path, what);
    let arr = v
        .as_array()
        .ok_or_else(|| bad("the answer is not an array of [\"FIG\", ANGLE, X, Y]".into()))?;
    let mut out = Vec::with_capacity(arr.len());
    for (i, item) in arr.iter().enumerate() {
        let parts = item.as_array().filter(|a| a.len() == 4).ok_or_else(|| {
            bad(format!(
                "answer item {i} is not [\"FIG\", ANGLE, X, Y]: {item}"
            ))
        })?;
        let fig = parts[0]
            .as_str()
            .filter(|s| s.chars().count() == 1)
            .and_then(|s| Figure::from_letter(s.chars().next()?))
            .ok_or_else(|| bad(format!("answer item {i}: unknown figure {}", parts[0])))?;
        let num = |j: usize, name: &str| {
            parts[j].as_u64().map(|n| n as usize).ok_or_else(|| {
                bad(format!(
                    "answer item {i}: {name} is not a non-negative integer: {}",
                    parts[j]
                ))
            })
        };
        out.push(Piece {
            figure: fig,
            angle: num(1, "ANGLE")?,
            x: num(2, "X")?,
            y: num(3, "Y")?,
        });
    }
    Ok(out)
}

/// Validates an answer against an instance: every angle valid, every piece inside the board,
/// no cell covered twice, every cell covered, and the multiset of figures exactly the
/// signature. Returns the problems found, in words (empty when the answer is right).
pub fn check(inst: &Instance, pieces: &[Piece]) -> Vec<String> {
    let (w, h) = (inst.width, inst.height);
    let mut owner: Vec<Option<usize>> = vec![None; w * h];
    let mut problems = Vec::new();
    let mut used = [0u32; 7];
    for (i, p) in pieces.iter().enumerate() {
        let name = format!(
            "piece {i} [\"{}\", {}, {}, {}]",
            p.figure.letter(),
            p.angle,
            p.x,
            p.y
        );
        used[p.figure as usize] += 1;
        let angles = p.figure.angles();
        let Some(shape) = angles.get(p.angle) else {
            problems.push(format!(
                "{name}: angle {} is not valid for {} (0..={})",
                p.angle,
                p.figure.letter(),
                angles.len() - 1
            ));
            continue;
        };
        for &(dx, dy) in &shape.cells {
            // An answer may hold any u64: a sum past usize::MAX is outside the board too.
            let x = p.x.saturating_add(dx as usize);
            let y = p.y.saturating_add(dy as usize);
            if x >= w || y >= h {
                problems.push(format!(
                    "{name}: cell ({x}, {y}) is outside the {w} x {h} board"
                ));
                continue;
            }
            match owner[y * w + x] {
                Some(j) => problems.push(format!(
                    "{name}: cell ({x}, {y}) is already covered by piece {j}"
                )),
                None => owner[y * w + x] = Some(i),
            }
        }
    }
    let holes: Vec<String> = (0..w * h)
        .filter(|&c| owner[c].is_none())
        .map(|c| format!("({}, {})", c % w, c / w))
        .collect();
    if !holes.is_empty() {
        let shown: Vec<&str> = holes.iter().take(8).map(String::as_str).collect();
        let more = if holes.len() > 8 { ", ..." } else { "" };
        problems.push(format!(
            "{} cell(s) not covered: {}{more}",
            holes.len(),
            shown.join(", ")
        ));
    }
    for f in Figure::ALL {
        let (got, want) = (used[f as usize], inst.counts[f as usize]);
        if got != want {
            problems.push(format!(
                "{got} {} piece(s), the signature asks for {want}",
                f.letter()
            ));
        }
    }
    problems
}

/// Statistics of a solve, summed over attempts.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveStats {
    pub nodes: u64,
    pub memo_hits: u64,
    pub attempts: u32,
}

/// Solves an instance (see [`solve_with_stats`]).
pub fn solve(inst: &Instance, max_nodes: Option<u64>) -> Verdict {
    solve_with_stats(inst, max_nodes).0
}

/// Height of the bands the search fills column by column.
const BAND: usize = 6;
/// Number of limited attempts before the unlimited one.
const RESTARTS: u32 = 24;
/// Boards of at least this area that resist the first attempts are tried block by block.
const BLOCKS_MIN_AREA: usize = 1600;
/// The blocks are tried after every this many whole-board attempts.
const BLOCKS_EVERY: u32 = 3;
/// Node budget of the first try of the blocks, plus 200 per piece.
const BLOCKS_BASE: u64 = 2_000_000;
/// Node budget of the first attempt, plus 8 per piece.
const RESTART_BASE: u64 = 20_000;

/// Sets the kind order of an attempt: the most remaining figure first, then the figure most
/// behind its share, then pseudo-random weights (seeded by the attempt, so runs repeat).
fn configure(t: &mut Tiler, attempt: u32, counts: &[u32; 7]) {
    use rand::{Rng, SeedableRng};
    match attempt {
        0 => {
            t.set_priority(tiling::Priority::MostRemaining);
            t.set_tie_shift(0);
        }
        1 => t.set_weights(
            counts
                .iter()
                .map(|&c| 1_000_000 / (c as u64).max(1))
                .collect(),
        ),
        _ => {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(attempt as u64);
            t.set_weights((0..7).map(|_| rng.gen_range(1..8)).collect());
            t.set_tie_shift(rng.gen_range(0..7));
        }
    }
}

/// Solves an instance: the cheap impossibility arguments first, then the search.
pub fn solve_with_stats(inst: &Instance, max_nodes: Option<u64>) -> (Verdict, SolveStats) {
    let mut stats = SolveStats::default();
    if let Some(why) = quick_impossibility(inst) {
        return (Verdict::Impossible(why), stats);
    }
    // Fill along the longer side so that the bands are as short as possible.
    let transpose = inst.height > inst.width;
    let (w, h) = if transpose {
        (inst.height, inst.width)
    } else {
        (inst.width, inst.height)
    };
    let mut kinds = tiling::figure_kinds(&inst.counts);
    if transpose {
        // On the transposed board each figure keeps its name and angle numbers, with its cells
        // mirrored along the diagonal; a placement maps back by swapping x and y.
        for k in &mut kinds {
            for s in &mut k.shapes {
                let cells: Vec<(i32, i32)> =
                    s.cells.iter().map(|&(a, b)| (b as i32, a as i32)).collect();
                *s = shapes::Shape::from_cells(&cells).expect("a mirrored tetromino");
            }
        }
    }
    let mut t = Tiler::new(w, h, kinds, FillOrder::Bands(BAND));
    let pieces: u64 = inst.counts.iter().map(|&c| c as u64).sum();
    let base = RESTART_BASE + 8 * pieces;
    let mut budget = max_nodes.unwrap_or(u64::MAX);
    let mut out = Outcome::GaveUp;
    let mut by_blocks = None;
    // Restarts first: the same complete search under different kind orders, each with a node
    // budget that doubles every three attempts. Searches like this one have heavy tails (one
    // order runs into a long dead end where another walks straight to a tiling), and the memo
    // of dead states carries over from one attempt to the next. Then one search without limit.
    for attempt in 0..=RESTARTS {
        configure(&mut t, attempt, &inst.counts);
        // The first attempt goes without the coverage test, whose cost per node grows with the
        // area: typical signatures need almost no backtracking anyway. The others use it.
        t.set_cover(attempt > 0);
        let limit = if attempt == RESTARTS {
            budget
        } else {
            (base << (attempt / 3)).min(budget)
        };
        out = t.solve((limit != u64::MAX).then_some(limit));
        stats.attempts += 1;
        stats.nodes += t.stats.nodes;
        stats.memo_hits += t.stats.memo_hits;
        budget = budget.saturating_sub(t.stats.nodes);
        if out != Outcome::GaveUp || budget == 0 {
            break;
        }
        if (attempt + 1) % BLOCKS_EVERY == 0 && inst.width * inst.height >= BLOCKS_MIN_AREA {
            // A large board that resists: try it block by block before searching on, with a
            // budget that doubles each time.
            let mut spent = 0;
            let round = (attempt + 1) / BLOCKS_EVERY - 1;
            let limit = budget.min((BLOCKS_BASE + 200 * pieces) << round);
            by_blocks = blocks::solve(inst, limit, &mut spent);
            stats.nodes += spent;
            budget = budget.saturating_sub(spent);
            if by_blocks.is_some() || budget == 0 {
                break;
            }
        }
    }
    if let Some(pieces) = by_blocks {
        return (Verdict::Solved(pieces), stats);
    }
    let verdict = match out {
        Outcome::Solved(placements) => {
            let mut pieces: Vec<Piece> = placements
                .iter()
                .map(|p| {
                    let (x, y) = if transpose { (p.y, p.x) } else { (p.x, p.y) };
                    Piece {
                        figure: Figure::ALL[p.kind],
                        angle: p.shape,
                        x,
                        y,
                    }
                })
                .collect();
            pieces.sort_by_key(|p| (p.y, p.x));
            Verdict::Solved(pieces)
        }
        Outcome::Exhausted => {
            Verdict::Impossible("the search is exhausted: no tiling exists".into())
        }
        Outcome::GaveUp => Verdict::Undecided,
    };
    (verdict, stats)
}

/// The arguments that settle an instance without searching: the area, and the three
/// colourings (checkerboard: each T covers 3 + 1 cells, every other figure 2 + 2; column and row
/// stripes: L, J and upright T or I pieces unbalance them).
pub fn quick_impossibility(inst: &Instance) -> Option<String> {
    let area = inst.width * inst.height;
    let pieces: u64 = inst.counts.iter().map(|&c| c as u64).sum();
    if pieces * 4 != area as u64 {
        return Some(format!(
            "the signature has {pieces} pieces ({} cells), the {} x {} board has {area} cells",
            pieces * 4,
            inst.width,
            inst.height
        ));
    }
    let t = Tiler::new(
        inst.width,
        inst.height,
        tiling::figure_kinds(&inst.counts),
        FillOrder::RowMajor,
    );
    match t.colouring_obstruction() {
        None => None,
        Some(0) => Some(format!(
            "{} T pieces: in a checkerboard colouring each T covers 3 squares of one colour and \
             every other figure 2 of each, so the T count must be even to balance the {} x {} board",
            inst.counts[Figure::T as usize],
            inst.width,
            inst.height
        )),
        Some(d) => Some(format!(
            "colouring the {} in alternate stripes, the pieces cannot cover as many cells of \
             each colour as the board has (L and J always cover 3 + 1, T and I only upright or flat)",
            if d == 1 { "columns" } else { "rows" }
        )),
    }
}

/// The answer as compact JSON: `[["I",1,0,0],["L",1,0,1],...]`.
pub fn answer_json(pieces: &[Piece]) -> String {
    let mut s = String::from("[");
    for (i, p) in pieces.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "[\"{}\",{},{},{}]", p.figure.letter(), p.angle, p.x, p.y);
    }
    s.push(']');
    s
}

/// A picture of a tiling: each cell shows its piece's figure letter, upper or lower case so
/// that touching pieces of the same figure stay apart (chosen greedily: the case not used by a
/// neighbour drawn before); `.` for an uncovered cell.
pub fn draw(inst: &Instance, pieces: &[Piece]) -> String {
    let (w, h) = (inst.width, inst.height);
    let mut grid = vec![b'.'; w * h];
    for p in pieces {
        let Some(shape) = p.figure.angles().get(p.angle).copied() else {
            continue;
        };
        let cells: Vec<(usize, usize)> = shape
            .cells
            .iter()
            .filter_map(|&(dx, dy)| {
                Some((p.x.checked_add(dx as usize)?, p.y.checked_add(dy as usize)?))
            })
            .filter(|&(x, y)| x < w && y < h)
            .collect();
        let upper = p.figure.letter() as u8;
        let neighbour_upper = cells.iter().any(|&(x, y)| {
            let around = [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ];
            around.iter().any(|&(u, v)| {
                u < w && v < h && grid[v * w + u] == upper && !cells.contains(&(u, v))
            })
        });
        let letter = if neighbour_upper {
            upper.to_ascii_lowercase()
        } else {
            upper
        };
        for (x, y) in cells {
            grid[y * w + x] = letter;
        }
    }
    let mut out = String::new();
    for row in grid.chunks(w) {
        out.push_str(std::str::from_utf8(row).expect("ASCII"));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(w: usize, h: usize, sig: &str) -> Instance {
        Instance {
            width: w,
            height: h,
            counts: parse_signature(sig).unwrap(),
        }
    }

    #[test]
    fn signatures() {
        assert_eq!(
            parse_signature("I49,J127,L49,O13,S127,T126,Z134").unwrap(),
            [49, 127, 49, 13, 127, 126, 134]
        );
        assert_eq!(parse_signature("Z1, I2").unwrap(), [2, 0, 0, 0, 0, 0, 1]);
        assert_eq!(parse_signature("").unwrap(), [0; 7]);
        for bad in ["X1", "I", "I-1", "I1,I2", "I1,,J1", "1I", "I99999999999"] {
            assert!(parse_signature(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn instance_fields() {
        let v: Value = serde_json::from_str(r#"{"size": 4, "signature": "I4"}"#).unwrap();
        assert_eq!(parse_instance(&v).unwrap(), inst(4, 4, "I4"));
        let v: Value =
            serde_json::from_str(r#"{"width": 12, "height": 13, "signature": "O39"}"#).unwrap();
        assert_eq!(parse_instance(&v).unwrap(), inst(12, 13, "O39"));
        for bad in [
            r#"[]"#,
            r#"{"signature": "I4"}"#,
            r#"{"size": 4}"#,
            r#"{"size": -4, "signature": "I4"}"#,
            r#"{"size": 201, "signature": "I4"}"#,
            r#"{"size": 4, "width": 4, "height": 4, "signature": "I4"}"#,
            r#"{"width": 4, "signature": "I4"}"#,
            r#"{"size": 4, "signature": 4}"#,
        ] {
            let v: Value = serde_json::from_str(bad).unwrap();
            assert!(parse_instance(&v).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn quick_arguments() {
        assert!(quick_impossibility(&inst(4, 4, "I3"))
            .unwrap()
            .contains("12 cells"));
        assert!(
            quick_impossibility(&inst(5, 5, "I6")).is_some(),
            "25 cells is not a multiple of 4"
        );
        assert!(quick_impossibility(&inst(4, 4, "T1,O3"))
            .unwrap()
            .contains("checkerboard"));
        // No T, an odd number of L and J: the stripes cannot balance.
        assert!(quick_impossibility(&inst(4, 4, "L1,O3"))
            .unwrap()
            .contains("stripes"));
        assert!(quick_impossibility(&inst(4, 4, "L2,O2")).is_none());
        assert!(quick_impossibility(&inst(4, 4, "T2,O2")).is_none());
    }

    #[test]
    fn solves_and_checks_small() {
        for (w, h, sig) in [
            (4, 4, "I1,J1,L1,Z1"),
            (4, 4, "T4"),
            (2, 8, "L2,J2"),
            (8, 2, "L2,J2"),
            (4, 3, "I1,L2"),
        ] {
            let i = inst(w, h, sig);
            match solve(&i, None) {
                Verdict::Solved(p) => {
                    assert_eq!(check(&i, &p), Vec::<String>::new(), "{w}x{h} {sig}")
                }
                v => panic!("{w}x{h} {sig}: {v:?}"),
            }
        }
    }

    #[test]
    fn reports_impossible() {
        for (w, h, sig) in [(4, 4, "S4"), (4, 4, "T2,S2"), (4, 2, "Z2"), (8, 8, "S8,Z8")] {
            assert!(
                matches!(solve(&inst(w, h, sig), None), Verdict::Impossible(_)),
                "{w}x{h} {sig}"
            );
        }
    }

    #[test]
    fn check_finds_each_fault() {
        let i = inst(4, 2, "I2");
        let ok = [
            Piece {
                figure: Figure::I,
                angle: 1,
                x: 0,
                y: 0,
            },
            Piece {
                figure: Figure::I,
                angle: 1,
                x: 0,
                y: 1,
            },
        ];
        assert!(check(&i, &ok).is_empty());
        let overlap = [ok[0], ok[0]];
        let p = check(&i, &overlap);
        assert!(p.iter().any(|s| s.contains("already covered")), "{p:?}");
        assert!(p.iter().any(|s| s.contains("not covered")), "{p:?}");
        let bad_angle = [Piece { angle: 2, ..ok[0] }, ok[1]];
        assert!(check(&i, &bad_angle)[0].contains("angle 2 is not valid"));
        let outside = [Piece { x: 1, ..ok[0] }, ok[1]];
        assert!(check(&i, &outside).iter().any(|s| s.contains("outside")));
        // Regression: a corner near usize::MAX overflowed (a panic in debug builds, a cell
        // wrapped onto the board in release ones).
        let far = [
            Piece {
                x: usize::MAX,
                ..ok[0]
            },
            ok[1],
        ];
        assert!(check(&i, &far).iter().any(|s| s.contains("outside")));
        let wrong_set = [ok[0], ok[1], ok[1]];
        assert!(check(&i, &wrong_set)
            .iter()
            .any(|s| s.contains("asks for 2")));
    }
}
