//! The stage runner: one seed of one problem, planned, spelt and scored a stage at a time. The
//! solver's tasks ([`super::tasks`]), the calibration of the work counts ([`super::calibrate`])
//! and `hextris bench --stages` ([`crate::cli::stages`]) all run their stages through it, so
//! that what the two measurements time is what the solver runs: the same beam shape
//! ([`BeamShape::of_width`]), the same phrase valuer where the planner uses one
//! ([`StageRunner::aware`]), and the same phrase weight ([`SearchOptions::phrase_weight`]).
//!
//! Each stage counts its work ([`crate::work`]) in the planner and the encoders; the runner adds
//! the characters the engine scores.

use super::SearchOptions;
use crate::encode::{CharStats, CharTables, Encoder, Mode, Opening, PhraseTable, Spelling};
use crate::engine::{replay, Evaluation, Phrases, Problem};
use crate::eval::{LockScorer, PhraseValuer, Weights};
use crate::plan::{plan_beam, BeamShape, Plan, PlanConfig, Tables};
use crate::work::{Limit, Op};

/// How the planner values the phrases a unit can spell on its way to each lock, where it values
/// them at all ([`StageRunner::aware`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valuer {
    /// No valuer: the heuristic alone.
    Off,
    /// By whole words ([`PhraseValuer::new`]).
    Words,
    /// By characters, on the phrases' automaton ([`PhraseValuer::with_chars`]).
    Chars,
}

impl Valuer {
    /// The valuer of an attempt: one of a survival system (which the policy runs while the
    /// seed's best game dies early) values no phrase unless [`SearchOptions::survival_valuer`]
    /// says so; the others value phrases by words until a game is `whole`, by characters
    /// after. The policy's rounds and the survival table decide by this alone.
    pub fn of_attempt(survival: bool, whole: bool, o: &SearchOptions) -> Valuer {
        if survival && !o.survival_valuer {
            Valuer::Off
        } else if whole {
            Valuer::Chars
        } else {
            Valuer::Words
        }
    }
}

/// One seed of one problem, with what its stages need.
pub struct StageRunner<'a> {
    pub problem: &'a Problem,
    pub tables: &'a Tables,
    pub encoder: &'a Encoder<'a>,
    /// The phrases the encoders spell.
    pub table: &'a PhraseTable,
    pub seed: u32,
    /// See [`SearchOptions::phrase_weight`].
    pub phrase_weight: f64,
    /// See [`SearchOptions::revive_width`].
    pub revive_width: usize,
}

/// A table of fresh games ([`StageRunner::fresh`]: `hextris bench --survival`, `hextris tune`)
/// bounds a reviving beam by this many times a straight game's work over the whole source. The
/// solver bounds it by what its cost model counts on (from the longest game so far), which a
/// table without a history lacks. Not a knob of search.json: the solver never reads it, only the
/// tables that measure and tune the systems.
pub const TABLE_REVIVE: usize = 4;

impl<'a> StageRunner<'a> {
    /// The runner of `seed`, with the search's phrase weight.
    pub fn new(
        problem: &'a Problem,
        tables: &'a Tables,
        encoder: &'a Encoder<'a>,
        table: &'a PhraseTable,
        seed: u32,
        search: &SearchOptions,
    ) -> StageRunner<'a> {
        StageRunner {
            problem,
            tables,
            encoder,
            table,
            seed,
            phrase_weight: search.phrase_weight,
            revive_width: search.revive_width,
        }
    }

    /// Whether the planner values what units that cannot rotate can spell on their way: phrases
    /// are spelt and some unit cannot rotate (there the valuer is cheap and exact; elsewhere it
    /// is not worth its cost).
    pub fn aware(&self) -> bool {
        !self.table.phrases.is_empty() && self.tables.spaces.iter().any(|s| !s.rotates())
    }

    /// Plans with `cfg` a beam of `width` (see [`BeamShape::of_width`]), its locks scored with
    /// `weights` and tie-breaks seeded with `rng_seed` ([`LockScorer`]), valuing phrases by
    /// `valuer` where the planner is [`StageRunner::aware`]. `opening` is the text of the units
    /// `cfg.prefix` keeps: the valuer starts where that text left it.
    pub fn plan(
        &self,
        mut cfg: PlanConfig,
        weights: &Weights,
        rng_seed: u64,
        width: usize,
        valuer: Valuer,
        opening: Option<&str>,
    ) -> Plan {
        let v = match valuer {
            Valuer::Off => None,
            _ if !self.aware() => None,
            Valuer::Words => Some(PhraseValuer::new(self.encoder, self.phrase_weight, 0)),
            Valuer::Chars => {
                Some(PhraseValuer::new(self.encoder, self.phrase_weight, 0).with_chars())
            }
        };
        if let (Some(v), Some(text)) = (&v, opening) {
            cfg.carry = v.carry_after(text);
        }
        let mut scorer = LockScorer::new(self.tables, weights, rng_seed).with_valuer(v);
        plan_beam(
            self.problem,
            self.tables,
            self.seed,
            &cfg,
            BeamShape::of_width(width),
            &mut scorer,
        )
    }

    /// A fresh whole game of `width`, as the solver's fresh attempts plan it while a seed's best
    /// game dies early: from [`SearchOptions::revive_width`] on, its beam revives where all its
    /// partial games die, within [`TABLE_REVIVE`] times a straight game's work. Its locks are
    /// scored with `weights`, tie-breaks seeded with `rng_seed`, phrases valued by `valuer`
    /// (see [`StageRunner::plan`]).
    pub fn fresh(&self, weights: &Weights, rng_seed: u64, width: usize, valuer: Valuer) -> Plan {
        let mut cfg = PlanConfig::whole_game();
        if width >= self.revive_width {
            cfg.revive_budget = TABLE_REVIVE * width * self.problem.source_length as usize;
        }
        self.plan(cfg, weights, rng_seed, width, valuer, None)
    }

    /// Spells a whole plan with `mode` (not [`Mode::Chars`]: see [`StageRunner::spell_chars`]),
    /// ending after the unit in hand once `limit` stops it.
    pub fn spell(&self, plan: &Plan, mode: Mode, limit: &Limit) -> String {
        self.encoder.encode(plan, mode, limit)
    }

    /// Spells `plan` after its `opening` with any `mode`: the character encoder (with its
    /// tables `chars`) hands over to the DP encoder where it cannot finish within `limit`, and a
    /// late DP spelling to the greedy encoder ([`Encoder::spell`]). The solver's tasks spell
    /// through this.
    pub fn spell_after(
        &self,
        plan: &Plan,
        opening: Opening,
        mode: Mode,
        chars: Option<&CharTables>,
        limit: &Limit,
    ) -> Spelling {
        self.encoder.spell(plan, opening, mode, chars, limit)
    }

    /// Spells `plan`'s units after its `opening` with the character encoder, asking `enough`
    /// after each unit whether to stop there (a polish of a part): the text and the units it
    /// spells ([`Encoder::encode_chars_part`]); `None` when `limit` stops it first.
    pub fn spell_chars_part(
        &self,
        chars: &CharTables,
        plan: &Plan,
        opening: Opening,
        limit: &Limit,
        enough: Option<&dyn Fn(usize) -> bool>,
        stats: &mut CharStats,
    ) -> Option<(String, usize)> {
        self.encoder
            .encode_chars_part(chars, plan, opening, limit, enough, stats)
    }

    /// Spells a whole plan with the character encoder's tables `chars`; `None` when it cannot
    /// finish within `limit`.
    pub fn spell_chars(
        &self,
        chars: &CharTables,
        plan: &Plan,
        limit: &Limit,
        stats: &mut CharStats,
    ) -> Option<String> {
        self.encoder.encode_chars(chars, plan, limit, stats)
    }

    /// The engine's [`replay`] of `text` on the runner's seed, its characters counted.
    pub fn replay(&self, text: &str, phrases: &Phrases) -> Evaluation {
        crate::work::add(Op::EvalChar, text.len() as u64);
        replay(self.problem, self.seed, text, phrases)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::random_dying_problem;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// A fresh game follows the search's `revive_width`: below it the beam never rewinds, from
    /// it on the game plays at least as many units, and more on some boards where games die;
    /// a game that plays its whole source is the same either way.
    #[test]
    fn fresh_games_revive_from_the_searchs_width() {
        let mut rng = Pcg64Mcg::seed_from_u64(44);
        let (mut died, mut longer) = (0, 0);
        let phrases = Phrases::official();
        let table = PhraseTable::new(&phrases);
        let weights = Weights::system("survive").unwrap();
        for case in 0..80u32 {
            let Some(p) = random_dying_problem(&mut rng, case) else {
                continue;
            };
            let tables = Tables::new(&p);
            let encoder = Encoder::new(&p, &tables, &table);
            let units_of = |revive_width: usize| {
                let search = SearchOptions {
                    revive_width,
                    ..Default::default()
                };
                let runner = StageRunner::new(&p, &tables, &encoder, &table, case, &search);
                runner.fresh(&weights, case as u64, 4, Valuer::Words)
            };
            let (plain, revived) = (units_of(5), units_of(4));
            let (n, m) = (plain.placements.len(), revived.placements.len());
            assert!(m >= n, "case {case}: {m} units revived, {n} without");
            if n == 60 {
                assert_eq!(plain.placements, revived.placements, "case {case}");
            } else if n > 0 {
                died += 1;
                longer += (m > n) as usize;
            }
        }
        assert!(
            died >= 10 && longer * 2 >= died,
            "{died} died, {longer} revived longer"
        );
    }
}
