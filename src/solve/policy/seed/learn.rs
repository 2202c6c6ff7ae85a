//! How a seed learns from its rounds' reports: its games kept, its cost model and machine
//! speeds ([`super::super::costs`]), its beams' record ([`super::super::widening`]), its rate of
//! gain, and its phase (the quick answer in, its greedy spelling done, the seed finished); and the
//! timing the executor cuts its tasks by, from what it learnt.

use super::{Phase, SeedState};
use crate::encode::Mode;
use crate::solve::policy::costs::{Costs, Kinds, UnitWork};
use crate::solve::policy::{Attempt, GameId, Outcome, Report, Round, RoundKind, Task, Timing};
use crate::solve::stage::Valuer;
use crate::solve::SearchOptions;

impl SeedState {
    /// What the executor needs for its tasks' cuts, from the speed and the costs learnt
    /// ([`crate::solve::policy::Policy::timing`]).
    pub fn timing(&self, o: &SearchOptions) -> Timing {
        let speed = self.plan_pace.speed(o).max(self.spell_pace.speed(o));
        match &self.costs {
            None => Timing {
                narrow_lead: 0.0,
                unvalued_lead: 0.0,
                greedy_unit: 0.0,
                speed,
            },
            Some(c) => {
                let units = c.units.max(1.0);
                let greedy = c.greedy.unwrap_or(c.plain * o.first_spell_factor);
                let source = self.setup.source.max(1) as f64;
                Timing {
                    narrow_lead: c.narrow_lead(Kinds::BOTH, source, o),
                    unvalued_lead: c.narrow_lead(Kinds::SURVIVAL, source, o),
                    greedy_unit: greedy / units,
                    speed,
                }
            }
        }
    }

    /// Takes a round's reports, in the order of its tasks.
    pub fn report(&mut self, o: &SearchOptions, round: &Round, reports: &[Report]) {
        let flight = self.flight.take().expect("a round in flight");
        let planned_before = self.widening.planned.clone();
        let mut work = 0.0;
        let mut attempts = 0;
        for (task, r) in round.tasks.iter().zip(reports) {
            work += r.work();
            self.plan_pace
                .learn(r.plan_seconds, r.plan_work * r.plans as f64, o);
            self.spell_pace.learn(r.spell_seconds, r.spell_work, o);
            match task {
                Task::Quick { .. } => self.took_quick(o, r),
                Task::SpellGreedy { game } => self.took_greedy(o, *game, r),
                &Task::Polish { game, from, to } => self.took_polish(o, game, (from, to), r),
                Task::Attempt(a) => {
                    attempts += 1;
                    self.took_attempt(o, round, a, r);
                }
                Task::Exhaust { id, .. } => self.took_exhaust(*id, r),
            }
        }
        // A seed whose every game was enumerated and spelt is done: more time would find
        // nothing its search could not, and a short budget then scores what a long one does.
        let exhausts = round.tasks.iter().zip(reports);
        let mut exhausts = exhausts.filter(|(t, _)| matches!(t, Task::Exhaust { .. }));
        if let Some((_, first)) = exhausts.next() {
            self.exhausted = true;
            let searched = |r: &Report| matches!(r.outcome, Outcome::Spelt(_));
            if searched(first) && exhausts.all(|(_, r)| searched(r)) {
                self.phase = Phase::Finished;
            }
        }
        let games = &mut self.games;
        games.best = games.kept.iter().map(|g| g.score).max().unwrap_or(0);
        games
            .kept
            .sort_by(|a, b| b.score.cmp(&a.score).then(a.id.cmp(&b.id)));
        games.kept.truncate(o.keep_games.max(1));
        // Only kept games are polished or re-planned, so only theirs are worth remembering (a
        // long run re-plans thousands of games).
        let kept = &games.kept;
        games
            .polished_to
            .retain(|(id, _)| kept.iter().any(|g| g.id == *id));
        games.unvalued.retain(|id| kept.iter().any(|g| g.id == *id));
        let gain = games.best.saturating_sub(flight.best_before) as f64;
        // A round of fresh games at least as wide as the last (not a tail's) tells whether
        // wider beams still pay.
        if attempts > 0 && round.kind != RoundKind::Tail {
            let widened = round.kind == RoundKind::Fresh && round.width >= self.widening.width;
            let told = tells_widening(round, reports, &planned_before);
            self.widening.took_round(
                round.width,
                flight.stuck,
                widened.then_some((gain, work, told)),
            );
        }
        self.rate.took(gain, work, o);
    }

    fn took_quick(&mut self, o: &SearchOptions, r: &Report) {
        self.phase = Phase::Greedy;
        self.games.planned = self.games.planned.max(1);
        let Outcome::Spelt(g) = &r.outcome else {
            return;
        };
        self.widening.record[g.system] = (1, g.score);
        let units = g.units.max(1) as f64;
        self.costs = Some(Costs {
            plan: UnitWork {
                per_unit: r.plan_work / units,
                width: 1,
            },
            survival: None,
            unvalued: None,
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
            polish_measured: false,
        });
        // Without phrases there is no greedy spelling to wait for; with a game over at once
        // (no unit can spawn), nothing can score more.
        if !self.setup.spells {
            self.phase = Phase::Search;
        }
        if g.units == 0 {
            self.phase = Phase::Finished;
        }
        self.games.kept.push(g.clone());
        let best = self.games.kept.iter().map(|g| g.score).max().unwrap_or(0);
        self.rate.start(best, r.work(), o);
    }

    fn took_exhaust(&mut self, id: u32, r: &Report) {
        self.games.planned = self.games.planned.max(id + 1);
        if let Outcome::Spelt(g) = &r.outcome {
            self.games.kept.push(g.clone());
        }
    }

    fn took_greedy(&mut self, o: &SearchOptions, game: GameId, r: &Report) {
        if self.phase == Phase::Greedy {
            self.phase = Phase::Search;
        }
        if let Outcome::Spelt(s) = &r.outcome {
            // A quick answer that did not finish measured no costs: its seed stops
            // (`Rule::Unmeasured`), and its greedy spelling, run on another lane of the same
            // round, has none to refine.
            if let Some(c) = self.costs.as_mut() {
                c.greedy = Some(r.spell_work);
                if !c.dp_measured {
                    c.encode = r.spell_work * o.first_dp_factor;
                }
            }
            if let Some(g) = self.games.kept.iter_mut().find(|g| g.id == game) {
                if s.score > g.score {
                    *g = s.clone();
                }
            }
        }
    }

    /// A polish of game `game`'s units `from..to` (see [`Task::Polish`]; a part may stop short
    /// of `to`, and says where; its score is the game's with the round's parts reported so
    /// far). A part leaves the game spelt by the DP encoder (its DP work stays) until the parts
    /// reach its end one after the other, and teaches the character encoder's cost per unit;
    /// only a whole game's polish teaches what polishing gains.
    fn took_polish(
        &mut self,
        o: &SearchOptions,
        game: GameId,
        (from, to): (usize, Option<usize>),
        r: &Report,
    ) {
        let polished_to = self.games.polished_to(game);
        let Some(g) = self.games.kept.iter_mut().find(|g| g.id == game) else {
            if to.is_none() {
                self.games.polished.push(game);
            }
            return;
        };
        let spelt = match &r.outcome {
            Outcome::Spelt(s) => Some(s),
            _ => None,
        };
        let end = spelt
            .and_then(|s| s.polished_to)
            .or(to)
            .unwrap_or(g.units)
            .min(g.units);
        // The parts of a round go on from one another: a part counts for how far the game is
        // polished where the parts before it reached its start.
        let contiguous = to.is_none() || polished_to == from;
        let whole = to.is_none() || contiguous && end == g.units;
        if whole {
            self.games.polished.push(game);
        } else if contiguous {
            super::set_polished_to(&mut self.games.polished_to, game, end);
        }
        let c = self.costs.as_mut().expect("after the quick answer");
        // What the DP encoder's work on the units polished was: the game's own for a whole
        // game; for a part, the share of a whole game's (a neighbourhood's own counts only the
        // units it re-planned).
        let dp_work = if from == 0 && to.is_none() {
            g.spell_work.max(1e-9)
        } else {
            let share = end.saturating_sub(from) as f64 / g.units.max(1) as f64;
            (c.encode * share).max(1e-9)
        };
        match spelt {
            Some(s) => {
                c.learn_chars(r.spell_work / dp_work * c.encode, o);
                // What a polish of a whole game would gain, from one of its units `from..`
                // (a re-plan's units kept from a polished game are the character encoder's
                // already): the gain over the share polished, where that share says enough.
                let share = g.units.saturating_sub(from) as f64 / g.units.max(1) as f64;
                if to.is_none() && g.score > 0 && share >= o.polish_learn_share {
                    let [least, most] = o.polish_gain_range;
                    let gain = 1.0 + (s.score as f64 / g.score as f64 - 1.0) / share;
                    c.polish_gain = gain.clamp(least, most);
                    c.polish_measured = true;
                }
                if to.is_none() {
                    if s.score > g.score {
                        *g = s.clone();
                    }
                } else {
                    if s.score > g.score {
                        (g.score, g.power) = (s.score, s.power);
                    }
                    if whole {
                        g.spelling = Mode::Chars;
                    }
                }
            }
            // Cut at its horizon: the work it counted before the cut is a floor of what a
            // whole polish costs (a counted measure, not the clock's verdict).
            None => {
                let floor = (r.spell_work / dp_work).min(o.max_chars_factor);
                c.chars_factor = c.chars_factor.max(floor);
            }
        }
    }

    fn took_attempt(&mut self, o: &SearchOptions, round: &Round, a: &Attempt, r: &Report) {
        if a.id & Attempt::OWED == 0 {
            self.games.planned = self.games.planned.max(a.id + 1);
        }
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
        // A neighbourhood's score is mostly its opening's: only whole games count. The width is
        // the attempt's: a revival's game runs narrower than its round, and may plan with a
        // system other than the survival ones, whose record ranks the wide rounds' systems.
        if fresh {
            self.widening
                .took_game(system, a.width, score, units, self.setup.source);
            if a.revive != crate::plan::REVIVE_TO_HORIZON {
                self.widening.took_length(a.width, units);
            }
        } else if let Some((_, cut)) = a.base.filter(|_| o.replans_retry) {
            self.widening
                .took_replan(system, cut, units, self.setup.source);
        }
        let spelt = match &r.outcome {
            Outcome::Spelt(g) => Some(g),
            _ => None,
        };
        // Without costs (the first round's attempt of a seed whose quick answer did not
        // finish, which then stops) there is nothing to learn; its game is kept all the same.
        if let Some(c) = self.costs.as_mut() {
            // A plan that revives to its horizon (a revive tail's, [`SeedState::revive_tail`],
            // or a last round's, [`SeedState::last_round`]) spends its work on rewinds until
            // then: it says nothing of what a unit of a beam costs.
            if a.revive != crate::plan::REVIVE_TO_HORIZON {
                // A survival round's games plan without the valuer with the other systems:
                // their work is learnt apart, as it is neither the survival systems' nor the
                // others' with the valuer.
                let survival = system >= self.setup.systems;
                let work = r.plan_work / units.max(1) as f64;
                if a.valuer == Valuer::Off && !survival {
                    c.learn_unvalued(round.width, fresh, work);
                } else {
                    c.learn_plan(round.width, fresh, work, survival);
                }
            }
            c.units = c.units.max(units as f64);
            match spelt {
                Some(g) if g.spelling == Mode::Chars => {
                    // Spelt by the character encoder: its work, per unit spelt, against the
                    // DP encoder's whole game.
                    let part = units.saturating_sub(g.kept).max(1) as f64 / units.max(1) as f64;
                    c.learn_chars(r.spell_work / part, o);
                }
                Some(g) if g.kept == 0 && g.spelling == Mode::Dp => c.learn_dp(r.spell_work),
                _ => {}
            }
        }
        if let Some(g) = spelt {
            self.games.kept.push(g.clone());
            let unvalued = &mut self.games.unvalued;
            if fresh && a.valuer == Valuer::Off
                || a.base.is_some_and(|(base, _)| unvalued.contains(&base))
            {
                unvalued.push(g.id);
            }
            // A re-plan keeps the text of the units it keeps, polished where its base's
            // were (all of them where the base's text is the character encoder's): a polish
            // of it goes on from there.
            if let Some((base, kept)) = a.base {
                let polished = self.games.polished_to(base).min(kept);
                if polished > 0 {
                    super::set_polished_to(&mut self.games.polished_to, g.id, polished);
                }
            }
        }
    }
}

/// Whether a round of fresh games tells if wider beams pay: one of its fresh games (spelt or
/// screened) comes from a system that planned a fresh game before the round (`planned_before`,
/// the best score per system). A round of systems new to the seed compares systems, not widths
/// ([`SearchOptions::widen_same_system`]).
fn tells_widening(round: &Round, reports: &[Report], planned_before: &[u64]) -> bool {
    round.tasks.iter().zip(reports).any(|(task, r)| {
        let Task::Attempt(a) = task else {
            return false;
        };
        let system = match &r.outcome {
            Outcome::Spelt(g) => g.system,
            Outcome::Screened { system, .. } => *system,
            Outcome::Unfinished => return false,
        };
        a.base.is_none() && planned_before.get(system).is_some_and(|&s| s > 0)
    })
}

#[cfg(test)]
mod tests {
    use super::super::tail::tests::{best_game, clock, dying_seed};
    use super::super::Ctx;
    use crate::encode::Mode;
    use crate::solve::policy::{
        Attempt, Cost, GameId, Outcome, Report, Round, RoundKind, Screen, Summary, Task,
    };
    use crate::solve::stage::Valuer;
    use crate::solve::SearchOptions;

    /// A round of fresh games of `width`, one per `(id, system, score)`, each lasting the
    /// source of [`dying_seed`] (1,000 units), played and reported.
    fn play(
        s: &mut super::SeedState,
        o: &SearchOptions,
        width: usize,
        games: &[(u32, usize, u64)],
    ) {
        let games: Vec<_> = games.iter().map(|&(i, y, c)| (i, y, c, 1000)).collect();
        play_lasting(s, o, width, &games);
    }

    /// [`play`] of games `(id, system, score, units lasted)`.
    fn play_lasting(
        s: &mut super::SeedState,
        o: &SearchOptions,
        width: usize,
        games: &[(u32, usize, u64, usize)],
    ) {
        play_lasting_from(s, o, width, None, games);
    }

    /// [`play_lasting`], each game a neighbourhood of the best game cut at unit `cut` where
    /// given (a round of cuts).
    fn play_lasting_from(
        s: &mut super::SeedState,
        o: &SearchOptions,
        width: usize,
        cut: Option<usize>,
        games: &[(u32, usize, u64, usize)],
    ) {
        let base = cut.map(|c| (s.games.kept[0].id, c));
        let tasks = games
            .iter()
            .map(|&(id, system, _, _)| {
                Task::Attempt(Attempt {
                    id,
                    system,
                    width,
                    mode: Mode::Dp,
                    base,
                    screen: Screen::NONE,
                    valuer: Valuer::Words,
                    revive: 0,
                })
            })
            .collect();
        let round = Round {
            seed: 0,
            tasks,
            width,
            kind: if cut.is_some() {
                RoundKind::Cuts
            } else {
                RoundKind::Fresh
            },
            cost: Cost {
                plan: 0.1,
                spell: 0.01,
            },
            horizon: None,
            fixed: None,
        };
        s.start(&round);
        let reports: Vec<Report> = games
            .iter()
            .map(|&(id, system, score, units)| Report {
                outcome: Outcome::Spelt(Summary {
                    id: GameId::Planned(id),
                    score,
                    system,
                    ..best_game(units)
                }),
                plan_work: 0.1,
                plans: 1,
                spell_work: 0.01,
                plan_seconds: 0.1,
                spell_seconds: 0.01,
            })
            .collect();
        s.report(o, &round, &reports);
    }

    /// Regression (issue 71): on problem 24's board the width-1 game of `fill` (system 1 here)
    /// beat the width-4 round of `balanced` and `pairs`, so the beams stopped widening at 4 and
    /// the run polished width-4 games, each dearer than a width-16 round. Such a round of systems
    /// new to the seed does not tell; where a polish costs more than the wider round, the beams
    /// widen and no polish goes first. A round with a system that planned before tells.
    #[test]
    fn a_round_of_new_systems_does_not_stop_the_beams() {
        for same in [true, false] {
            let (mut o, preset) = clock();
            o.widen_same_system = same;
            let ctx = Ctx {
                o: &o,
                preset: &preset,
            };
            let mut s = dying_seed(1);
            s.games.kept.clear();
            play(&mut s, &o, 1, &[(1, 1, 300_000)]);
            assert!(s.widening.widen_rate > 0.0);
            play(&mut s, &o, 4, &[(2, 2, 250_000), (3, 3, 240_000)]);
            assert_eq!(s.widening.widen_rate, 0.0);
            assert!(!s.widening.told);
            // A polish (60 times the DP's 1 ms) cheaper than a width-16 round: no wider.
            let look = s.outlook(ctx).expect("costs");
            assert_eq!((look.next, look.untold), (4, false), "same system {same}");
            // Dearer (the DP's work ten times as much): wider, where the option says so.
            for g in &mut s.games.kept {
                g.spell_work = 0.01;
            }
            let look = s.outlook(ctx).expect("costs");
            let wider = if same { 16 } else { 4 };
            assert_eq!(
                (look.next, look.untold),
                (wider, same),
                "same system {same}"
            );
            // A round with system 1, below its width-1 game, tells.
            play(&mut s, &o, 16, &[(4, 1, 290_000), (5, 4, 200_000)]);
            assert!(s.widening.told);
            assert_eq!(s.widening.widen_rate, 0.0);
            assert!(!s.outlook(ctx).expect("costs").untold);
        }
    }

    /// Regression (issue 71): on a narrow board with a long source (the held-out problem 9008,
    /// 9 x 29, 4,045 units) the width-4 game of `pairs` died at unit 746 and its width-16 game of
    /// `triples` at 358, so the wide rounds ranked them last and ran `low` and `fill`, whose
    /// width-64 games scored 689,000; a width-16 game of `pairs` lasts the source and scores
    /// 712,797. A system whose one fresh game died, where the best game lasts the source, is
    /// tried again in the next dear or wide round, after the systems never run and the best one
    /// tried; dead twice, or once it lasted, it ranks by its score.
    #[test]
    fn a_system_whose_narrow_beam_died_is_tried_again_wider() {
        for retry in [true, false] {
            let (mut o, _) = clock();
            o.retry_dying_systems = retry;
            let mut s = dying_seed(1);
            s.games.kept.clear();
            play_lasting(
                &mut s,
                &o,
                4,
                &[
                    (1, 1, 600_000, 1000),
                    (2, 2, 650_000, 1000),
                    (3, 3, 80_000, 700),
                    (4, 4, 90_000, 1000),
                ],
            );
            play_lasting(&mut s, &o, 16, &[(5, 0, 640_000, 1000)]);
            let systems = |s: &super::SeedState| -> Vec<usize> {
                s.round_of(&o, 64, 2, super::super::Start::Fresh)
                    .tasks
                    .iter()
                    .map(|t| match t {
                        Task::Attempt(a) => a.system,
                        _ => panic!("a round of attempts: {t:?}"),
                    })
                    .collect()
            };
            let expected = if retry { vec![2, 3] } else { vec![2, 0] };
            assert_eq!(systems(&s), expected, "retry {retry}");
            // A neighbourhood cut in the source's second half says nothing of the system's
            // beams; one cut in its first half is most of a game: once it lasted, by its score.
            let mut cuts = s.clone();
            play_lasting_from(&mut cuts, &o, 64, Some(600), &[(6, 3, 660_000, 1000)]);
            assert_eq!(systems(&cuts), expected, "retry {retry}, late cut");
            for replans in [true, false] {
                let mut cuts = cuts.clone();
                let mut o = o.clone();
                o.replans_retry = replans;
                play_lasting_from(&mut cuts, &o, 64, Some(400), &[(7, 3, 660_000, 1000)]);
                let told = if retry && !replans {
                    vec![2, 3]
                } else {
                    vec![2, 0]
                };
                assert_eq!(systems(&cuts), told, "retry {retry}, replans {replans}");
            }
            // Dead twice: by its score.
            play_lasting(&mut s, &o, 64, &[(6, 3, 100_000, 800)]);
            assert_eq!(systems(&s), vec![2, 0], "retry {retry}");
            // Where the best game dies too, the survival rules decide, not this one.
            let mut dying = dying_seed(1);
            dying.games.kept.clear();
            play_lasting(
                &mut dying,
                &o,
                4,
                &[(1, 1, 60_000, 900), (2, 2, 50_000, 500)],
            );
            assert!(dying.widening.retries(true)[2]);
            let whole = dying.games.whole(1000);
            assert!(dying.widening.retries(whole).iter().all(|&r| !r));
        }
    }

    /// A polish round of game `game` from unit `from` to its end, reported at `score`.
    fn polish(s: &mut super::SeedState, o: &SearchOptions, game: GameId, from: usize, score: u64) {
        let round = Round {
            seed: 0,
            tasks: vec![Task::Polish {
                game,
                from,
                to: None,
            }],
            width: 1,
            kind: RoundKind::Fresh,
            cost: Cost {
                plan: 0.0,
                spell: 0.1,
            },
            horizon: None,
            fixed: None,
        };
        s.start(&round);
        let g = s.games.kept.iter().find(|g| g.id == game).unwrap().clone();
        let report = Report {
            outcome: Outcome::Spelt(Summary {
                score,
                spelling: Mode::Chars,
                ..g
            }),
            plan_work: 0.0,
            plans: 0,
            spell_work: 0.1,
            plan_seconds: 0.0,
            spell_seconds: 0.1,
        };
        s.report(o, &round, &[report]);
    }

    /// Regression (issue 71, problem 8): the seeds of a problem share what a polish gains. A
    /// seed whose polish measured nothing yet expects the mean gain its problem's other seeds
    /// measured, not the prior; a seed that measured keeps its own; another problem's seeds
    /// are left alone.
    #[test]
    fn a_polish_teaches_its_gain_to_the_other_seeds_of_its_problem() {
        let o = SearchOptions::default();
        let seed = |problem: usize| {
            let mut s = dying_seed(1);
            s.setup.problem = problem;
            s.games.kept.clear();
            play(&mut s, &o, 1, &[(1, 1, 100_000)]);
            s
        };
        let mut seeds = vec![seed(0), seed(0), seed(0), seed(1)];
        let gain = |s: &super::SeedState| s.costs.as_ref().unwrap().polish_gain;
        crate::solve::policy::share::share_polish_gain(&mut seeds, 0);
        assert!(seeds.iter().all(|s| gain(s) == o.first_polish_gain));
        // The gains of problem 0's three seeds are `want`; problem 1's seed keeps the prior.
        let expect = |seeds: &[super::SeedState], want: [f64; 3]| {
            let g: Vec<f64> = seeds.iter().map(gain).collect();
            for (x, w) in g.iter().zip(want) {
                assert!((x - w).abs() < 1e-9, "{g:?}");
            }
            assert_eq!(g[3], o.first_polish_gain);
        };
        polish(&mut seeds[0], &o, GameId::Planned(1), 0, 120_000);
        crate::solve::policy::share::share_polish_gain(&mut seeds, 0);
        expect(&seeds, [1.2, 1.2, 1.2]);
        polish(&mut seeds[1], &o, GameId::Planned(1), 0, 110_000);
        crate::solve::policy::share::share_polish_gain(&mut seeds, 1);
        expect(&seeds, [1.2, 1.1, 1.15]);
    }

    /// Regression (issue 71, problem 18): a re-plan keeps the text of the units it keeps, so
    /// where its base's text is the character encoder's, a polish of it spells only the units
    /// after them; what the polish gains teaches what polishing gains over that share of the
    /// game (a re-plan of the last 16 % of a polished game gained 0.8 % of its score and taught
    /// that as a whole polish's gain, so a re-plan of its last 68 % was never polished). A share
    /// below `polish_learn_share` teaches nothing.
    #[test]
    fn a_replan_of_a_polished_game_is_polished_from_its_cut() {
        let o = SearchOptions::default();
        let mut s = dying_seed(1);
        s.games.kept.clear();
        play(&mut s, &o, 1, &[(1, 1, 100_000)]);
        let base = GameId::Planned(1);
        polish(&mut s, &o, base, 0, 104_000);
        assert_eq!(s.games.kept[0].spelling, Mode::Chars);
        assert_eq!(s.games.polished_to(base), 1000);
        let gain = |s: &super::SeedState| s.costs.as_ref().unwrap().polish_gain;
        assert!((gain(&s) - 1.04).abs() < 1e-9, "{}", gain(&s));
        // A re-plan of its last 400 units: its first 600 are the character encoder's.
        play_lasting_from(&mut s, &o, 1, Some(600), &[(2, 1, 103_000, 1000)]);
        let replan = GameId::Planned(2);
        let g = s
            .games
            .kept
            .iter()
            .find(|g| g.id == replan)
            .unwrap()
            .clone();
        assert_eq!(s.games.polished_to(replan), 600);
        assert!((s.games.rest_share(&g) - 0.4).abs() < 1e-9);
        // It promises 103,000 x (1 + 0.04 x 0.4) = 104,648, more than the best.
        assert_eq!(
            s.games.polish_candidates(s.costs.as_ref().unwrap()).next(),
            Some(&g)
        );
        // So a tail polishes its rest, though the best game is polished already.
        let preset = clock().1;
        let ctx = Ctx {
            o: &o,
            preset: &preset,
        };
        let tail = s.tail(ctx, 10.0).expect("a tail fits");
        let parts: Vec<_> = tail
            .tasks
            .iter()
            .map(|t| match *t {
                Task::Polish { game, from, to } => (game, from, to),
                _ => panic!("{tail:?}"),
            })
            .collect();
        assert_eq!(parts, [(replan, 600, Some(800)), (replan, 800, Some(1000))]);
        polish(&mut s, &o, replan, 600, 104_236);
        // 1 + (104,236 / 103,000 - 1) / 0.4 = 1.03.
        assert!((gain(&s) - 1.03).abs() < 1e-9, "{}", gain(&s));
        // A re-plan of its last 100 units (10 %) teaches nothing, whatever it gains.
        play_lasting_from(&mut s, &o, 1, Some(900), &[(3, 1, 104_000, 1000)]);
        let last = GameId::Planned(3);
        assert_eq!(s.games.polished_to(last), 900);
        polish(&mut s, &o, last, 900, 105_000);
        assert!((gain(&s) - 1.03).abs() < 1e-9, "{}", gain(&s));
    }
}
