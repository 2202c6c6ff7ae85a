//! The search for one (problem, seed): games of growing cost until the budget is spent, the
//! best by the engine's own score kept.
//!
//! - **Quick answer.** A greedy plan spelt by the greedy encoder, planned within part of the
//!   budget so that there is always time to spell it: an answer is in hand even when a whole
//!   game cannot be planned in time (the evaluator scores a partial game).
//! - **Beams.** Each later attempt plans with a beam four times wider than the last (as wide as
//!   a cost model of time per width per unit placed allows), with the scoring systems in turn
//!   and a different random seed each time, and spells its game with the DP encoder. Narrow
//!   beams cycle through the systems; from width [`WIDE`] on, beams are few and costly, so they
//!   go to the systems whose whole games scored best, as do dear narrow ones (fewer than
//!   [`DEAR_ROUNDS`] fit in the time left). On a clock, dear beams widen only while widening
//!   pays: after a round of fresh games that found no better game the width stays, until a
//!   round of fresh games finds one; cheap ones widen anyway, but only after [`PATIENCE`]
//!   rounds at their width, a wait that does not depend on the budget.
//! - **Screen.** On a clock, a plan's score is predicted before it is spelt: its move score is
//!   exact, and its power follows its descents at the rate of the best game spelt. Where
//!   spelling costs more than planning (a large board), an attempt makes several plans and
//!   spells the one predicted best, and none when even that one is predicted clearly below the
//!   best game ([`Screen`]).
//! - **Neighbourhoods.** Once the beams grow no wider (memory, the time a wider one would take,
//!   or no gain), every other round re-plans the best game from a cut: the units before it kept
//!   with their text, the rest planned anew by a beam and spelt. So does every round narrower
//!   than the last, and, when no whole round fits in the time left, rounds whose cut lies late
//!   enough for the rest to be planned and spelt in time ([`Search::tail_round`]).
//! - **Polish.** The character encoder ([`crate::encode::chars`]) spells a plan better than the
//!   DP encoder (every occurrence, overlaps and spans counted) but costs tens of times more, so
//!   it re-spells the games that may become the best: the best game not yet polished, whenever
//!   the gain polishing has shown so far would make it the best. It runs once the beams grow no
//!   wider, or earlier on a clock when it promises more points per second than the last round
//!   of fresh games gave.
//!
//! With `Budget::Attempts` nothing depends on the clock: attempt `i` always uses the same
//! system, width and random seed, every plan is spelt, and a polish depends only on the scores
//! before it, so a run of `n` attempts is reproducible to the character. On a clock, the widths,
//! the screen's choices and the polishes follow the times measured.

use super::{Prepared, SeedResult, SolveConfig};
use crate::encode::{CharStats, Encoder, Mode, Opening, PhraseValuer};
use crate::engine::{evaluate, Problem};
use crate::plan::{
    plan_beam, plan_of_text, text_of_opening, BeamShape, Placement, Plan, PlanConfig, Tables,
};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// What the solver may spend on one seed.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// Until this instant.
    Until(Instant),
    /// Exactly this many beam attempts, whatever the time: reproducible to the character.
    Attempts(u32),
}

/// Heuristic value of one point of phrase potential (see [`PhraseValuer`]).
pub const PHRASE_WEIGHT: f64 = 0.2;

/// The widest beam the solver uses (its memory grows with width x source length).
pub const MAX_WIDTH: usize = 2048;

/// The widest beam an attempt tries when the budget is a number of attempts.
const ATTEMPTS_MAX_WIDTH: usize = 256;

/// From this width on, beams go to the systems that did best instead of cycling.
const WIDE: usize = 64;

/// Bytes a beam keeps per unit of width per unit placed (a placement and its parent), with room
/// for the allocator.
pub const STEP_BYTES: u64 = 96;

/// Each round's beams are this many times wider than the last round's.
const GROWTH: usize = 4;

/// A wider beam tends to survive longer: the cost model counts on this many times the units of
/// the games played so far.
const SURVIVAL: f64 = 2.0;

/// Margin on the cost model's estimate of a beam's planning time.
const PLAN_MARGIN: f64 = 1.2;

/// Margin on the time kept to finish a beam greedily and spell it when it runs late.
const NARROW_MARGIN: f64 = 1.5;

/// The DP encoder's time, at first, as a multiple of the quick answer's greedy encoding.
const FIRST_DP_FACTOR: f64 = 3.0;

/// The character encoder's time, at first, as a multiple of the DP encoder's on the same plan
/// (measured 20 to 60 on the small boards; learnt from each polish).
const FIRST_CHARS_FACTOR: f64 = 60.0;

/// The greedy encoder's time as a multiple of plain paths' on the same plan, with a margin
/// (measured 2.4 on problem 24's 100 x 40 board, 2.6 on problem 14's 50 x 50): the quick answer
/// is spelt greedily only when this much time is left.
const FIRST_SPELL_FACTOR: f64 = 4.0;

/// The greedy encoder's time per unit per state of the unit's space, generously (measured about
/// 0.25 us on a 1000 x 1000 board, whose spaces have 6 million states).
const SPELL_STATE_SECONDS: f64 = 0.5e-6;

/// The quick answer plans in at most this fraction of the budget, so that it can be spelt.
const QUICK_PLAN_SHARE: f64 = 0.5;

/// How much polishing is expected to add, at first, as a factor of the DP encoder's score.
const FIRST_POLISH_GAIN: f64 = 1.02;

/// A planned game and the best text found for it.
struct Game {
    plan: Plan,
    result: SeedResult,
    /// The system that planned it.
    system: usize,
    plan_time: Duration,
    encode_time: Duration,
    /// The encoder that spelt `result` (before any polish).
    mode: Mode,
    /// Spelt by the character encoder already.
    polished: bool,
    /// Units kept from the game it re-planned (0 for a whole game).
    kept: usize,
}

/// What one attempt plays: its index (the random seed), system, beam width, encoder, and the
/// placements it starts from (empty for a whole game).
struct Spec<'a> {
    i: u32,
    system: usize,
    width: usize,
    /// The encoder: [`Mode::Chars`] where the character encoder spells the game at once (the
    /// DP encoder takes over when it cannot finish in time).
    mode: Mode,
    prefix: &'a [Placement],
    /// The text of the game `prefix` comes from: its opening is kept, not spelt again.
    base_text: &'a str,
    /// The greedy encoder's expected time per unit: a late DP encoding hands over to it for the
    /// units left, so that it still spells a whole game (0: never).
    greedy_unit: f64,
    /// Which of its plans the attempt spells, if any.
    screen: Screen,
    /// Plan with the character-level phrase valuer (see [`Search::chars_valuer`]).
    chars_valuer: bool,
}

/// Plans are cheap beside their spelling on a large board (problem 24: 0.75 s against 2.4 s), and
/// a plan's score can be told before it is spelt: its move score is exact, and its power follows
/// its descents ([`Plan::descents`]) at a rate learnt from the games spelt so far. So an attempt
/// may plan several games (other random tie-breaks) and spell only the one predicted best, and
/// none when that one is predicted to score clearly less than the best game in hand.
#[derive(Clone, Copy, Debug)]
struct Screen {
    /// Plans made; the one with the highest predicted score is spelt.
    tries: usize,
    /// Power per descent, to predict a plan's score (0: unknown, no prediction).
    rate: f64,
    /// The least predicted score worth spelling.
    least: f64,
}

impl Screen {
    /// One plan, always spelt.
    const NONE: Screen = Screen {
        tries: 1,
        rate: 0.0,
        least: 0.0,
    };
}

/// What one attempt gives: a game spelt, or a plan predicted not worth spelling.
enum Outcome {
    Spelt(Game),
    Screened {
        system: usize,
        /// Planning time per plan made.
        plan_time: Duration,
        units: usize,
        predicted: f64,
    },
}

/// The cost model, updated as attempts finish.
struct Costs {
    /// Planning time per unit of beam width per unit placed, as measured at `per_unit_width`.
    per_unit: f64,
    /// The widest beam of a whole game measured: narrower ones no longer count, because their
    /// fixed costs (and the jitter of timing a few milliseconds) weigh on their time per unit
    /// of width (problem 22 at 10 s: a width-4 plan timed at 8 ms instead of 2 made width 1,024
    /// look four times dearer than it was, and the beams stopped widening at 256).
    per_unit_width: usize,
    /// The most units a game lasted.
    units: f64,
    /// The slowest DP encoding.
    encode: f64,
    /// The character encoder's time as a multiple of the DP encoder's.
    chars_factor: f64,
    /// Whether `chars_factor` was measured (it starts as a guess).
    chars_measured: bool,
    /// What polishing adds, as a factor of the DP encoder's score (the smallest seen).
    polish_gain: f64,
}

impl Costs {
    /// Learns the planning time per unit placed, `seconds`, of a plan of width `width` (a whole
    /// game's when `fresh`): a whole game wider than any measured before replaces the estimate;
    /// other plans as wide as the widest measured can only raise it; narrower ones are ignored.
    fn learn_plan(&mut self, width: usize, fresh: bool, seconds: f64) {
        let measured = seconds / width.max(1) as f64;
        if fresh && width > self.per_unit_width {
            self.per_unit = measured;
            self.per_unit_width = width;
        } else if width >= self.per_unit_width {
            self.per_unit = self.per_unit.max(measured);
        }
    }

    /// Learns the character encoder's factor from a whole game's spelling that took `seconds`:
    /// the first measure replaces the guess, later ones can only raise it.
    fn learn_chars(&mut self, seconds: f64) {
        let factor = (seconds / self.encode.max(1e-6)).min(1e4);
        self.chars_factor = if self.chars_measured {
            self.chars_factor.max(factor)
        } else {
            factor
        };
        self.chars_measured = true;
    }
}

/// Solves one seed within its budget, running `lanes` attempts at a time on the current rayon
/// pool. Always returns an answer (the quick one at worst).
pub fn solve_seed(
    prep: &Prepared,
    seed: u32,
    budget: Budget,
    lanes: usize,
    cfg: &SolveConfig,
) -> SeedResult {
    let search = Search::new(prep, seed, budget, cfg);
    search.run(lanes)
}

/// One seed's search.
struct Search<'a> {
    problem: &'a Problem,
    tables: &'a Tables,
    prep: &'a Prepared<'a>,
    encoder: Encoder<'a>,
    cfg: &'a SolveConfig,
    seed: u32,
    budget: Budget,
    deadline: Option<Instant>,
    /// Whether any phrase is to be spelt.
    spells: bool,
    /// Whether the planner values what units that cannot rotate can spell on their way.
    aware: bool,
    debug: bool,
}

impl<'a> Search<'a> {
    fn new(prep: &'a Prepared<'a>, seed: u32, budget: Budget, cfg: &'a SolveConfig) -> Self {
        let spells = !cfg.table.phrases.is_empty();
        // Phrase-aware placement for units that cannot rotate: cheap and exact there. (Valuing
        // the opening of other games by the forward programme costs several times a plan and
        // showed no gain in the benchmark, so it is not used.)
        let aware = spells && prep.tables.spaces.iter().any(|s| !s.rotates());
        Search {
            problem: prep.problem,
            tables: &prep.tables,
            prep,
            encoder: Encoder::new(prep.problem, &prep.tables, &cfg.table),
            cfg,
            seed,
            budget,
            deadline: match budget {
                Budget::Until(d) => Some(d),
                Budget::Attempts(_) => None,
            },
            spells,
            aware,
            debug: super::debug_enabled(),
        }
    }

    fn left(&self) -> f64 {
        self.deadline.map_or(f64::INFINITY, |d| {
            crate::stop::effective(d)
                .saturating_duration_since(Instant::now())
                .as_secs_f64()
        })
    }

    /// Whether the attempts plan with the character-level phrase valuer
    /// ([`crate::encode::forward`]) rather than the word-level one of [`crate::encode::line`]:
    /// once the best game `best` plays the whole source. The character level spells more where
    /// it steers the game (problem 8 at 10 attempts 20,563 -> 21,341, random problems +0.8 %),
    /// but where the game is one of survival its games die sooner (problem 18, fresh width-64
    /// beams of system `fill`: 2 of 14 played all 1,000 units with it, 7 of 14 by words and 9
    /// of 14 without a valuer), for reasons not found: the lock's character, the carry and the
    /// potential each left out did not change that.
    fn chars_valuer(&self, best: &Game) -> bool {
        best.plan.placements.len() >= self.problem.source_length as usize
    }

    /// A plan's predicted score: its move score, and its descents at `rate` points each.
    fn predicted(&self, plan: &Plan, rate: f64) -> f64 {
        plan.move_score as f64 + rate * plan.descents(self.tables) as f64
    }

    /// The `k`-th plan of the attempt `spec`: the first keeps the attempt's own random seed, the
    /// others take seeds of their own, out of the range of attempt indices. `opening` is the
    /// text of the units the attempt keeps (None when the base text does not reach them).
    fn plan(
        &self,
        spec: &Spec,
        opening: Option<&str>,
        k: usize,
        plan_until: Option<Instant>,
        narrow_at: Option<Instant>,
    ) -> Plan {
        let mut valuer = self.aware.then(|| {
            let v = PhraseValuer::new(&self.encoder, PHRASE_WEIGHT, 0);
            if spec.chars_valuer {
                v.with_chars()
            } else {
                v
            }
        });
        // A plan from a kept opening starts where that opening's text left the valuer.
        let carry = match (&valuer, opening) {
            (Some(v), Some(text)) => v.carry_after(text),
            _ => 0,
        };
        let pc = PlanConfig {
            weights: self.cfg.systems[spec.system].1.clone(),
            rng_seed: spec.i as u64 + ((k as u64) << 32),
            deadline: plan_until.or(self.deadline),
            narrow_at,
            prefix: spec.prefix.to_vec(),
            carry,
        };
        let shape = BeamShape {
            width: spec.width,
            branch: spec.width.clamp(1, 8),
        };
        plan_beam(
            self.problem,
            self.tables,
            self.seed,
            &pc,
            shape,
            valuer.as_mut().map(|v| v as _),
        )
    }

    /// Plans one game as `spec` says (the best predicted of `spec.screen.tries`) and spells it,
    /// unless its predicted score falls short of `spec.screen.least`; `plan_until` stops the
    /// planner early (the quick answer), `narrow_at` narrows a late beam.
    fn attempt(
        &self,
        spec: Spec,
        plan_until: Option<Instant>,
        narrow_at: Option<Instant>,
    ) -> Outcome {
        let Spec {
            i,
            system,
            width,
            mode,
            prefix,
            base_text,
            greedy_unit,
            screen,
            chars_valuer,
        } = spec;
        let name = format!(
            "{}{}",
            self.cfg.systems[system].0,
            if self.aware && !chars_valuer {
                "/words"
            } else {
                ""
            }
        );
        let t0 = Instant::now();
        // The kept units are spelt as the game they come from spelt them (polished, perhaps): only
        // the units planned anew are spelt, which on a large board is most of an attempt's time.
        let kept_text = text_of_opening(self.problem, self.seed, base_text, prefix.len());
        let mut best: Option<(f64, Plan)> = None;
        let mut plans = 0;
        while plans < screen.tries.max(1) {
            if plans > 0 && crate::stop::passed(self.deadline) {
                break;
            }
            let plan = self.plan(&spec, kept_text, plans, plan_until, narrow_at);
            plans += 1;
            let value = self.predicted(&plan, screen.rate);
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((value, plan));
            }
        }
        let (predicted, plan) = best.expect("at least one plan is made");
        let plan_time = t0.elapsed();
        let from = if prefix.is_empty() {
            String::new()
        } else {
            format!(" from {}", prefix.len())
        };
        if predicted < screen.least {
            if self.debug {
                eprintln!(
                    "  problem {} seed {} attempt {i} {name} w{width}{from}: {plans} plan(s) {:.3}s ({} units) not spelt: predicted {predicted:.0} < {:.0}",
                    self.problem.id,
                    self.seed,
                    plan_time.as_secs_f64(),
                    plan.placements.len(),
                    screen.least
                );
            }
            return Outcome::Screened {
                system,
                plan_time: plan_time / plans as u32,
                units: plan.placements.len(),
                predicted,
            };
        }
        let opening = kept_text.map_or_else(Opening::default, |text| Opening {
            units: prefix.len(),
            text,
        });
        // Where the character encoder costs no more than the plan, it spells the game at once
        // (the DP encoder's score would misjudge a plan made for it); out of time, the DP
        // encoder takes over.
        let ct = (mode == Mode::Chars).then(|| self.prep.chars(&self.cfg.table));
        let spelt = self
            .encoder
            .spell(&plan, opening, mode, ct, self.deadline, greedy_unit);
        let (text, mode) = (spelt.text, spelt.mode);
        let polished = mode == Mode::Chars;
        let encode_time = t0.elapsed() - plan_time;
        let spelt_by = mode.name();
        let result = self.result(
            text,
            format!("hextris {name}#{i} w{width}{from} {spelt_by}"),
        );
        if self.debug {
            eprintln!(
                "  problem {} seed {} attempt {i} {name} w{width}{from} {spelt_by}: {plans} plan(s) {:.3}s ({} units) encode {:.3}s score {} (predicted {predicted:.0})",
                self.problem.id,
                self.seed,
                plan_time.as_secs_f64(),
                plan.placements.len(),
                encode_time.as_secs_f64(),
                result.score
            );
        }
        Outcome::Spelt(Game {
            plan,
            result,
            system,
            plan_time: plan_time / plans as u32,
            encode_time,
            mode,
            polished,
            kept: prefix.len(),
        })
    }

    /// Scores a text that may err (a stored one): `None` when it does.
    fn result_of(&self, solution: String, tag: String) -> Option<SeedResult> {
        let e = evaluate(self.problem, self.seed, &solution, &self.cfg.phrases);
        (!e.end.is_error()).then_some(SeedResult {
            seed: self.seed,
            score: e.score,
            solution,
            move_score: e.move_score,
            power_score: e.power_score,
            tag,
            attempts: 1,
        })
    }

    /// Scores a text with the engine.
    fn result(&self, solution: String, tag: String) -> SeedResult {
        let e = evaluate(self.problem, self.seed, &solution, &self.cfg.phrases);
        debug_assert!(!e.end.is_error(), "{}", e.end);
        SeedResult {
            seed: self.seed,
            // An error (which the tests rule out) must never be the answer: score it 0.
            score: if e.end.is_error() { 0 } else { e.score },
            solution,
            move_score: e.move_score,
            power_score: e.power_score,
            tag,
            attempts: 1,
        }
    }

    /// A deterministic measure of what polishing `game` costs: units placed times board cells.
    fn polish_work(&self, game: &Game) -> u64 {
        game.plan.placements.len() as u64 * self.problem.width as u64 * self.problem.height as u64
    }

    /// Re-spells a game with the character encoder; `None` when it could not finish in time.
    fn polish(&self, game: &Game) -> Option<(SeedResult, Duration)> {
        let t0 = Instant::now();
        let mut stats = CharStats::default();
        let chars = self.prep.chars(&self.cfg.table);
        let text = self
            .encoder
            .encode_chars(chars, &game.plan, self.deadline, &mut stats)?;
        let tag = game
            .result
            .tag
            .replace(" dp", " chars")
            .replace(" greedy", " chars");
        let result = self.result(text, tag);
        if self.debug {
            eprintln!(
                "  problem {} seed {} polish {}: {:.3}s score {} -> {} ({} states, {} fallbacks)",
                self.problem.id,
                self.seed,
                game.result.tag,
                t0.elapsed().as_secs_f64(),
                game.result.score,
                result.score,
                stats.states,
                stats.fallbacks
            );
        }
        Some((result, t0.elapsed()))
    }

    /// The quick answer: a greedy plan made by `plan_until`, spelt first with plain paths (an
    /// answer in hand even on a board so large that one unit takes the spelling encoders
    /// seconds), then with `mode` when the plain spelling shows there is time for it; the
    /// better of the two. Each encoder stops after the unit in hand at the deadline, and the
    /// evaluator scores a partial game, so the answer is never empty while a unit can lock.
    fn quick(&self, mode: Mode, plan_until: Option<Instant>) -> Game {
        let game = self.attempt(
            Spec {
                i: 0,
                system: 0,
                width: 1,
                mode: Mode::Plain,
                prefix: &[],
                base_text: "",
                greedy_unit: 0.0,
                screen: Screen::NONE,
                chars_valuer: true,
            },
            plan_until,
            None,
        );
        let Outcome::Spelt(mut game) = game else {
            unreachable!("an attempt without a screen is always spelt")
        };
        if mode == Mode::Plain {
            return game;
        }
        let t0 = Instant::now();
        // The greedy encoder's time for one unit grows with the unit's state space; the encoder
        // stops after the unit in hand at the deadline, so one unit must fit in what is left.
        let states = self
            .tables
            .spaces
            .iter()
            .map(|s| s.states)
            .max()
            .unwrap_or(0);
        let per_unit = states as f64 * SPELL_STATE_SECONDS;
        let expect = game.encode_time.as_secs_f64() * FIRST_SPELL_FACTOR;
        if expect > self.left() || per_unit * 2.0 > self.left() {
            return game;
        }
        let text = self.encoder.encode(&game.plan, mode, self.deadline);
        let tag = game
            .result
            .tag
            .replace(" plain", &format!(" {}", mode.name()));
        let spelt = self.result(text, tag);
        game.encode_time = t0.elapsed();
        if self.debug {
            eprintln!(
                "  problem {} seed {} quick answer spelt {}: {:.3}s score {} (plain paths {})",
                self.problem.id,
                self.seed,
                mode.name(),
                game.encode_time.as_secs_f64(),
                spelt.score,
                game.result.score
            );
        }
        if spelt.score > game.result.score {
            game.result = spelt;
            game.mode = mode;
        }
        game
    }

    /// The stored game this seed starts from, if any and if it replays without error: a
    /// candidate for the polish like any other game (unless the character encoder spelt it).
    fn stored(&self) -> Option<Game> {
        let (tag, text) = self.cfg.starts.get(&(self.problem.id, self.seed))?;
        let result = self.result_of(text.clone(), format!("{tag} (stored)"))?;
        let plan = plan_of_text(self.problem, self.tables, self.seed, text)?;
        if self.debug {
            eprintln!(
                "  problem {} seed {} starts from the stored game {tag}: score {}",
                self.problem.id, self.seed, result.score
            );
        }
        Some(Game {
            plan,
            result,
            system: 0,
            plan_time: Duration::ZERO,
            encode_time: Duration::ZERO,
            mode: Mode::Dp,
            polished: Mode::of_tag(tag) == Some(Mode::Chars),
            kept: 0,
        })
    }

    fn run(&self, lanes: usize) -> SeedResult {
        let fast = if self.spells {
            Mode::Greedy
        } else {
            Mode::Plain
        };
        let slow = if self.spells { Mode::Dp } else { Mode::Plain };
        // The quick answer plans within part of the budget, so that it can be spelt in time.
        let plan_until = self.deadline.map(|d| {
            Instant::now()
                + d.saturating_duration_since(Instant::now())
                    .mul_f64(QUICK_PLAN_SHARE)
        });
        let quick = self.quick(fast, plan_until);
        // The greedy encoder's time for the quick game: measured, or from plain paths' when
        // there was no time to spell greedily. The DP encoder's first estimate and the handover
        // of a late DP encoding both follow from it.
        let greedy_game = quick.encode_time.as_secs_f64()
            * match quick.mode {
                Mode::Plain => FIRST_SPELL_FACTOR,
                _ => 1.0,
            };
        let greedy_unit = greedy_game / quick.plan.placements.len().max(1) as f64;
        // Half the memory for the beams of all the lanes at once; the rest is tables and answers.
        let per_beam = self.cfg.memory / 2 / lanes.max(1) as u64;
        let source = self.problem.source_length.max(1) as f64;
        let max_width = ((per_beam / (STEP_BYTES * source as u64)) as usize).clamp(1, MAX_WIDTH);
        // Per system: the widest beam it ran and the best score of its whole games (at any
        // width: ranked by the score at their widest, a system once run wide kept the wide beams
        // from one that scored 13 % more at width 4, problem 24).
        let mut record: Vec<(usize, u64)> = vec![(0, 0); self.cfg.systems.len()];
        record[0] = (1, quick.result.score);
        let mut costs = Costs {
            per_unit: quick.plan_time.as_secs_f64() / quick.plan.placements.len().max(1) as f64,
            per_unit_width: 1,
            units: quick.plan.placements.len().max(1) as f64,
            // Without phrases every encoding is plain paths, as the quick answer's was.
            encode: if self.spells {
                greedy_game * FIRST_DP_FACTOR
            } else {
                quick.encode_time.as_secs_f64()
            },
            chars_factor: FIRST_CHARS_FACTOR,
            chars_measured: false,
            polish_gain: FIRST_POLISH_GAIN,
        };
        let mut best = quick.result.clone();
        let mut games: Vec<Game> = vec![quick];
        if let Some(g) = self.stored() {
            if g.result.score > best.score {
                best = g.result.clone();
            }
            games.push(g);
            games.sort_by_key(|g| std::cmp::Reverse(g.result.score));
        }
        let mut done = 1u32;
        let mut width = 1usize;
        let mut stuck_rounds = 0u32;
        // Rounds run at `width` since the beams reached it (see [`widens`]).
        let mut at_width = 0u32;
        // Points per second the last round of fresh games, as wide as ever, added to the best
        // score.
        let mut widen_rate = f64::INFINITY;
        loop {
            // The rate of power per descent of the best game spelt, and with it the screen on
            // the plans: used on a clock only (a run by attempts spells every plan it makes, so
            // that its answers do not depend on the clock).
            let rate = match self.budget {
                Budget::Until(_) if self.spells => self.rate(&games),
                _ => 0.0,
            };
            let cost = |costs: &Costs, w: usize| self.cost(costs, w, rate);
            // Whether the best game plays the whole source (games that die early gain most
            // from wider beams).
            let whole = games[0].plan.placements.len() >= self.problem.source_length as usize;
            // The next round's width and number of attempts, if one may run.
            let round = match self.budget {
                Budget::Attempts(n) => (done < n).then(|| {
                    (
                        (width * GROWTH).min(ATTEMPTS_MAX_WIDTH).min(max_width),
                        ((n - done) as usize).min(lanes),
                    )
                }),
                Budget::Until(_) => {
                    // Dear beams widen while widening pays: after a round of fresh games that
                    // found no better game, a wider round that would take more than a quarter
                    // of the time left is not run (problem 24: width 16 no better than 4, then
                    // 12 s of width 64 no better either) until a round of fresh games finds
                    // one. Cheap ones widen anyway, after [`PATIENCE`] rounds at their width:
                    // on small boards the gains of width come now and then (problems 0, 10, 22
                    // lost 6 to 8 % without them). So do beams whose best game ended before the
                    // source did: a wider beam survives longer, which a round of games that all
                    // die early does not show (problem 18).
                    let left = self.left();
                    let wider = (width * GROWTH).min(max_width);
                    let cheap = cost(&costs, wider) * DEAR_ROUNDS <= left;
                    let growth = if widens(widen_rate, whole, cheap, at_width) {
                        GROWTH
                    } else {
                        1
                    };
                    let mut w = (width * growth).min(max_width);
                    while w > 1 && cost(&costs, w) > left {
                        w /= 2;
                    }
                    (cost(&costs, w) <= left).then_some((w, lanes))
                }
            };
            // Wider beams first: on a problem where games die early, a wider beam survives
            // longer and gains far more than a better spelling (problem 18: 23,000 at width 16,
            // 97,000 at width 64). So the games are polished once the beams grow no wider, or
            // when no round fits in the time left.
            let stuck = round.is_none_or(|(next, _)| next <= width);
            // But where wider beams stop paying (every game already plays the whole source, say),
            // a polish that promises more points per second than the last widening gave goes
            // first (problem 8, 10 seeds at 10 s: beams of width 16 to 128 within 0.5 % of each
            // other, a polish +9 %, and often no time left for it after them).
            let polish_first = polish_goes_first(
                self.deadline.is_some(),
                whole,
                self.polish_rate(&games, &best, &costs),
                widen_rate,
            );
            if self.spells
                && (stuck || polish_first)
                && self.polish_round(&mut games, &mut best, &mut costs, lanes)
            {
                // A polish may change which game is the best: the neighbourhoods start from it.
                games.sort_by_key(|g| std::cmp::Reverse(g.result.score));
                continue;
            }
            // When no whole round fits in the time left, the rest of it goes to neighbourhoods
            // of the best game whose cut lies late enough for the units after it to be planned
            // and spelt in time (only those are spelt: the opening keeps its text).
            let (next, n, tail) = match round {
                Some((next, n)) => (next, n, None),
                None => match self.tail_round(&games[0], &costs, width, rate) {
                    Some((w, units)) => (w, lanes, Some(units)),
                    None => break,
                },
            };
            // Leave time to finish the game greedily and to spell it.
            let narrow_at = self.deadline.map(|d| {
                d - Duration::from_secs_f64(
                    (costs.encode * NARROW_MARGIN + costs.per_unit * source * NARROW_MARGIN)
                        .min(self.left()),
                )
            });
            let rank = rank_systems(&record);
            let cycle = |i: u32| i as usize % self.cfg.systems.len();
            // So does a dear round of narrow beams (few such rounds fit in the time left), every
            // other one when it has one lane: problem 24 at 10 s fits two rounds of whole games,
            // and a cycle gave its best system (13 % above the others) one game of four.
            let dear = self.deadline.is_some() && cost(&costs, next) * DEAR_ROUNDS > self.left();
            let systems: Vec<usize> = (0..n)
                .map(|j| {
                    let i = done + j as u32;
                    if next >= WIDE || (dear && (n > 1 || i.is_multiple_of(2))) {
                        rank[j % rank.len()]
                    } else {
                        cycle(i)
                    }
                })
                .collect();
            // Once the beams grow no wider, every other round re-plans the best game from a cut
            // (a large-neighbourhood search): the units before the cut are kept, the rest planned
            // anew, so the time left goes to improving the best game, not only to new ones.
            let stuck = next <= width;
            stuck_rounds += stuck as u32;
            // A round narrower than the last (the time left no longer allows the width reached)
            // would play games worse than the best already in hand: it re-plans the best instead.
            let shrinking = next < width;
            // The game re-planned, if any: borrowed, since the round ends before `games` changes.
            let renew = tail.is_some() || shrinking || (stuck && stuck_rounds.is_multiple_of(2));
            let base = renew.then(|| &games[0]);
            let (base, base_text) = base.map_or((&[][..], ""), |g| {
                (&g.plan.placements[..], g.result.solution.as_str())
            });
            // The cut: anywhere in the game, or among its last `tail` units (0 with no game).
            let span = tail.unwrap_or(base.len()).min(base.len()) as u64;
            let cut = |i: u32| {
                if span == 0 {
                    0
                } else {
                    let r = ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) % span;
                    base.len() - span as usize + r as usize
                }
            };
            // A plan predicted to score clearly less than the best game is not spelt, where
            // spelling costs at least as much as planning (elsewhere skipping it saves little,
            // and on a small board, where the phrases' first uses make much of the power, the
            // prediction is too rough to trust).
            let tries = self.tries(&costs, next, rate);
            let screen = Screen {
                tries,
                rate,
                least: if rate > 0.0
                    && self.spell_cost(&costs, next, tries) >= self.plan_cost(&costs, next)
                {
                    best.score as f64 * (1.0 - SCREEN_MARGIN)
                } else {
                    0.0
                },
            };
            // A neighbourhood of a game the character encoder spelt is spelt by it too: spelt
            // by the DP encoder, its units after the cut could not compete with the text kept.
            let base_chars = renew && games[0].polished && self.spells && costs.chars_measured;
            let chars = base_chars || self.spell_chars(&costs, next, tries);
            let chars_valuer = self.chars_valuer(&games[0]);
            let (round_start, best_before) = (Instant::now(), best.score);
            let round: Vec<Outcome> = (0..n)
                .into_par_iter()
                .map(|j| {
                    let i = done + j as u32;
                    let spec = Spec {
                        i,
                        system: systems[j],
                        width: next,
                        mode: if chars { Mode::Chars } else { slow },
                        prefix: &base[..cut(i)],
                        base_text,
                        greedy_unit,
                        screen,
                        chars_valuer,
                    };
                    self.attempt(spec, None, narrow_at)
                })
                .collect();
            done += n as u32;
            let fresh = base.is_empty();
            // A round of fresh games at least as wide as the last (not the narrower ones the
            // time left allows at the end) tells whether wider beams still pay.
            let widened = tail.is_none() && fresh && next >= width;
            if tail.is_none() {
                if next != width {
                    at_width = 0;
                }
                width = next;
                at_width += 1;
            }
            for outcome in round {
                // A screened plan counts as a game of its predicted score for the records and
                // the cost of planning; only a spelt game can be the best.
                let (system, plan_time, units, score, game) = match outcome {
                    Outcome::Spelt(g) => {
                        let units = g.plan.placements.len();
                        (g.system, g.plan_time, units, g.result.score, Some(g))
                    }
                    Outcome::Screened {
                        system,
                        plan_time,
                        units,
                        predicted,
                    } => (system, plan_time, units, predicted as u64, None),
                };
                // A neighbourhood's score is mostly its opening's: only whole games count.
                if fresh {
                    let r = &mut record[system];
                    *r = (r.0.max(next), r.1.max(score));
                }
                costs.learn_plan(next, fresh, plan_time.as_secs_f64() / units.max(1) as f64);
                costs.units = costs.units.max(units as f64);
                let Some(g) = game else {
                    continue;
                };
                if g.polished {
                    // Spelt by the character encoder: its time, per unit spelt, against the
                    // DP encoder's whole game.
                    let spelt = units.saturating_sub(g.kept).max(1) as f64 / units.max(1) as f64;
                    costs.learn_chars(g.encode_time.as_secs_f64() / spelt);
                } else {
                    costs.encode = costs.encode.max(g.encode_time.as_secs_f64());
                }
                if g.result.score > best.score {
                    best = g.result.clone();
                }
                games.push(g);
            }
            // Only the games that may still be polished into the best are worth keeping.
            games.sort_by_key(|g| std::cmp::Reverse(g.result.score));
            games.truncate(KEEP_GAMES);
            if widened {
                let gain = best.score.saturating_sub(best_before) as f64;
                widen_rate = gain / round_start.elapsed().as_secs_f64().max(1e-6);
            }
        }
        best.attempts = done;
        best
    }

    /// A round of neighbourhoods for the time left when no whole round fits: the widest beam, up
    /// to `width`, that can plan and spell the last units of `best` in that time, and how many
    /// of its last units (at least [`TAIL_MIN_SHARE`] of them, and one); `None` when none fits.
    fn tail_round(
        &self,
        best: &Game,
        costs: &Costs,
        width: usize,
        rate: f64,
    ) -> Option<(usize, usize)> {
        let units = best.plan.placements.len();
        if units == 0 || self.deadline.is_none() {
            return None;
        }
        let left = self.left();
        let least = ((units as f64 * TAIL_MIN_SHARE).ceil() as usize).max(1);
        let mut w = width.max(1);
        loop {
            let tries = self.tries(costs, w, rate);
            let per_unit = costs.per_unit * w as f64 * PLAN_MARGIN * tries as f64
                + self.spell_cost(costs, w, tries) / units as f64;
            let fit = (left / per_unit.max(1e-9)).floor().min(units as f64) as usize;
            if fit >= least {
                return Some((w, fit));
            }
            if w == 1 {
                return None;
            }
            w /= 2;
        }
    }

    /// Power per descent of the best game the DP or the character encoder spelt (0 when none
    /// has, or it earned nothing): what [`Screen`] predicts plans with. The best game's rate is
    /// among the highest, so plans are predicted generously: a screen errs towards spelling.
    fn rate(&self, games: &[Game]) -> f64 {
        games
            .iter()
            .find(|g| g.mode == Mode::Dp || g.polished)
            .map_or(0.0, |g| {
                let d = g.plan.descents(self.tables);
                if d == 0 {
                    0.0
                } else {
                    g.result.power_score as f64 / d as f64
                }
            })
    }

    /// What an attempt of width `w` costs: its plans and the DP encoding. (Its polish is a choice
    /// the polish rounds make on the time then left, not part of the attempt: with it counted
    /// here, a problem whose polish is dear stopped after its quick answer.)
    fn cost(&self, costs: &Costs, w: usize, rate: f64) -> f64 {
        let tries = self.tries(costs, w, rate);
        self.plan_cost(costs, w) * tries as f64 + self.spell_cost(costs, w, tries)
    }

    /// Whether a round of width `w` whose attempts make `tries` plans each spells with the
    /// character encoder: on a clock, once that encoder's time is measured, where a whole
    /// game's spelling by it costs no more than the attempt's plans (a small board). Its games
    /// then need no polish, and a plan made for it (see [`crate::encode::forward`]) is judged
    /// by what it spells, not by what the DP encoder would.
    fn spell_chars(&self, costs: &Costs, w: usize, tries: usize) -> bool {
        self.spells
            && self.deadline.is_some()
            && costs.chars_measured
            && costs.encode * costs.chars_factor <= self.plan_cost(costs, w) * tries as f64
    }

    /// What spelling one attempt's game costs, by the encoder it uses.
    fn spell_cost(&self, costs: &Costs, w: usize, tries: usize) -> f64 {
        if self.spell_chars(costs, w, tries) {
            costs.encode * costs.chars_factor
        } else {
            costs.encode
        }
    }

    /// What one plan of width `w` costs, by the cost model.
    fn plan_cost(&self, costs: &Costs, w: usize) -> f64 {
        let source = self.problem.source_length.max(1) as f64;
        let expect = (costs.units * SURVIVAL).min(source);
        costs.per_unit * w as f64 * expect * PLAN_MARGIN
    }

    /// How many plans an attempt of width `w` makes for the one it spells: as many as fit in
    /// the time of a spelling ([`MAX_TRIES`] at most), one without a `rate` to choose by.
    fn tries(&self, costs: &Costs, w: usize, rate: f64) -> usize {
        if rate <= 0.0 {
            return 1;
        }
        let plan = self.plan_cost(costs, w);
        ((costs.encode / plan.max(1e-9)).floor() as usize).clamp(1, MAX_TRIES)
    }

    /// Points per second a polish of the best game not polished yet promises: what it would
    /// add to the best score at the gain polishing has shown, over its expected time.
    fn polish_rate(&self, games: &[Game], best: &SeedResult, costs: &Costs) -> f64 {
        games
            .iter()
            .find(|g| !g.polished && g.mode == Mode::Dp && !g.plan.placements.is_empty())
            .map_or(0.0, |g| {
                let gain = g.result.score as f64 * costs.polish_gain - best.score as f64;
                let time = g.encode_time.as_secs_f64().max(costs.encode / 4.0) * costs.chars_factor;
                gain.max(0.0) / time.max(1e-6)
            })
    }

    /// Polishes the best games not polished yet that may become the best (up to `lanes` at a
    /// time); false when there is none, or no time for one.
    fn polish_round(
        &self,
        games: &mut [Game],
        best: &mut SeedResult,
        costs: &mut Costs,
        lanes: usize,
    ) -> bool {
        let left = self.left();
        let picks: Vec<usize> = (0..games.len())
            .filter(|&i| {
                let g = &games[i];
                // On a clock, only games the DP encoder spelt: the factor is learnt against its
                // time, and a quick answer spelt greedily is rarely worth a polish that may
                // take all the time left (problem 14's did, and its beams never ran).
                !g.polished
                    && (g.mode == Mode::Dp || self.deadline.is_none())
                    && !g.plan.placements.is_empty()
                    && (self.deadline.is_some() || self.polish_work(g) <= ATTEMPTS_POLISH_WORK)
                    && g.result.score as f64 * costs.polish_gain >= best.score as f64
                    && g.encode_time.as_secs_f64().max(costs.encode / 4.0) * costs.chars_factor
                        <= left
            })
            .take(lanes.max(1))
            .collect();
        if picks.is_empty() {
            return false;
        }
        let out: Vec<Option<(SeedResult, Duration)>> =
            picks.par_iter().map(|&i| self.polish(&games[i])).collect();
        for (&i, o) in picks.iter().zip(out) {
            let g = &mut games[i];
            g.polished = true;
            let Some((r, t)) = o else {
                // Out of time: the estimate was too low.
                costs.chars_factor *= 2.0;
                continue;
            };
            let dp = g.encode_time.as_secs_f64().max(1e-4);
            costs.learn_chars(t.as_secs_f64() / dp * costs.encode);
            if g.result.score > 0 {
                costs.polish_gain = (r.score as f64 / g.result.score as f64).clamp(1.0, 1.5);
            }
            if r.score > g.result.score {
                g.result = r;
            }
            if g.result.score > best.score {
                *best = g.result.clone();
            }
        }
        true
    }
}

/// Whether a polish goes before the next round of beams: on a clock, when it promises more
/// points per second than the last round of fresh games gave, but not while the best game ends
/// before the source does. There a wider beam gains more, even after a round of fresh games
/// that found nothing better (problem 18 with five systems: a round of width 16 went to the two
/// that suit it least, and an 8 s polish of a game that died at unit 191 took the time of the
/// width-64 beam that plays 996 units).
fn polish_goes_first(on_clock: bool, whole: bool, polish_rate: f64, widen_rate: f64) -> bool {
    on_clock && whole && polish_rate > widen_rate
}

/// Whether the next round's beams are wider than the last's, on a clock: when the last round of
/// fresh games found a better game (`widen_rate` above 0), when the best game ends before the
/// source does (not `whole`), or when the wider round is `cheap` (see [`DEAR_ROUNDS`]) and
/// [`PATIENCE`] rounds ran at the width reached (`at_width`).
fn widens(widen_rate: f64, whole: bool, cheap: bool, at_width: u32) -> bool {
    widen_rate > 0.0 || !whole || (cheap && at_width >= PATIENCE)
}

/// The systems in the order dear and wide rounds run them, from each system's record (the
/// widest beam it ran, the best score of its whole games). Systems no beam has tried yet come
/// first: a record is only known once tried. The quick answer's system (run at width 1 only)
/// comes after the ones never run: its greedy game says little of its beams (problem 24 at
/// 10 s: its first round ran the quick answer's system, whose beams score 20 % below the best
/// system's, and the best system ran only in the second of two rounds). Then the best first.
fn rank_systems(record: &[(usize, u64)]) -> Vec<usize> {
    let mut rank: Vec<usize> = (0..record.len()).collect();
    rank.sort_by_key(|&s| {
        let (width, score) = record[s];
        (width > 1, width > 0, std::cmp::Reverse(score))
    });
    rank
}

/// With a number of attempts (no clock to stop it), the most [`Search::polish_work`] a polish
/// may cost: 500,000 takes about a second on this project's machine; problem 24's games (1,620
/// units on 100 x 40) take minutes, so a run by attempts leaves them as the DP encoder spelt them.
const ATTEMPTS_POLISH_WORK: u64 = 500_000;

/// The least share of a game's units a neighbourhood of the time left re-plans (see
/// [`Search::tail_round`]): fewer would rarely change the game.
const TAIL_MIN_SHARE: f64 = 0.05;

/// A round is dear when fewer than this many of it fit in the time left: dear rounds go to the
/// best systems, and are not widened after a round of fresh games that found no better game.
const DEAR_ROUNDS: f64 = 4.0;

/// Rounds a cheap beam waits at its width, once widening stopped paying, before it widens
/// anyway. Whether a round is cheap depends on the time left, so a longer budget widened at once
/// where a shorter one did not, and the attempts after that point differed: the longer run
/// missed the games the shorter one found, and could end below it (problem 0: 13,677 at 10 s,
/// 13,573 at 60 s). Counted in rounds, the wait is the same at every budget, so the rounds a
/// short budget runs before its end are also the first ones of a long budget's (problem 0 at
/// 60 s then 13,685, its 10 s game found on the way).
const PATIENCE: u32 = 8;

/// The most plans an attempt makes for the one it spells (see [`Screen`]).
const MAX_TRIES: usize = 4;

/// A plan is spelt only when its predicted score is at least the best game's less this share:
/// the prediction is rough (the power per descent of one game is not another's), so it only
/// skips plans clearly worse.
const SCREEN_MARGIN: f64 = 0.01;

/// Games kept as candidates for polishing.
const KEEP_GAMES: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Phrases;

    /// The bundled sample problem on a 30 x 12 board.
    fn sample_wide() -> Problem {
        let text = include_str!("../../problems/sample_wide.json");
        Problem::from_json(text, std::path::Path::new("sample_wide.json")).unwrap()
    }

    /// An attempt with several plans spells the one predicted best, and none when even that one
    /// is predicted below the screen's least score.
    #[test]
    fn an_attempt_spells_the_best_predicted_of_its_plans() {
        let problem = sample_wide();
        let prep = Prepared::new(&problem);
        let cfg = SolveConfig::new(Phrases::official());
        let seed = problem.seeds[0];
        let search = Search::new(&prep, seed, Budget::Attempts(1), &cfg);
        let rate = 5.0;
        let spec = |tries: usize, least: f64| Spec {
            i: 1,
            system: 0,
            width: 2,
            mode: Mode::Dp,
            prefix: &[],
            base_text: "",
            greedy_unit: 0.0,
            screen: Screen { tries, rate, least },
            chars_valuer: true,
        };
        let spelt = |o: Outcome| match o {
            Outcome::Spelt(g) => g,
            Outcome::Screened { predicted, .. } => panic!("not spelt: predicted {predicted}"),
        };
        // An attempt's plans are those of its random seeds, the first its own.
        let predictions: Vec<f64> = (0..4)
            .map(|k| search.predicted(&search.plan(&spec(4, 0.0), Some(""), k, None, None), rate))
            .collect();
        let best = predictions.iter().copied().fold(f64::MIN, f64::max);
        let four = spelt(search.attempt(spec(4, 0.0), None, None));
        assert_eq!(search.predicted(&four.plan, rate), best, "{predictions:?}");
        let e = evaluate(&problem, seed, &four.result.solution, &cfg.phrases);
        assert!(!e.end.is_error());
        assert_eq!(e.score, four.result.score);
        assert_eq!(e.locked as usize, four.plan.placements.len());
        match search.attempt(spec(4, best + 1.0), None, None) {
            Outcome::Screened { predicted, .. } => assert_eq!(predicted, best),
            Outcome::Spelt(g) => panic!("spelt below the screen: {}", g.result.score),
        }
        spelt(search.attempt(spec(4, best), None, None));
    }

    #[test]
    fn no_polish_goes_first_while_the_best_game_dies_early() {
        assert!(polish_goes_first(true, true, 10.0, 0.0));
        assert!(!polish_goes_first(true, true, 10.0, 20.0));
        assert!(!polish_goes_first(true, false, 10.0, 0.0));
        assert!(!polish_goes_first(false, true, 10.0, 0.0));
    }

    /// Regression (problem 0 scored 13,573 at 60 s against 13,677 at 10 s): once widening stops
    /// paying, a cheap beam keeps its width for [`PATIENCE`] rounds, however much time is left,
    /// so that a long budget first runs the rounds a short one runs; gains, or a game that dies
    /// early, still widen at once, and a dear beam never does.
    #[test]
    fn a_cheap_beam_waits_its_patience_before_widening() {
        for at_width in 0..PATIENCE {
            assert!(!widens(0.0, true, true, at_width), "{at_width}");
            assert!(widens(5.0, true, true, at_width));
            assert!(widens(0.0, false, false, at_width));
        }
        assert!(widens(0.0, true, true, PATIENCE));
        assert!(!widens(0.0, true, false, PATIENCE));
    }

    /// Untried systems first, those never run before the quick answer's; then the best.
    #[test]
    fn systems_never_run_come_before_the_quick_answers() {
        assert_eq!(rank_systems(&[(1, 200), (0, 0), (0, 0)]), vec![1, 2, 0]);
        assert_eq!(rank_systems(&[(1, 200), (4, 300), (0, 0)]), vec![2, 0, 1]);
        assert_eq!(
            rank_systems(&[(16, 200), (4, 300), (4, 100)]),
            vec![1, 0, 2]
        );
    }

    /// The planning cost per unit of width follows the widest whole game measured: a narrow
    /// plan's time (fixed costs, timing jitter) no longer raises it once a wider one is known.
    #[test]
    fn the_plan_cost_follows_the_widest_game_measured() {
        let mut costs = Costs {
            per_unit: 1e-4,
            per_unit_width: 1,
            units: 100.0,
            encode: 0.01,
            chars_factor: FIRST_CHARS_FACTOR,
            chars_measured: false,
            polish_gain: FIRST_POLISH_GAIN,
        };
        // Width 4 at 8 us a unit placed: 2 us per unit of width.
        costs.learn_plan(4, true, 8e-6);
        assert_eq!((costs.per_unit, costs.per_unit_width), (2e-6, 4));
        // Width 256 at 128 us: 0.5 us, lower, replaces it.
        costs.learn_plan(256, true, 128e-6);
        assert_eq!((costs.per_unit, costs.per_unit_width), (0.5e-6, 256));
        // A narrower plan, however slow, is ignored; one as wide can only raise it.
        costs.learn_plan(4, true, 1e-3);
        assert_eq!(costs.per_unit, 0.5e-6);
        costs.learn_plan(256, false, 64e-6);
        assert_eq!(costs.per_unit, 0.5e-6);
        costs.learn_plan(256, false, 512e-6);
        assert_eq!(costs.per_unit, 2e-6);
    }

    /// Regression: a beam attempt's cost once counted the character encoder's polish (about 60
    /// times the DP encoding), so on a clock any problem whose DP encoding took more than a
    /// sixtieth of the budget stopped after its quick answer (problem 14 at 10 s: 73,618 instead
    /// of 105,280; all 25 problems: 354,953 instead of 798,341). Here the budget is 30 times the
    /// DP encoding the solver expects (and room for a few narrow plans); with the old cost the
    /// test fails ("only 1 attempt(s)"): beams must run.
    #[test]
    fn a_dear_polish_does_not_stop_the_beams() {
        let problem = sample_wide();
        let prep = Prepared::new(&problem);
        let cfg = SolveConfig::new(Phrases::official());
        let seed = problem.seeds[0];
        let search = Search::new(&prep, seed, Budget::Attempts(1), &cfg);
        let quick = search.quick(Mode::Greedy, None);
        let encode = quick.encode_time.as_secs_f64() * FIRST_DP_FACTOR;
        let plan = quick.plan_time.as_secs_f64();
        let budget = (30.0 * encode).max(20.0 * (plan + encode));
        let deadline = Instant::now() + Duration::from_secs_f64(budget);
        let result = solve_seed(&prep, seed, Budget::Until(deadline), 1, &cfg);
        assert!(
            result.attempts >= 2,
            "only {} attempt(s) in {budget:.3} s: {}",
            result.attempts,
            result.tag
        );
    }
}
