//! `hextris pack fillit`: every file of `../shared/pack/fillit/inputs/` against its expected
//! output byte for byte (skipped with a message when that directory is missing), `difficile`
//! (which has no expected file) checked by its properties, the usage line, `--letters`, and a
//! property test against a naive reference search.

use hextris::pack::fillit::{lower_bound, parse, render, solve};
use hextris::pack::square::shapes::{fixed, Shape};
use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/pack/fillit");
    if dir.is_dir() {
        Some(dir)
    } else {
        // The tests that call this are ignored when the data is missing (build.rs); run
        // anyway, they fail rather than pass empty.
        panic!("{} is missing", dir.display())
    }
}

fn fillit(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hextris"))
        .args(["pack", "fillit"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
#[cfg_attr(no_shared_pack, ignore = "needs ../shared/pack")]
fn every_input_gives_its_expected_output() {
    let Some(dir) = shared() else { return };
    let mut compared = 0;
    let mut names: Vec<_> = std::fs::read_dir(dir.join("inputs"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    for name in names {
        let expected = dir
            .join("expected")
            .join(format!("{}.out", name.to_string_lossy()));
        if !expected.exists() {
            continue; // `difficile`: see the next test.
        }
        let out = fillit(&[dir.join("inputs").join(&name).as_os_str()]);
        let want = std::fs::read(&expected).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&want),
            "{name:?}"
        );
        let code = if want == b"error\n" { 2 } else { 0 };
        assert_eq!(out.status.code(), Some(code), "{name:?}");
        compared += 1;
    }
    assert!(compared >= 37, "only {compared} files compared");
}

/// Checks a printed square: side, one letter per piece, each letter's cells exactly its piece.
fn assert_packs(text: &str, pieces: &[Shape], side: usize) {
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), side);
    for (k, piece) in pieces.iter().enumerate() {
        let letter = (b'A' + k as u8) as char;
        let cells: Vec<(i32, i32)> = rows
            .iter()
            .enumerate()
            .flat_map(|(y, r)| {
                assert_eq!(r.len(), side);
                r.chars()
                    .enumerate()
                    .filter(move |&(_, c)| c == letter)
                    .map(move |(x, _)| (x as i32, y as i32))
            })
            .collect();
        assert_eq!(
            Shape::from_cells(&cells).as_ref(),
            Some(piece),
            "piece {letter}"
        );
    }
}

#[test]
#[cfg_attr(no_shared_pack, ignore = "needs ../shared/pack")]
fn difficile_is_solved_in_the_smallest_square() {
    let Some(dir) = shared() else { return };
    let path = dir.join("inputs/difficile");
    let pieces = parse(&std::fs::read(&path).unwrap(), 26).unwrap();
    assert_eq!(pieces.len(), 23);
    let out = fillit(&[path.as_os_str()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    // 92 cells need a side of at least 10, so a 10 x 10 packing is the smallest.
    assert_eq!(lower_bound(&pieces), 10);
    assert_packs(&text, &pieces, 10);
}

#[test]
fn usage_and_letters() {
    let usage = "usage: hextris pack fillit input_file\n";
    for args in [vec![], vec!["a", "b"]] {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|s| s.as_ref()).collect();
        let out = fillit(&args);
        assert_eq!(String::from_utf8_lossy(&out.stdout), usage);
        assert_eq!(out.status.code(), Some(2));
    }
    let missing = fillit(&["/nonexistent/fillit/file".as_ref()]);
    assert_eq!(String::from_utf8_lossy(&missing.stdout), "error\n");
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/fillit/file"));

    // 30 O pieces: `error` without --letters, a 12 x 12 square with it (30 * 4 = 120 cells,
    // and O pieces need even sides).
    let block = "##..\n##..\n....\n....\n";
    let text = vec![block; 30].join("\n");
    let dir = std::env::temp_dir().join(format!("hextris-fillit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("thirty");
    std::fs::write(&path, text).unwrap();
    let out = fillit(&[path.as_os_str()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "error\n");
    let out = fillit(&["--letters".as_ref(), path.as_os_str()]);
    assert_eq!(out.status.code(), Some(0));
    let square = String::from_utf8(out.stdout).unwrap();
    assert_eq!(square.lines().count(), 12);
    assert!(
        square.starts_with("AABBCCDDEEFF\nAABBCCDDEEFF\nGGHH"),
        "{square}"
    );
    assert!(square.contains("cc"), "the 29th piece is 'c': {square}");
    let out = fillit(&["--letters=ab".as_ref(), path.as_os_str()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "error\n");
}

/// The definition itself: a depth-first search over the pieces in file order, each at every
/// position (y, x) in turn, in squares of growing side. Exponential, so only for small inputs.
fn reference(pieces: &[Shape]) -> (usize, Vec<(usize, usize)>) {
    fn go(
        grid: &mut Vec<bool>,
        s: usize,
        pieces: &[Shape],
        k: usize,
        pos: &mut Vec<(usize, usize)>,
    ) -> bool {
        let Some(p) = pieces.get(k) else { return true };
        for y in 0..=s - p.height() {
            for x in 0..=s - p.width() {
                let cells: Vec<usize> = p
                    .cells
                    .iter()
                    .map(|&(dx, dy)| (y + dy as usize) * s + x + dx as usize)
                    .collect();
                if cells.iter().any(|&i| grid[i]) {
                    continue;
                }
                cells.iter().for_each(|&i| grid[i] = true);
                pos.push((x, y));
                if go(grid, s, pieces, k + 1, pos) {
                    return true;
                }
                pos.pop();
                cells.iter().for_each(|&i| grid[i] = false);
            }
        }
        false
    }
    let mut s = 2;
    loop {
        let fits = pieces.iter().all(|p| p.width() <= s && p.height() <= s);
        let mut pos = Vec::new();
        if fits && 4 * pieces.len() <= s * s && go(&mut vec![false; s * s], s, pieces, 0, &mut pos)
        {
            return (s, pos);
        }
        s += 1;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The canonical packing is exactly the one the definition's naive search finds.
    #[test]
    fn canonical_matches_the_naive_search(ids in prop::collection::vec(0usize..19, 1..8)) {
        let pieces: Vec<Shape> = ids.iter().map(|&i| fixed()[i]).collect();
        let got = solve(&pieces);
        let (side, positions) = reference(&pieces);
        prop_assert_eq!(got.size, side);
        prop_assert_eq!(&got.positions, &positions);
        let letters: Vec<char> = ('A'..='Z').collect();
        let text = render(&got, &letters);
        assert_packs(&text, &pieces, side);
    }
}
