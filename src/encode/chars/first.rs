//! What the text spelt so far leaves the next unit: where it leaves the automata, which phrases
//! it has used, the phrase the unit before began, and the phrases whose first use the next unit's
//! walk counts.

use super::automaton::{Automaton, Node};
use super::region::Region;
use super::rounds::PatternValues;
use super::tables::CharTables;
use crate::encode::{Phrase, PhraseTable};

/// The text spelt so far, where it leaves both automata (the full one and the repetition one),
/// and which phrases it has used: the one place the text is read back, for the opening and
/// after every unit alike.
pub(super) struct SoFar {
    pub(super) text: String,
    pub(super) full: Node,
    pub(super) rep: Node,
    /// Per phrase of the table: whether the text spells it.
    pub(super) used: Vec<bool>,
}

impl SoFar {
    /// Nothing spelt, for a table of `phrases` phrases.
    pub(super) fn new(phrases: usize) -> SoFar {
        SoFar {
            text: String::new(),
            full: 0,
            rep: 0,
            used: vec![false; phrases],
        }
    }

    /// Appends `text`, following it on both automata (case-folded, as the engine reads it).
    pub(super) fn push(&mut self, ct: &CharTables, text: &str) {
        for b in text.bytes() {
            let b = b.to_ascii_lowercase();
            self.full = ct.full.step(self.full, b);
            self.rep = ct.rep.step(self.rep, b);
            for &p in ct.full.ends(self.full) {
                self.used[ct.full_ids[p as usize]] = true;
            }
        }
        self.text.push_str(text);
    }
}

/// An unused phrase that `text` ends inside (a span begun by the unit before): how many of its
/// characters the text ends with (the longest such prefix, 0 for none, never the whole
/// phrase), and the descents of the rest.
pub(super) fn begun(phrase: &Phrase, text: &str) -> (usize, usize) {
    let d = (1..phrase.text.len())
        .rev()
        .find(|&d| text.ends_with(&phrase.text[..d]))
        .unwrap_or(0);
    let rest = phrase.cmds[d..].iter().filter(|c| c.is_descent()).count();
    (d, rest)
}

/// Whether the rest of a begun phrase, `rest` descents, fits in a unit that passes through
/// `rows` rows: its last descent may be the lock only where it ends the phrase, else the unit
/// falls a row per descent of the rest. (Regression: on problem 23, "ia! ia!" begun by an "i"
/// counted as finishable in a unit of 3 descents, its rest "a! ia!" having 4, and so was no
/// span the unit could begin afresh for the next: its first use was lost.)
pub(super) fn rest_fits(phrase: &Phrase, rest: usize, rows: usize) -> bool {
    let last_locks = phrase.cmds.last().is_some_and(|c| c.is_descent());
    let need = if last_locks { rest } else { rest + 1 };
    need <= rows
}

/// The phrases whose first use one unit's walk counts (see the module doc), as indices into
/// the phrase table.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct FirstUses {
    /// Unused phrases the unit can spell on its way down (it can play them, they need no more
    /// rows than it falls, and its region fits their commands), and the rest of a phrase the
    /// unit before began.
    pub(super) wanted: Vec<usize>,
    /// Unused phrases too long for the unit's way down but not for it and the next unit's
    /// together: the unit may begin them, its lock a character of the phrase.
    pub(super) spans: Vec<usize>,
    /// The phrases of the unit's automaton: the repeated ones, the wanted ones and the spans,
    /// sorted (empty when no first use is counted).
    pub(super) ids: Vec<usize>,
}

impl FirstUses {
    /// Whether the walk counts no first use: the repetition automaton serves.
    pub(super) fn is_empty(&self) -> bool {
        self.wanted.is_empty() && self.spans.is_empty()
    }

    /// Whether phrase `p` counts once, for its first use.
    pub(super) fn once(&self, p: usize) -> bool {
        self.wanted.contains(&p) || self.spans.contains(&p)
    }

    /// The values of the unit automaton's patterns (`ids`, in order): a wanted phrase's or a
    /// span's first use counts once; the repeated phrases, and those, at every occurrence.
    pub(super) fn pattern_values(&self, ct: &CharTables) -> PatternValues {
        let repeated = |p: usize| self.once(p) || ct.rep_ids.contains(&p);
        PatternValues {
            first: self
                .ids
                .iter()
                .map(|&p| if self.once(p) { ct.first[p] } else { 0 })
                .collect(),
            repeat: self
                .ids
                .iter()
                .map(|&p| if repeated(p) { ct.repeat[p] } else { 0 })
                .collect(),
        }
    }

    /// The node gains of the unit automaton `ac` for the next unit, which may finish a span:
    /// there only the spans' first uses count (a wanted phrase that this unit spells would
    /// otherwise count twice), and the repeated phrases' occurrences.
    pub(super) fn next_gains(&self, ct: &CharTables, ac: &Automaton) -> Vec<i32> {
        CharTables::gains(ac, &self.ids, |p| {
            if self.spans.contains(&p) {
                ct.first[p] + ct.repeat[p]
            } else if ct.rep_ids.contains(&p) {
                ct.repeat[p]
            } else {
                0
            }
        })
    }
}

/// The phrases whose first use the walk of a unit of kind `unit` counts, after the text
/// `so_far`: the unused phrases it can play that need no more rows than the `rows` it passes
/// through and whose commands its `region` fits, the rest of a phrase the unit before began,
/// and (with the `next_rows` of the unit after it) the spans.
pub(super) fn first_uses(
    ct: &CharTables,
    table: &PhraseTable,
    unit: usize,
    rows: usize,
    next_rows: Option<usize>,
    so_far: &SoFar,
    region: &Region,
) -> FirstUses {
    // A phrase needs as many rows as it has descents, but for the last one, which may be the
    // lock; the unit goes down only from its spawn to its lock.
    let unused = ct.full_ids.iter().copied().filter(|&p| !so_far.used[p]);
    let wanted: Vec<usize> = unused
        .clone()
        .filter(|&p| {
            let (d, rest) = begun(&table.phrases[p], &so_far.text);
            let fits = ct.playable[unit][p]
                && ct.descents[p] <= rows
                && region.fits(&table.phrases[p].cmds);
            (d > 0 && rest_fits(&table.phrases[p], rest, rows)) || fits
        })
        .collect();
    let spans: Vec<usize> = match next_rows {
        Some(next_rows) => unused
            .filter(|&p| {
                !wanted.contains(&p) && ct.descents[p] > rows && ct.descents[p] < rows + next_rows
            })
            .collect(),
        None => Vec::new(),
    };
    let mut uses = FirstUses {
        wanted,
        spans,
        ids: Vec::new(),
    };
    if !uses.is_empty() {
        let mut ids: Vec<usize> = ct.rep_ids.clone();
        ids.extend(uses.wanted.iter().chain(&uses.spans).copied());
        ids.sort();
        ids.dedup();
        uses.ids = ids;
    }
    uses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::PhraseTable;
    use crate::engine::Phrases;

    #[test]
    fn begun_finds_the_part_of_a_phrase_already_spelt() {
        let phrases = Phrases::official();
        let table = PhraseTable::new(&phrases);
        let ia = table
            .phrases
            .iter()
            .find(|p| p.text == "ia! ia!")
            .expect("an official phrase");
        let descents_from = |d: usize| ia.cmds[d..].iter().filter(|c| c.is_descent()).count();
        assert_eq!(begun(ia, "bbbia! i"), (5, descents_from(5)));
        assert_eq!(begun(ia, "bbbi"), (1, descents_from(1)));
        assert_eq!(begun(ia, "bbb"), (0, ia.descents));
        // The whole phrase is not begun but done; its own prefix "ia!" is begun again.
        assert_eq!(begun(ia, "ia! ia!"), (3, descents_from(3)));
    }

    /// Regression (problem 23's greedy game by `fill`): "ia! ia!" begun by an "i" leaves "a!
    /// ia!", 4 descents ending in a row move, which a unit of 4 rows (3 descents) cannot
    /// finish; a phrase whose rest ends in a descent may lock on it.
    #[test]
    fn a_begun_phrase_fits_only_where_its_rest_can_be_spelt() {
        let table = PhraseTable::new(&Phrases::official());
        let by_text = |t: &str| table.phrases.iter().find(|p| p.text == t).unwrap();
        let ia = by_text("ia! ia!");
        let (d, rest) = begun(ia, "kaei");
        assert_eq!((d, rest), (1, 4));
        assert!(!rest_fits(ia, rest, 4));
        assert!(rest_fits(ia, rest, 5));
        // "ei!" ends in a row move too; a phrase ending in a descent locks on its last one.
        let ending_in_descent = table
            .phrases
            .iter()
            .find(|p| p.cmds.last().is_some_and(|c| c.is_descent()) && p.descents > 1)
            .expect("an official phrase ending in a descent");
        let rest = ending_in_descent.descents;
        assert!(rest_fits(ending_in_descent, rest, rest));
        assert!(!rest_fits(ending_in_descent, rest, rest - 1));
    }
}
