//! Problems for tests (the library's unit tests and the integration tests share them): random
//! ones for property tests (small boards, units grown by a random walk, pivots on or off their
//! cells), and the small fixed boards several modules' tests play on. Not part of the tool; it
//! writes problem JSON, which the engine then validates like any input.
//!
//! It also holds what the tests of a lower room need from a higher one (the rooms of `src/`
//! import downwards only, tests included; `tests/code_shape.rs`): the planner's and the
//! encoders' tests plan with the evaluation's lock scorer, and the planner's check their plans
//! through the plain encoder. The test kit may use every room, and every test may use it.

use crate::encode::plain;
use crate::engine::{replay, Evaluation, Phrases, Problem};
use crate::eval::{LockScorer, Weights, SYSTEMS};
use crate::plan::{plan_greedy, Plan, PlanConfig, Tables};
use rand::Rng;
use std::path::Path;
use std::sync::OnceLock;

/// The names of the compiled-in scoring systems, in their order.
pub fn systems() -> &'static [&'static str] {
    &SYSTEMS
}

/// One of the compiled-in scoring systems, drawn from `rng`.
pub fn random_system(rng: &mut impl Rng) -> &'static str {
    SYSTEMS[rng.gen_range(0..SYSTEMS.len())]
}

/// The lock scorer of the compiled-in scoring system `system` on `tables`, its ties broken by
/// `rng_seed`. Its weights are kept for the whole run, so that the scorer can borrow them.
pub fn lock_scorer<'a>(tables: &'a Tables, system: &str, rng_seed: u64) -> LockScorer<'a> {
    static WEIGHTS: OnceLock<Vec<Weights>> = OnceLock::new();
    let all = WEIGHTS.get_or_init(|| {
        SYSTEMS
            .iter()
            .map(|s| Weights::system(s).expect("a compiled-in system"))
            .collect()
    });
    let i = SYSTEMS
        .iter()
        .position(|&s| s == system)
        .expect("a compiled-in system");
    LockScorer::new(tables, &all[i], rng_seed)
}

/// The greedy planner's plan of the whole game of `seed`, with the `balanced` weights: what
/// the encoders' tests spell.
pub fn greedy_plan(problem: &Problem, tables: &Tables, seed: u32) -> Plan {
    greedy_plan_by(problem, tables, seed, "balanced")
}

/// [`greedy_plan`] with the compiled-in scoring system `system` (tie-breaks seeded with 1).
pub fn greedy_plan_by(problem: &Problem, tables: &Tables, seed: u32, system: &str) -> Plan {
    let mut scorer = lock_scorer(tables, system, 1);
    let cfg = PlanConfig::whole_game();
    plan_greedy(problem, tables, seed, &cfg, &mut scorer)
}

/// The game of `plan` (planned for `seed`) spelt by the plain encoder, and that text played by
/// the engine with the official phrases: what the planner's tests check a plan against.
pub fn played(problem: &Problem, tables: &Tables, seed: u32, plan: &Plan) -> (String, Evaluation) {
    let text = plain(problem, tables, plan);
    let e = replay(problem, seed, &text, &Phrases::official());
    (text, e)
}

/// A unit as JSON: 1 to `max_cells` cells grown by a random walk from the origin (rightwards
/// and downwards, so coordinates stay non-negative), the pivot one of its cells or, with
/// probability `off_pivot`, a neighbour of one (a pivot off the unit's cells).
pub fn random_unit(rng: &mut impl Rng, max_cells: usize, off_pivot: f64) -> String {
    let n = rng.gen_range(1..=max_cells.max(1));
    let mut cells = vec![(0i64, 0i64)];
    while cells.len() < n {
        let (x, y) = cells[rng.gen_range(0..cells.len())];
        let c = (x + rng.gen_range(-1..=1), y + rng.gen_range(0..=1));
        if c.0 >= 0 && !cells.contains(&c) {
            cells.push(c);
        }
    }
    let (px, py) = cells[rng.gen_range(0..cells.len())];
    let (px, py) = if rng.gen_bool(off_pivot) {
        (px + rng.gen_range(-1..=1), py + rng.gen_range(0..=1))
    } else {
        (px, py)
    };
    unit_json(&cells, (px, py))
}

/// Cells as a JSON list of `{"x", "y"}` objects.
fn cells_json(cells: &[(i64, i64)]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .map(|(x, y)| format!(r#"{{"x":{x},"y":{y}}}"#))
        .collect();
    format!("[{}]", cells.join(","))
}

/// A unit as JSON.
pub fn unit_json(members: &[(i64, i64)], (px, py): (i64, i64)) -> String {
    format!(
        r#"{{"members":{},"pivot":{{"x":{px},"y":{py}}}}}"#,
        cells_json(members)
    )
}

/// A problem as JSON (id 1), from units already in JSON; values are not checked here (the
/// engine's validation is what the tests exercise).
pub fn problem_json(
    (w, h): (i64, i64),
    units: &[String],
    filled: &[(i64, i64)],
    source_length: i64,
    seeds: &[i64],
) -> String {
    let seeds: Vec<String> = seeds.iter().map(|s| s.to_string()).collect();
    format!(
        r#"{{"id":1,"width":{w},"height":{h},"units":[{}],"filled":{},"sourceLength":{source_length},"sourceSeeds":[{}]}}"#,
        units.join(","),
        cells_json(filled),
        seeds.join(",")
    )
}

/// A small random game as JSON, the encoders' tests' usual draw: a board of 5 to `max_width` x 6
/// to 16, its lower half partly filled (up to 40 %), 1 to 4 units of 1 to 5 cells, one seed
/// and a source of 4 to `max_length` units.
pub fn random_small_game(rng: &mut impl Rng, max_width: usize, max_length: u32) -> String {
    let (w, h) = (rng.gen_range(5..=max_width), rng.gen_range(6..=16));
    let units: Vec<String> = (0..rng.gen_range(1..=4))
        .map(|_| {
            let cells = rng.gen_range(1..=5);
            random_unit(rng, cells, 0.3)
        })
        .collect();
    let fill = rng.gen_range(0.0..0.4);
    let (seed, length) = (rng.gen_range(0..1000), rng.gen_range(4..=max_length));
    random_problem(rng, (w, h), (h / 2, fill), &units, (length, &[seed]))
}

/// A problem as JSON: a `w` x `h` board whose rows from `from_row` down have each cell filled
/// with probability `fill`, the given units, source length and seeds.
pub fn random_problem(
    rng: &mut impl Rng,
    (w, h): (usize, usize),
    (from_row, fill): (usize, f64),
    units: &[String],
    (source_length, seeds): (u32, &[u32]),
) -> String {
    let filled: Vec<(i64, i64)> = (from_row..h)
        .flat_map(|y| (0..w).map(move |x| (x as i64, y as i64)))
        .filter(|_| rng.gen_bool(fill))
        .collect();
    let seeds: Vec<i64> = seeds.iter().map(|&s| s as i64).collect();
    problem_json(
        (w as i64, h as i64),
        units,
        &filled,
        source_length as i64,
        &seeds,
    )
}

/// A 10 x 12 board with three filled cells at the bottom, a single cell and a domino, 80 units
/// and the one seed 7: the single cell cannot rotate, so the planner values phrases there, and
/// its beams plan otherwise with the valuer than without.
pub fn phrase_valued_problem() -> Problem {
    // A single cell cannot rotate, so the planner values phrases here.
    let units = [
        unit_json(&[(0, 0)], (0, 0)),
        unit_json(&[(0, 0), (1, 0)], (0, 0)),
    ];
    let json = problem_json((10, 12), &units, &[(0, 11), (3, 11), (7, 10)], 80, &[7]);
    Problem::from_json(&json, std::path::Path::new("t")).expect("a valid problem")
}

/// A small random problem where games often die: a 5-9 x 8-14 board filled half-way from a
/// random row in its lower two thirds down, 1 to 4 random units of up to 5 cells, 60 units and
/// the one seed `seed`; `None` where the drawn problem is not valid (a unit wider than the
/// board, say).
pub fn random_dying_problem(rng: &mut impl Rng, seed: u32) -> Option<Problem> {
    let (w, h) = (rng.gen_range(5..=9), rng.gen_range(8..=14));
    let units: Vec<String> = (0..rng.gen_range(1..=4))
        .map(|_| random_unit(rng, 5, 0.2))
        .collect();
    let from = rng.gen_range(h / 3..=h);
    let json = random_problem(rng, (w, h), (from, 0.5), &units, (60, &[seed]));
    Problem::from_json(&json, Path::new("t")).ok()
}

/// The problem of [`problem_json`] with source length 5 and seed 0, parsed: a `w` x `h` board
/// with `units` (JSON text, several separated by commas) and the `filled` cells.
pub fn problem(w: i64, h: i64, units: &str, filled: &[(i64, i64)]) -> Problem {
    let json = problem_json((w, h), &[units.to_string()], filled, 5, &[0]);
    Problem::from_json(&json, Path::new("t.json")).expect("a valid test problem")
}

/// Problem 7 of the viewer's tests: a 5 x 6 board with a two-cell unit and a single cell, a
/// nearly full bottom row, seeds 0 and 3, and `source_length` units.
pub fn two_unit_problem(source_length: u32) -> Problem {
    let json = format!(
        r#"{{"id":7,"width":5,"height":6,"sourceLength":{source_length},"sourceSeeds":[0,3],
        "filled":[{{"x":0,"y":5}},{{"x":1,"y":5}},{{"x":3,"y":5}},{{"x":4,"y":5}}],
        "units":[{{"members":[{{"x":0,"y":0}},{{"x":1,"y":0}}],"pivot":{{"x":0,"y":0}}}},
                 {{"members":[{{"x":0,"y":0}}],"pivot":{{"x":0,"y":0}}}}]}}"#
    );
    Problem::from_json(&json, Path::new("t.json")).expect("a valid test problem")
}

/// One-member units at the 32-bit ends of the input's range, as (member, pivot): a member or a
/// pivot at x or y = -2147483648 or 2147483647, the other at the origin, and both at opposite
/// ends (issue 72: such units took minutes where the answer is that they cannot spawn).
pub fn units_at_the_32_bit_ends() -> [((i64, i64), (i64, i64)); 10] {
    let (lo, hi) = (i64::from(i32::MIN), i64::from(i32::MAX));
    [
        ((lo, 0), (0, 0)),
        ((hi, 0), (0, 0)),
        ((0, lo), (0, 0)),
        ((0, hi), (0, 0)),
        ((0, 0), (lo, 0)),
        ((0, 0), (hi, 0)),
        ((0, 0), (0, lo)),
        ((0, 0), (0, hi)),
        ((lo, lo), (hi, hi)),
        ((hi, lo), (lo, hi)),
    ]
}
