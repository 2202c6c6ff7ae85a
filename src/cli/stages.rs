//! `hextris bench --stages`: the cost per unit of each stage of one game, one problem (or
//! generated board) at a time, on one thread, so that a change to a stage can be measured on its
//! own. The stages, as the solver runs them:
//!
//! - **plan**: the greedy plan (system `low`, width 1), with the phrase valuer where the solver
//!   uses one (some unit cannot rotate and phrases are spelt), as the quick answer plans;
//! - **bare**: the same plan without the valuer (the planner alone);
//! - **beam16**: a beam of width 16 (branch 8, system `balanced`, the same valuer), per unit
//!   and per unit of width;
//! - **survive16**: the same beam with the system `survive`, which counts the stack evaluation
//!   ([`crate::eval::stack`]): what a game that dies early costs the solver per unit of width;
//! - **plain**, **greedy**, **dp**: the three encoders spelling the greedy plan;
//! - **chars**: the character encoder spelling the greedy plan.
//!
//! Every input is deterministic (the problem's first seed, fixed tie-break seeds), so two runs
//! measure the same work. Each stage stops at `--stage-time` seconds: its cost per unit is then
//! that of the units it reached (the first ones, on the emptiest boards), marked with `>` in the
//! totals; the character encoder, which spells all or nothing, spells the longest prefix of
//! the plan (25 units, then four times as many) that its time allows. A stage that takes less than
//! [`REPEAT_SECONDS`] runs again, up to `--repeat` times, and its fastest run counts.
//!
//! `--board WxH:N` adds an empty W x H board with N units of the first problem given, on its
//! first seed (`tools/big_board.py` writes the same problem to a file, for `hextris solve`).
//!
//! `--game DIR` has the encoders (plain, greedy, dp, chars) spell the game stored in the store
//! `DIR` for the problem's first seed (its locks, replayed) instead of the greedy plan: the game
//! the solver kept, which on a problem whose greedy plan dies early is the whole source. A
//! problem without a stored game there (or whose stored text does not replay) is measured on
//! the greedy plan, and its row says which game its encoders spelt.

use crate::encode::{CharStats, CharTables, Encoder, Mode, PhraseTable};
use crate::engine::{replay, Phrases, Problem};
use crate::error::{Error, Result};
use crate::eval::Weights;
use crate::plan::{Plan, PlanConfig, Tables};
use crate::solve::stage::{StageRunner, Valuer};
use crate::work::Limit;
use std::path::Path;
use std::time::{Duration, Instant};

/// A stage that ran for less than this is run again (up to `--repeat` times).
const REPEAT_SECONDS: f64 = 2.0;

/// The character encoder's first prefix, in units (see [`chars_stage`]).
const CHARS_FIRST: usize = 25;

/// The beam width of the beam stage.
const BEAM_WIDTH: usize = 16;

/// A board to generate: `W x H` with `N` units (`WxH:N` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSpec {
    pub width: usize,
    pub height: usize,
    pub units: u32,
}

/// Parses `WxH:N`.
pub fn board_spec(s: &str) -> std::result::Result<BoardSpec, String> {
    let bad = || format!("expected WIDTHxHEIGHT:UNITS such as 100x100:4000, not '{s}'");
    let (size, units) = s.split_once(':').ok_or_else(bad)?;
    let (w, h) = size.split_once('x').ok_or_else(bad)?;
    let num = |t: &str, hi: u64| -> std::result::Result<u64, String> {
        let v: u64 = t.trim().parse().map_err(|_| bad())?;
        if v == 0 || v > hi {
            return Err(bad());
        }
        Ok(v)
    };
    let side = crate::engine::problem::MAX_SIDE as u64;
    Ok(BoardSpec {
        width: num(w, side)? as usize,
        height: num(h, side)? as usize,
        units: num(units, u32::MAX as u64)? as u32,
    })
}

/// An empty board of `spec` with the units of the problem in `text` (a problem file's JSON), on
/// its first seed only.
pub fn generated_board(text: &str, path: &Path, spec: BoardSpec) -> Result<Problem> {
    let mut v: serde_json::Value = serde_json::from_str(text).map_err(|source| Error::Json {
        path: path.to_path_buf(),
        source,
    })?;
    let seed = v["sourceSeeds"]
        .as_array()
        .and_then(|s| s.first().cloned())
        .unwrap_or(serde_json::Value::from(0));
    v["width"] = spec.width.into();
    v["height"] = spec.height.into();
    v["filled"] = serde_json::Value::Array(Vec::new());
    v["sourceLength"] = spec.units.into();
    v["sourceSeeds"] = serde_json::Value::Array(vec![seed]);
    Problem::from_json(&v.to_string(), path)
}

/// One stage's measure: its fastest run's time and the units it placed or spelt (`None` when it
/// gave nothing: the character encoder out of time).
#[derive(Clone, Copy, Debug)]
struct Measure {
    seconds: f64,
    units: Option<usize>,
    /// Stopped at the stage's time limit before the end of the game.
    cut: bool,
    /// The character encoder's counts in the run measured (see [`mechanism`]).
    chars: Option<CharStats>,
}

impl Measure {
    fn per_unit_us(&self, width: usize) -> Option<f64> {
        let u = self.units.filter(|&u| u > 0)?;
        Some(self.seconds * 1e6 / u as f64 / width as f64)
    }
}

/// Runs `f` (which returns the units done and whether it was cut short) up to `repeat` times
/// while the runs so far took less than [`REPEAT_SECONDS`]; the fastest run counts.
fn measure(repeat: usize, mut f: impl FnMut() -> (Option<usize>, bool)) -> Measure {
    let mut best: Option<Measure> = None;
    let mut spent = 0.0;
    for _ in 0..repeat.max(1) {
        let t0 = Instant::now();
        let (units, cut) = f();
        let seconds = t0.elapsed().as_secs_f64();
        spent += seconds;
        if best.is_none_or(|b| seconds < b.seconds) {
            best = Some(Measure {
                seconds,
                units,
                cut,
                chars: None,
            });
        }
        if spent >= REPEAT_SECONDS {
            break;
        }
    }
    best.expect("at least one run")
}

/// The stages' names, in the table's order.
const STAGES: [&str; 8] = [
    "plan",
    "bare",
    "beam16",
    "survive16",
    "plain",
    "greedy",
    "dp",
    "chars",
];

/// What to measure and how.
#[derive(Clone, Debug)]
pub struct StageOptions {
    /// The most seconds a stage may run.
    pub limit: f64,
    /// The most runs of a short stage.
    pub repeat: usize,
    /// The stages to run (all when empty); the greedy plan runs anyway, for the encoders.
    pub only: Vec<String>,
    /// A store whose game for the problem's first seed the encoders spell (see the module doc).
    pub games: Option<crate::store::Store>,
}

impl StageOptions {
    fn runs(&self, stage: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|s| s == stage)
    }
}

/// A stage that did not run.
const SKIPPED: Measure = Measure {
    seconds: 0.0,
    units: None,
    cut: false,
    chars: None,
};

/// The game the encoders spell: the greedy plan, or a stored game of so many units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Game {
    Greedy,
    Stored(usize),
}

/// The plan of the game stored in `store` for `problem`'s `seed`: `None` when the store holds
/// none for it or its text does not replay; an error when the problem's file cannot be read.
fn stored_plan(
    store: &crate::store::Store,
    problem: &Problem,
    tables: &Tables,
    seed: u32,
) -> Result<Option<Plan>> {
    let entries = store.entries(problem.id)?;
    let entry = entries.iter().find(|e| e.seed == seed);
    Ok(entry.and_then(|e| crate::plan::plan_of_text(problem, tables, seed, &e.solution)))
}

/// Measures every stage on `problem`'s first seed, and says which game the encoders spelt.
fn stages(
    problem: &Problem,
    phrases: &Phrases,
    opts: &StageOptions,
) -> Result<(Vec<Measure>, Game)> {
    let (limit, repeat) = (opts.limit, opts.repeat);
    let seed = problem.seeds.first().copied().unwrap_or(0);
    let tables = Tables::new(problem);
    let table = PhraseTable::new(phrases);
    let encoder = Encoder::new(problem, &tables, &table);
    let search = crate::solve::SearchOptions::default();
    let runner = StageRunner::new(problem, &tables, &encoder, &table, seed, &search);
    let until = || Limit::until(Some(Instant::now() + Duration::from_secs_f64(limit)));
    // As the quick answer plans: the character-level valuer where the planner uses one.
    let plan = |system: &str, width: usize, valued: bool| -> Plan {
        let weights = Weights::system(system).expect("a system");
        let mut cfg = PlanConfig::whole_game();
        cfg.limit = until();
        let valuer = if valued { Valuer::Chars } else { Valuer::Off };
        runner.plan(cfg, &weights, 0, width, valuer, None)
    };
    let planned = |p: &Plan| (Some(p.placements.len()), p.truncated);
    let mut greedy_plan = Plan::default();
    let first = measure(repeat, || {
        greedy_plan = plan("low", 1, true);
        planned(&greedy_plan)
    });
    let stored = match &opts.games {
        Some(store) => stored_plan(store, problem, &tables, seed)?,
        None => None,
    };
    let game = stored
        .as_ref()
        .map_or(Game::Greedy, |p| Game::Stored(p.placements.len()));
    let encoded = stored.as_ref().unwrap_or(&greedy_plan);
    let n = encoded.placements.len();
    let spelt = |text: &str| {
        let locked = replay(problem, seed, text, phrases).locked as usize;
        (Some(locked), locked < n)
    };
    let chars = CharTables::new(&table, &tables.spaces, problem.width);
    let mut out = vec![first];
    for &stage in &STAGES[1..] {
        if !opts.runs(stage) {
            out.push(SKIPPED);
            continue;
        }
        out.push(match stage {
            "bare" => measure(repeat, || planned(&plan("low", 1, false))),
            "beam16" => measure(repeat, || planned(&plan("balanced", BEAM_WIDTH, true))),
            "survive16" => measure(repeat, || planned(&plan("survive", BEAM_WIDTH, true))),
            "chars" => chars_stage(encoded, limit, |prefix, deadline| {
                let mut stats = CharStats::default();
                let text = runner.spell_chars(
                    &chars,
                    prefix,
                    &Limit::until(Some(deadline)),
                    &mut stats,
                )?;
                Some((replay(problem, seed, &text, phrases).locked as usize, stats))
            }),
            _ => {
                let mode = match stage {
                    "plain" => Mode::Plain,
                    "greedy" => Mode::Greedy,
                    _ => Mode::Dp,
                };
                measure(repeat, || spelt(&runner.spell(encoded, mode, &until())))
            }
        });
    }
    Ok((out, game))
}

/// The character encoder's stage: it spells all or nothing, so it spells the plan's first
/// [`CHARS_FIRST`] units, then four times as many while the time measured so far says the next
/// prefix fits in what is left of `limit`; the longest prefix spelt counts. `spell` spells a
/// plan by a deadline and returns the units it locked, with the encoder's counts.
fn chars_stage(
    plan: &Plan,
    limit: f64,
    mut spell: impl FnMut(&Plan, Instant) -> Option<(usize, CharStats)>,
) -> Measure {
    let end = Instant::now() + Duration::from_secs_f64(limit);
    let n = plan.placements.len();
    let mut units = CHARS_FIRST.min(n);
    let mut done: Option<Measure> = None;
    while units > 0 {
        let prefix = Plan {
            placements: plan.placements[..units].to_vec(),
            ..plan.clone()
        };
        let t0 = Instant::now();
        let Some((locked, stats)) = spell(&prefix, end) else {
            break;
        };
        let seconds = t0.elapsed().as_secs_f64();
        done = Some(Measure {
            seconds,
            units: Some(locked),
            cut: units < n,
            chars: Some(stats),
        });
        let next = (units * 4).min(n);
        let left = end.saturating_duration_since(Instant::now()).as_secs_f64();
        if units == n || seconds * next as f64 / units as f64 > left {
            break;
        }
        units = next;
    }
    done.unwrap_or(Measure {
        seconds: limit,
        units: None,
        cut: true,
        chars: None,
    })
}

/// What the character encoder's cost is made of, from its counts over `units` units: the
/// programmes a unit (one, the backward pass's, for a unit that counts no first use; more for
/// the Lagrangian rounds and spans of those that do), the states of a programme and the context
/// nodes valued per state, and the states a programme takes off its row work lists per state
/// (the row sweeps: one where every row move's successor is final when read).
fn mechanism(stats: &CharStats, units: usize) -> String {
    let per = |a: usize, b: usize| a as f64 / b.max(1) as f64;
    format!(
        " ({:.2} programmes a unit, {:.0} states x {:.1} context nodes, {:.2} pops a state)",
        per(stats.programmes, units),
        per(stats.states, stats.programmes),
        per(stats.cells, stats.states),
        per(stats.pops, stats.states)
    )
}

/// The table of one problem's stages: microseconds per unit (per unit of width for the beam),
/// each stage's time and units, and the game the encoders spelt.
fn row(name: &str, problem: &Problem, m: &[Measure], game: Game) -> String {
    let mut line = format!(
        "{name:<18} {:>9} {:>6}",
        format!("{}x{}", problem.width, problem.height),
        problem.source_length
    );
    for (i, s) in m.iter().enumerate() {
        let width = if STAGES[i].ends_with("16") {
            BEAM_WIDTH
        } else {
            1
        };
        line += &match s.per_unit_us(width) {
            Some(us) => format!(" {us:>9.1}"),
            None => format!(" {:>9}", "-"),
        };
    }
    line += "\n";
    let mut detail = format!("{:<18}", "");
    for (i, s) in m.iter().enumerate() {
        let units = s.units.map_or("none".to_string(), |u| u.to_string());
        let counts = match (&s.chars, s.units) {
            (Some(stats), Some(u)) => mechanism(stats, u),
            _ => String::new(),
        };
        detail += &format!(
            " {}: {}{:.3} s {} units{counts};",
            STAGES[i],
            if s.cut { ">" } else { "" },
            s.seconds,
            units
        );
    }
    detail += &match game {
        Game::Greedy => " encoders on the greedy plan".to_string(),
        Game::Stored(n) => format!(" encoders on the stored game ({n} units)"),
    };
    line + &detail + "\n"
}

/// Runs `hextris bench --stages`: a table of each stage's cost per unit on every problem and
/// generated board.
pub fn run(
    problems: &[(std::path::PathBuf, Problem)],
    boards: &[BoardSpec],
    phrases: &Phrases,
    opts: &StageOptions,
) -> Result<()> {
    if let Some(bad) = opts.only.iter().find(|s| !STAGES.contains(&s.as_str())) {
        return Err(Error::Usage(format!(
            "unknown stage {bad:?} (known: {})",
            STAGES.join(", ")
        )));
    }
    let mut header = format!("{:<18} {:>9} {:>6}", "problem", "board", "units");
    for s in STAGES {
        header += &format!(" {s:>9}");
    }
    println!("{header}\n(microseconds per unit; beam16 and survive16 per unit per unit of width)");
    for (_, problem) in problems {
        let (m, game) = stages(problem, phrases, opts)?;
        print!(
            "{}",
            row(&format!("problem {}", problem.id), problem, &m, game)
        );
    }
    if let Some((path, _)) = problems.first() {
        let text = crate::io::read_text(path)?;
        for &spec in boards {
            let problem = generated_board(&text, path, spec)?;
            // A generated board has no stored game: its encoders spell the greedy plan.
            let greedy = StageOptions {
                games: None,
                ..opts.clone()
            };
            let (m, game) = stages(&problem, phrases, &greedy)?;
            let name = format!("units of {}", problems[0].1.id);
            print!("{}", row(&name, &problem, &m, game));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_specs_parse_or_say_the_shape() {
        assert_eq!(
            board_spec("100x40:1620"),
            Ok(BoardSpec {
                width: 100,
                height: 40,
                units: 1620
            })
        );
        for bad in ["100x40", "100:40", "0x4:1", "ax4:1", "4x4:0", "4x4:-1", ""] {
            let e = board_spec(bad).unwrap_err();
            assert!(e.contains("WIDTHxHEIGHT:UNITS"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_generated_board_keeps_the_units_and_the_first_seed() {
        let text = r#"{"id":7,"width":5,"height":4,"filled":[{"x":1,"y":3}],
            "sourceLength":3,"sourceSeeds":[9,7],
            "units":[{"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#;
        let spec = BoardSpec {
            width: 20,
            height: 30,
            units: 100,
        };
        let p = generated_board(text, Path::new("t.json"), spec).unwrap();
        assert_eq!((p.width, p.height, p.source_length), (20, 30, 100));
        assert_eq!(p.seeds, [9]);
        assert_eq!(p.units.len(), 1);
        assert!(!p.board.is_filled(1, 3), "the board is empty");
    }

    /// A small problem: 8 x 10, 20 units of two shapes, seed 3.
    fn small_problem() -> Problem {
        let text = r#"{"id":7,"width":8,"height":10,"filled":[],
            "sourceLength":20,"sourceSeeds":[3],
            "units":[{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}},
                     {"members":[{"x":0,"y":0},{"x":1,"y":0}],"pivot":{"x":0,"y":0}}]}"#;
        Problem::from_json(text, Path::new("t.json")).unwrap()
    }

    /// Every stage measures something on a small problem, and the table has a row per stage.
    #[test]
    fn every_stage_runs_on_a_small_problem() {
        let p = small_problem();
        let opts = StageOptions {
            limit: 10.0,
            repeat: 1,
            only: Vec::new(),
            games: None,
        };
        let (m, game) = stages(&p, &Phrases::official(), &opts).unwrap();
        assert_eq!(game, Game::Greedy);
        assert_eq!(m.len(), STAGES.len());
        for (s, name) in m.iter().zip(STAGES) {
            assert!(s.units.is_some_and(|u| u > 0), "{name}: {s:?}");
            assert!(!s.cut, "{name}");
        }
        // The character encoder's counts: a programme at least per unit spelt, every state of
        // a programme taken off its row's work list at least once, a context node per heading.
        let last = &m[STAGES.len() - 1];
        let chars = last.chars.expect("the character encoder's counts");
        let units = last.units.unwrap();
        assert!(chars.programmes >= units, "{chars:?}");
        assert!(chars.pops >= chars.states && chars.states > 0, "{chars:?}");
        assert!(chars.cells >= 5 * chars.states, "{chars:?}");
        let r = row("problem 7", &p, &m, game);
        assert_eq!(r.lines().count(), 2);
        assert!(r.ends_with(" encoders on the greedy plan\n"), "{r}");
        assert_eq!(
            r.lines().next().unwrap().split_whitespace().count(),
            4 + STAGES.len()
        );
    }

    /// With a store, the encoders spell its game for the first seed (here one of 5 units, a
    /// prefix of the greedy plan spelt with plain paths), and the row says so; a seed the
    /// store holds no game for is measured on the greedy plan.
    #[test]
    fn the_encoders_spell_the_stored_game_where_there_is_one() {
        let p = small_problem();
        let phrases = Phrases::official();
        let tables = Tables::new(&p);
        let table = PhraseTable::new(&phrases);
        let encoder = Encoder::new(&p, &tables, &table);
        let search = crate::solve::SearchOptions::default();
        let runner = StageRunner::new(&p, &tables, &encoder, &table, 3, &search);
        let weights = Weights::system("low").unwrap();
        let whole = runner.plan(
            PlanConfig::whole_game(),
            &weights,
            0,
            1,
            Valuer::Chars,
            None,
        );
        assert!(whole.placements.len() > 5);
        let five = Plan {
            placements: whole.placements[..5].to_vec(),
            ..whole.clone()
        };
        let solution = runner.spell(&five, Mode::Plain, &Limit::NONE);
        let dir = std::env::temp_dir().join(format!("hextris-stages-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = crate::store::Store::open(&dir).unwrap();
        let entry = serde_json::json!([{"problemId": 7, "seed": 3, "tag": "test",
            "solution": solution, "score": 0, "found": "2026-12-08T00:00:00Z"}]);
        std::fs::write(store.file(7), entry.to_string()).unwrap();
        let mut opts = StageOptions {
            limit: 10.0,
            repeat: 1,
            only: vec!["dp".to_string(), "chars".to_string()],
            games: Some(store.clone()),
        };
        let (m, game) = stages(&p, &phrases, &opts).unwrap();
        assert_eq!(game, Game::Stored(5));
        let dp = STAGES.iter().position(|&s| s == "dp").unwrap();
        assert_eq!(m[dp].units, Some(5));
        assert_eq!(m[STAGES.len() - 1].units, Some(5));
        assert!(
            row("problem 7", &p, &m, game).ends_with(" encoders on the stored game (5 units)\n")
        );
        // No entry for the seed: the greedy plan, as without a store.
        std::fs::write(store.file(7), "[]").unwrap();
        let (m, game) = stages(&p, &phrases, &opts).unwrap();
        assert_eq!(game, Game::Greedy);
        assert_eq!(m[dp].units, Some(whole.placements.len()));
        // A store file that is not a list of entries is an error naming it.
        std::fs::write(store.file(7), "{").unwrap();
        opts.only = vec!["dp".to_string()];
        let e = stages(&p, &phrases, &opts).unwrap_err().to_string();
        assert!(e.contains("problem_7.json"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
