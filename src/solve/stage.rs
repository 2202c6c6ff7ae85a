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
use crate::encode::{CharStats, CharTables, Encoder, Mode, PhraseTable};
use crate::engine::{evaluate, Evaluation, Phrases, Problem};
use crate::eval::{LockScorer, PhraseValuer, Weights};
use crate::plan::{plan_beam, BeamShape, Plan, PlanConfig, Tables};
use crate::work::Op;
use std::time::Instant;

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
}

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

    /// Spells a whole plan with `mode` (not [`Mode::Chars`]: see [`StageRunner::spell_chars`]),
    /// ending after the unit in hand past `deadline`.
    pub fn spell(&self, plan: &Plan, mode: Mode, deadline: Option<Instant>) -> String {
        self.encoder.encode(plan, mode, deadline)
    }

    /// Spells a whole plan with the character encoder's tables `chars`; `None` when it cannot
    /// finish before `deadline`.
    pub fn spell_chars(
        &self,
        chars: &CharTables,
        plan: &Plan,
        deadline: Option<Instant>,
        stats: &mut CharStats,
    ) -> Option<String> {
        self.encoder.encode_chars(chars, plan, deadline, stats)
    }

    /// The engine's [`evaluate`] of `text` on the runner's seed, its characters counted.
    pub fn evaluate(&self, text: &str, phrases: &Phrases) -> Evaluation {
        crate::work::add(Op::EvalChar, text.len() as u64);
        evaluate(self.problem, self.seed, text, phrases)
    }
}
