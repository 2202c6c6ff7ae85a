//! How a seed's beams grow: the width reached and how its rounds went ([`Widening`]), the rule
//! that widens ([`widens`]), the order in which dear and wide rounds take the systems
//! ([`rank_systems`]), and where a neighbourhood cuts the best game ([`cut_of`]).

use super::GameId;
use crate::solve::WideRule;

/// A seed's beams: how wide they are and what the rounds at each width gave.
#[derive(Clone, Debug)]
pub(super) struct Widening {
    /// The width of the last round of fresh games or neighbourhoods (not a tail's).
    pub width: usize,
    /// Rounds run at `width` since the beams reached it.
    pub at_width: u32,
    /// Rounds run since the beams grew no wider.
    pub stuck_rounds: u32,
    /// Points per work second the last round of fresh games, as wide as ever, added.
    pub widen_rate: f64,
    /// Per system: the widest beam it ran and the best score of its whole games.
    pub record: Vec<(usize, u64)>,
    /// Per width of fresh games (revivals aside), the most units one of them lasted, by width.
    pub lasted: Vec<(usize, usize)>,
    /// Per system: the best score of a fresh game it planned (the quick answer's aside).
    pub planned: Vec<u64>,
    /// Per system: its fresh games that ended before the source did, and whether one of its
    /// fresh games lasted the whole source.
    pub died: Vec<u32>,
    pub lasted_whole: Vec<bool>,
    /// The best fresh game that lasted the whole source: its score, system and width.
    pub best_whole: Option<(u64, usize, usize)>,
    /// Per system: the widest beam of its fresh games and how many of them ran at that width.
    pub games_at: Vec<(usize, u32)>,
    /// Whether the last round of fresh games that set `widen_rate` had a game of a system that
    /// planned a fresh game before it: a round of systems new to the seed compares systems,
    /// not widths.
    pub told: bool,
}

impl Widening {
    /// Before any round, with `systems` scoring systems.
    pub fn new(systems: usize) -> Widening {
        Widening {
            width: 1,
            at_width: 0,
            stuck_rounds: 0,
            widen_rate: f64::INFINITY,
            record: vec![(0, 0); systems],
            lasted: Vec::new(),
            planned: vec![0; systems],
            died: vec![0; systems],
            lasted_whole: vec![false; systems],
            best_whole: None,
            games_at: vec![(0, 0); systems],
            told: true,
        }
    }

    /// Takes a fresh game (not a revival's) of a beam of `width` that lasted `units` units.
    pub fn took_length(&mut self, width: usize, units: usize) {
        match self.lasted.binary_search_by_key(&width, |&(w, _)| w) {
            Ok(i) => self.lasted[i].1 = self.lasted[i].1.max(units),
            Err(i) => self.lasted.insert(i, (width, units)),
        }
    }

    /// How many times longer the widest fresh games lasted than those of the next narrower
    /// width (`None` before two widths): whether wider beams still buy units.
    pub fn length_gain(&self) -> Option<f64> {
        match self.lasted[..] {
            [.., (_, narrower), (_, widest)] => Some(widest as f64 / narrower.max(1) as f64),
            _ => None,
        }
    }

    /// Takes a round of attempts of `width` (not a tail's) that was `stuck` (no wider than the
    /// one before), and when it was a round of fresh games at least as wide as the last
    /// (`widened`), its `gain` over its `work` and whether it `told` (see [`Widening::told`]):
    /// whether wider beams still pay.
    pub fn took_round(&mut self, width: usize, stuck: bool, widened: Option<(f64, f64, bool)>) {
        if width != self.width {
            self.at_width = 0;
        }
        self.width = width;
        self.at_width += 1;
        self.stuck_rounds += stuck as u32;
        if let Some((gain, work, told)) = widened {
            self.widen_rate = gain / work.max(1e-9);
            self.told = told;
        }
    }

    /// Takes a fresh game of `system` planned at `width` that scored `score` and lasted `units`
    /// of the source's `source` units.
    pub fn took_game(
        &mut self,
        system: usize,
        width: usize,
        score: u64,
        units: usize,
        source: usize,
    ) {
        let rec = &mut self.record[system];
        *rec = (rec.0.max(width), rec.1.max(score));
        self.planned[system] = self.planned[system].max(score);
        let at = &mut self.games_at[system];
        *at = match width.cmp(&at.0) {
            std::cmp::Ordering::Greater => (width, 1),
            std::cmp::Ordering::Equal => (width, at.1 + 1),
            std::cmp::Ordering::Less => *at,
        };
        if units >= source {
            self.lasted_whole[system] = true;
            if self.best_whole.is_none_or(|b| score > b.0) {
                self.best_whole = Some((score, system, width));
            }
        } else {
            self.died[system] += 1;
        }
    }

    /// Takes a neighbourhood of `system` that re-planned the best game from unit `cut` of a
    /// source of `source` units and lasted `units`: one cut in the source's first half planned
    /// most of a game, and tells as a fresh game would whether the system's beams live at its
    /// width ([`Widening::retries`]); its score, mostly the opening's, is not the system's.
    pub fn took_replan(&mut self, system: usize, cut: usize, units: usize, source: usize) {
        if 2 * cut > source {
            return;
        }
        if units >= source {
            self.lasted_whole[system] = true;
        } else {
            self.died[system] += 1;
        }
    }

    /// Per system: whether a dear or wide round tries it again before ranking it by its score
    /// ([`rank_systems`]): where the seed's best game lasts the whole source (`whole`) but the
    /// system's one fresh game died early. A beam that dies says its width was too narrow for
    /// the system, not what the system scores: on a narrow board with a long source the
    /// systems that clear lines two and three at a time die in narrow beams and win in wide
    /// ones (docs/tuning.md).
    pub fn retries(&self, whole: bool) -> Vec<bool> {
        self.died
            .iter()
            .zip(&self.lasted_whole)
            .map(|(&died, &lasted)| whole && died == 1 && !lasted)
            .collect()
    }
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
/// comes after the ones never run: its greedy game says little of its beams, which may score
/// well below the best system's (docs/tuning.md). Then the best first. A system to try again
/// (`retry`, see [`Widening::retries`]) comes right after the best system tried, so that a
/// round of two keeps the game that tells whether its width pays.
pub fn rank_systems(record: &[(usize, u64)], retry: &[bool]) -> Vec<usize> {
    let retries = |s: usize| retry.get(s).copied().unwrap_or(false);
    // The best system tried that is not to try again (the first of the highest score).
    let best = best_tried(record, (0..record.len()).filter(|&s| !retries(s)));
    let any_retry = (0..record.len()).any(retries);
    let mut rank: Vec<usize> = (0..record.len()).collect();
    rank.sort_by_key(|&s| {
        let (width, score) = record[s];
        let group = match () {
            _ if width == 0 || !any_retry => 0,
            _ if Some(s) == best => 1,
            _ if retries(s) => 2,
            _ => 3,
        };
        (group, width > 1, width > 0, std::cmp::Reverse(score))
    });
    rank
}

/// The best of `systems` that ran (a `record` width above 0): the highest score, the first of
/// equals.
fn best_tried(record: &[(usize, u64)], systems: impl Iterator<Item = usize>) -> Option<usize> {
    systems
        .filter(|&s| record.get(s).is_some_and(|r| r.0 > 0))
        .max_by_key(|&s| (record[s].1, std::cmp::Reverse(s)))
}

/// Moves the systems of `first` whose widest beam (their `record` width) is narrower than the
/// rule's `below` to the front of `rank`, in the order of `first`, the others keeping theirs:
/// what a wide round runs first ([`crate::solve::SearchOptions::wide_systems`]). With `beside`,
/// those that ran go right after the best system tried instead (the first of the highest
/// score), which then goes ahead of every other system that ran, so that a round of two keeps
/// the best system's game; those that never ran still go to the front. One that ran moves only
/// while its best game lies within `margin` of the best system's, or none of its games `lasted`
/// the whole source: a narrow game that scored about as well says little of the system's wide
/// ones, one far below does, but not one that died (its score counts only the units it
/// lasted).
pub fn wide_first(
    rank: &mut Vec<usize>,
    first: &[usize],
    record: &[(usize, u64)],
    lasted: &[bool],
    rule: WideRule,
) {
    let width = |s: usize| record.get(s).map_or(0, |r| r.0);
    let top = best_tried(record, 0..record.len()).map_or(0, |b| record[b].1);
    let near = |s: usize| {
        width(s) == 0
            || !lasted.get(s).copied().unwrap_or(false)
            || record[s].1 as f64 >= (1.0 - rule.margin) * top as f64
    };
    let (front, ran): (Vec<usize>, Vec<usize>) = first
        .iter()
        .copied()
        .filter(|&s| rank.contains(&s) && width(s) < rule.below && near(s))
        .partition(|&s| !rule.beside || width(s) == 0);
    rank.retain(|s| !front.contains(s) && !ran.contains(s));
    let best = best_tried(record, rank.iter().copied());
    // The best system goes ahead of every other system that ran (the quick answer's, run at
    // width 1 only, ranks ahead of it otherwise), so that a round of two plays it and the wide
    // system beside it: on problem 10 the quick answer's system took the first lane and
    // `pairs` came third, in no round of two.
    if let Some(b) = best.filter(|_| !ran.is_empty()) {
        let tried = rank.iter().position(|&s| width(s) > 0);
        if let (Some(t), Some(i)) = (tried, rank.iter().position(|&s| s == b)) {
            let b = rank.remove(i);
            rank.insert(t.min(i), b);
        }
    }
    let at = best
        .and_then(|b| rank.iter().position(|&s| s == b))
        .map_or(0, |i| i + 1);
    rank.splice(at..at, ran);
    rank.splice(0..0, front);
}

/// A cut among a game's `span` last units (of `units`), drawn from the attempt's `id`: the same
/// id gives the same cut.
pub(super) fn cut_of(id: u32, units: usize, span: usize) -> usize {
    if span == 0 {
        return 0;
    }
    let r = ((id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) % span as u64;
    units - span + r as usize
}

/// Where a round's attempts start: whole games, or neighbourhoods of the best game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Start {
    /// Fresh games from the first unit.
    Fresh,
    /// Neighbourhoods of the best game, cut anywhere.
    Cuts,
    /// Neighbourhoods of the best game cut among its last `span` units (`survival_span` for an
    /// attempt of the survival systems, whose beams cost another price): a tail round, at the
    /// end of the time.
    Tail { span: usize, survival_span: usize },
}

impl Start {
    /// The game attempt `id` re-plans from the best game `best` (`None`: fresh), planning with a
    /// survival system or not (`survive`).
    pub fn base(self, id: u32, best: (GameId, usize), survive: bool) -> Option<(GameId, usize)> {
        let (game, units) = best;
        let span = match self {
            Start::Fresh => return None,
            Start::Cuts => units,
            Start::Tail { survival_span, .. } if survive => survival_span.min(units),
            Start::Tail { span, .. } => span.min(units),
        };
        Some((game, cut_of(id, units, span)))
    }
}
