//! Puzzle 2 of `../shared/pack/PUZZLES.md`, the 42 school's fillit: the smallest square that
//! holds a list of fixed tetrominoes, printed as the canonical packing.
//!
//! The square is printed one line per row, `.` for an empty cell and the k-th capital letter
//! for the k-th piece of the file (the command line, `hextris pack fillit`, is in
//! `crate::cli::pack::fillit`; `--letters` extends the alphabet beyond 26 pieces).
//!
//! The answer is *canonical*: among the packings in the smallest square, the one that a
//! depth-first search finds when it places the pieces in file order, each at its top-most then
//! left-most position. That is the lexicographically smallest vector of positions (y, x) of the
//! pieces' bounding boxes. It is computed without that slow search:
//! 1. the size starts at the lower bound `max(ceil(sqrt(4 n)), largest piece side)` and grows
//!    until the shared tiler ([`super::tiling`]) finds any packing, with the pieces as a
//!    *multiset* of fixed shapes (identical pieces are interchangeable, which removes their
//!    symmetric duplicates) and the unused cells as slack;
//! 2. then each piece in turn gets the first position from which the remaining pieces can still
//!    be packed, a question the tiler answers (with a witness packing, whose own position for
//!    this piece's shape bounds the positions worth asking about). The tiler's memo of dead
//!    states is shared by all these questions.
//!
//! Coordinates: `x` the column, `y` the row, from the top-left corner of the square.

use super::tiling::shapes::Shape;
use super::tiling::{FillOrder, Kind, Outcome, Placement, Priority, Tiler};

/// The default extended alphabet of `--letters`: 62 symbols.
pub const EXTENDED: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Parses a fillit file: blocks of exactly four lines of four `#`/`.` characters each ended by
/// `\n`, separated by exactly one empty line, none after the last; each block exactly four
/// edge-connected `#`; between 1 and `max_pieces` blocks. The error says what is wrong.
pub fn parse(bytes: &[u8], max_pieces: usize) -> Result<Vec<Shape>, String> {
    let mut pieces = Vec::new();
    let mut pos = 0;
    if bytes.is_empty() {
        return Err("the file is empty".into());
    }
    loop {
        let n = pieces.len() + 1;
        let mut cells = Vec::new();
        for row in 0..4 {
            let line_no = (n - 1) * 5 + row + 1;
            let line = bytes.get(pos..pos + 5).ok_or_else(|| {
                format!("line {line_no}: block {n} is cut short (4 lines of 4 characters and a newline)")
            })?;
            if line[4] != b'\n' {
                return Err(format!(
                    "line {line_no}: not exactly 4 characters and a newline"
                ));
            }
            for (x, &b) in line[..4].iter().enumerate() {
                match b {
                    b'#' => cells.push((x as i32, row as i32)),
                    b'.' => {}
                    _ => {
                        return Err(format!(
                            "line {line_no}: a character other than '#' and '.'"
                        ))
                    }
                }
            }
            pos += 5;
        }
        if cells.len() != 4 {
            return Err(format!("block {n} has {} '#', not 4", cells.len()));
        }
        let shape = Shape::from_cells(&cells)
            .ok_or_else(|| format!("block {n}: its 4 '#' are not edge-connected"))?;
        pieces.push(shape);
        if pieces.len() > max_pieces {
            return Err(format!(
                "more than {max_pieces} pieces{}",
                if max_pieces == 26 {
                    " (see --letters)"
                } else {
                    ""
                }
            ));
        }
        if pos == bytes.len() {
            return Ok(pieces);
        }
        if bytes[pos] != b'\n' {
            return Err(format!(
                "line {}: blocks must be separated by one empty line",
                n * 5
            ));
        }
        pos += 1;
        if pos == bytes.len() {
            return Err("an empty line after the last block".into());
        }
    }
}

/// A packing: the side of the square and each piece's bounding-box corner `(x, y)`, in file
/// order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packing {
    pub size: usize,
    pub shapes: Vec<Shape>,
    pub positions: Vec<(usize, usize)>,
}

/// The lower bound on the side: the area, and the longest piece.
pub fn lower_bound(pieces: &[Shape]) -> usize {
    let cells = 4 * pieces.len();
    let mut s = 0;
    while s * s < cells {
        s += 1;
    }
    pieces
        .iter()
        .map(|p| p.width().max(p.height()))
        .fold(s, usize::max)
}

/// The kinds of a piece list (one per distinct shape, in order of first appearance) and each
/// piece's kind.
fn kinds_of(pieces: &[Shape]) -> (Vec<Kind>, Vec<usize>) {
    let mut kinds: Vec<Kind> = Vec::new();
    let mut of = Vec::with_capacity(pieces.len());
    for p in pieces {
        let k = match kinds.iter().position(|k| k.shapes[0] == *p) {
            Some(k) => k,
            None => {
                kinds.push(Kind {
                    shapes: vec![*p],
                    count: 0,
                });
                kinds.len() - 1
            }
        };
        kinds[k].count += 1;
        of.push(k);
    }
    (kinds, of)
}

/// Solves a piece list: the smallest square and its canonical packing.
pub fn solve(pieces: &[Shape]) -> Packing {
    solve_with_stats(pieces).0
}

/// Statistics of a fillit solve.
#[derive(Debug, Clone, Copy, Default)]
pub struct FillitStats {
    /// Sides proven too small.
    pub sizes_refuted: usize,
    /// Questions asked of the tiler.
    pub questions: u64,
    /// Placements made by the tiler in all.
    pub nodes: u64,
}

/// [`solve`], with statistics.
pub fn solve_with_stats(pieces: &[Shape]) -> (Packing, FillitStats) {
    let mut stats = FillitStats::default();
    let (kinds, kind_of) = kinds_of(pieces);
    let mut size = lower_bound(pieces);
    loop {
        let mut t = Tiler::new(size, size, kinds.clone(), FillOrder::RowMajor);
        t.set_priority(Priority::MostRemaining);
        stats.questions += 1;
        let out = t.solve(None);
        stats.nodes += t.stats.nodes;
        match out {
            Outcome::Solved(witness) => {
                let positions = canonical(&mut t, pieces, &kind_of, witness, &mut stats);
                let packing = Packing {
                    size,
                    shapes: pieces.to_vec(),
                    positions,
                };
                return (packing, stats);
            }
            Outcome::Exhausted => {
                stats.sizes_refuted += 1;
                size += 1;
            }
            Outcome::GaveUp => unreachable!("no node limit was set"),
        }
    }
}

/// The canonical positions on the tiler's (empty) board, given one packing of all the pieces.
fn canonical(
    t: &mut Tiler,
    pieces: &[Shape],
    kind_of: &[usize],
    mut witness: Vec<Placement>,
    stats: &mut FillitStats,
) -> Vec<(usize, usize)> {
    let size = t.width();
    let mut positions = Vec::with_capacity(pieces.len());
    for (i, shape) in pieces.iter().enumerate() {
        let k = kind_of[i];
        // The witness's first placement of this shape is feasible: the answer is at or before.
        let (wi, bound) = witness
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == k)
            .map(|(j, p)| (j, (p.y, p.x)))
            .min_by_key(|&(_, yx)| yx)
            .expect("the witness places every remaining piece");
        t.set_count(k, t.count(k) - 1);
        let mut chosen = None;
        'scan: for y in 0..=size - shape.height() {
            for x in 0..=size - shape.width() {
                if (y, x) >= bound {
                    break 'scan;
                }
                if !fits(t, shape, x, y) {
                    continue;
                }
                set(t, shape, x, y, true);
                stats.questions += 1;
                let out = t.solve(None);
                stats.nodes += t.stats.nodes;
                match out {
                    Outcome::Solved(w) => {
                        witness = w;
                        chosen = Some((x, y));
                        break 'scan;
                    }
                    Outcome::Exhausted => set(t, shape, x, y, false),
                    Outcome::GaveUp => unreachable!("no node limit was set"),
                }
            }
        }
        let (x, y) = chosen.unwrap_or_else(|| {
            let (y, x) = bound;
            set(t, shape, x, y, true);
            witness.swap_remove(wi);
            (x, y)
        });
        positions.push((x, y));
    }
    // Leave the board as it was found.
    for (shape, &(x, y)) in pieces.iter().zip(&positions) {
        set(t, shape, x, y, false);
    }
    positions
}

fn fits(t: &Tiler, shape: &Shape, x: usize, y: usize) -> bool {
    shape
        .cells
        .iter()
        .all(|&(dx, dy)| !t.is_filled(x + dx as usize, y + dy as usize))
}

fn set(t: &mut Tiler, shape: &Shape, x: usize, y: usize, filled: bool) {
    for &(dx, dy) in &shape.cells {
        t.set_cell(x + dx as usize, y + dy as usize, filled);
    }
}

/// The square as text: `size` lines of `size` characters, `.` or the piece's symbol.
pub fn render(p: &Packing, alphabet: &[char]) -> String {
    let mut grid = vec!['.'; p.size * p.size];
    for (i, (shape, &(x, y))) in p.shapes.iter().zip(&p.positions).enumerate() {
        for &(dx, dy) in &shape.cells {
            grid[(y + dy as usize) * p.size + x + dx as usize] = alphabet[i];
        }
    }
    let mut out = String::with_capacity(p.size * (p.size + 1));
    for row in grid.chunks(p.size) {
        out.extend(row);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PDF1: &[u8] = b"#...\n#...\n#...\n#...\n\n....\n....\n..##\n..##\n";

    #[test]
    fn parses_the_subject_example() {
        let p = parse(PDF1, 26).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].to_string(), "#/#/#/#");
        assert_eq!(p[1].to_string(), "##/##");
    }

    #[test]
    fn rejects_each_rule() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "empty"),
            (b"\n", "cut short"),
            (b"#...\n#...\n#...\n#...\n\n", "empty line after"),
            (b"#...\n#...\n#...\n#...", "cut short"),
            (b"#...\n#...\n#...\n#....\n", "4 characters"),
            (b"#...\n#...\n#...\n#..x\n", "other than"),
            (b"#...\n#...\n#...\n##..\n", "has 5"),
            (b"#...\n#...\n....\n#...\n", "has 3"),
            (b"#...\n#...\n....\n##..\n", "edge-connected"),
            (
                b"#...\n#...\n#...\n#...\n\n\n#...\n#...\n#...\n#...\n",
                "line 6: not exactly 4",
            ),
            (
                b"#...\n#...\n#...\n#...\n#...\n#...\n#...\n#...\n",
                "separated",
            ),
        ];
        for (text, why) in cases {
            let e = parse(text, 26).unwrap_err();
            assert!(e.contains(why), "{:?}: {e}", String::from_utf8_lossy(text));
        }
        let many: Vec<u8> = std::iter::repeat_n(&b"##..\n##..\n....\n....\n"[..], 27)
            .collect::<Vec<_>>()
            .join(&b'\n');
        assert!(parse(&many, 26).unwrap_err().contains("more than 26"));
        assert_eq!(parse(&many, 62).unwrap().len(), 27);
    }

    #[test]
    fn solves_the_subject_example() {
        let p = solve(&parse(PDF1, 26).unwrap());
        assert_eq!(render(&p, &['A', 'B']), "ABB.\nABB.\nA...\nA...\n");
    }

    #[test]
    fn lower_bound_counts_area_and_length() {
        let i = Shape::parse("####").unwrap();
        let o = Shape::parse("##/##").unwrap();
        assert_eq!(lower_bound(&[o]), 2);
        assert_eq!(lower_bound(&[i]), 4);
        assert_eq!(lower_bound(&[o; 5]), 5);
    }
}
