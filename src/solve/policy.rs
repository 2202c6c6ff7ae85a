//! The time policy: from what has happened so far, the next round of work and the seed it goes
//! to. It plans nothing and reads no clock: it sees summaries of the games found (score, units,
//! descents, spelling), the work each task reported, and, for one question only, the seconds
//! left before the deadline. The executor ([`super::exec`]) runs its rounds and reports back.
//!
//! # Budget-independence
//!
//! Every choice follows what happened: scores, and work counted deterministically by the planner
//! and the encoders ([`crate::work`]), never the time left. So a run of T seconds first plays
//! every round a run of T/2 seconds plays, and more time cannot give less, apart from the end:
//! the deadline only decides whether a round fits ([`SearchOptions::fit_margin`]); one that does
//! not is replaced by a *tail* round, neighbourhoods cut late enough in the best game to be
//! re-planned and spelt in time. On one thread the whole sequence is a function of the inputs.
//! The quick answer's greedy spelling is the one task whose start asks the deadline: it runs
//! only where one unit's spelling fits ([`super::budget::greedy_fits`]). Below the checkpoints,
//! a longer run owes a shorter run's *revival* instead of its whole tail, and plays it last
//! (`seed::owing`; [`SearchOptions::revive_checkpoints`]).
//!
//! A run by attempts differs by its preset alone ([`Preset`], resolved once from the budget):
//! it plans that many games per seed on one lane, widens at every round, and polishes last.
//!
//! # A seed's rounds
//!
//! The rules of [`seed`] propose them, asked in a fixed order (the first that does not pass
//! decides); [`costs`] is a seed's cost model and [`widening`] its beams' record.
//!
//! A round is one task per lane (the lanes a seed may use at once: all the workers for a run of
//! one seed, one each when seeds are many).
//! - **Quick answer**: a greedy plan spelt with plain paths, then the same plan spelt greedily.
//!   Every seed of the run gets its quick answer before any seed gets more.
//! - **Searched to the end**: a seed whose whole space of games is small
//!   ([`SeedSetup::space`]) gets, right after its quick answer, one round of the exhaustive
//!   search ([`Task::Exhaust`], a part per lane, in a fixed counted work), and is finished when
//!   every part finishes; not on a run by attempts, nor where the round does not fit before the
//!   deadline.
//! - **Fresh beams**: attempts of growing width ([`SearchOptions::growth`] times the last), with
//!   a system and random seed of their own. Narrow beams cycle through the systems; wide or dear
//!   ones go to the systems whose whole games scored best ([`rank_systems`]), after a system
//!   whose one game died early where the best game lasts the source: its beam was too narrow
//!   for it ([`SearchOptions::retry_dying_systems`]). A beam widens when
//!   the last round of fresh games found a better game, when the best game ends before the
//!   source does (wider beams survive longer), or, for a cheap beam, after
//!   [`SearchOptions::patience`] rounds at its width ([`widens`]). A round none of whose systems
//!   had planned a fresh game on the seed compares systems, not widths: after it, where a polish
//!   costs more than the wider round, the beams widen ([`SearchOptions::widen_same_system`]). Cheap and dear are measured
//!   against the work already spent on the seed ([`SearchOptions::dear_share`]). While the best
//!   game ends before the source does, one attempt in [`SearchOptions::survival_every`] (every
//!   other one by default) plans with the survival systems ([`SearchOptions::survival_systems`], numbered after the
//!   others, which they never join in the cycle or the ranking).
//! - **Screen**: a plan's score is predicted before it is spelt (its move score is exact, its
//!   power follows its descents at the rate of the best game spelt), so where spelling costs
//!   more than planning an attempt makes several plans and spells the best predicted, and none
//!   when even that one falls clearly short of the best game.
//! - **Neighbourhoods**: once the beams grow no wider, every other round re-plans the best game
//!   from a cut (the units before it kept with their text). While the best game ends before the
//!   source does, each width's round of fresh games may be followed by one such round at its
//!   width before the beams widen ([`SearchOptions::dying_cuts`], off by default): a dying game
//!   re-planned from an early cut often lives far longer, but the wider beams it delays often
//!   live longer still.
//! - **Polish**: the character encoder spells a game better than the DP encoder but costs tens
//!   of times more; the best games not yet polished are polished once the beams grow no wider,
//!   or earlier when a polish promises more points per work second than the last widening gave,
//!   or than the recent rounds gain where they gain less ([`polish_goes_first`]), but not
//!   while the beams widen after a round that did not tell.
//!
//! # Across seeds
//!
//! Once every seed has its quick answer, the next round goes to the idle seed whose next round
//! promises the most points per work second, weighted by the seed's share of its problem's
//! score: its expected rate is the gain per work second of its recent rounds (decayed sums,
//! started from a prior at the quick answer's rate), never less than a floor share of its
//! average rate so far, so that seeds whose recent rounds found nothing still get time, the
//! least worked first. A round of fresh games of a dying seed, where a sibling has a game that
//! lasts the source, or of a seed whose whole games lag far behind its siblings', is weighed at
//! no less than the sibling's game promises over its price (`sibling_promise`, `sibling_lag`).

mod costs;
mod seed;
mod share;
mod widening;

pub use super::budget::Timing;
pub use widening::{rank_systems, wide_first, widens};

use super::budget::Preset;
use super::options::SearchOptions;
use super::stage::Valuer;
use crate::encode::Mode;
use seed::{Ctx, Phase, SeedState};

/// A game of one seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GameId {
    /// A game the run planned: its attempt's id (0 for the quick answer).
    Planned(u32),
    /// The stored solution the seed starts from (it sorts after the planned games).
    Stored,
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            GameId::Planned(id) => write!(f, "{id}"),
            GameId::Stored => f.write_str("stored"),
        }
    }
}

/// What the policy knows of a game: its score and shape, not its plan or text.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub id: GameId,
    pub score: u64,
    /// The power score alone.
    pub power: u64,
    /// Units the game places.
    pub units: usize,
    /// Rows its units fall, summed ([`crate::plan::Plan::descents`]).
    pub descents: u64,
    /// The scoring system that planned it.
    pub system: usize,
    /// The encoder that spelt its text.
    pub spelling: Mode,
    /// Units kept from the game it re-planned (0 for a whole game).
    pub kept: usize,
    /// Work seconds its spelling took (of the units after `kept`).
    pub spell_work: f64,
    /// After a polish of a part of the game ([`Task::Polish`] with a `to`): the units the
    /// character encoder spelt to, which falls short of `to` where the polish ran out of time.
    pub polished_to: Option<usize>,
}

/// Which plans an attempt spells (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    /// Plans made; the one with the highest predicted score is spelt.
    pub tries: usize,
    /// Power per descent, to predict a plan's score (0: unknown, no prediction).
    pub rate: f64,
    /// The least predicted score worth spelling.
    pub least: f64,
}

impl Screen {
    /// One plan, always spelt.
    pub const NONE: Screen = Screen {
        tries: 1,
        rate: 0.0,
        least: 0.0,
    };
}

/// One attempt: a game planned by a beam and spelt.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// The id of its game ([`GameId::Planned`]), and its random seed.
    pub id: u32,
    pub system: usize,
    pub width: usize,
    /// The encoder that spells it.
    pub mode: Mode,
    /// The game re-planned and how many of its first units are kept, with their text (the
    /// rest is planned anew).
    pub base: Option<(GameId, usize)>,
    pub screen: Screen,
    /// How its beam values the phrases ([`Valuer`]): by characters once a game is whole (see
    /// [`crate::eval::forward`]), by words before; not at all for a survival system's attempt
    /// unless [`SearchOptions::survival_valuer`] says so. The policy decides it with the system,
    /// which it knows for a survival system by its place in the list.
    pub valuer: Valuer,
    /// Where every partial game of its beam dies at once, go back and search the units before
    /// again ([`crate::plan::PlanConfig::revive_budget`]), expanding at most this many partial
    /// games in all: the wide fresh attempts of the seeds whose best game dies early. 0: never.
    pub revive: usize,
}

impl Attempt {
    /// The bit that marks an owed revival's id ([`super::SearchOptions::revive_checkpoints`]):
    /// it keeps the id the shorter run gave the attempt, for its random seed, apart from the
    /// ids of the seed's own attempts.
    pub const OWED: u32 = 1 << 31;

    /// Its random seed: its id without the [`Attempt::OWED`] bit, so that an owed revival
    /// plays the game the shorter run played.
    pub fn rng(&self) -> u32 {
        self.id & !Self::OWED
    }

    /// Its id as the tags and the trace show it: an owed revival's as the shorter run's, marked.
    pub fn label(&self) -> String {
        if self.id & Self::OWED == 0 {
            self.id.to_string()
        } else {
            format!("{}(owed)", self.rng())
        }
    }
}

/// One task: single-threaded work on one seed.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    /// The quick answer: a greedy plan spelt with plain paths (its game is
    /// [`GameId::Planned`]`(id)`).
    Quick {
        id: u32,
    },
    /// The quick answer's plan spelt greedily.
    SpellGreedy {
        game: GameId,
    },
    /// A game spelt again by the character encoder: its units from `from` on (the text of
    /// those before kept, its phrases counted as used) up to `to` (the text of those after kept
    /// too; `None`: to the end). A part of a game is polished where the whole does not fit in
    /// the time left ([`SearchOptions::tail_polish`]); a later polish goes on from there.
    Polish {
        game: GameId,
        from: usize,
        to: Option<usize>,
    },
    Attempt(Attempt),
    /// Part `part` of `parts` of the seed's every game ([`crate::plan::every`]), valued at
    /// `rate` points per row fallen, spelt by every encoder within a fixed work: its game is
    /// [`GameId::Planned`]`(id)`. A seed whose parts all end searched is finished.
    Exhaust {
        id: u32,
        rate: f64,
        part: usize,
        parts: usize,
    },
}

/// The seconds left before each horizon, in increasing order, the deadline last
/// ([`super::budget::horizons`]); `None` without a deadline. A horizon before the deadline is
/// where a shorter budget would have ended (see [`crate::solve::SolveConfig::checkpoints`]): a
/// round is planned to end before the first horizon it fits before, and a run plays, up to each
/// horizon, the rounds the shorter run plays, its tail included. So a longer budget does
/// everything a shorter one does first.
pub type Horizons<'a> = Option<&'a [f64]>;

/// What a round's attempts are (the executor and the reports need it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundKind {
    /// Whole games (or a quick answer, a greedy spelling, polishes: no attempt that re-plans).
    Fresh,
    /// Neighbourhoods of the best game.
    Cuts,
    /// Neighbourhoods cut late, in the time left at the end.
    Tail,
}

/// The tasks one seed runs at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub seed: usize,
    pub tasks: Vec<Task>,
    /// The beam width of its attempts.
    pub width: usize,
    pub kind: RoundKind,
    /// Predicted work seconds of its longest task.
    pub cost: Cost,
    /// The horizon the round is planned to end before (a shorter budget's end, or the
    /// deadline), as its seconds before the deadline (0 for the deadline itself, rounded to the
    /// microsecond so that it reads no clock); `None` without a deadline. Its tasks
    /// take that horizon as their deadline: a late beam narrows, a DP spelling hands over to
    /// the greedy encoder and the quick answer's planning stops by it, as they would in the
    /// shorter run, so that a longer run plays up to each checkpoint what the shorter one plays.
    pub horizon: Option<f64>,
    /// An owed revival's cut ([`super::SearchOptions::revive_checkpoints`]): its tasks take
    /// the cut the shorter run gave them, not one from the horizon.
    pub fixed: Option<FixedCut>,
}

/// Predicted work seconds of a task, of planning and of spelling (the machine at hand may take
/// them at different speeds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    pub plan: f64,
    pub spell: f64,
}

impl Cost {
    /// Planning and spelling together.
    pub fn total(&self) -> f64 {
        self.plan + self.spell
    }

    /// The cost of `n` units at this cost per unit.
    fn times(&self, n: f64) -> Cost {
        Cost {
            plan: self.plan * n,
            spell: self.spell * n,
        }
    }
}

/// What a task gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A game spelt (a new one, or a new spelling of the game a task re-spelt).
    Spelt(Summary),
    /// An attempt whose plans were not spelt: the best predicted score fell short.
    Screened {
        system: usize,
        units: usize,
        predicted: f64,
    },
    /// A spelling that could not finish in time.
    Unfinished,
}

/// A task's outcome and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub outcome: Outcome,
    /// Work seconds per plan made, and the number of plans.
    pub plan_work: f64,
    pub plans: usize,
    /// Work seconds of spelling.
    pub spell_work: f64,
    /// Seconds its planning and its spelling took on the clock (only to learn the machine's
    /// speed, for what fits before the deadline).
    pub plan_seconds: f64,
    pub spell_seconds: f64,
}

impl Report {
    /// The task's whole work.
    pub fn work(&self) -> f64 {
        self.plan_work * self.plans as f64 + self.spell_work
    }
}

/// What the executor must know of a seed to run its rounds.
#[derive(Clone, Debug)]
pub struct SeedSetup {
    /// The index of its problem in the run: the seeds of one problem share what a polish was
    /// measured to gain ([`Policy::report`]).
    pub problem: usize,
    /// The seed's share of the run's score: its count in its problem's seed list over the
    /// list's length.
    pub weight: f64,
    /// Units in the source.
    pub source: usize,
    /// Tasks it runs at once.
    pub lanes: usize,
    /// Whether any phrase is to be spelt.
    pub spells: bool,
    /// Scoring systems to cycle through and rank.
    pub systems: usize,
    /// Survival systems, numbered after those: the attempts plan with them while the best game
    /// ends before the source does ([`SearchOptions::survival_every`]).
    pub survival: usize,
    /// The systems of a revival's fresh games, taken in turn by attempt id
    /// ([`SearchOptions::revive_systems`]); empty: the survival systems.
    pub revive: Vec<usize>,
    /// The systems of a survival round's games, taken in turn by attempt id
    /// ([`SearchOptions::survival_round_systems`]); empty: those of [`Self::revive`].
    pub survival_round: Vec<usize>,
    /// The systems a wide round runs first among those never run, in this order, while the
    /// best game lasts the whole source ([`SearchOptions::wide_systems`]).
    pub wide_first: Vec<usize>,
    /// The widest beam memory allows.
    pub max_width: usize,
    /// The order of quick answers: the smallest first.
    pub size: f64,
    /// States of the largest unit space: whether the quick answer's greedy spelling fits
    /// ([`super::budget::greedy_fits`]).
    pub unit_states: usize,
    /// An estimate of the number of its games ([`crate::plan::every::space_estimate`]): at most
    /// [`super::options::ExhaustOptions::most_space`], they are searched to the end.
    pub space: f64,
}
/// The policy of a run: its seeds' states, the options and the preset it runs by.
#[derive(Clone, Debug)]
pub struct Policy {
    opts: SearchOptions,
    preset: Preset,
    seeds: Vec<SeedState>,
}

/// Whether a polish goes before the next round of beams: when it promises more points per work
/// second than the last round of fresh games gave, but not while the best game ends before the
/// source does. There a wider beam gains more, even after a round of fresh games that found
/// nothing better: a polish of a game that dies early takes the time of a beam wide enough to
/// play the whole source (the figures are in docs/tuning.md).
pub fn polish_goes_first(whole: bool, polish_rate: f64, widen_rate: f64) -> bool {
    whole && polish_rate > widen_rate
}

/// Where a seed's answers stand, for the order of the first rounds: `None` once it searches.
fn answering(s: &SeedState) -> Option<u8> {
    match s.phase() {
        Phase::Quick => Some(0),
        Phase::Greedy => Some(1),
        Phase::Search | Phase::Finished => None,
    }
}

/// The seed's next round if it fits in the seconds left before the first horizon, else its
/// tail round if one fits there; else the same before the next horizon, and so on (see
/// [`Horizons`]).
fn fitting(s: &mut SeedState, ctx: Ctx, left: Horizons, revivals: usize) -> Option<Fitted> {
    loop {
        let p = s.propose(ctx)?;
        if skip_exhaust(s, ctx, past(left, revivals), &p) {
            continue;
        }
        return fit(s, ctx, left, revivals, p);
    }
}

/// The horizons after the first `revivals` (those of revive checkpoints): the rules other
/// than a round of search's fit compare against them, as they would without revive
/// checkpoints.
fn past(left: Horizons, revivals: usize) -> Horizons {
    left.map(|l| &l[revivals.min(l.len().saturating_sub(1))..])
}

/// Whether `p` is an exhaustive search that does not fit before the first horizon
/// ([`super::budget::exhaust_fits`]): it is then not wanted (the seed is searched as any other;
/// a longer run must not start what the shortest run it serves refused), and the seed marked so
/// that its next proposal is another rule's.
fn skip_exhaust(s: &mut SeedState, ctx: Ctx, left: Horizons, p: &seed::Proposal) -> bool {
    let Some(lefts) = left else {
        return false;
    };
    if !p.tasks.iter().any(|t| matches!(t, Task::Exhaust { .. })) {
        return false;
    }
    let fits = super::budget::exhaust_fits(s.seconds(p.cost, ctx.o), lefts, ctx.o);
    if !fits {
        s.skip_exhaust();
    }
    !fits
}

/// A proposal that fits, the horizon its tasks take as their deadline, in seconds before
/// the deadline ([`Round::horizon`]), and its fixed cut if it is an owed revival
/// ([`Round::fixed`]).
type Fitted = (seed::Proposal, Option<f64>, Option<FixedCut>);

/// The cut of an owed revival's tasks ([`Round::fixed`]): the seconds left before the
/// shorter run's end, and the seed's timing, when the shorter run started the round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedCut {
    pub left: f64,
    pub timing: Timing,
}

/// Proposal `p` of seed `s` if it fits before a horizon (see [`fitting`]). The quick answer always
/// runs: a seed must be answered. Its greedy spelling runs where one unit's spelling fits before
/// the first horizon ([`super::budget::greedy_fits`]): else it is left out, and a round of it
/// alone does not fit. An exhaustive search that gets here fits before the first horizon
/// ([`skip_exhaust`]): it runs whole.
///
/// With the proposal, the horizon its tasks take as their deadline ([`Round::horizon`]): the
/// first for the quick answer, its greedy spelling and an exhaustive search (the shorter runs
/// play them too), the first it fits before for a round of search. Every rule compares against
/// the first horizon it serves, so that a longer run starts nothing a shorter one refused.
///
/// Before the first `revivals` horizons (revive checkpoints'), a round of search is owed
/// instead where the shorter run would play it as a revival (a last round, or a revive tail
/// where the round does not fit), and the checkpoint is settled where the round does not fit;
/// every horizon's time is counted less the seconds owed, and the owed rounds are paid, with
/// their fixed cuts, once neither a round nor a tail of the seed's own fits before a later
/// horizon (`SeedState::owe`).
fn fit(
    s: &mut SeedState,
    ctx: Ctx,
    left: Horizons,
    revivals: usize,
    mut p: seed::Proposal,
) -> Option<Fitted> {
    let Some(lefts) = left else {
        return Some((p, None, None));
    };
    let o = ctx.o;
    let before = |h: f64| Some(super::budget::before_deadline(lefts, h));
    let first = past(left, revivals)
        .and_then(|l| l.first().copied())
        .unwrap_or(0.0);
    if p.tasks.iter().any(|t| matches!(t, Task::Exhaust { .. })) {
        return Some((p, before(first), None));
    }
    if s.phase() != Phase::Search {
        let behind = s.phase() == Phase::Quick;
        if !super::budget::greedy_fits(s.setup.unit_states, first, behind, o) {
            p.tasks.retain(|t| !matches!(t, Task::SpellGreedy { .. }));
        }
        return (!p.tasks.is_empty()).then(|| (p, before(first), None));
    }
    for (k, &end) in lefts.iter().enumerate() {
        let revival = k < revivals;
        let at = super::budget::before_deadline(lefts, end);
        if revival && s.owing.settled(at) {
            continue;
        }
        // The revivals owed take their time before this horizon.
        let h = end - s.owing.seconds();
        let l = super::budget::room(h.max(0.0), o);
        let c = s.seconds(p.cost, o);
        if c <= l {
            let q = s.last_round(ctx, l, c, p.clone());
            if !(revival && q.revives()) {
                return Some((q, before(h), None));
            }
            // The shorter run's last round, owed; this one goes on as a round of its own.
            s.owe(q, h, o);
            s.owing.settle(at);
            continue;
        }
        if revival {
            // Of the shorter run's tails, only a revival is owed.
            if let Some(t) = s.tail(ctx, l).filter(|t| t.revives()) {
                s.owe(t, h, o);
            }
            s.owing.settle(at);
            continue;
        }
        // The systems never run on the seed, at the width reached, before the tails.
        if let Some(u) = s.untried_round(ctx).filter(|u| s.seconds(u.cost, o) <= l) {
            return Some((u, before(h), None));
        }
        if let Some(t) = s.tail(ctx, l) {
            return Some((t, before(h), None));
        }
        // Nothing of its own fits: the revivals owed to shorter runs.
        if let Some(owed) = s.owed() {
            return Some((owed.proposal, before(end), Some(owed.cut)));
        }
    }
    None
}

/// The attempts among `tasks`, in their order (for the tests of rounds).
#[cfg(test)]
pub(crate) fn attempts_of(tasks: &[Task]) -> Vec<Attempt> {
    tasks
        .iter()
        .filter_map(|t| match t {
            Task::Attempt(a) => Some(a.clone()),
            _ => None,
        })
        .collect()
}

impl Policy {
    pub fn new(opts: SearchOptions, preset: Preset, seeds: Vec<SeedSetup>) -> Policy {
        Policy {
            opts,
            preset,
            seeds: seeds.into_iter().map(SeedState::new).collect(),
        }
    }

    /// A game the seed starts from (a stored solution), before its first round.
    pub fn start_from(&mut self, seed: usize, game: Summary) {
        self.seeds[seed].start_from(game);
    }

    /// Seeds without their quick answer yet.
    pub fn unanswered(&self) -> usize {
        self.seeds
            .iter()
            .filter(|s| s.phase() == Phase::Quick)
            .count()
    }

    /// Whether every seed is finished.
    pub fn finished(&self) -> bool {
        self.seeds.iter().all(|s| s.phase() == Phase::Finished)
    }

    /// The seed's best score so far.
    pub fn best(&self, seed: usize) -> u64 {
        self.seeds[seed].games.best
    }

    /// The ids of the games the seed keeps (the executor may drop the others).
    pub fn kept(&self, seed: usize) -> Vec<GameId> {
        self.seeds[seed].games.kept.iter().map(|g| g.id).collect()
    }

    /// Games the seed planned.
    pub fn planned(&self, seed: usize) -> u32 {
        self.seeds[seed].games.planned
    }

    /// The seed's timing for its cuts: the leads in work seconds, and the slower of the host's
    /// two learnt speeds (planning, spelling), which the executor turns seconds into work with.
    pub fn timing(&self, seed: usize) -> Timing {
        self.seeds[seed].timing(&self.opts)
    }

    /// [`Policy::next_with`] without revive checkpoints (for the tests).
    #[cfg(test)]
    pub fn next(&mut self, idle: &dyn Fn(usize) -> bool, left: Horizons) -> Option<Round> {
        self.next_with(idle, left, 0)
    }

    /// The next round for one of the idle seeds (`idle(seed)`), or `None` when none of them has
    /// a round that fits before one of the horizons `left` (no deadline: `None`). Seeds without
    /// a quick answer come first, the smallest first, then their greedy spellings (each where it
    /// still fits; one that does not is not wanted); then the seed whose next round promises the
    /// most points per work second. A seed with nothing that fits is finished.
    ///
    /// The first `revivals` horizons are revive checkpoints'
    /// ([`super::SearchOptions::revive_checkpoints`]): before each, a round of search that fits
    /// is planned to end there as before any horizon; the shorter run's revival there is owed
    /// and paid once nothing of the seed's own fits before a later horizon (see [`fit`]), and
    /// its other tails are not played. The quick answer, its greedy spelling and an exhaustive
    /// search compare against the first horizon after them.
    pub fn next_with(
        &mut self,
        idle: &dyn Fn(usize) -> bool,
        left: Horizons,
        revivals: usize,
    ) -> Option<Round> {
        let Policy {
            opts,
            preset,
            seeds,
        } = self;
        let ctx = Ctx { o: opts, preset };
        let (i, proposal) = loop {
            // Quick answers first, then their greedy spellings: the smallest problems first (the
            // most answers soonest), seeds that start from a stored game last.
            let first = (0..seeds.len())
                .filter(|&i| idle(i) && seeds[i].ready())
                .filter_map(|i| answering(&seeds[i]).map(|st| (i, st)))
                .min_by(|&(a, sa), &(b, sb)| {
                    let key = |i: usize| (seeds[i].games.stored(), seeds[i].setup.size);
                    let (ka, kb) = (key(a), key(b));
                    sa.cmp(&sb)
                        .then(ka.0.cmp(&kb.0))
                        .then(ka.1.total_cmp(&kb.1))
                        .then(a.cmp(&b))
                })
                .map(|(i, _)| i);
            if let Some(i) = first {
                let p = seeds[i].propose(ctx)?;
                if skip_exhaust(&mut seeds[i], ctx, past(left, revivals), &p) {
                    continue;
                }
                match fit(&mut seeds[i], ctx, left, revivals, p) {
                    Some(p) => break (i, p),
                    None => {
                        // Its greedy spelling no longer fits before the deadline: not wanted.
                        seeds[i].skip_greedy();
                        continue;
                    }
                }
            }
            let mut best: Option<(f64, f64, usize, Fitted)> = None;
            let siblings = share::whole_sibling_scores(seeds);
            for (i, s) in seeds.iter_mut().enumerate() {
                if !idle(i) || !s.ready() {
                    continue;
                }
                let Some(p) = fitting(s, ctx, left, revivals) else {
                    s.finish();
                    continue;
                };
                let promise = share::promise(ctx, s, &p.0, siblings[i]);
                let rate = s.expected_rate(opts).max(promise);
                let priority = s.setup.weight * rate;
                let spent = s.rate.spent;
                // A round for an earlier horizon (more seconds before the deadline) comes
                // first, whatever its priority: a shorter run, whose deadline that horizon is,
                // plays it, and a longer run must play what the shorter one does first.
                let before = p.1.unwrap_or(0.0);
                let better = best.as_ref().is_none_or(|(top, least, _, (_, theirs, _))| {
                    let theirs = theirs.unwrap_or(0.0);
                    before > theirs
                        || (before == theirs
                            && (priority > *top || (priority == *top && spent < *least)))
                });
                if better {
                    best = Some((priority, spent, i, p));
                }
            }
            let (_, _, i, p) = best?;
            break (i, p);
        };
        let (proposal, horizon, fixed) = proposal;
        let round = proposal.for_seed(i, horizon, fixed);
        seeds[i].start(&round);
        Some(round)
    }

    /// Takes the reports of a round `next` gave, in the order of its tasks.
    pub fn report(&mut self, round: &Round, reports: &[Report]) {
        let Policy { opts, seeds, .. } = self;
        seeds[round.seed].report(opts, round, reports);
        share::learn_from_siblings(seeds, round.seed);
    }
}

#[cfg(test)]
mod tests;
