//! The search's knobs in one place: every constant of the time policy ([`super::policy`]) and of
//! the time rules ([`super::budget`]: the reserve, the checkpoints, the tasks' deadlines, the
//! preset of a run by attempts), each documented here with the reason for its value. Like the
//! heuristic weights, they are data: the defaults are `src/solve/search.json`, compiled in, and
//! a JSON file with some of the fields (`hextris solve --search FILE`, `hextris bench --search
//! A.json --search B.json`) replaces those (a field that is an object, such as `attempts`, field
//! by field), so that trying a variant needs no code edit.
//!
//! Costs are in *work seconds*: the deterministic work counts of [`crate::work`], scaled so that
//! one work second is about one second of this project's 2-core machine.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The options of the search. Every field has a default; a file may give any subset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchOptions {
    /// Heuristic value of one point of phrase potential for the planner (see
    /// [`crate::eval::PhraseValuer`]).
    pub phrase_weight: f64,
    /// The widest beam (its memory grows with width times source length; `-m` may cap it
    /// lower).
    pub max_width: usize,
    /// The share of the memory the beams of all the workers may hold at once; the rest is
    /// tables and answers.
    pub beam_memory_share: f64,
    /// The knobs of a run by attempts (`--attempts`), which has no clock to stop a task that
    /// takes minutes (see [`super::budget::Preset`]).
    pub attempts: AttemptsOptions,
    /// The knobs of the exhaustive search of a seed whose whole space of games is small (see
    /// [`crate::plan::every`] and [`super::tasks`]).
    pub exhaust: ExhaustOptions,
    /// Each widening multiplies the beam width by this.
    pub growth: usize,
    /// While a seed's best game ends before its source does, each widening multiplies the beam
    /// width by this instead of [`SearchOptions::growth`]: a dying game wants a wider beam soon,
    /// and a survival beam's cost grows with its width, so smaller steps reach a width that
    /// lives inside a short budget where a step of 4 does not fit (docs/tuning.md).
    pub dying_growth: usize,
    /// From this width on, beams go to the systems whose whole games scored best instead of
    /// cycling through them: wide beams are few and dear.
    pub wide: usize,
    /// A wider beam tends to survive longer: the cost model counts on this many times the
    /// units of the longest game played so far.
    pub survival: f64,
    /// From this width on, a fresh attempt (not a re-plan from a cut) of a seed whose best game
    /// ends early revives its beam: where every partial game dies at once, it goes back some
    /// units and searches them again ([`crate::plan::PlanConfig::revive_budget`]), within the work
    /// the cost model counts on for it. Narrower attempts are the cheap probes of a short
    /// budget; reviving every attempt, re-plans from cuts included, lost at 1 s and at 10 s
    /// on held-out survival problems (docs/changelog.md).
    pub revive_width: usize,
    /// Margin on the cost model's estimate of a plan's work.
    pub plan_margin: f64,
    /// Margin on the time kept, before a deadline, for a late beam to finish greedily and be
    /// spelt.
    pub narrow_margin: f64,
    /// The DP encoder's work on a game, before one is measured, as a multiple of the greedy
    /// encoder's on the quick answer.
    pub first_dp_factor: f64,
    /// The character encoder's work, before one is measured, as a multiple of the DP
    /// encoder's on the same plan (a middle value of those measured: docs/tuning.md).
    pub first_chars_factor: f64,
    /// The greedy encoder's work as a multiple of plain paths' on the same plan, with a margin
    /// over those measured (docs/tuning.md): whether greedy spelling of the quick answer fits
    /// in the time left.
    pub first_spell_factor: f64,
    /// The greedy encoder's seconds per unit per state of the unit's space, generously (above
    /// those measured: docs/tuning.md): one unit must fit in the time left.
    pub spell_state_seconds: f64,
    /// The quick answer's greedy spelling starts only when this many units' spelling (at
    /// [`SearchOptions::spell_state_seconds`] per state of the largest unit space) fits before
    /// the deadline: the encoder stops only after the unit in hand, which must not overrun it.
    pub greedy_units_left: f64,
    /// The share of a seed's part of the time left that its quick answer may plan in, so that
    /// it can still be spelt.
    pub quick_plan_share: f64,
    /// What a polish is expected to add, before one is measured on the seed or on another seed
    /// of its problem, as a factor of the DP encoder's score.
    pub first_polish_gain: f64,
    /// The least and the most a measured polish gain counts for (its new score over its old):
    /// a polish never loses (the better text is kept), and one lucky polish must not send every
    /// game to the character encoder.
    pub polish_gain_range: [f64; 2],
    /// The least share of a game's units a polish must spell (those after the units a re-plan
    /// kept from a polished game) for its gain to teach what polishing a whole game gains:
    /// its gain is counted over that share, and a small share would magnify its noise.
    pub polish_learn_share: f64,
    /// A polish is expected to take at least this share of the DP encoder's work on a whole
    /// game, times the character encoder's factor: a game whose spelling was cheap (a short
    /// one, or one cut from another) still costs the character encoder its tables.
    pub polish_least_share: f64,
    /// The most the character encoder's factor may be measured at: a game the DP encoder spelt
    /// in next to no work would otherwise make it endless.
    pub max_chars_factor: f64,
    /// A round is dear when it would take more than this share of the work spent on the seed so
    /// far. Dear rounds go to the best systems and widen only after a gain. Measured against
    /// the work done, not the time left, so that the same rounds are dear at every budget.
    pub dear_share: f64,
    /// The weight kept by the machine's measured speed (seconds per work second, of planning
    /// and of spelling) at each new measure: the speed follows the recent tasks.
    pub clock_decay: f64,
    /// Work seconds a task must report for its speed to be learnt: shorter tasks are mostly the
    /// clock's noise.
    pub clock_least_work: f64,
    /// Work seconds measured before the learnt speed is used (until then, this project's
    /// machine's speed: 1).
    pub clock_trusted_work: f64,
    /// The slowest and the fastest the learnt speed may be (seconds per work second): a task
    /// stalled by the machine's other work must not make every round look unfit.
    pub clock_speed_range: [f64; 2],
    /// Rounds a cheap beam waits at its width, once widening stopped paying, before it widens
    /// anyway: a run that widens at once skips widths where a longer run finds its best games
    /// (docs/tuning.md).
    pub patience: u32,
    /// The most plans an attempt makes for the one it spells (see the screen in
    /// [`super::policy`]).
    pub max_tries: usize,
    /// A plan is spelt only when its predicted score is at least the best game's less this
    /// share: the prediction is rough, so only plans clearly worse are skipped.
    pub screen_margin: f64,
    /// Games kept per seed as candidates for polishing and re-planning.
    pub keep_games: usize,
    /// The least share of a game's units that a round at the end of the time re-plans (its cut
    /// late enough to plan and spell the rest in time).
    pub tail_min_share: f64,
    /// Whether a tail round polishes a part of the best game, where it lasts the whole source and
    /// the character encoder has not spelt it: as many of its units as fit, after those a
    /// polish tried already, a part per lane side by side (instead of re-plans of its last
    /// units).
    pub tail_polish: bool,
    /// Across seeds, the weight kept by the gains and costs of a seed's earlier rounds at each
    /// new round: its expected rate follows its recent rounds.
    pub rate_decay: f64,
    /// A seed's expected rate, after its quick answer, as a multiple of the rate the quick
    /// answer earned (its score over its work): the first rounds of every seed come early.
    pub rate_prior: f64,
    /// A seed's expected rate never falls below this share of its average rate so far (its
    /// best score over its work): seeds whose recent rounds found nothing still get time,
    /// those with the least work first.
    pub rate_floor: f64,
    /// Margin on a round's predicted seconds when telling whether it fits before the deadline.
    pub fit_margin: f64,
    /// The least seconds between two offers of a seed's improvements to the store (the last
    /// one is always offered at the end of the run).
    pub store_interval: f64,
    /// After a stop (Ctrl-C, SIGTERM), the seconds the quick answers of seeds without an answer
    /// may take.
    pub stop_grace: f64,
    /// The seconds a run on the command line keeps back for writing its output and exiting,
    /// whatever its budget (see [`super::budget::reserve`]): more than a run takes to exit
    /// after its end on this project's machine (docs/tuning.md).
    pub reserve_seconds: f64,
    /// The share of the budget kept back besides: more problems, more output.
    pub reserve_share: f64,
    /// The most seconds kept back, whatever the budget.
    pub reserve_most: f64,
    /// The most kept back, as a share of the budget: a tiny budget still leaves the solver most
    /// of its time.
    pub reserve_most_share: f64,
    /// The budgets a user commonly gives, in seconds: a run of a longer budget plans its rounds
    /// to end where each of these would have ended (see [`super::budget::checkpoints`]), so
    /// that it plays everything the shorter run plays first, its tail included. None below
    /// 10 s: there the tails before a checkpoint cost a longer run more than they find
    /// (docs/tuning.md).
    pub checkpoints: Vec<f64>,
    /// Shorter budgets, below every one of [`Self::checkpoints`], whose *revivals* a longer
    /// run plays too: where the shorter run's seed plays a revive tail or a last round
    /// ([`Self::dying_tail_width`], [`Self::revive_last_round`]) before its end, the longer run
    /// owes the same round, with the same cut and random seeds, and plays it once nothing of its
    /// own fits; the shorter run's other tails it does not play. Revivals are where a shorter
    /// budget scored far more than a longer one (problem 18: 61,287 at 1 s, 33,998 at 2 s on the
    /// work clock; 61,273 at 2 s with one at 1 s), and they cost a longer run only where a seed
    /// dies early: the owed seconds delay its own rounds (problem 18 at 5 s 101,658 -> 61,248;
    /// at 10 s no set measured moved by more than 0.1 %; docs/tuning.md).
    pub revive_checkpoints: Vec<f64>,
    /// The scoring systems (by name) made to keep games alive ([`crate::eval::stack`]): while a
    /// seed's best game ends before its source does, the attempts [`Self::survival_every`]
    /// picks plan with them; they stay out of the cycle and the ranking of the systems
    /// otherwise.
    pub survival_systems: Vec<String>,
    /// While a seed's best game ends before its source does, one attempt in this many plans
    /// with the survival systems (2, every other one, by default: the other systems' beams
    /// outlive them on some boards; 1, every attempt, scored more on problem 18 and the
    /// survival set S97 and less on two survival sets held out and the official problems at
    /// 1 s: docs/tuning.md).
    pub survival_every: u32,
    /// Whether the survival systems plan with the phrase valuer where the other systems do
    /// (false by default). A survival attempt's game is worth its length first, and the
    /// valuer is a large share of a survival beam's time; the encoders still spell the
    /// phrases (the figures: docs/tuning.md).
    pub survival_valuer: bool,
    /// While a seed's best game ends before its source does, each width's round of fresh games
    /// is followed by a round of re-plans of the best game from cuts anywhere in it, at that
    /// width, before the beams widen (on a clock; a run by attempts widens at once). A dying
    /// game's re-plan from an early cut keeps the units before it and often lives much longer,
    /// where a wider fresh beam costs several times more and may die as early (problem 18).
    /// Off by default: on two survival sets held out and the official problems at 1 s the
    /// wider beams it delays scored more (docs/tuning.md).
    pub dying_cuts: bool,
    /// While a seed's best game ends before its source does, a tail round whose re-plans would
    /// be narrower than [`Self::revive_width`] (the time left is short) is instead a *revive
    /// tail*: one fresh game per lane with the survival systems at this width, whose beams
    /// revive where all their partial games die for as long as the horizon allows, then narrow
    /// and are spelt. A narrow re-plan of a dying game's last units dies where it did; a narrow
    /// beam that revives buys units with every rewind (problem 18 at 1 s: 31,366 -> 61,287 on
    /// the work clock; docs/tuning.md). 0: never.
    pub dying_tail_width: usize,
    /// While a seed's best game ends before its source does, a round of fresh games after
    /// which neither a revive tail ([`Self::dying_tail_width`]) nor another round as dear would
    /// fit is played as its *last round*: its survival attempts revive for as long as the horizon allows, narrowed to
    /// [`Self::dying_tail_width`] from their first death on, and, where the round is no wider
    /// than [`Self::revive_width`], its other attempts are revive tails' games instead. On
    /// twelve sources of problem 18's board at 1 s: 312,322 -> 370,597 on the work clock;
    /// problem 18 at 1.1 to 1.5 s 28,482-33,084 -> 50,828-58,468 (docs/tuning.md).
    pub revive_last_round: bool,
    /// The scoring systems of a revival's fresh games (a revive tail's, and those a last round
    /// turns its other attempts into; [`Self::dying_tail_width`], [`Self::revive_last_round`]),
    /// by name, taken in turn by attempt id. Names that are not among the run's systems are
    /// skipped; where none is left, the survival systems ([`Self::survival_systems`]) are
    /// taken. Beside `survive`, `fill`: reviving at width 3, its games outlive `survive`'s on
    /// problem 18's board (problem 18 at 1 s 61,287 -> 84,676 on the work clock, twelve other
    /// sources of its board 370,597 -> 417,096; docs/tuning.md).
    pub revive_systems: Vec<String>,
    /// While a seed's best game ends before its source does, where its next round of fresh
    /// games, wider than [`Self::revive_width`], does not fit before a horizon but the same
    /// width's games of [`Self::survival_round_systems`] alone would, without the phrase
    /// valuer, that round is played instead, before any tail (a *survival round*): the
    /// others' beams value phrases by words, and priced at their cost problem 18's wide round
    /// never fit (problem 18 at 10 s 104,144 -> 110,144 on the work clock, twelve other
    /// sources of its board at 2 / 3 / 5 / 10 s +4.5 / +3.0 / +1.3 / +3.9 %; docs/tuning.md).
    pub survival_rounds: bool,
    /// The scoring systems of a survival round's games ([`Self::survival_rounds`]), by name,
    /// taken in turn by attempt id, as [`Self::revive_systems`] are; where none is among the
    /// run's systems, the revive systems. `fill` alone by default: on twelve sources of problem
    /// 18's board its width-64 games without the valuer scored 458,629 against `survive`'s
    /// 359,121, for about a third of the work (docs/tuning.md).
    pub survival_round_systems: Vec<String>,
    /// Survival rounds go on once the best game lasts the whole source, while that game comes
    /// from a fresh game planned without the phrase valuer (a survival round's, a survival
    /// system's or a revival's, or a re-plan or polish of one): where a round does not fit, more
    /// such games of new tie-breaks, at the width the beams reached, before any tail. A wide
    /// game without the valuer differs from another by thousands of points, a re-plan of a
    /// whole game's last units by tens (docs/tuning.md).
    pub survival_rounds_when_whole: bool,
    /// Once whole ([`Self::survival_rounds_when_whole`]), every other game of a survival round
    /// (the odd attempt ids) re-plans the best game from a cut anywhere in it instead of a
    /// fresh game: it keeps the best game's units before the cut, and on problem 18 at 10 s on
    /// the real clock one of them beat every fresh game (124,222 -> 128,664; docs/tuning.md).
    pub survival_cuts_when_whole: bool,
    /// While a seed's best game lasts less than this share of its source, and its widest fresh
    /// games lasted less than [`Self::revive_below_gain`] times as long as those of the next
    /// narrower width, its tail revives ([`Self::dying_tail_width`]) where a revive tail fits,
    /// before any re-plan, however wide: wider beams no longer buy units, a re-plan of a game's
    /// last units rarely doubles its length, and a reviving fresh game may play the whole source.
    /// On this project's faster machine problem 18 at 1 s on the real clock fell to about
    /// 35,000 with re-plans of width 16 of a game dying at unit 282; it revives now (about
    /// 87,000; docs/tuning.md). 0: only where no re-plan as wide as [`Self::revive_width`]
    /// fits.
    pub revive_below_share: f64,
    /// See [`Self::revive_below_share`] (a factor of units lasted from one width to the next).
    pub revive_below_gain: f64,
    /// A survival round's games' planning work per unit, as a share of the survival systems',
    /// until one of them is measured ([`Self::survival_rounds`]): its systems (`fill`) have
    /// `survive`'s features without its probe of the stack's room for the big units. Priced
    /// at `survive`'s, problem 18's width-64 round was predicted at about four times its work,
    /// and at 3 s on the real clock it no longer fitted (docs/tuning.md).
    pub survival_round_price: f64,
    /// A round of fresh games tells whether wider beams pay only where one of its games comes
    /// from a system that had planned a fresh game before: a round of systems new to the seed
    /// may score below the best game because its systems are worse there, not its width. After
    /// such a round, where polishing the best candidate would cost more than the wider round,
    /// the beams widen and no polish goes first. On problem 24's board the width-1 `fill` game
    /// beat the width-4 round of `balanced` and `pairs`, so the beams stopped at width 4 and the
    /// run polished two width-4 games (docs/tuning.md).
    pub widen_same_system: bool,
    /// A system whose one fresh game died early, where the seed's best game lasts the whole
    /// source, is tried again in the next dear or wide round, ranked after the systems never run
    /// and the best system tried ([`super::policy::rank_systems`]): a beam that dies says its
    /// width was too narrow for the system, not what the system scores. On the held-out problem
    /// 9008 (9 x 29, 4,045 units) `pairs` died at width 4 and won at width 16 (docs/tuning.md).
    pub retry_dying_systems: bool,
    /// Where the next round does not fit before the horizon and the seed's best game lasts the
    /// whole source, the systems that never ran on the seed (the quick answer's system ran)
    /// get a fresh game each at the width reached, before the tails (`SeedState::untried_round`
    /// in [`super::policy`]). On problem 3406 of the set F34 (14 x 30, 4,784 units) the width-64
    /// round did not fit after the polish, and `pairs`, never run, won a tail of the game's last
    /// quarter; a whole game of it at width 16 scored several per cent more (docs/tuning.md).
    pub fresh_untried: bool,
    /// A neighbourhood cut in the source's first half counts, for the systems to try again
    /// ([`Self::retry_dying_systems`]), as a game of its system: it planned most of a game, so
    /// it tells whether the system's beams live at that width. Without it, where every round at
    /// the widest width is a round of cuts, the first system to try again holds the second lane
    /// for good and the others are never tried again.
    pub replans_retry: bool,
    /// Where a seed's best game dies early and another seed of its problem has a game that lasts
    /// the source, a round of fresh games of the dying seed is weighed across seeds at the
    /// greater of its expected rate and what the sibling's whole game promises: the sibling's
    /// score less the seed's best, over the round's price (`revival_promise`, in the policy's
    /// `share` module). The expected rate follows the seed's past rounds, which say nothing
    /// of a game that lives the whole source. On the held-out problem 4704 (13 x 22, 3,920
    /// units, three seeds) one seed's beams died at 632 units while its siblings' lived the
    /// source, and its width-64 round lost to the siblings' polishes and tails until it no
    /// longer fitted: 210,822 against 626,666 and 657,011 (docs/tuning.md).
    pub sibling_promise: bool,
    /// A seed whose best fresh game lasts the whole source but scores below `1 - sibling_lag`
    /// of the lowest best fresh whole game of its problem's other seeds plays that game's system
    /// and width again before it polishes, at most two fresh games of that system there in all,
    /// weighed across seeds at the sibling's score less its own over the round's price. The
    /// seeds of a problem share its board, units and phrases: on a long source one game's luck
    /// parts them more than the units' order (on problem 7708 of F77 a seed's width-64 game
    /// scored 552,000 against its siblings' 634,000). 0: never. Not on a run by attempts.
    pub sibling_lag: f64,
    /// The scoring systems, by name, that a wide round (beams of [`Self::wide`] or wider) runs
    /// first among the systems never run, in this order, while the seed's best game lasts the
    /// whole source; the others never run follow in their order. `pairs` by default: it clears
    /// lines two at a time, dies in narrow beams and wins in wide ones. Alone, on the eight
    /// long problems of the tuning sets F34 and WL, it beat every other system on five of them
    /// and in total (docs/tuning.md). Empty: the systems' order.
    pub wide_systems: Vec<String>,
    /// Which of [`Self::wide_systems`] a wide round runs first: those that never ran
    /// (`never`), those that never ran a beam of [`Self::wide`] or wider (`wide`), the same but
    /// those that ran narrow right after the best system tried rather than first (`beside`),
    /// `beside` only for those whose narrow games scored within [`Self::wide_systems_margin`]
    /// of the best system's or all died (`near`, the default), or those that never ran a beam
    /// as wide as the round's (`round`). A narrow beam of `pairs` may rank it by a game that
    /// says little of its wide ones: on problem 20 its width-4 game scored 1.1 % below `low`'s
    /// width-16 one, so no wide round ran it, where its width-1024 games outscore theirs by
    /// hundreds of points. `beside` gave it a wide game everywhere, but on the real clock at
    /// 10 s its width-256 game of `pairs` took `fill`'s place on problem 14 (121,138 ->
    /// 115,602), where `pairs`' narrow game lay 16 % below the best. `near` runs it on 20 (the
    /// real clock at 10 s: 13,088 -> 13,578) and leaves 14 as `never` did (docs/tuning.md).
    pub wide_systems_first: WideFirst,
    /// With `wide_systems_first` `near`: how far below the best system's score, as a fraction
    /// of it, a wide system's narrow game may lie and still give it a place in the wide rounds
    /// (its games all died: whatever it scored). Within it, systems differ by less than one
    /// system's games at two widths do (on problem 20, `pairs` 1.1 % below the best, where
    /// `low` scored 0.7 % less at width 64 than at 16); far below (14's `pairs`, 16 % under),
    /// the narrow game tells.
    pub wide_systems_margin: f64,
}

/// Which of the wide systems a wide round runs first
/// ([`SearchOptions::wide_systems_first`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WideFirst {
    /// Those that never ran (the default before `Near`).
    Never,
    /// Those that never ran a wide beam ([`SearchOptions::wide`]).
    Wide,
    /// Those that never ran a beam as wide as the round's.
    Round,
    /// As `Wide`, but a wide system that ran (narrower) goes right after the best system
    /// tried rather than first: a round of two keeps the best system's game.
    Beside,
    /// As `Beside`, but only those whose best game lies within
    /// [`SearchOptions::wide_systems_margin`] of the best system's, or whose games all died
    /// (the default).
    Near,
}

impl WideFirst {
    /// The rule of a round of width `w`, where `wide` beams are wide and `margin` is
    /// [`SearchOptions::wide_systems_margin`].
    pub fn rule(self, w: usize, wide: usize, margin: f64) -> WideRule {
        let below = match self {
            WideFirst::Never => 1,
            WideFirst::Wide | WideFirst::Beside | WideFirst::Near => wide,
            WideFirst::Round => w,
        };
        WideRule {
            below,
            beside: matches!(self, WideFirst::Beside | WideFirst::Near),
            margin: if self == WideFirst::Near { margin } else { 1.0 },
        }
    }
}

/// Which wide systems a wide round runs first, and where ([`crate::solve::policy::wide_first`]), as
/// [`WideFirst::rule`] derives it from the search's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WideRule {
    /// A wide system whose widest beam is narrower than this moves (1: only those that never
    /// ran).
    pub below: usize,
    /// Whether one that ran goes right after the best system tried rather than first.
    pub beside: bool,
    /// How far below the best system's score (a fraction of it) the best game of one that ran
    /// may lie and still move: 1 moves it whatever it scored.
    pub margin: f64,
}

/// The knobs of a run by attempts (see [`super::budget::Preset::attempts`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptsOptions {
    /// The widest beam: the widest games of the largest problems take minutes, which no clock
    /// stops (docs/tuning.md).
    pub max_width: usize,
    /// The most work seconds a polish may be expected to take: the largest problems' games take
    /// minutes, so a run by attempts leaves them as the DP encoder spelt them.
    pub polish_seconds: f64,
}

/// The knobs of the exhaustive search (a seed's every game, enumerated and spelt: see
/// [`crate::plan::every`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExhaustOptions {
    /// The largest estimate of a seed's games (the product of its source's lock counts on the
    /// starting board, [`crate::plan::every::space_estimate`]) searched to the end: spaces this
    /// small are enumerated in a few milliseconds (docs/tuning.md).
    pub most_space: f64,
    /// The most partial games of one unit: past it the enumeration gives up and the seed is
    /// searched as any other (the estimate is rough).
    pub most_nodes: usize,
    /// The work seconds the search may spend spelling its games: the same at every budget, so
    /// that a seed searched to the end scores at 1 s what it scores at 10 s. Its games are
    /// spelt by the DP encoder in the order of their value, then the best of them by the
    /// character and the greedy encoders, until this work is spent. 0.2 since the work counts
    /// priced the encoders' fixed cost per game (4d53e46): 0.1 then spelt too few games to
    /// find the best on some tiny problems, and 0.3 answered in up to 0.94 s of a 1 s run
    /// (docs/tuning.md).
    pub work: f64,
    /// The share of [`ExhaustOptions::work`] the DP encoder's spellings may take; the rest goes
    /// to the character encoder (far slower than the DP encoder, docs/tuning.md), which finds
    /// far more on such boards (phrases across two units).
    pub dp_share: f64,
}

/// The compiled-in options.
const DEFAULTS_JSON: &str = include_str!("search.json");

/// Puts what `given` gives into `into`: an object field by field (so that a file may give one
/// field of `attempts`), anything else whole.
fn merge(into: &mut serde_json::Value, given: serde_json::Value) {
    match (into, given) {
        (serde_json::Value::Object(into), serde_json::Value::Object(given)) => {
            for (k, v) in given {
                match into.get_mut(&k) {
                    Some(old) => merge(old, v),
                    None => {
                        into.insert(k, v);
                    }
                }
            }
        }
        (into, given) => *into = given,
    }
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        serde_json::from_str(DEFAULTS_JSON).expect("search.json is valid (a test checks it)")
    }
}

impl SearchOptions {
    /// Options from a JSON file: the fields it gives replace the defaults.
    pub fn from_json(text: &str, path: &Path) -> Result<SearchOptions> {
        let json = |source| Error::Json {
            path: path.to_path_buf(),
            source,
        };
        let value: serde_json::Value = serde_json::from_str(text).map_err(json)?;
        let serde_json::Value::Object(given) = value else {
            return Err(Error::invalid(
                path,
                "the search options must be a JSON object",
            ));
        };
        let mut merged: serde_json::Value =
            serde_json::from_str(DEFAULTS_JSON).expect("search.json is valid");
        merge(&mut merged, serde_json::Value::Object(given));
        let o: SearchOptions = serde_json::from_value(merged).map_err(json)?;
        o.check().map_err(|what| Error::invalid(path, what))?;
        Ok(o)
    }

    /// Reads options from a file (see [`SearchOptions::from_json`]).
    pub fn load(path: &Path) -> Result<SearchOptions> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        SearchOptions::from_json(&text, path)
    }

    /// Whether the values make sense: widths and counts at least 1, factors and shares
    /// positive and finite, decays below 1.
    pub fn check(&self) -> std::result::Result<(), String> {
        let at_least_one = [
            ("max_width", self.max_width),
            ("attempts.max_width", self.attempts.max_width),
            ("wide", self.wide),
            ("max_tries", self.max_tries),
            ("keep_games", self.keep_games),
            ("exhaust.most_nodes", self.exhaust.most_nodes),
        ];
        for (name, v) in at_least_one {
            if v == 0 {
                return Err(format!("{name} must be at least 1"));
            }
        }
        if self.growth < 2 || self.dying_growth < 2 {
            return Err("growth and dying_growth must be at least 2".into());
        }
        let positive = [
            ("survival", self.survival),
            ("plan_margin", self.plan_margin),
            ("narrow_margin", self.narrow_margin),
            ("first_dp_factor", self.first_dp_factor),
            ("first_chars_factor", self.first_chars_factor),
            ("first_spell_factor", self.first_spell_factor),
            ("spell_state_seconds", self.spell_state_seconds),
            ("quick_plan_share", self.quick_plan_share),
            ("first_polish_gain", self.first_polish_gain),
            ("dear_share", self.dear_share),
            ("attempts.polish_seconds", self.attempts.polish_seconds),
            ("beam_memory_share", self.beam_memory_share),
            ("greedy_units_left", self.greedy_units_left),
            ("polish_least_share", self.polish_least_share),
            ("polish_learn_share", self.polish_learn_share),
            ("max_chars_factor", self.max_chars_factor),
            ("clock_least_work", self.clock_least_work),
            ("clock_trusted_work", self.clock_trusted_work),
            ("stop_grace", self.stop_grace),
            ("tail_min_share", self.tail_min_share),
            ("rate_prior", self.rate_prior),
            ("fit_margin", self.fit_margin),
            ("exhaust.most_space", self.exhaust.most_space),
            ("exhaust.work", self.exhaust.work),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name} must be a positive number, not {v}"));
            }
        }
        let shares = [
            ("phrase_weight", self.phrase_weight, f64::MAX),
            ("screen_margin", self.screen_margin, 1.0),
            ("rate_decay", self.rate_decay, 1.0),
            ("rate_floor", self.rate_floor, f64::MAX),
            ("store_interval", self.store_interval, f64::MAX),
            ("clock_decay", self.clock_decay, 1.0),
            ("reserve_seconds", self.reserve_seconds, f64::MAX),
            ("reserve_share", self.reserve_share, 1.0),
            ("reserve_most", self.reserve_most, f64::MAX),
            ("reserve_most_share", self.reserve_most_share, 1.0),
            ("exhaust.dp_share", self.exhaust.dp_share, 1.0),
            ("wide_systems_margin", self.wide_systems_margin, f64::MAX),
            ("sibling_lag", self.sibling_lag, 1.0),
        ];
        for (name, v, hi) in shares {
            if !(v.is_finite() && v >= 0.0 && v < hi) {
                return Err(format!("{name} must be at least 0 and below {hi}, not {v}"));
            }
        }
        let ranges = [
            ("polish_gain_range", self.polish_gain_range),
            ("clock_speed_range", self.clock_speed_range),
        ];
        for (name, [lo, hi]) in ranges {
            if !(lo.is_finite() && hi.is_finite() && 0.0 < lo && lo <= hi) {
                return Err(format!(
                    "{name} must be [least, most] with 0 < least <= most, not [{lo}, {hi}]"
                ));
            }
        }
        if let Some(bad) = self
            .checkpoints
            .iter()
            .find(|&&c| !(c.is_finite() && c > 0.0))
        {
            return Err(format!("checkpoints must be positive numbers, not {bad}"));
        }
        let first = self
            .checkpoints
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        if let Some(bad) = self
            .revive_checkpoints
            .iter()
            .find(|&&c| !(c.is_finite() && c > 0.0 && c < first))
        {
            return Err(format!(
                "revive_checkpoints must be positive numbers below every checkpoint, not {bad}"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_replaces_only_the_fields_it_gives() {
        let o = SearchOptions::from_json(r#"{"patience": 3}"#, Path::new("o.json")).unwrap();
        assert_eq!(o.patience, 3);
        assert_eq!(
            SearchOptions {
                patience: SearchOptions::default().patience,
                ..o
            },
            SearchOptions::default()
        );
    }

    #[test]
    fn bad_files_name_the_file_and_the_field() {
        for (text, says) in [
            (r#"{"patiense": 3}"#, "patiense"),
            (r#"{"growth": 1}"#, "growth"),
            (r#"{"rate_decay": 1.5}"#, "rate_decay"),
            (r#"{"survival": -1}"#, "survival"),
            (r#"{"clock_speed_range": [2, 1]}"#, "clock_speed_range"),
            (r#"{"checkpoints": [10, 0]}"#, "checkpoints"),
            (r#"{"revive_checkpoints": [1, 10]}"#, "revive_checkpoints"),
            ("[1]", "o.json"),
        ] {
            let e = SearchOptions::from_json(text, Path::new("o.json")).unwrap_err();
            let msg = e.to_string();
            assert!(
                msg.contains("o.json") && msg.contains(says),
                "{text}: {msg}"
            );
        }
    }

    /// A field that is an object is replaced field by field.
    #[test]
    fn a_file_replaces_one_field_of_an_object() {
        let o = SearchOptions::from_json(r#"{"attempts": {"max_width": 64}}"#, Path::new("o.json"))
            .unwrap();
        let d = SearchOptions::default();
        assert_eq!(o.attempts.max_width, 64);
        assert_eq!(o.attempts.polish_seconds, d.attempts.polish_seconds);
        let e = SearchOptions::from_json(r#"{"attempts": {"max_widht": 64}}"#, Path::new("o.json"))
            .unwrap_err();
        assert!(e.to_string().contains("max_widht"), "{e}");
    }

    /// The compiled-in file gives every field (none is missing, none unknown) and sound values.
    #[test]
    fn the_defaults_are_sound_and_round_trip() {
        let d = SearchOptions::default();
        d.check().unwrap();
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(SearchOptions::from_json(&text, Path::new("d")).unwrap(), d);
    }
}
