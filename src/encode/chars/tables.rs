//! The automata and values the character encoder shares between the games of a problem, and the
//! automata of the units that count first uses.

use super::automaton::{Automaton, Node};
use super::SCALE;
use crate::encode::PhraseTable;
use crate::plan::UnitSpace;

/// The automata and values the character encoder shares between the games of a problem.
pub struct CharTables {
    /// The phrases some unit of the problem can play, as indices into the phrase table.
    pub(super) full_ids: Vec<usize>,
    /// The automaton of those phrases.
    pub(super) full: Automaton,
    /// The phrases worth repeating, and their smaller automaton (see [`CharTables::new`]).
    pub(super) rep_ids: Vec<usize>,
    pub(super) rep: Automaton,
    /// Per phrase of the table: its repetition value (scaled), 2 x length.
    pub(super) repeat: Vec<i32>,
    /// Per phrase of the table: its first-use value (scaled).
    pub(super) first: Vec<i32>,
    /// Per unit of the problem, per phrase of the table: whether the unit can ever play it.
    pub(super) playable: Vec<Vec<bool>>,
    /// Per phrase of the table: its descents.
    pub(super) descents: Vec<usize>,
    /// Columns each side of a unit's shortest path the programme covers (`None`: all).
    pub corridor: Option<i64>,
}

/// Columns each side of a unit's shortest path the programme covers on wide boards: with the
/// backward pass in the same corridor, 12 re-spelt the stored games of the wide problems (7,
/// 14, 24) to more than 10 did on each, and 14 lost on problem 7 (docs/tuning.md).
pub const CORRIDOR: i64 = 12;

/// The widest board the programme covers whole: there the whole width costs little more than a
/// corridor, and a corridor was measured to lose words (boards 8 and 10 wide).
pub const WHOLE_WIDTH: usize = 30;

/// The corridor for a board `width` columns wide: none up to [`WHOLE_WIDTH`]; on wider boards
/// the programme's size follows the path, not the board.
pub fn corridor_for(width: usize) -> Option<i64> {
    (width > WHOLE_WIDTH).then_some(CORRIDOR)
}

/// The most nodes the automaton of repeated phrases may have.
pub(super) const REPEAT_NODES: usize = 64;

impl CharTables {
    /// The automata for `table` on a problem whose units have these spaces. Phrases no unit can
    /// play are left out. Repetitions are valued on a smaller automaton: the phrases with the
    /// most points per descent (a chain of a self-overlapping phrase counted at its period), as
    /// many as fit in [`REPEAT_NODES`] nodes; after its first use a long phrase is worth less
    /// per row than a short one repeated, so the others are spelt once, for their first use.
    pub fn new(table: &PhraseTable, spaces: &[UnitSpace], width: usize) -> CharTables {
        let playable: Vec<Vec<bool>> = spaces
            .iter()
            .map(|sp| table.phrases.iter().map(|p| p.playable(sp.k)).collect())
            .collect();
        // A phrase without a descent could be spelt again and again along one row in the
        // programme's relaxed model (a walk may come back to a position there), whose values
        // would then grow without bound: such phrases are left to the other encoders.
        let full_ids: Vec<usize> = (0..table.phrases.len())
            .filter(|&p| playable.iter().any(|u| u[p]) && table.phrases[p].descents > 0)
            .collect();
        let density = |p: usize| {
            let ph = &table.phrases[p];
            let len = ph.text.chars().count();
            // A self-overlapping phrase repeats every `period` characters.
            let bytes = ph.text.as_bytes();
            let period = (1..len)
                .find(|&d| bytes[d..] == bytes[..len - d])
                .unwrap_or(len);
            let desc = ph.cmds[len - period..]
                .iter()
                .filter(|c| c.is_descent())
                .count()
                .max(1);
            2.0 * len as f64 / desc as f64
        };
        let mut ranked = full_ids.clone();
        ranked.sort_by(|&a, &b| density(b).total_cmp(&density(a)).then(a.cmp(&b)));
        // Every unit keeps its two best phrases (a unit that cannot rotate plays only two);
        // the others join by density while the automaton stays small.
        let mut rep_ids: Vec<usize> = Vec::new();
        for u in &playable {
            for &p in ranked.iter().filter(|&&p| u[p]).take(2) {
                if !rep_ids.contains(&p) {
                    rep_ids.push(p);
                }
            }
        }
        for p in ranked {
            if rep_ids.contains(&p) {
                continue;
            }
            let mut with = rep_ids.clone();
            with.push(p);
            let texts: Vec<&str> = with
                .iter()
                .map(|&q| table.phrases[q].text.as_str())
                .collect();
            if Automaton::new(&texts).len() <= REPEAT_NODES {
                rep_ids = with;
            }
        }
        rep_ids.sort();
        let texts = |ids: &[usize]| -> Vec<String> {
            ids.iter().map(|&q| table.phrases[q].text.clone()).collect()
        };
        let full = Automaton::new(&texts(&full_ids));
        let rep = Automaton::new(&texts(&rep_ids));
        CharTables {
            full_ids,
            full,
            rep_ids,
            rep,
            repeat: table
                .phrases
                .iter()
                .map(|p| p.repetition_points(1) * SCALE)
                .collect(),
            first: table
                .phrases
                .iter()
                .map(|p| p.first_use() * SCALE)
                .collect(),
            playable,
            descents: table.phrases.iter().map(|p| p.descents).collect(),
            corridor: corridor_for(width),
        }
    }

    /// Node gains of `ac`, whose phrases are `ids`, when table phrase `p` is worth `value(p)`.
    pub(super) fn gains(ac: &Automaton, ids: &[usize], value: impl Fn(usize) -> i32) -> Vec<i32> {
        let v: Vec<i32> = ids.iter().map(|&p| value(p)).collect();
        ac.gains(&v)
    }
}

/// The automaton of a unit that may spell phrases for their first use, with its maps.
pub(super) struct Fresh {
    pub(super) ac: Automaton,
    /// Node of `ac` for each node of the full automaton.
    pub(super) of_full: Vec<Node>,
    /// Node of the repetition automaton for each node of `ac`.
    pub(super) rep_of: Vec<Node>,
}

/// The automata of the units that count first uses, one per set of phrases, each built once
/// per encoding.
#[derive(Default)]
pub(super) struct FreshAutomata {
    pub(super) map: rustc_hash::FxHashMap<Vec<usize>, Fresh>,
}

impl FreshAutomata {
    /// The automaton of the table's phrases `ids`, with its maps from the full automaton and
    /// to the repetition one.
    pub(super) fn get(&mut self, table: &PhraseTable, ct: &CharTables, ids: &[usize]) -> &Fresh {
        self.map.entry(ids.to_vec()).or_insert_with(|| {
            let texts: Vec<&str> = ids
                .iter()
                .map(|&p| table.phrases[p].text.as_str())
                .collect();
            let ac = Automaton::new(&texts);
            Fresh {
                of_full: ac.map_from(&ct.full),
                rep_of: ct.rep.map_from(&ac),
                ac,
            }
        })
    }
}
