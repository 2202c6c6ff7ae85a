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
//!
//! # A seed's rounds
//!
//! A round is one task per lane (the lanes a seed may use at once: all the workers for a run of
//! one seed, one each when seeds are many).
//! - **Quick answer**: a greedy plan spelt with plain paths, then the same plan spelt greedily.
//!   Every seed of the run gets its quick answer before any seed gets more.
//! - **Fresh beams**: attempts of growing width ([`SearchOptions::growth`] times the last), with
//!   a system and random seed of their own. Narrow beams cycle through the systems; wide or dear
//!   ones go to the systems whose whole games scored best ([`rank_systems`]). A beam widens when
//!   the last round of fresh games found a better game, when the best game ends before the
//!   source does (wider beams survive longer), or, for a cheap beam, after
//!   [`SearchOptions::patience`] rounds at its width ([`widens`]). Cheap and dear are measured
//!   against the work already spent on the seed ([`SearchOptions::dear_share`]). While the best
//!   game ends before the source does, every other attempt plans with the survival systems
//!   ([`SearchOptions::survival_systems`], numbered after the others, which they never join in
//!   the cycle or the ranking).
//! - **Screen**: a plan's score is predicted before it is spelt (its move score is exact, its
//!   power follows its descents at the rate of the best game spelt), so where spelling costs
//!   more than planning an attempt makes several plans and spells the best predicted, and none
//!   when even that one falls clearly short of the best game.
//! - **Neighbourhoods**: once the beams grow no wider, every other round re-plans the best game
//!   from a cut (the units before it kept with their text).
//! - **Polish**: the character encoder spells a game better than the DP encoder but costs tens
//!   of times more; the best games not yet polished are polished once the beams grow no wider,
//!   or earlier when a polish promises more points per work second than the last widening gave
//!   ([`polish_goes_first`]).
//!
//! # Across seeds
//!
//! Once every seed has its quick answer, the next round goes to the idle seed whose next round
//! promises the most points per work second, weighted by the seed's share of its problem's
//! score: its expected rate is the gain per work second of its recent rounds (decayed sums,
//! started from a prior at the quick answer's rate), never less than a floor share of its
//! average rate so far, so that seeds whose recent rounds found nothing still get time, the
//! least worked first.

use super::options::SearchOptions;
use crate::encode::Mode;

/// A game of one seed: the attempt index that planned it (0 for the quick answer), or
/// [`STORED`].
pub type GameId = u32;

/// The id of a game a seed starts from (a stored solution).
pub const STORED: GameId = u32::MAX;

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
    /// The id of its game, and its random seed.
    pub id: GameId,
    pub system: usize,
    pub width: usize,
    /// The encoder that spells it.
    pub mode: Mode,
    /// The game re-planned and the cut: the units before it are kept with their text.
    pub base: Option<(GameId, usize)>,
    pub screen: Screen,
    /// Plan with the character-level phrase valuer (see [`crate::encode::forward`]).
    pub chars_valuer: bool,
}

/// One task: single-threaded work on one seed.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    /// The quick answer: a greedy plan spelt with plain paths.
    Quick {
        id: GameId,
    },
    /// The quick answer's plan spelt greedily.
    SpellGreedy {
        game: GameId,
    },
    /// A game spelt again by the character encoder.
    Polish {
        game: GameId,
    },
    Attempt(Attempt),
}

/// The seconds left before each horizon, in increasing order, the deadline last; `None` without
/// a deadline. A horizon before the deadline is where a shorter budget would have ended (see
/// [`crate::solve::SolveConfig::checkpoints`]): a round is planned to end before the first
/// horizon it fits before, and a run plays, up to each horizon, the rounds the shorter run
/// plays, its tail included. So a longer budget does everything a shorter one does first.
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
    /// Survival systems, numbered after those: every other attempt plans with them while the
    /// best game ends before the source does.
    pub survival: usize,
    /// The widest beam memory allows.
    pub max_width: usize,
    /// The order of quick answers: the smallest first.
    pub size: f64,
    /// With a budget of attempts: the games it plans at most (its quick answer included).
    pub attempts: Option<u32>,
}

/// Times the executor needs for a seed's deadlines, in seconds of the machine at hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// A late beam narrows this long before the deadline, to finish greedily and be spelt.
    pub narrow_lead: f64,
    /// The greedy encoder's seconds per unit: a late DP encoding hands over to it.
    pub greedy_unit: f64,
}

/// The cost model of a seed, in work seconds, updated as tasks report.
#[derive(Clone, Debug)]
struct Costs {
    /// Planning work per unit of beam width per unit placed, as measured at `per_unit_width`.
    per_unit: f64,
    /// The widest beam of a whole game measured: narrower ones no longer count, because their
    /// fixed costs weigh on their work per unit of width.
    per_unit_width: usize,
    /// The most units a game lasted.
    units: f64,
    /// Plain paths' work on the quick answer.
    plain: f64,
    /// The greedy encoder's work on the quick answer's plan, once measured.
    greedy: Option<f64>,
    /// The DP encoder's work on a whole game (the most measured; a prior until `dp_measured`).
    encode: f64,
    dp_measured: bool,
    /// The character encoder's work as a multiple of the DP encoder's.
    chars_factor: f64,
    chars_measured: bool,
    /// What polishing adds, as a factor of the DP encoder's score.
    polish_gain: f64,
}

impl Costs {
    /// Learns the planning work per unit placed, `work`, of a plan of width `width` (a whole
    /// game's when `fresh`): a whole game wider than any measured before replaces the estimate;
    /// other plans as wide as the widest measured can only raise it; narrower ones are ignored.
    fn learn_plan(&mut self, width: usize, fresh: bool, work: f64) {
        let measured = work / width.max(1) as f64;
        if fresh && width > self.per_unit_width {
            self.per_unit = measured;
            self.per_unit_width = width;
        } else if width >= self.per_unit_width {
            self.per_unit = self.per_unit.max(measured);
        }
    }

    /// Learns the DP encoder's work on a whole game: the first measure replaces the prior,
    /// later ones can only raise it.
    fn learn_dp(&mut self, work: f64) {
        self.encode = if self.dp_measured {
            self.encode.max(work)
        } else {
            work
        };
        self.dp_measured = true;
    }

    /// Learns the character encoder's factor from a whole game's spelling that took `work`:
    /// the first measure replaces the guess, later ones can only raise it.
    fn learn_chars(&mut self, work: f64) {
        let factor = (work / self.encode.max(1e-9)).min(1e4);
        self.chars_factor = if self.chars_measured {
            self.chars_factor.max(factor)
        } else {
            factor
        };
        self.chars_measured = true;
    }
}

/// Seconds per work second of one kind of work on the machine at hand, learnt from decayed sums.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    seconds: f64,
    work: f64,
}

impl Clock {
    fn learn(&mut self, seconds: f64, work: f64) {
        if work > 1e-4 {
            self.seconds = self.seconds * 0.8 + seconds;
            self.work = self.work * 0.8 + work;
        }
    }

    /// 1 before any measure (the weights are this project's machine's).
    fn speed(&self) -> f64 {
        if self.work > 1e-3 {
            (self.seconds / self.work).clamp(0.05, 20.0)
        } else {
            1.0
        }
    }
}

/// The bookkeeping of a round in flight.
#[derive(Clone, Debug)]
struct InFlight {
    best_before: u64,
    stuck: bool,
}

/// One seed's state.
#[derive(Clone, Debug)]
struct SeedState {
    setup: SeedSetup,
    /// The games kept, best first (ties: the lower id first).
    games: Vec<Summary>,
    best: u64,
    answered: bool,
    /// Whether the quick answer's greedy spelling is done (or not wanted).
    spelt_quick: bool,
    /// Games a polish was tried on.
    polished: Vec<GameId>,
    /// Per system: the widest beam it ran and the best score of its whole games.
    record: Vec<(usize, u64)>,
    costs: Option<Costs>,
    /// Games planned so far: the next attempt's id.
    planned: u32,
    width: usize,
    /// Rounds run at `width` since the beams reached it.
    at_width: u32,
    /// Rounds run since the beams grew no wider.
    stuck_rounds: u32,
    /// Points per work second the last round of fresh games, as wide as ever, added.
    widen_rate: f64,
    /// Work seconds spent on the seed.
    spent: f64,
    /// Decayed sums of the gains and the work of its rounds: its expected rate.
    gain: f64,
    work: f64,
    /// Seconds per work second of planning and of spelling (decayed sums of both).
    plan_clock: Clock,
    spell_clock: Clock,
    flight: Option<InFlight>,
    /// Nothing more to do (the seed proposes no round, or none fits before the deadline).
    finished: bool,
}

/// The policy of a run: its seeds' states and options.
#[derive(Clone, Debug)]
pub struct Policy {
    opts: SearchOptions,
    seeds: Vec<SeedState>,
}

/// Whether a polish goes before the next round of beams: when it promises more points per work
/// second than the last round of fresh games gave, but not while the best game ends before the
/// source does. There a wider beam gains more, even after a round of fresh games that found
/// nothing better (problem 18: an 8 s polish of a game that died at unit 191 took the time of
/// the width-64 beam that plays 996 units).
pub fn polish_goes_first(whole: bool, polish_rate: f64, widen_rate: f64) -> bool {
    whole && polish_rate > widen_rate
}

/// Whether the next round's beams are wider than the last's: when the last round of fresh games
/// found a better game (`widen_rate` above 0), when the best game ends before the source does
/// (not `whole`), or when the wider round is `cheap` and `patience` rounds ran at the width
/// reached (`at_width`).
pub fn widens(widen_rate: f64, whole: bool, cheap: bool, at_width: u32, patience: u32) -> bool {
    widen_rate > 0.0 || !whole || (cheap && at_width >= patience)
}

/// The systems in the order dear and wide rounds run them, from each system's record (the
/// widest beam it ran, the best score of its whole games). Systems no beam has tried yet come
/// first: a record is only known once tried. The quick answer's system (run at width 1 only)
/// comes after the ones never run: its greedy game says little of its beams (problem 24: its
/// first round ran the quick answer's system, whose beams score 20 % below the best system's).
/// Then the best first.
pub fn rank_systems(record: &[(usize, u64)]) -> Vec<usize> {
    let mut rank: Vec<usize> = (0..record.len()).collect();
    rank.sort_by_key(|&s| {
        let (width, score) = record[s];
        (width > 1, width > 0, std::cmp::Reverse(score))
    });
    rank
}

/// A cut among a game's `span` last units (of `units`), drawn from the attempt's id: the same
/// id gives the same cut.
fn cut_of(id: GameId, units: usize, span: usize) -> usize {
    if span == 0 {
        return 0;
    }
    let r = ((id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) % span as u64;
    units - span + r as usize
}

impl SeedState {
    fn new(setup: SeedSetup) -> SeedState {
        SeedState {
            record: vec![(0, 0); setup.systems + setup.survival],
            setup,
            games: Vec::new(),
            best: 0,
            answered: false,
            spelt_quick: false,
            polished: Vec::new(),
            costs: None,
            planned: 0,
            width: 1,
            at_width: 0,
            stuck_rounds: 0,
            widen_rate: f64::INFINITY,
            spent: 0.0,
            gain: 0.0,
            work: 0.0,
            plan_clock: Clock::default(),
            spell_clock: Clock::default(),
            flight: None,
            finished: false,
        }
    }

    /// Seconds a task of cost `c` is expected to take on this machine.
    fn seconds(&self, c: Cost) -> f64 {
        c.plan * self.plan_clock.speed() + c.spell * self.spell_clock.speed()
    }

    /// Games the attempts budget still allows (unbounded on a clock).
    fn attempts_left(&self) -> u32 {
        self.setup
            .attempts
            .map_or(u32::MAX, |n| n.saturating_sub(self.planned))
    }

    fn whole(&self) -> bool {
        self.games
            .first()
            .is_some_and(|g| g.units >= self.setup.source)
    }

    /// What one plan of width `w` costs.
    fn plan_cost(&self, c: &Costs, w: usize, o: &SearchOptions) -> f64 {
        let source = self.setup.source.max(1) as f64;
        let expect = (c.units * o.survival).min(source);
        c.per_unit * w as f64 * expect * o.plan_margin
    }

    /// How many plans an attempt of width `w` makes for the one it spells: as many as fit in
    /// the work of a spelling ([`SearchOptions::max_tries`] at most), one without a `rate`.
    fn tries(&self, c: &Costs, w: usize, rate: f64, o: &SearchOptions) -> usize {
        if rate <= 0.0 {
            return 1;
        }
        let plan = self.plan_cost(c, w, o);
        ((c.encode / plan.max(1e-12)).floor() as usize).clamp(1, o.max_tries)
    }

    /// Whether an attempt of width `w` making `tries` plans is spelt by the character encoder:
    /// once its work is measured, where a whole game's spelling by it costs no more than the
    /// attempt's plans (a small board). Its games then need no polish.
    fn spell_chars(&self, c: &Costs, w: usize, tries: usize, o: &SearchOptions) -> bool {
        self.setup.spells
            && c.chars_measured
            && c.encode * c.chars_factor <= self.plan_cost(c, w, o) * tries as f64
    }

    fn spell_cost(&self, c: &Costs, w: usize, tries: usize, o: &SearchOptions) -> f64 {
        if self.spell_chars(c, w, tries, o) {
            c.encode * c.chars_factor
        } else {
            c.encode
        }
    }

    /// What an attempt of width `w` costs: its plans and its spelling.
    fn cost(&self, c: &Costs, w: usize, rate: f64, o: &SearchOptions) -> Cost {
        let tries = self.tries(c, w, rate, o);
        Cost {
            plan: self.plan_cost(c, w, o) * tries as f64,
            spell: self.spell_cost(c, w, tries, o),
        }
    }

    /// Power per descent of the best game the DP or the character encoder spelt (0 when none
    /// has, or it earned nothing): what the screen predicts plans with.
    fn rate(&self) -> f64 {
        if !self.setup.spells {
            return 0.0;
        }
        self.games
            .iter()
            .find(|g| matches!(g.spelling, Mode::Dp | Mode::Chars))
            .map_or(0.0, |g| {
                if g.descents == 0 {
                    0.0
                } else {
                    g.power as f64 / g.descents as f64
                }
            })
    }

    /// A polish's expected work on `g`.
    fn polish_cost(&self, c: &Costs, g: &Summary) -> f64 {
        g.spell_work.max(c.encode / 4.0) * c.chars_factor
    }

    /// Games worth polishing: spelt by the DP encoder, not tried yet, that could become the
    /// best at the gain polishing has shown.
    fn polish_candidates<'s>(&'s self, c: &'s Costs) -> impl Iterator<Item = &'s Summary> + 's {
        self.games.iter().filter(move |g| {
            g.spelling == Mode::Dp
                && g.units > 0
                && !self.polished.contains(&g.id)
                && g.score as f64 * c.polish_gain >= self.best as f64
        })
    }

    /// Points per work second the first polish candidate promises.
    fn polish_rate(&self, c: &Costs) -> f64 {
        self.polish_candidates(c).next().map_or(0.0, |g| {
            let gain = g.score as f64 * c.polish_gain - self.best as f64;
            gain.max(0.0) / self.polish_cost(c, g).max(1e-9)
        })
    }

    /// The seed's expected points per work second for its next round.
    fn expected_rate(&self, o: &SearchOptions) -> f64 {
        let recent = if self.work > 0.0 {
            self.gain / self.work
        } else {
            0.0
        };
        let floor = o.rate_floor * self.best as f64 / self.spent.max(1e-9);
        recent.max(floor)
    }

    /// The next round as the seed's history says, whatever the deadline.
    fn propose(&self, o: &SearchOptions) -> Option<Round> {
        if self.finished {
            return None;
        }
        let lanes = self.setup.lanes.max(1);
        if !self.answered {
            return Some(self.first_round(lanes));
        }
        let c = self.costs.as_ref()?;
        if !self.spelt_quick {
            return Some(Round {
                seed: 0,
                tasks: vec![Task::SpellGreedy { game: 0 }],
                width: self.width,
                kind: RoundKind::Fresh,
                cost: Cost {
                    plan: 0.0,
                    spell: c.plain * o.first_spell_factor,
                },
            });
        }
        // With the attempts used up, the best games are still polished (as when the beams
        // grow no wider), and then the seed is done.
        // Only the games the run planned: a run by attempts gives the same answers whatever the
        // store held.
        let spent_all = self.attempts_left() == 0;
        if spent_all
            && self
                .games
                .iter()
                .filter(|g| g.id != STORED)
                .max_by_key(|g| g.score)
                .is_none_or(|g| self.polished.contains(&g.id))
        {
            return None;
        }
        let rate = self.rate();
        let whole = self.whole();
        let wider = (self.width * o.growth).min(self.width_cap(o));
        let cheap = self.cost(c, wider, rate, o).total() <= o.dear_share * self.spent;
        // A run by attempts widens at every round, as it did before the policy.
        let next = if self.setup.attempts.is_some()
            || widens(self.widen_rate, whole, cheap, self.at_width, o.patience)
        {
            wider
        } else {
            self.width
        };
        let stuck = spent_all || next <= self.width;
        if self.setup.spells
            && (stuck
                // A run by attempts polishes at the end only, as it did before the policy.
                || (self.setup.attempts.is_none()
                    && polish_goes_first(whole, self.polish_rate(c), self.widen_rate)))
        {
            // A run by attempts has no clock to stop a polish that takes minutes.
            let limit = match self.setup.attempts {
                Some(_) => o.attempts_polish_seconds,
                None => f64::INFINITY,
            };
            let picks: Vec<&Summary> = self
                .polish_candidates(c)
                .filter(|g| !(spent_all && g.id == STORED))
                .filter(|g| self.polish_cost(c, g) <= limit)
                .take(lanes)
                .collect();
            if !picks.is_empty() {
                return Some(Round {
                    seed: 0,
                    tasks: picks.iter().map(|g| Task::Polish { game: g.id }).collect(),
                    width: self.width,
                    kind: RoundKind::Fresh,
                    cost: Cost {
                        plan: 0.0,
                        spell: picks
                            .iter()
                            .map(|g| self.polish_cost(c, g))
                            .fold(0.0, f64::max),
                    },
                });
            }
        }
        if spent_all {
            return None;
        }
        let renew = stuck && (self.stuck_rounds + 1).is_multiple_of(2);
        let n = lanes.min(self.attempts_left() as usize);
        Some(self.round_of(o, next, n, renew.then_some(None)))
    }

    /// The widest beam the seed may use.
    fn width_cap(&self, o: &SearchOptions) -> usize {
        let cap = self.setup.max_width.min(o.max_width).max(1);
        match self.setup.attempts {
            Some(_) => cap.min(o.attempts_max_width),
            None => cap,
        }
    }

    /// The first round: the quick answer. With one lane, alone (its greedy spelling is the next
    /// round, after every other seed's quick answer). With more, its greedy spelling follows it
    /// on its lane (a task that needs a game of its round waits for it), and the other lanes
    /// plan greedy games of the next systems spelt by the DP encoder: the first games worth
    /// having, in about the time of the quick answer, before the beams widen.
    fn first_round(&self, lanes: usize) -> Round {
        let mut tasks = vec![Task::Quick { id: 0 }];
        if lanes > 1 && self.setup.spells {
            tasks.push(Task::SpellGreedy { game: 0 });
        }
        let n = (lanes - 1).min(self.attempts_left().saturating_sub(1) as usize);
        tasks.extend((1..=n as u32).map(|id| {
            Task::Attempt(Attempt {
                id,
                system: id as usize % self.setup.systems,
                width: 1,
                mode: if self.setup.spells {
                    Mode::Dp
                } else {
                    Mode::Plain
                },
                base: None,
                screen: Screen::NONE,
                chars_valuer: false,
            })
        }));
        Round {
            seed: 0,
            tasks,
            width: 1,
            kind: RoundKind::Fresh,
            cost: Cost::default(),
        }
    }

    /// A round of `n` attempts of width `w`: fresh games, or neighbourhoods of the best game
    /// when `cuts` is given (`Some(None)`: cuts anywhere; `Some(Some(span))`: among its last
    /// `span` units, a tail round).
    fn round_of(
        &self,
        o: &SearchOptions,
        w: usize,
        n: usize,
        cuts: Option<Option<usize>>,
    ) -> Round {
        let c = self
            .costs
            .as_ref()
            .expect("rounds come after the quick answer");
        let rate = self.rate();
        let tries = self.tries(c, w, rate, o);
        let base = cuts.map(|_| &self.games[0]);
        let dear = self.cost(c, w, rate, o).total() > o.dear_share * self.spent;
        let rank = rank_systems(&self.record[..self.setup.systems]);
        // A plan predicted to score clearly less than the best game is not spelt, where
        // spelling costs at least as much as planning (elsewhere skipping it saves little, and
        // on a small board, where the phrases' first uses make much of the power, the
        // prediction is too rough to trust).
        let screen = Screen {
            tries,
            rate,
            least: if rate > 0.0 && self.spell_cost(c, w, tries, o) >= self.plan_cost(c, w, o) {
                self.best as f64 * (1.0 - o.screen_margin)
            } else {
                0.0
            },
        };
        // A neighbourhood of a game the character encoder spelt is spelt by it too: spelt by
        // the DP encoder, its units after the cut could not compete with the text kept.
        let chars = base.is_some_and(|b| b.spelling == Mode::Chars) && c.chars_measured
            || self.spell_chars(c, w, tries, o);
        let mode = match (self.setup.spells, chars) {
            (false, _) => Mode::Plain,
            (true, true) => Mode::Chars,
            (true, false) => Mode::Dp,
        };
        let tasks = (0..n)
            .map(|j| {
                let id = self.planned + j as u32;
                // Wide beams, and dear narrow ones (every other one with a single lane), go to
                // the best systems: problem 24 fits few rounds of whole games, and a cycle gave
                // its best system (13 % above the others) one game of four.
                let ranked = w >= o.wide || (dear && (n > 1 || id.is_multiple_of(2)));
                // While the best game dies early, every other attempt goes to the systems made
                // to keep games alive (problem 18: the other systems' width-16 beams play 20 to
                // 49 % of its source).
                let survive = self.setup.survival > 0 && !self.whole() && id.is_multiple_of(2);
                let system = if survive {
                    self.setup.systems + (id as usize / 2) % self.setup.survival
                } else if ranked {
                    rank[j % rank.len()]
                } else {
                    id as usize % self.setup.systems
                };
                let base = base.map(|b| {
                    let span = cuts.flatten().unwrap_or(b.units).min(b.units);
                    (b.id, cut_of(id, b.units, span))
                });
                Task::Attempt(Attempt {
                    id,
                    system,
                    width: w,
                    mode,
                    base,
                    screen,
                    chars_valuer: self.whole(),
                })
            })
            .collect();
        Round {
            seed: 0,
            tasks,
            width: w,
            kind: match cuts {
                None => RoundKind::Fresh,
                Some(None) => RoundKind::Cuts,
                Some(Some(_)) => RoundKind::Tail,
            },
            cost: self.cost(c, w, rate, o),
        }
    }

    /// A round for the `left` seconds when the seed's next round does not fit: the widest beam,
    /// up to the current width, that can plan and spell the last units of the best game in that
    /// time, and how many of its last units (at least [`SearchOptions::tail_min_share`] of
    /// them, and one); `None` when none fits.
    fn tail(&self, o: &SearchOptions, left: f64) -> Option<Round> {
        let c = self.costs.as_ref()?;
        let units = self.games.first()?.units;
        let n = self.setup.lanes.max(1).min(self.attempts_left() as usize);
        if units == 0 || n == 0 {
            return None;
        }
        let rate = self.rate();
        let least = ((units as f64 * o.tail_min_share).ceil() as usize).max(1);
        let mut w = self.width.max(1);
        loop {
            let tries = self.tries(c, w, rate, o);
            let per_unit = Cost {
                plan: c.per_unit * w as f64 * o.plan_margin * tries as f64,
                spell: self.spell_cost(c, w, tries, o) / units as f64,
            };
            let fit = (left / self.seconds(per_unit).max(1e-12))
                .floor()
                .min(units as f64);
            if fit as usize >= least {
                let mut round = self.round_of(o, w, n, Some(Some(fit as usize)));
                round.cost = per_unit.times(fit);
                return Some(round);
            }
            if w == 1 {
                return None;
            }
            w /= 2;
        }
    }

    /// Takes a round's reports, in the order of its tasks.
    fn report(&mut self, o: &SearchOptions, round: &Round, reports: &[Report]) {
        let flight = self.flight.take().expect("a round in flight");
        let mut work = 0.0;
        let mut attempts = 0;
        for (task, r) in round.tasks.iter().zip(reports) {
            work += r.work();
            self.plan_clock
                .learn(r.plan_seconds, r.plan_work * r.plans as f64);
            self.spell_clock.learn(r.spell_seconds, r.spell_work);
            match task {
                Task::Quick { .. } => self.took_quick(o, r),
                Task::SpellGreedy { game } => self.took_greedy(o, *game, r),
                Task::Polish { game } => self.took_polish(*game, r),
                Task::Attempt(a) => {
                    attempts += 1;
                    self.took_attempt(round, a, r);
                }
            }
        }
        self.best = self.games.iter().map(|g| g.score).max().unwrap_or(0);
        self.games
            .sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
        self.games.truncate(o.keep_games.max(1));
        if attempts > 0 {
            // A round of fresh games at least as wide as the last (not a tail's) tells whether
            // wider beams still pay.
            let tail = round.kind == RoundKind::Tail;
            let widened = round.kind == RoundKind::Fresh && round.width >= self.width;
            if !tail {
                if round.width != self.width {
                    self.at_width = 0;
                }
                self.width = round.width;
                self.at_width += 1;
                self.stuck_rounds += flight.stuck as u32;
            }
            if widened {
                let gain = self.best.saturating_sub(flight.best_before) as f64;
                self.widen_rate = gain / work.max(1e-9);
            }
        }
        let gain = self.best.saturating_sub(flight.best_before) as f64;
        self.spent += work;
        self.gain = self.gain * o.rate_decay + gain;
        self.work = self.work * o.rate_decay + work;
    }

    fn took_quick(&mut self, o: &SearchOptions, r: &Report) {
        self.answered = true;
        // With a game over at once (no unit can spawn), nothing can score more.
        self.finished = matches!(&r.outcome, Outcome::Spelt(g) if g.units == 0);
        self.planned = self.planned.max(1);
        let Outcome::Spelt(g) = &r.outcome else {
            return;
        };
        self.record[g.system] = (1, g.score);
        let units = g.units.max(1) as f64;
        self.costs = Some(Costs {
            per_unit: r.plan_work / units,
            per_unit_width: 1,
            units,
            plain: r.spell_work,
            greedy: None,
            // Without phrases every spelling is plain paths, as the quick answer's was.
            encode: if self.setup.spells {
                r.spell_work * o.first_spell_factor * o.first_dp_factor
            } else {
                r.spell_work
            },
            dp_measured: !self.setup.spells,
            chars_factor: o.first_chars_factor,
            chars_measured: false,
            polish_gain: o.first_polish_gain,
        });
        self.spelt_quick = !self.setup.spells;
        self.games.push(g.clone());
        // The first rounds are expected to gain as the quick answer did.
        let best = self.games.iter().map(|g| g.score).max().unwrap_or(0);
        self.gain = o.rate_prior * best as f64;
        self.work = r.work().max(1e-6);
    }

    fn took_greedy(&mut self, o: &SearchOptions, game: GameId, r: &Report) {
        self.spelt_quick = true;
        let c = self.costs.as_mut().expect("after the quick answer");
        if let Outcome::Spelt(s) = &r.outcome {
            c.greedy = Some(r.spell_work);
            if !c.dp_measured {
                c.encode = r.spell_work * o.first_dp_factor;
            }
            if let Some(g) = self.games.iter_mut().find(|g| g.id == game) {
                if s.score > g.score {
                    *g = s.clone();
                }
            }
        }
    }

    fn took_polish(&mut self, game: GameId, r: &Report) {
        self.polished.push(game);
        let c = self.costs.as_mut().expect("after the quick answer");
        let Some(g) = self.games.iter_mut().find(|g| g.id == game) else {
            return;
        };
        match &r.outcome {
            Outcome::Spelt(s) => {
                c.learn_chars(r.spell_work / g.spell_work.max(1e-9) * c.encode);
                if g.score > 0 {
                    c.polish_gain = (s.score as f64 / g.score as f64).clamp(1.0, 1.5);
                }
                if s.score > g.score {
                    *g = s.clone();
                }
            }
            // Out of time: the estimate was too low.
            _ => c.chars_factor *= 2.0,
        }
    }

    fn took_attempt(&mut self, round: &Round, a: &Attempt, r: &Report) {
        self.planned = self.planned.max(a.id + 1);
        let fresh = a.base.is_none();
        let (system, units, score) = match &r.outcome {
            Outcome::Spelt(g) => (g.system, g.units, g.score),
            Outcome::Screened {
                system,
                units,
                predicted,
            } => (*system, *units, *predicted as u64),
            Outcome::Unfinished => return,
        };
        // A neighbourhood's score is mostly its opening's: only whole games count.
        if fresh {
            let rec = &mut self.record[system];
            *rec = (rec.0.max(round.width), rec.1.max(score));
        }
        let c = self.costs.as_mut().expect("after the quick answer");
        c.learn_plan(round.width, fresh, r.plan_work / units.max(1) as f64);
        c.units = c.units.max(units as f64);
        let Outcome::Spelt(g) = &r.outcome else {
            return;
        };
        if g.spelling == Mode::Chars {
            // Spelt by the character encoder: its work, per unit spelt, against the DP
            // encoder's whole game.
            let spelt = units.saturating_sub(g.kept).max(1) as f64 / units.max(1) as f64;
            c.learn_chars(r.spell_work / spelt);
        } else if g.kept == 0 && g.spelling == Mode::Dp {
            c.learn_dp(r.spell_work);
        }
        self.games.push(g.clone());
    }
}

impl Policy {
    pub fn new(opts: SearchOptions, seeds: Vec<SeedSetup>) -> Policy {
        Policy {
            opts,
            seeds: seeds.into_iter().map(SeedState::new).collect(),
        }
    }

    pub fn options(&self) -> &SearchOptions {
        &self.opts
    }

    /// A game the seed starts from (a stored solution), before its first round.
    pub fn start_from(&mut self, seed: usize, game: Summary) {
        let s = &mut self.seeds[seed];
        s.best = s.best.max(game.score);
        s.games.push(game);
    }

    /// Seeds without their quick answer yet.
    pub fn unanswered(&self) -> usize {
        self.seeds.iter().filter(|s| !s.answered).count()
    }

    /// Whether every seed is finished.
    pub fn finished(&self) -> bool {
        self.seeds.iter().all(|s| s.finished)
    }

    /// The seed's best score so far.
    pub fn best(&self, seed: usize) -> u64 {
        self.seeds[seed].best
    }

    /// The ids of the games the seed keeps (the executor may drop the others).
    pub fn kept(&self, seed: usize) -> Vec<GameId> {
        self.seeds[seed].games.iter().map(|g| g.id).collect()
    }

    /// Games the seed planned.
    pub fn planned(&self, seed: usize) -> u32 {
        self.seeds[seed].planned
    }

    /// The seed's timing for its deadlines.
    pub fn timing(&self, seed: usize) -> Timing {
        let s = &self.seeds[seed];
        let o = &self.opts;
        let (plan, spell) = (s.plan_clock.speed(), s.spell_clock.speed());
        match &s.costs {
            None => Timing {
                narrow_lead: 0.0,
                greedy_unit: 0.0,
            },
            Some(c) => {
                let units = c.units.max(1.0);
                let greedy = c.greedy.unwrap_or(c.plain * o.first_spell_factor);
                let source = s.setup.source.max(1) as f64;
                Timing {
                    narrow_lead: (c.encode * spell + c.per_unit * source * plan) * o.narrow_margin,
                    greedy_unit: greedy / units * spell,
                }
            }
        }
    }

    /// The next round for one of the idle seeds (`idle(seed)`), or `None` when none of them has
    /// a round that fits before one of the horizons `left` (no deadline: `None`). Seeds without a quick answer
    /// come first, the smallest first; then the seed whose next round promises the most points
    /// per work second. A seed with nothing that fits is finished.
    pub fn next(&mut self, idle: &dyn Fn(usize) -> bool, left: Horizons) -> Option<Round> {
        let o = &self.opts;
        let ready = |s: &SeedState| !s.finished && s.flight.is_none();
        // Quick answers first, then their greedy spellings: the smallest problems first (the
        // most answers soonest), seeds that start from a stored game last.
        let stage = |s: &SeedState| {
            if !s.answered {
                Some(0)
            } else if !s.spelt_quick {
                Some(1)
            } else {
                None
            }
        };
        let first = (0..self.seeds.len())
            .filter(|&i| idle(i) && ready(&self.seeds[i]))
            .filter_map(|i| stage(&self.seeds[i]).map(|st| (i, st)))
            .min_by(|&(a, sa), &(b, sb)| {
                let stored = |i: usize| self.seeds[i].games.iter().any(|g| g.id == STORED);
                let key = |i: usize| (stored(i), self.seeds[i].setup.size);
                let (ka, kb) = (key(a), key(b));
                sa.cmp(&sb)
                    .then(ka.0.cmp(&kb.0))
                    .then(ka.1.total_cmp(&kb.1))
                    .then(a.cmp(&b))
            })
            .map(|(i, _)| i);
        let pick = match first {
            Some(i) => self.seeds[i].propose(o).map(|r| (i, r)),
            None => {
                let mut best: Option<(f64, f64, usize, Round)> = None;
                for i in 0..self.seeds.len() {
                    let s = &self.seeds[i];
                    if !idle(i) || !ready(s) {
                        continue;
                    }
                    let Some(round) = self.fitting(i, left) else {
                        self.seeds[i].finished = true;
                        continue;
                    };
                    let s = &self.seeds[i];
                    let priority = s.setup.weight * s.expected_rate(o);
                    let better = best.as_ref().is_none_or(|(p, spent, _, _)| {
                        priority > *p || (priority == *p && s.spent < *spent)
                    });
                    if better {
                        best = Some((priority, s.spent, i, round));
                    }
                }
                best.map(|(_, _, i, r)| (i, r))
            }
        };
        let (i, mut round) = pick?;
        round.seed = i;
        let s = &mut self.seeds[i];
        s.flight = Some(InFlight {
            best_before: s.best,
            stuck: round.kind != RoundKind::Tail
                && round.tasks.iter().all(|t| matches!(t, Task::Attempt(_)))
                && round.width <= s.width,
        });
        Some(round)
    }

    /// The seed's next round if it fits in the seconds left before the first horizon, else its
    /// tail round if one fits there; else the same before the next horizon, and so on (see
    /// [`Horizons`]).
    fn fitting(&self, i: usize, left: Horizons) -> Option<Round> {
        let s = &self.seeds[i];
        let o = &self.opts;
        let round = s.propose(o)?;
        let Some(lefts) = left else {
            return Some(round);
        };
        lefts.iter().map(|l| l / o.fit_margin).find_map(|l| {
            if s.seconds(round.cost) <= l {
                Some(round.clone())
            } else {
                s.tail(o, l)
            }
        })
    }

    /// Takes the reports of a round `next` gave, in the order of its tasks.
    pub fn report(&mut self, round: &Round, reports: &[Report]) {
        let o = self.opts.clone();
        let s = &mut self.seeds[round.seed];
        s.report(&o, round, reports);
    }
}

#[cfg(test)]
mod tests;
