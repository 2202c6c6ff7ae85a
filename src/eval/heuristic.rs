//! Scoring a lock with weighted features. The weights are data ([`Weights`], serde), with named
//! scoring systems compiled in; `hextris tune` writes new ones.
//!
//! Every feature is computed from the board BEFORE the lock and the member cells of the lock, in
//! time proportional to the unit's size: how low the cells lie, the move points the lock earns
//! (line clears and the bonus of the previous lock), how full the rows it touches become, which
//! neighbours the cells touch (filled cells, walls, floor), the empty cells it covers (holes and
//! overhangs), and the filled/empty transitions along the rows it touches (a rough surface).

use crate::engine::{lock_points, Board};
use crate::error::{Error, Result};
use crate::plan::{State, UnitSpace};
use serde::{Deserialize, Serialize};

mod touched;

pub use touched::TouchMemo;
use touched::{touched, Touched};

/// The features a lock is scored by, written once: the fields of [`Weights`] and [`Features`],
/// in this order, the tunable weights ([`Weights::to_vec`]) and the weighted sum
/// ([`Features::score`]) all come from this list. The clears of one, two and three lines, which
/// weigh [`Features::lines`], the stack evaluation's weights ([`super::stack`], whose features
/// it computes itself) and the noise follow them in [`Weights`].
macro_rules! scored_features {
    ($($(#[doc = $doc:literal])+ $name:ident,)+) => {
        /// Weights of the features; the score of a lock is their weighted sum (higher is better).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Weights {
            $(
                #[doc = concat!("Weight of [`Features::", stringify!($name), "`]:")]
                $(#[doc = $doc])+
                pub $name: f64,
            )+
            /// Amplitude of the seeded random term that breaks ties.
            pub noise: f64,
            /// Per lock that clears exactly one line, on top of its `points`. Negative, it holds
            /// rows back for clears of several lines at once: two lines earn 300 move points, two
            /// single clears 200, and where the units are small and the board narrow a few units
            /// landing a row higher cost less power than that (docs/tuning.md has a measure).
            /// Absent from a weights file, zero.
            #[serde(default)]
            pub clear1: f64,
            /// Per lock that clears exactly two lines, on top of its `points` (see `clear1`).
            #[serde(default)]
            pub clear2: f64,
            /// Per lock that clears exactly three lines, on top of its `points` (see `clear1`).
            #[serde(default)]
            pub clear3: f64,
            /// The stack evaluation for survival ([`super::stack`]), zero in the systems that
            /// came before it; absent from a weights file, zero. Per the share of the problem's
            /// units that could spawn and whose spawn position the lock covers.
            #[serde(default)]
            pub spawn: f64,
            /// Per row by which the lock raises the top of the stack.
            #[serde(default)]
            pub height: f64,
            /// Per unit of the board's danger: its filled cells near the spawn, weighted by
            /// their row (see [`super::stack`]). A state of the partial game, not a sum over its
            /// locks.
            #[serde(default)]
            pub danger: f64,
            /// Per empty cell that no unit can reach from the top row (see [`super::stack`]). A
            /// state of the partial game, not a sum over its locks.
            #[serde(default)]
            pub sealed: f64,
            /// Per unit of the share of the room the biggest and the tallest units lose: the
            /// states they cannot reach from their spawn that they reach on an empty board (see
            /// [`super::stack`]). A state of the partial game.
            #[serde(default)]
            pub cramped: f64,
            /// Per row holding an empty cell that no unit can reach (a row no lock can
            /// complete). A state of the partial game.
            #[serde(default)]
            pub dead: f64,
        }

        /// The features of one lock.
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct Features {
            $($(#[doc = $doc])+ pub $name: f64,)+
            /// Lines the lock clears.
            pub lines: usize,
        }

        impl Weights {
            /// The tunable weights as a vector (the noise amplitude is not tuned).
            pub fn to_vec(&self) -> [f64; TUNED] {
                [
                    $(self.$name,)+
                    self.clear1,
                    self.clear2,
                    self.clear3,
                    self.spawn,
                    self.height,
                    self.danger,
                    self.sealed,
                    self.cramped,
                    self.dead,
                ]
            }

            /// The weights of [`Weights::to_vec`] put back, noise kept.
            pub fn with_vec(&self, v: [f64; TUNED]) -> Weights {
                let [$($name,)+ clear1, clear2, clear3, spawn, height, danger, sealed, cramped, dead] =
                    v;
                Weights {
                    $($name,)+
                    clear1,
                    clear2,
                    clear3,
                    spawn,
                    height,
                    danger,
                    sealed,
                    cramped,
                    dead,
                    noise: self.noise,
                }
            }
        }

        impl Features {
            /// The weighted sum (the stack evaluation's features apart: see
            /// [`super::stack::LockStack::score`]).
            pub fn score(&self, w: &Weights) -> f64 {
                $(w.$name * self.$name +)+ match self.lines {
                    1 => w.clear1,
                    2 => w.clear2,
                    3 => w.clear3,
                    _ => 0.0,
                }
            }
        }
    };
}

scored_features! {
    /// The move points the lock earns (size, lines, bonus).
    points,
    /// Per cell, its row divided by the height (1 at the floor), summed.
    depth,
    /// Per touched row that stays, the square of its fill fraction after the lock, summed.
    row_fill,
    /// Neighbours of the cells that are filled cells.
    contact_filled,
    /// Neighbours of the cells that are off the left or right edge.
    contact_wall,
    /// Neighbours of the cells that are below the floor.
    contact_floor,
    /// Empty cells directly below (SW or SE of) a cell of the unit.
    holes,
    /// Filled/empty transitions the lock adds along the rows it touches (walls count as
    /// filled).
    transitions,
}

impl Default for Weights {
    fn default() -> Self {
        Weights::system("low").expect("the default system exists")
    }
}

/// The number of tunable weights (see [`Weights::to_vec`]).
pub const TUNED: usize = 17;

/// The last this many of [`Weights::to_vec`] are the stack evaluation's ([`Weights::stacked`]).
pub const STACK_WEIGHTS: usize = 6;

/// The names of the compiled-in scoring systems. The last, `survive`, counts the stack
/// evaluation ([`super::stack`]); the solver turns to it while a game dies early (see
/// `survival_systems` in `src/solve/search.json`).
pub const SYSTEMS: [&str; 6] = ["low", "fill", "balanced", "pairs", "triples", "survive"];

/// The compiled-in scoring systems, as data: `hextris tune --out` rewrites this file.
const SYSTEMS_JSON: &str = include_str!("weights.json");

/// The compiled-in systems, parsed once.
fn compiled() -> &'static std::collections::BTreeMap<String, Weights> {
    static SYSTEMS: std::sync::OnceLock<std::collections::BTreeMap<String, Weights>> =
        std::sync::OnceLock::new();
    SYSTEMS.get_or_init(|| {
        serde_json::from_str(SYSTEMS_JSON).expect("weights.json is valid (a test checks it)")
    })
}

/// Reads scoring systems from a JSON file shaped like `src/eval/weights.json`, for `--weights`.
/// It lives here, not with the file helpers of [`crate::io`], so that what reads no weights (the
/// puzzles) does not depend on the hex game's evaluation.
pub fn read_systems(path: &std::path::Path) -> Result<Vec<(String, Weights)>> {
    systems_from_json(&crate::io::read_text(path)?, path)
}

/// Parses scoring systems from JSON text shaped like `src/eval/weights.json` (a map from system
/// name to weights), for `--weights`; `path` names the file in errors (reading it is
/// [`read_systems`]'s job).
pub fn systems_from_json(text: &str, path: &std::path::Path) -> Result<Vec<(String, Weights)>> {
    let map: std::collections::BTreeMap<String, Weights> =
        serde_json::from_str(text).map_err(|source| Error::Json {
            path: path.to_path_buf(),
            source,
        })?;
    if map.is_empty() {
        return Err(Error::invalid(path, "no scoring system in the file"));
    }
    // The compiled-in systems keep their order (the first plans the quick answer); others
    // follow by name.
    let mut systems: Vec<(String, Weights)> = map.into_iter().collect();
    systems.sort_by_key(|(name, _)| {
        SYSTEMS
            .iter()
            .position(|s| s == name)
            .unwrap_or(SYSTEMS.len())
    });
    Ok(systems)
}

/// Every compiled-in scoring system with its name, in the order of [`SYSTEMS`].
pub fn compiled_systems() -> Vec<(String, Weights)> {
    SYSTEMS
        .iter()
        .map(|s| (s.to_string(), compiled()[*s].clone()))
        .collect()
}

impl Weights {
    /// A named scoring system: `low` places units as low as possible and snug; `fill` favours
    /// completing nearly-full rows; `balanced` sits between them. Their weights are data
    /// (`src/eval/weights.json`), compiled in.
    pub fn system(name: &str) -> Result<Weights> {
        compiled().get(name).cloned().ok_or_else(|| {
            Error::Usage(format!(
                "unknown scoring system {name:?} (known: {})",
                SYSTEMS.join(", ")
            ))
        })
    }

    /// Whether the stack evaluation counts ([`super::stack`]): the planner computes its
    /// features only then.
    pub fn stacked(&self) -> bool {
        self.spawn != 0.0 || self.height != 0.0 || self.stateful()
    }

    /// Whether a state of the board counts ([`super::stack`]): the beam then holds each partial
    /// game's state and ranks a few more children by it.
    pub fn stateful(&self) -> bool {
        self.danger != 0.0 || self.sealed != 0.0 || self.cramped != 0.0 || self.dead != 0.0
    }
}

impl Features {
    /// Computes the features of locking `space`'s unit at `s` on `board`, after a lock that
    /// cleared `ls_old` lines: the reference the scorer's tables are checked against, reading
    /// the board itself ([`Lookups`] for [`Board`]).
    pub fn of(board: &Board, space: &UnitSpace, s: State, ls_old: usize) -> Features {
        let site = LockSite {
            board,
            lookups: board,
            space,
            ls_old,
        };
        site.features(s)
    }
}

/// What the features of a lock read beyond the cells its outline touches: the filled cells of
/// each row, the square of a row's fill fraction and the depth. [`Board`] computes them from
/// its rows and the formulas ([`fill_square`], [`depth_of`]); [`RowTables`], the scorer's,
/// counts the rows once per board rather than once per lock and squares and divides from
/// tables. A trait rather than a value with function pointers, so that each caller's lookups
/// are inlined into the feature sum, the planner's hottest path.
pub trait Lookups {
    /// The filled cells of row `y`.
    fn row_count(&self, y: usize) -> usize;
    /// The square of the fill fraction of a row with `filled` cells filled.
    fn row_fill(&self, filled: usize) -> f64;
    /// The `depth` feature of a lock whose members' rows, counted from 1, sum to `rows`.
    fn depth(&self, rows: i64) -> f64;
}

impl Lookups for Board {
    #[inline]
    fn row_count(&self, y: usize) -> usize {
        Board::row_count(self, y)
    }

    #[inline]
    fn row_fill(&self, filled: usize) -> f64 {
        fill_square(filled, self.width())
    }

    #[inline]
    fn depth(&self, rows: i64) -> f64 {
        depth_of(rows, self.height())
    }
}

/// The scorer's [`Lookups`]: the rows of the board at hand counted once ([`RowTables::count`]),
/// and the fill and depth formulas tabled, the same values to the bit.
#[derive(Clone, Debug, Default)]
pub struct RowTables {
    /// The filled cells of each row of the board counted last.
    counts: Vec<usize>,
    /// The square of a row's fill fraction, per number of filled cells (the division once per
    /// board size rather than once per row of each lock).
    fill: Vec<f64>,
    /// The depth feature per sum of a lock's members' rows counted from 1 (see [`depth_of`]),
    /// up to the biggest unit on the floor: a load rather than a division per lock, whose
    /// latency held up the sum of the lock's score.
    depth: Vec<f64>,
    /// The height of the board counted last, for the depths past the table.
    height: usize,
}

impl RowTables {
    /// Counts the rows of `board` (a population count per word, in software on the build's
    /// baseline CPU), and tables the fill and depth for its size where the tables do not fit
    /// it yet; `most` is the size of the problem's biggest unit.
    pub fn count(&mut self, board: &Board, most: usize) {
        self.counts.clear();
        self.counts
            .extend((0..board.height()).map(|y| board.row_count(y)));
        let width = board.width();
        if self.fill.len() != width + 1 {
            self.fill = (0..=width).map(|n| fill_square(n, width)).collect();
        }
        let height = board.height();
        let most = most * height;
        if self.depth.len() != most + 1 || self.height != height {
            self.depth = (0..=most as i64).map(|n| depth_of(n, height)).collect();
        }
        self.height = height;
    }
}

impl Lookups for RowTables {
    #[inline]
    fn row_count(&self, y: usize) -> usize {
        self.counts[y]
    }

    #[inline]
    fn row_fill(&self, filled: usize) -> f64 {
        self.fill[filled]
    }

    /// From the table where it reaches, computed past it (the same values to the bit).
    #[inline]
    fn depth(&self, rows: i64) -> f64 {
        let d = self.depth.get(rows as usize);
        d.copied().unwrap_or_else(|| depth_of(rows, self.height))
    }
}

/// Where the locks of one unit are scored: the board, what the features read of it beyond the
/// cells ([`Lookups`]), the unit's space and the lines the previous lock cleared. The same for
/// every lock of a step, so it is gathered once and each lock gives only its state.
pub struct LockSite<'a, L> {
    /// The board before the lock.
    pub board: &'a Board,
    /// The row counts, fill and depth of `board`.
    pub lookups: &'a L,
    /// The unit's space.
    pub space: &'a UnitSpace,
    /// Lines cleared by the previous lock (for the line bonus of the move points).
    pub ls_old: usize,
}

impl<L: Lookups> LockSite<'_, L> {
    /// The features of locking the unit at `s`.
    #[inline]
    pub fn features(&self, s: State) -> Features {
        let t = touched(self.board, self.space.outline(s), s.x, s.y);
        self.with_touched(s, t)
    }

    /// [`LockSite::features`] with what the lock touches read through `memo`, which must have
    /// begun the board ([`TouchMemo::begin`]).
    #[inline]
    pub fn features_memoized(&self, s: State, memo: &mut TouchMemo) -> Features {
        let t = memo.touched(self.board, self.space, s);
        self.with_touched(s, t)
    }

    /// [`LockSite::features`] with what the lock touches counted (`t`). Inlined always: the
    /// scorer calls it from two loops with the same lookups, and left to itself the compiler
    /// then makes it a function of its own, which cost the plans about 2% more instructions.
    #[inline(always)]
    fn with_touched(&self, s: State, t: Touched) -> Features {
        let (space, rows) = (self.space, self.lookups);
        let w = self.board.width() as i64;
        let outline = space.outline(s);
        let mut f = Features::default();
        for &(dy, n) in &outline.rows {
            let filled = rows.row_count((s.y + dy) as usize) + n;
            if filled as i64 == w {
                f.lines += 1;
            } else {
                f.row_fill += rows.row_fill(filled);
            }
        }
        // Each end of a run of added cells gains a transition next to an empty cell and loses
        // one next to a filled cell (walls count as filled). Rows that clear are counted too;
        // they vanish anyway and the error is small. The counts are whole numbers, so they
        // are summed as integers (the same values as summing ones).
        f.transitions = t.ends as f64 - 2.0 * t.ends_filled as f64;
        f.contact_floor = t.floor as f64;
        f.contact_wall = t.wall as f64;
        f.contact_filled = t.filled as f64;
        f.holes = t.holes as f64;
        let size = space.size as i64;
        f.depth = rows.depth(outline.sum_dy + size * (s.y + 1));
        f.points = lock_points(space.size, f.lines, self.ls_old) as f64;
        f
    }
}

/// The `depth` feature of a lock whose members' rows, counted from 1, sum to `rows`, on a
/// board of `height` rows: one formula, so a table of it gives the same values to the bit.
pub fn depth_of(rows: i64, height: usize) -> f64 {
    rows as f64 / height as f64
}

/// The square of the fill fraction of a row of `width` cells with `filled` of them filled (the
/// `row_fill` feature's term): one formula, so a table of it gives the same values to the bit.
pub fn fill_square(filled: usize, width: usize) -> f64 {
    let frac = filled as f64 / width as f64;
    frac * frac
}

#[cfg(test)]
mod tests {
    use super::touched::touched_at_edges;
    use super::*;

    #[test]
    fn compiled_systems_parse_and_match_the_list() {
        let names: Vec<&str> = compiled().keys().map(|s| s.as_str()).collect();
        let mut want = SYSTEMS.to_vec();
        want.sort();
        assert_eq!(names, want);
        let w = Weights::system("low").unwrap();
        assert_eq!(w.with_vec(w.to_vec()), w);
    }

    /// Regression: a weights file used to give its systems in name order, so `--weights` with
    /// the compiled-in file planned the quick answer with another system than the default.
    #[test]
    fn a_weights_file_keeps_the_compiled_in_order() {
        let path = std::path::Path::new("mine.json");
        let extra = SYSTEMS_JSON.trim_end().trim_end_matches('}').to_string()
            + ", \"aaa\": "
            + &serde_json::to_string(&Weights::system("fill").unwrap()).unwrap()
            + "}";
        let systems = systems_from_json(&extra, path).unwrap();
        let names: Vec<&str> = systems.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["low", "fill", "balanced", "pairs", "triples", "survive", "aaa"]
        );
        for (name, w) in &systems[..6] {
            assert_eq!(*w, Weights::system(name).unwrap());
        }
    }

    #[test]
    fn clears_of_one_two_and_three_lines_add_their_own_weights() {
        let w = Weights {
            clear1: -10.0,
            clear2: 2.0,
            clear3: 7.0,
            ..Weights::system("balanced").unwrap()
        };
        let base = Features {
            points: 100.0,
            depth: 1.0,
            ..Features::default()
        };
        let plain = base.score(&w);
        for (lines, extra) in [(0, 0.0), (1, -10.0), (2, 2.0), (3, 7.0), (4, 0.0)] {
            let f = Features { lines, ..base };
            assert_eq!(f.score(&w), plain + extra, "{lines} lines");
        }
        // Absent from a file, they are zero.
        let json = r#"{"points": 1, "depth": 0, "row_fill": 0, "contact_filled": 0,
            "contact_wall": 0, "contact_floor": 0, "holes": 0, "transitions": 0, "noise": 0}"#;
        let w: Weights = serde_json::from_str(json).unwrap();
        assert_eq!((w.clear1, w.clear2, w.clear3), (0.0, 0.0, 0.0));
    }

    #[test]
    fn unknown_system_is_an_error() {
        assert!(Weights::system("nope")
            .unwrap_err()
            .to_string()
            .contains("unknown scoring system"));
        for s in SYSTEMS {
            assert!(Weights::system(s).is_ok());
        }
    }

    fn one_cell() -> UnitSpace {
        let u = crate::engine::Unit::new(
            &[crate::engine::Cell::new(0, 0)],
            crate::engine::Cell::new(0, 0),
            4,
        );
        UnitSpace::new(&u, 4, 3)
    }

    #[test]
    fn features_of_a_line_clear() {
        let mut b = Board::new(4, 3);
        for x in 0..3 {
            b.fill(x, 2);
        }
        let space = one_cell();
        let f = Features::of(&b, &space, State { x: 3, y: 2, o: 0 }, 0);
        assert_eq!(f.lines, 1);
        assert_eq!(f.points, 101.0);
        assert_eq!(f.contact_floor, 2.0);
        assert_eq!(f.contact_wall, 1.0);
        // Row 2 is even: its NW neighbour (2,1) and NE neighbour (3,1) are empty, W is filled.
        assert_eq!(f.contact_filled, 1.0);
        let g = Features::of(&b, &space, State { x: 3, y: 0, o: 0 }, 0);
        assert_eq!(g.holes, 2.0);
        assert_eq!(g.lines, 0);
    }

    #[test]
    fn transitions_count_run_ends() {
        let mut b = Board::new(6, 1);
        b.fill(0, 0);
        let u = crate::engine::Unit::new(
            &[
                crate::engine::Cell::new(0, 0),
                crate::engine::Cell::new(1, 0),
            ],
            crate::engine::Cell::new(0, 0),
            6,
        );
        let space = UnitSpace::new(&u, 6, 1);
        // Row: # . . . . .  Filling 1..=2 removes the 0|1 transition and adds 2|3.
        assert_eq!(
            Features::of(&b, &space, State { x: 1, y: 0, o: 0 }, 0).transitions,
            0.0
        );
        // Filling 2..=3 adds two transitions; 4..=5 against the wall adds one and removes one.
        assert_eq!(
            Features::of(&b, &space, State { x: 2, y: 0, o: 0 }, 0).transitions,
            2.0
        );
        assert_eq!(
            Features::of(&b, &space, State { x: 4, y: 0, o: 0 }, 0).transitions,
            0.0
        );
    }

    /// The cells a lock touches read a row at a time ([`touched`]: with no edge tests where the
    /// outline's box lies on the board, with the edges' cells masked where it does not) against
    /// reading them cell by cell with the tests ([`touched_at_edges`]), and the scorer's tables
    /// of row counts, fill squares and depths ([`RowTables`]) against the board and the
    /// formulas: on random boards (up to 150 columns, so that rows span several words) and
    /// units (up to 12 cells), at every state of every orientation whose members lie on the
    /// board.
    #[test]
    fn cells_read_inside_the_board_match_them_tested_at_the_edges() {
        use crate::testkit::random_unit;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(71);
        let (mut states, mut inside) = (0, 0);
        for round in 0..400 {
            let (w, h): (usize, usize) = if round % 4 == 0 {
                (rng.gen_range(60..150), rng.gen_range(3..8))
            } else {
                (rng.gen_range(1..16), rng.gen_range(1..12))
            };
            let json = random_unit(&mut rng, 12, 0.3);
            let problem = crate::testkit::problem_json(
                (w as i64, h as i64),
                std::slice::from_ref(&json),
                &[],
                1,
                &[0],
            );
            let Ok(p) = crate::engine::Problem::from_json(&problem, std::path::Path::new("t"))
            else {
                continue;
            };
            let space = UnitSpace::new(&p.units[0], w, h);
            let mut board = Board::new(w, h);
            let density = rng.gen_range(0.0..1.0);
            for y in 0..h {
                for x in 0..w {
                    if rng.gen_bool(density) {
                        board.fill(x, y);
                    }
                }
            }
            let mut tables = RowTables::default();
            tables.count(&board, space.size);
            let site = LockSite {
                board: &board,
                lookups: &tables,
                space: &space,
                ls_old: 1,
            };
            for o in 0..space.k {
                for y in -3..h as i64 + 3 {
                    for x in -3..w as i64 + 3 {
                        let s = State { x, y, o };
                        let on = space.cells(s).iter().all(|&(dx, dy)| {
                            (0..w as i64).contains(&(x + dx)) && (0..h as i64).contains(&(y + dy))
                        });
                        if !on {
                            continue;
                        }
                        states += 1;
                        let outline = space.outline(s);
                        let want = touched_at_edges(&board, outline, x, y);
                        assert_eq!(touched(&board, outline, x, y), want, "{s:?} {json}");
                        let o = outline;
                        inside += (x + o.lo.0 >= 0
                            && x + o.hi.0 < w as i64
                            && y + o.lo.1 >= 0
                            && y + o.hi.1 < h as i64) as usize;
                        // A lock's members are empty cells: its rows fill to at most the width.
                        let free = space
                            .cells(s)
                            .iter()
                            .all(|&(dx, dy)| !board.is_filled(x + dx, y + dy));
                        if !free {
                            continue;
                        }
                        let fast = site.features(s);
                        assert_eq!(fast, Features::of(&board, &space, s, 1));
                    }
                }
            }
        }
        assert!(
            states > 20_000 && inside > states / 4 && states - inside > states / 4,
            "{states} states, {inside} inside"
        );
    }

    #[test]
    fn weights_round_trip_as_json() {
        let w = Weights::system("fill").unwrap();
        let text = serde_json::to_string(&w).unwrap();
        let back: Weights = serde_json::from_str(&text).unwrap();
        assert_eq!(w, back);
        // Every weight must be given: a missing one is an error, not a silent zero.
        assert!(serde_json::from_str::<Weights>(r#"{"depth": 9.0}"#).is_err());
        assert!(serde_json::from_str::<Weights>(r#"{"dept": 9.0}"#).is_err());
    }
}
