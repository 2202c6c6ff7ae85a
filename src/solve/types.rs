//! The solver's shared types: its options ([`SolveConfig`]), a problem with its tables
//! ([`Prepared`]), the answers ([`SeedResult`], [`ProblemResult`]) and the news of its progress
//! ([`Progress`]).

use super::options::SearchOptions;
use crate::encode::{CharTables, Mode, PhraseTable};
use crate::engine::{Phrases, Problem};
use crate::eval::{Weights, SYSTEMS};
use crate::plan::Tables;
use std::sync::OnceLock;

/// The best answer found for one seed.
#[derive(Clone, Debug)]
pub struct SeedResult {
    pub seed: u32,
    pub solution: String,
    pub score: u64,
    pub move_score: u64,
    pub power_score: u64,
    pub tag: String,
    /// Games planned.
    pub attempts: u32,
    /// The encoder that spelt the solution.
    pub spelling: Mode,
    /// The work seconds the run's tasks counted for this seed, whether their games were kept
    /// or not ([`crate::work`]): `hextris bench --virtual` sets them against the real seconds.
    pub work: f64,
}

impl SeedResult {
    /// The empty answer (score 0): what a seed answers when it got no time at all.
    pub fn empty(seed: u32) -> SeedResult {
        SeedResult {
            seed,
            solution: String::new(),
            score: 0,
            move_score: 0,
            power_score: 0,
            tag: "hextris (no time)".into(),
            attempts: 0,
            spelling: Mode::Plain,
            work: 0.0,
        }
    }
}

/// Options of the solver.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// The scoring systems to cycle through.
    pub systems: Vec<(String, Weights)>,
    /// Phrases the score counts (to choose the best game).
    pub phrases: Phrases,
    /// Phrases the encoders spell.
    pub table: PhraseTable,
    /// Memory the solver may use, in bytes: it bounds the widest beam (a beam keeps a record of
    /// about [`STEP_BYTES`](super::STEP_BYTES) per unit of width per unit placed).
    pub memory: u64,
    /// The search's knobs.
    pub search: SearchOptions,
    /// Games to start from, by (problem id, seed): a stored best solution's (tag, text). The
    /// search counts it as its first game, so a run never answers worse than it, and spends
    /// time on improving it (see [`super::policy`]).
    pub starts: std::collections::HashMap<(i64, u32), (String, String)>,
    /// Where shorter budgets would end, in seconds before the deadline (or, on a virtual
    /// clock, before the end of the budget), largest first: the policy plans its rounds to end
    /// before each in turn, as the shorter run would, so that a run plays every round of the
    /// shorter ones first, their tails included (see [`super::policy::Horizons`]). Empty: the
    /// deadline alone.
    pub checkpoints: Vec<f64>,
    /// Where shorter budgets whose revivals a run plays would end, in seconds before the
    /// deadline as [`Self::checkpoints`] ([`super::SearchOptions::revive_checkpoints`]).
    pub revive_checkpoints: Vec<f64>,
}

/// Memory assumed when no limit is given.
pub const DEFAULT_MEMORY: u64 = 1 << 30;

impl SolveConfig {
    /// The compiled-in scoring systems, spelling and counting `phrases`.
    pub fn new(phrases: Phrases) -> SolveConfig {
        let mut cfg = SolveConfig {
            systems: SYSTEMS
                .iter()
                .map(|s| (s.to_string(), Weights::system(s).unwrap()))
                .collect(),
            table: PhraseTable::new(&phrases),
            phrases,
            memory: DEFAULT_MEMORY,
            search: SearchOptions::default(),
            starts: Default::default(),
            checkpoints: Vec::new(),
            revive_checkpoints: Vec::new(),
        };
        cfg.order_systems();
        cfg
    }

    /// Puts the survival systems ([`SearchOptions::survival_systems`]) after the others, their
    /// orders kept: the policy cycles through the first ones and turns to the last ones while
    /// a game dies early. Called again whenever the systems or the options are replaced.
    pub fn order_systems(&mut self) {
        let survival = &self.search.survival_systems;
        self.systems
            .sort_by_key(|(name, _)| survival.iter().any(|s| s == name));
    }

    /// How many of the systems, at the end of the list, are survival systems (none when every
    /// system is one: the policy then cycles through them as through any).
    pub fn survival_systems(&self) -> usize {
        survival_flags(&self.systems, &self.search)
            .into_iter()
            .filter(|&s| s)
            .count()
    }

    /// The indices, in the run's ordered systems, of the systems a revival's fresh games plan
    /// with ([`SearchOptions::revive_systems`]), in the option's order; names not among the
    /// systems are skipped (empty: none is, and the survival systems are taken).
    pub fn revive_systems(&self) -> Vec<usize> {
        self.positions(&self.search.revive_systems)
    }

    /// The indices, in the run's ordered systems, of the systems a survival round's games plan
    /// with ([`SearchOptions::survival_round_systems`]), as [`Self::revive_systems`] resolves
    /// its names (empty: none is, and the revive systems are taken).
    pub fn survival_round_systems(&self) -> Vec<usize> {
        self.positions(&self.search.survival_round_systems)
    }

    /// The indices, in the run's ordered systems, of the systems a wide round runs first among
    /// those never run ([`SearchOptions::wide_systems`]); names not among the systems are
    /// skipped.
    pub fn wide_systems(&self) -> Vec<usize> {
        self.positions(&self.search.wide_systems)
    }

    /// The indices of the systems `names` names, in their order, skipping unknown names.
    fn positions(&self, names: &[String]) -> Vec<usize> {
        names
            .iter()
            .filter_map(|name| self.systems.iter().position(|(n, _)| n == name))
            .collect()
    }
}

/// Per system of `systems`, whether the policy runs it as a survival system: one that
/// [`SearchOptions::survival_systems`] names, unless every system is one (the policy then
/// cycles through them as through any).
pub fn survival_flags(systems: &[(String, Weights)], search: &SearchOptions) -> Vec<bool> {
    let flags: Vec<bool> = systems
        .iter()
        .map(|(name, _)| search.survival_systems.iter().any(|s| s == name))
        .collect();
    if flags.iter().all(|&s| s) {
        vec![false; flags.len()]
    } else {
        flags
    }
}

/// Receives news of the solver's progress, for progress bars, logs and the store. Called from
/// the worker threads.
pub trait Progress: Sync {
    /// A seed of `problems[problem]` has a better answer than before (its first, at its quick
    /// answer).
    fn improved(&self, _problem: usize, _result: &SeedResult) {}
    /// On a virtual clock ([`super::Budget::Virtual`]): the clock reached the checkpoint `before` work
    /// seconds before the end of the budget (one of [`SolveConfig::checkpoints`]). Every
    /// report of a task that ended by then has been filed, and none of a task that ended
    /// later: the answers so far are the run's at that checkpoint, which a run of the shorter
    /// budget must equal.
    fn checkpoint(&self, _before: f64) {}
    /// A seed of `problems[problem]` is solved: its final answer, at the end of the run.
    fn seed_done(&self, problem: usize, result: &SeedResult);
}

/// No news wanted.
pub struct Silent;

impl Progress for Silent {
    fn seed_done(&self, _: usize, _: &SeedResult) {}
}

/// A problem with its precomputed tables.
pub struct Prepared<'p> {
    pub problem: &'p Problem,
    pub tables: Tables,
    /// The character encoder's automata, built on first use (they depend on the phrases).
    chars: OnceLock<CharTables>,
}

impl<'p> Prepared<'p> {
    pub fn new(problem: &'p Problem) -> Prepared<'p> {
        Prepared {
            problem,
            tables: Tables::new(problem),
            chars: OnceLock::new(),
        }
    }

    /// The size of a seed's game: width x height x source length. Quick answers go to the
    /// smallest first, and shards split the run by it.
    pub fn weight(&self) -> f64 {
        let p = self.problem;
        (p.width as f64 * p.height as f64 * p.source_length.max(1) as f64).max(1.0)
    }

    /// The character encoder's tables for `table` (the same table on every call).
    pub fn chars(&self, table: &PhraseTable) -> &CharTables {
        self.chars
            .get_or_init(|| CharTables::new(table, &self.tables.spaces, self.problem.width))
    }
}

/// The results of one problem, one per distinct seed, in the problem's seed order.
#[derive(Clone, Debug)]
pub struct ProblemResult {
    pub problem_id: i64,
    pub seeds: Vec<SeedResult>,
    /// The official aggregate (RULES.md section 13).
    pub score: u64,
    /// The move part of `score`: the seeds' move scores aggregated the same way (summed over the
    /// distinct seeds, divided by the listed ones, rounded down). The power part is the rest,
    /// so that the two add up to the score, as in `hextris store report`.
    pub move_score: u64,
}

impl ProblemResult {
    /// The power part of the score (see [`ProblemResult::move_score`]).
    pub fn power_score(&self) -> u64 {
        self.score - self.move_score
    }
}
