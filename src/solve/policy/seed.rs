//! One seed's state and its rules: the games it keeps ([`Games`], in [`games`]), how far its
//! answers got ([`Phase`], changed by the seed's own methods alone), its cost model
//! ([`super::costs`]), its beams ([`super::widening`]) and its rate of gain ([`Rate`], in
//! [`games`]); the rules that propose its next
//! round, in order ([`Rule::ORDER`]). Its tail round is sized in [`tail`], the round of the
//! systems it never ran in [`untried`], and it learns from a round's reports in [`learn`].
//!
//! The rules read what happened (scores, work, the preset), never the time left: the policy asks
//! whether a proposed round fits, and asks for a tail round when it does not.

use super::costs::{Costs, Kinds, Model};
use super::widening::{widens, Start, Widening};
use super::{
    polish_goes_first, Attempt, Cost, GameId, Round, RoundKind, Screen, SeedSetup, Summary, Task,
};
use crate::encode::Mode;
use crate::solve::budget::{Pace, Preset};
use crate::solve::stage::Valuer;
use crate::solve::SearchOptions;

mod games;
mod lagging;
mod learn;
mod owing;
mod replan;
mod survival;
mod tail;
mod untried;

use games::set_polished_to;
pub(super) use games::{Games, Rate};
pub(super) use lagging::share_sibling_games;
use owing::Owing;

/// What the rules weigh besides the seed: the options and the run's preset.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub o: &'a SearchOptions,
    pub preset: &'a Preset,
}

/// How far a seed's answers got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// No answer yet: the quick answer comes first.
    Quick,
    /// The quick answer is in; its greedy spelling comes next.
    Greedy,
    /// Searching: beams, neighbourhoods, polishes.
    Search,
    /// Nothing more to do (the seed proposes no round, or none fits before the deadline).
    Finished,
}

/// The bookkeeping of a round in flight.
#[derive(Clone, Debug)]
struct InFlight {
    best_before: u64,
    stuck: bool,
}

/// A seed's next round before it is handed out (the policy gives it the seed's index).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Proposal {
    pub tasks: Vec<Task>,
    pub width: usize,
    pub kind: RoundKind,
    pub cost: Cost,
}

impl Proposal {
    /// Whether its attempts revive to their horizon: a revive tail, or a last round whose
    /// survival attempts do ([`SeedState::last_round`]).
    pub fn revives(&self) -> bool {
        self.tasks
            .iter()
            .any(|t| matches!(t, Task::Attempt(a) if a.revive == crate::plan::REVIVE_TO_HORIZON))
    }

    pub fn for_seed(
        self,
        seed: usize,
        horizon: Option<f64>,
        fixed: Option<super::FixedCut>,
    ) -> Round {
        Round {
            seed,
            tasks: self.tasks,
            width: self.width,
            kind: self.kind,
            cost: self.cost,
            horizon,
            fixed,
        }
    }
}

/// One seed's state.
#[derive(Clone, Debug)]
pub(super) struct SeedState {
    pub setup: SeedSetup,
    phase: Phase,
    pub games: Games,
    pub costs: Option<Costs>,
    /// Seconds per work second of planning and of spelling (decayed sums of both).
    pub plan_pace: Pace,
    pub spell_pace: Pace,
    pub widening: Widening,
    pub rate: Rate,
    flight: Option<InFlight>,
    /// Its every game was enumerated, or tried and found too many: not tried again.
    exhausted: bool,
    /// The revivals it owes shorter runs ([`owing`]).
    pub owing: Owing,
    /// The game of a sibling seed it may lag behind ([`lagging`]).
    pub sibling: Option<(u64, usize, usize)>,
}

/// What a rule says of the seed's next round.
enum Verdict {
    /// This round.
    Round(Proposal),
    /// No round: the seed has nothing to do.
    Stop,
    /// The rule does not apply: the next one decides.
    Pass,
}

/// The rules of a seed's next round, each named for what it looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    /// A finished seed proposes nothing.
    Finished,
    /// No answer yet: the quick answer ([`SeedState::first_round`]).
    QuickAnswer,
    /// A quick answer that gave no game leaves no cost model: nothing to plan from.
    Unmeasured,
    /// A seed whose whole space of games is small ([`SeedSetup::space`]) is searched to the
    /// end, right after its quick answer, where the preset allows: every game enumerated and
    /// the best spelt by every encoder, in a fixed work, one part per lane.
    Exhaust,
    /// The quick answer's plan spelt greedily.
    GreedySpelling,
    /// With the attempts used up and the best game planned polished, the seed is done.
    SpentAndPolished,
    /// A seed whose whole games score well below a sibling's plays that game's system and
    /// width again ([`lagging`]).
    Lagging,
    /// The best games not polished yet, once the beams grow no wider, or earlier when a polish
    /// promises more than widening ([`polish_goes_first`], where the preset lets it).
    Polish,
    /// With the attempts used up, nothing but polishes was left.
    Spent,
    /// Beams: wider when [`widens`] says so (or always, where the preset says), and every other
    /// round, once they grow no wider, neighbourhoods of the best game.
    Beams,
}

impl Rule {
    /// The rules in the order they are asked: the first that does not pass decides.
    pub const ORDER: [Rule; 10] = [
        Rule::Finished,
        Rule::QuickAnswer,
        Rule::Unmeasured,
        Rule::Exhaust,
        Rule::GreedySpelling,
        Rule::SpentAndPolished,
        Rule::Lagging,
        Rule::Polish,
        Rule::Spent,
        Rule::Beams,
    ];
}

/// Where the next round of beams stands, for the rules that weigh widening against polishing.
struct Outlook {
    /// The width of the next round of beams.
    next: usize,
    /// The beams grow no wider (or the attempts are used up).
    stuck: bool,
    /// The next round re-plans the best game, which dies early, from cuts at the width of the
    /// round of fresh games before it ([`SearchOptions::dying_cuts`]).
    repair: bool,
    whole: bool,
    /// The attempts are used up.
    spent_all: bool,
    /// The beams widen because the last round of fresh games did not tell whether wider beams
    /// pay ([`SearchOptions::widen_same_system`]): no polish goes first.
    untold: bool,
}

impl SeedState {
    pub fn new(setup: SeedSetup) -> SeedState {
        SeedState {
            widening: Widening::new(setup.systems + setup.survival),
            setup,
            phase: Phase::Quick,
            games: Games::default(),
            costs: None,
            plan_pace: Pace::default(),
            spell_pace: Pace::default(),
            rate: Rate::default(),
            flight: None,
            exhausted: false,
            owing: Owing::default(),
            sibling: None,
        }
    }

    /// How far its answers got.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether it can start a round: not finished, none in flight.
    pub fn ready(&self) -> bool {
        self.phase != Phase::Finished && self.flight.is_none()
    }

    /// A game it starts from (a stored solution), before its first round.
    pub fn start_from(&mut self, game: Summary) {
        self.games.best = self.games.best.max(game.score);
        self.games.kept.push(game);
    }

    /// Its greedy spelling no longer fits before the deadline: not wanted, it goes on to its
    /// search.
    pub fn skip_greedy(&mut self) {
        self.phase = Phase::Search;
    }

    /// Its exhaustive search does not fit: not wanted, its next proposal is another rule's.
    pub fn skip_exhaust(&mut self) {
        self.exhausted = true;
    }

    /// Nothing it proposes fits before the deadline: it is finished.
    pub fn finish(&mut self) {
        self.phase = Phase::Finished;
    }

    /// `round`, which the policy gave it, has started: its reports go to [`SeedState::report`].
    pub fn start(&mut self, round: &Round) {
        if round.fixed.is_some() {
            self.paid();
        }
        self.flight = Some(InFlight {
            best_before: self.games.best,
            stuck: round.kind != RoundKind::Tail
                && round.tasks.iter().all(|t| matches!(t, Task::Attempt(_)))
                && round.width <= self.widening.width,
        });
    }

    /// The cost model, once the quick answer measured it, of a round of the `kinds` of systems.
    fn model<'a>(&'a self, o: &'a SearchOptions, kinds: Kinds) -> Option<Model<'a>> {
        let costs = self.costs.as_ref()?;
        Some(Model {
            costs,
            setup: &self.setup,
            o,
            kinds,
        })
    }

    /// Whether attempt `id` plans with a survival system: one in `survival_every` while the
    /// best game ends before the source does.
    fn survives(&self, o: &SearchOptions, id: u32) -> bool {
        self.setup.survival > 0
            && !self.games.whole(self.setup.source)
            && id.is_multiple_of(o.survival_every.max(1))
    }

    /// The kinds of systems of a round of the next `n` attempts.
    fn kinds(&self, o: &SearchOptions, n: usize) -> Kinds {
        let first = self.games.planned;
        let ids = first..first + n.max(1) as u32;
        Kinds {
            survival: ids.clone().any(|id| self.survives(o, id)),
            others: ids.clone().any(|id| !self.survives(o, id)),
        }
    }

    /// Seconds a task of cost `c` is expected to take on this machine.
    pub fn seconds(&self, c: Cost, o: &SearchOptions) -> f64 {
        c.plan * self.plan_pace.speed(o) + c.spell * self.spell_pace.speed(o)
    }

    /// Games the preset still allows (unbounded on a clock).
    fn attempts_left(&self, preset: &Preset) -> u32 {
        preset
            .games
            .map_or(u32::MAX, |n| n.saturating_sub(self.games.planned))
    }

    /// The attempts of its next round: one per lane, as many as the preset still allows.
    fn round_size(&self, preset: &Preset) -> usize {
        self.setup
            .lanes
            .max(1)
            .min(self.attempts_left(preset) as usize)
    }

    /// The seed's expected points per work second for its next round.
    pub fn expected_rate(&self, o: &SearchOptions) -> f64 {
        self.rate.expected(self.games.best, o)
    }

    /// The next round as the seed's history says, whatever the deadline: the first of
    /// [`Rule::ORDER`] that does not pass.
    pub fn propose(&self, ctx: Ctx) -> Option<Proposal> {
        for rule in Rule::ORDER {
            match self.apply(rule, ctx) {
                Verdict::Round(p) => return Some(p),
                Verdict::Stop => return None,
                Verdict::Pass => {}
            }
        }
        None
    }

    fn apply(&self, rule: Rule, ctx: Ctx) -> Verdict {
        let Ctx { o, preset } = ctx;
        let lanes = self.setup.lanes.max(1);
        let stop_if = |stop: bool| if stop { Verdict::Stop } else { Verdict::Pass };
        match rule {
            Rule::Finished => stop_if(self.phase == Phase::Finished),
            Rule::QuickAnswer if self.phase == Phase::Quick => {
                Verdict::Round(self.first_round(lanes, preset))
            }
            Rule::Unmeasured => stop_if(self.costs.is_none()),
            Rule::Exhaust => self.exhaust_rule(ctx, lanes),
            Rule::GreedySpelling if self.phase == Phase::Greedy => {
                let plain = self.costs.as_ref().map_or(0.0, |c| c.plain);
                Verdict::Round(Proposal {
                    tasks: vec![Task::SpellGreedy {
                        game: GameId::Planned(0),
                    }],
                    width: self.widening.width,
                    kind: RoundKind::Fresh,
                    cost: Cost {
                        plan: 0.0,
                        spell: plain * o.first_spell_factor,
                    },
                })
            }
            Rule::SpentAndPolished => {
                stop_if(self.attempts_left(preset) == 0 && self.games.best_planned_polished())
            }
            Rule::Lagging => self.lagging_rule(ctx),
            Rule::Polish => self.polish_rule(ctx, lanes),
            Rule::Spent => stop_if(self.attempts_left(preset) == 0),
            Rule::Beams => {
                let Some(look) = self.outlook(ctx) else {
                    return Verdict::Stop;
                };
                let w = &self.widening;
                let renew = look.repair || look.stuck && (w.stuck_rounds + 1).is_multiple_of(2);
                let n = self.round_size(preset);
                let start = if renew { Start::Cuts } else { Start::Fresh };
                Verdict::Round(self.round_of(o, look.next, n, start))
            }
            Rule::QuickAnswer | Rule::GreedySpelling => Verdict::Pass,
        }
    }

    /// The exhaustive search (see [`Rule::Exhaust`]): its games valued at the power per row
    /// fallen of the best game spelt with phrases so far (the screen's rate, or else the best
    /// game's own).
    fn exhaust_rule(&self, ctx: Ctx, lanes: usize) -> Verdict {
        let Ctx { o, preset } = ctx;
        if !preset.exhaust || self.exhausted || self.setup.space > o.exhaust.most_space {
            return Verdict::Pass;
        }
        let rate = match self.games.rate(self.setup.spells) {
            r if r > 0.0 => r,
            _ => self
                .games
                .kept
                .first()
                .map_or(0.0, |g| g.power as f64 / g.descents.max(1) as f64),
        };
        let id = self.games.planned;
        Verdict::Round(Proposal {
            tasks: (0..lanes)
                .map(|part| Task::Exhaust {
                    id: id + part as u32,
                    rate,
                    part,
                    parts: lanes,
                })
                .collect(),
            width: self.widening.width,
            kind: RoundKind::Fresh,
            cost: Cost {
                plan: 0.0,
                spell: o.exhaust.work,
            },
        })
    }

    /// Where the next round of beams stands (`None` before the cost model).
    fn outlook(&self, ctx: Ctx) -> Option<Outlook> {
        let Ctx { o, preset } = ctx;
        let n = self.round_size(preset);
        let m = self.model(o, self.kinds(o, n))?;
        let w = &self.widening;
        let spent_all = n == 0;
        let rate = self.games.rate(self.setup.spells);
        let whole = self.games.whole(self.setup.source);
        let growth = if whole { o.growth } else { o.dying_growth };
        let wider = (w.width * growth).min(self.width_cap(preset));
        let wider_cost = m.cost(wider, rate).total();
        let cheap = wider_cost <= o.dear_share * self.rate.spent;
        // A round of systems new to the seed that found nothing better says little of the
        // width; where a polish costs more than the wider round, that round goes first.
        let untold = o.widen_same_system
            && !w.told
            && whole
            && self
                .games
                .polish_candidates(m.costs)
                .next()
                .is_some_and(|g| m.polish_cost(g) > wider_cost);
        let widen_rate = if untold { f64::INFINITY } else { w.widen_rate };
        let repair = o.dying_cuts
            && !whole
            && !preset.widen_always
            && w.width > 1
            && w.at_width == 1
            && !spent_all;
        let next = if repair {
            w.width
        } else if preset.widen_always || widens(widen_rate, whole, cheap, w.at_width, o.patience) {
            wider
        } else {
            w.width
        };
        Some(Outlook {
            next,
            stuck: spent_all || (next <= w.width && !repair),
            repair,
            whole,
            spent_all,
            untold: untold && wider > w.width,
        })
    }

    /// The polish rule: once the beams grow no wider, or when a polish goes first, the best
    /// games not polished yet, one per lane, each expected to cost no more than the preset
    /// allows (with the attempts used up, only games the run planned).
    fn polish_rule(&self, ctx: Ctx, lanes: usize) -> Verdict {
        let Ctx { o, preset } = ctx;
        let (Some(m), Some(look)) = (self.model(o, Kinds::OTHERS), self.outlook(ctx)) else {
            return Verdict::Pass;
        };
        let c = m.costs;
        let early = || {
            preset.polish_early
                && !look.untold
                && polish_goes_first(look.whole, self.polish_rate(&m), self.search_rate())
        };
        if !(self.setup.spells && (look.stuck || early())) {
            return Verdict::Pass;
        }
        let picks: Vec<&Summary> = self
            .games
            .polish_candidates(c)
            .filter(|g| !(look.spent_all && g.id == GameId::Stored))
            .filter(|g| self.polish_rest(&m, g) <= preset.polish_limit)
            .take(lanes)
            .collect();
        if picks.is_empty() {
            return Verdict::Pass;
        }
        Verdict::Round(Proposal {
            tasks: picks
                .iter()
                .map(|g| Task::Polish {
                    game: g.id,
                    from: self.games.polished_to(g.id),
                    to: None,
                })
                .collect(),
            width: self.widening.width,
            kind: RoundKind::Fresh,
            cost: Cost {
                plan: 0.0,
                spell: picks
                    .iter()
                    .map(|g| self.polish_rest(&m, g))
                    .fold(0.0, f64::max),
            },
        })
    }

    /// Points per work second the search gains now: the last round of fresh games' rate, or
    /// the recent rounds' where they gain less. Rounds of tails (the wider round does not fit
    /// before the horizon) leave the fresh rate as it was, however little they gain.
    fn search_rate(&self) -> f64 {
        self.widening.widen_rate.min(self.rate.recent())
    }

    /// Points per work second the first polish candidate promises (of the units a polish has
    /// not tried yet, where one polished its first units).
    fn polish_rate(&self, m: &Model) -> f64 {
        let c = m.costs;
        self.games.polish_candidates(c).next().map_or(0.0, |g| {
            let gain = self.games.promise(g, c) - self.games.best as f64;
            gain.max(0.0) / self.polish_rest(m, g).max(1e-9)
        })
    }

    /// The expected work of polishing game `g`'s units no polish has tried yet.
    fn polish_rest(&self, m: &Model, g: &Summary) -> f64 {
        m.polish_cost(g) * self.games.rest_share(g)
    }

    /// The widest beam the seed may use.
    fn width_cap(&self, preset: &Preset) -> usize {
        preset.width_cap(self.setup.max_width)
    }

    /// The first round: the quick answer. With one lane, alone (its greedy spelling is the next
    /// round, after every other seed's quick answer). With more, its greedy spelling follows it
    /// on its lane (a task that needs a game of its round waits for it), and the other lanes
    /// plan greedy games of the next systems spelt by the DP encoder: the first games worth
    /// having, in about the time of the quick answer, before the beams widen.
    fn first_round(&self, lanes: usize, preset: &Preset) -> Proposal {
        let mut tasks = vec![Task::Quick { id: 0 }];
        if lanes > 1 && self.setup.spells {
            tasks.push(Task::SpellGreedy {
                game: GameId::Planned(0),
            });
        }
        let n = (lanes - 1).min(self.attempts_left(preset).saturating_sub(1) as usize);
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
                valuer: Valuer::Words,
                revive: 0,
            })
        }));
        Proposal {
            tasks,
            width: 1,
            kind: RoundKind::Fresh,
            cost: Cost::default(),
        }
    }

    /// A round of `n` attempts of width `w`, starting at `start`.
    fn round_of(&self, o: &SearchOptions, w: usize, n: usize, start: Start) -> Proposal {
        let m = self
            .model(o, self.kinds(o, n))
            .expect("rounds come after the quick answer");
        let rate = self.games.rate(self.setup.spells);
        let tries = m.tries(w, rate);
        let base = (start != Start::Fresh).then(|| &self.games.kept[0]);
        let dear = m.cost(w, rate).total() > o.dear_share * self.rate.spent;
        let rank = self.ranked_systems(o, w);
        let every = o.survival_every.max(1);
        // A plan predicted to score clearly less than the best game is not spelt, where
        // spelling costs at least as much as planning (elsewhere skipping it saves little, and
        // on a small board, where the phrases' first uses make much of the power, the
        // prediction is too rough to trust).
        let screen = Screen {
            tries,
            rate,
            least: if rate > 0.0 && m.spell_cost(w, tries) >= m.plan_cost(w) {
                self.games.best as f64 * (1.0 - o.screen_margin)
            } else {
                0.0
            },
        };
        let chars = m.spells_chars(w, tries, base);
        let mode = match (self.setup.spells, chars) {
            (false, _) => Mode::Plain,
            (true, true) => Mode::Chars,
            (true, false) => Mode::Dp,
        };
        let tasks: Vec<Task> = (0..n)
            .map(|j| {
                let id = self.games.planned + j as u32;
                // Wide beams, and dear narrow ones (every other one with a single lane), go to
                // the best systems: where few rounds of whole games fit, a cycle would give the
                // best system one game in several (docs/tuning.md).
                let ranked = w >= o.wide || (dear && (n > 1 || id.is_multiple_of(2)));
                // While the best game dies early, one attempt in `survival_every` (by default
                // every other one) goes to the systems made to keep games alive: on problem 18
                // the other systems' beams of the same width die far earlier, while on other
                // survival problems they often live as long for a third of the work
                // (docs/tuning.md).
                let survive = self.survives(o, id);
                let system = if survive {
                    self.setup.systems + (id / every) as usize % self.setup.survival
                } else if ranked {
                    rank[j % rank.len()]
                } else {
                    id as usize % self.setup.systems
                };
                Task::Attempt(Attempt {
                    id,
                    system,
                    width: w,
                    mode,
                    base: base.and_then(|b| start.base(id, (b.id, b.units), survive)),
                    screen,
                    valuer: Valuer::of_attempt(survive, self.games.whole(self.setup.source), o),
                    revive: if start == Start::Fresh
                        && w >= o.revive_width
                        && !self.games.whole(self.setup.source)
                    {
                        m.revive_budget(w)
                    } else {
                        0
                    },
                })
            })
            .collect();
        let cost = match base {
            None => m.cost(w, rate),
            Some(b) => replan::round_cost(&m, w, tries, chars, b, &tasks),
        };
        Proposal {
            tasks,
            width: w,
            kind: match start {
                Start::Fresh => RoundKind::Fresh,
                Start::Cuts => RoundKind::Cuts,
                Start::Tail { .. } => RoundKind::Tail,
            },
            cost,
        }
    }
}

/// The setup of a run's only seed: `source` units, `lanes` lanes, five systems and `survival`
/// survival ones, no greedy-spelling limit (`unit_states` 0) and no exhaustive search (an
/// unbounded space).
#[cfg(test)]
pub(super) fn lone_setup(source: usize, lanes: usize, survival: usize) -> SeedSetup {
    SeedSetup {
        problem: 0,
        weight: 1.0,
        source,
        lanes,
        spells: true,
        systems: 5,
        survival,
        revive: Vec::new(),
        survival_round: Vec::new(),
        wide_first: Vec::new(),
        max_width: 2048,
        size: 1.0,
        unit_states: 0,
        space: f64::INFINITY,
    }
}

/// The only seed of a run on two lanes: 1,000 units, five systems and a survival one.
#[cfg(test)]
fn lone_survival_seed() -> SeedState {
    SeedState::new(lone_setup(1000, 2, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 44): problem 18's runs of 10 and 30 s re-planned tails of its one whole
    /// game for every second after it and never polished it, because a polish was weighed
    /// against the rate of the last round of fresh games (the width-16 round that found the
    /// whole game), which tails never update. A polish that promises more than the recent
    /// rounds gain now goes first.
    #[test]
    fn tails_that_gain_little_let_a_polish_go_first() {
        let o = SearchOptions::default();
        let mut s = lone_survival_seed();
        s.rate.start(10_000, 0.1, &o);
        s.widening.widen_rate = 30_000.0;
        assert_eq!(s.search_rate(), 30_000.0);
        for _ in 0..20 {
            s.rate.took(10.0, 0.1, &o);
        }
        assert!(s.search_rate() < 1_000.0, "{}", s.search_rate());
        assert!(polish_goes_first(true, 1_000.0, s.search_rate()));
        assert!(!polish_goes_first(true, 1_000.0, s.widening.widen_rate));
    }
}
