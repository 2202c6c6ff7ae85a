//! The phrase table of the encoders: each phrase as commands, with its geometry relative to the
//! state where it starts, and the phrases that can never be played dropped.
//!
//! A phrase is a fixed command sequence. Started at a state with pivot row parity `p`, its i-th
//! command leads to the state `(x + dx_i, y + dy_i, o + rot_i)`; `dx_i` depends on `p` (descents
//! lean differently from even and odd rows), `rot_i` is counted mod 6 and reduced mod the unit's
//! number of distinct orientations where used. A phrase "repeats itself" when two of those states
//! (the start included) coincide: it can then never be played by that unit. One that repeats
//! itself even for a unit without symmetry (e.g. "pb": W then E) can never be played at all.

use crate::engine::{offset_step, repetition_points, Command, Decoded, Phrases, FIRST_USE_POINTS};

/// The relative states a phrase visits from a start of one row parity.
#[derive(Clone, Debug, Default)]
pub struct Geometry {
    /// After each command: `(dx, dy, rot)` relative to the start, `rot` in 0..6.
    pub steps: Vec<(i64, i64, u8)>,
}

impl Geometry {
    fn new(cmds: &[Command], parity: i64) -> Geometry {
        let (mut x, mut y, mut r) = (0i64, 0i64, 0u8);
        let mut steps = Vec::with_capacity(cmds.len());
        for &c in cmds {
            match c {
                Command::CW => r = (r + 1) % 6,
                Command::CCW => r = (r + 5) % 6,
                _ => {
                    // Row parities are those of the board: the start's parity plus the rows
                    // descended so far.
                    let dir = c.dir().expect("a command that is not a rotation moves");
                    let (nx, ny) = offset_step(x, parity + y, dir);
                    (x, y) = (nx, ny - parity);
                }
            }
            steps.push((x, y, r));
        }
        Geometry { steps }
    }

    /// Whether the phrase revisits a state for a unit with `k` distinct orientations.
    pub fn repeats(&self, k: u8) -> bool {
        let mut seen: Vec<(i64, i64, u8)> = vec![(0, 0, 0)];
        for &(x, y, r) in &self.steps {
            let s = (x, y, r % k);
            if seen.contains(&s) {
                return true;
            }
            seen.push(s);
        }
        false
    }
}

/// One phrase of power, ready for the encoders.
#[derive(Clone, Debug)]
pub struct Phrase {
    /// The text as it is spelt (lower case).
    pub text: String,
    pub cmds: Vec<Command>,
    /// Number of descending commands (SW, SE).
    pub descents: usize,
    /// Index of the phrase in the scoring [`Phrases`] list.
    pub score_index: usize,
    /// Geometry per start-row parity.
    pub geometry: [Geometry; 2],
}

impl Phrase {
    /// Whether this unit (with `k` distinct orientations) can ever play the phrase.
    pub fn playable(&self, k: u8) -> bool {
        !self.geometry[0].repeats(k) && !self.geometry[1].repeats(k)
    }

    /// The points of `n` occurrences beyond the first-use bonus, by the engine's rule
    /// ([`repetition_points`], which counts characters).
    pub fn repetition_points(&self, n: u32) -> i32 {
        repetition_points(self.text.chars().count(), n) as i32
    }

    /// What the encoders count a first use as worth: the 300 it scores, plus a priority that
    /// grows with the square of the phrase's descents. A short phrase fits almost any unit's path
    /// and can wait; a long one fits only while the board is nearly empty, so it must come first
    /// (otherwise the first units spell several short phrases in the rows the long one needed).
    pub fn first_use(&self) -> i32 {
        FIRST_USE_POINTS as i32 + 4 * (self.descents * self.descents) as i32
    }
}

/// Something the encoders spell in one go: a phrase, or a chain of overlapping copies of a
/// phrase that overlaps itself ("ia! ia! ia!" holds "ia! ia!" twice).
#[derive(Clone, Debug)]
pub struct Word {
    pub text: String,
    pub cmds: Vec<Command>,
    pub descents: usize,
    /// Occurrences of the table's phrases in the word: `(phrase index, count)`, counts > 0.
    pub counts: Vec<(usize, u32)>,
    /// Geometry per start-row parity.
    pub geometry: [Geometry; 2],
}

impl Word {
    fn new(text: String, phrases: &[Phrase]) -> Word {
        let cmds: Vec<Command> = text
            .chars()
            .map(|c| match Command::decode(c) {
                Decoded::Command(k) => k,
                _ => unreachable!("words are built from playable phrases"),
            })
            .collect();
        let counts = phrases
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let n = text
                    .as_bytes()
                    .windows(p.text.len())
                    .filter(|w| *w == p.text.as_bytes())
                    .count();
                (n > 0).then_some((i, n as u32))
            })
            .collect();
        Word {
            descents: cmds.iter().filter(|c| c.is_descent()).count(),
            geometry: [Geometry::new(&cmds, 0), Geometry::new(&cmds, 1)],
            cmds,
            counts,
            text,
        }
    }

    /// Whether this unit (with `k` distinct orientations) can ever play the word.
    pub fn playable(&self, k: u8) -> bool {
        !self.geometry[0].repeats(k) && !self.geometry[1].repeats(k)
    }

    /// What the encoders count the word as worth, given which phrases are used already: the
    /// power score of its occurrences, plus the first-use value ([`Phrase::first_use`]) of each
    /// phrase it holds that is not used yet.
    pub fn value(&self, phrases: &[Phrase], used: &[bool]) -> i32 {
        self.counts
            .iter()
            .map(|&(p, n)| {
                let first = if used[p] { 0 } else { phrases[p].first_use() };
                phrases[p].repetition_points(n) + first
            })
            .sum()
    }

    /// The power score the word adds (the first use of a phrase scoring 300).
    pub fn score(&self, phrases: &[Phrase], used: &[bool]) -> i32 {
        self.counts
            .iter()
            .map(|&(p, n)| {
                let first = if used[p] { 0 } else { FIRST_USE_POINTS as i32 };
                phrases[p].repetition_points(n) + first
            })
            .sum()
    }
}

/// The longest overlapping chain of one phrase that becomes a word: up to this many copies.
const MAX_CHAIN: usize = 6;

/// Why a phrase was dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// It holds a character outside the command table.
    BadCharacter(char),
    /// It returns a unit to a position it held, whatever the unit.
    RepeatsItself,
}

/// The phrases the encoders can spell.
#[derive(Clone, Debug, Default)]
pub struct PhraseTable {
    pub phrases: Vec<Phrase>,
    /// The words: every phrase, then the chains of self-overlapping phrases.
    pub words: Vec<Word>,
    /// Phrases of the scoring list that can never be spelt, and why.
    pub dropped: Vec<(String, Dropped)>,
}

impl PhraseTable {
    /// Per word: the phrases it holds (indices into `phrases`), whose first uses it earns.
    pub fn word_phrases(&self) -> Vec<Vec<usize>> {
        self.words
            .iter()
            .map(|w| w.counts.iter().map(|&(p, _)| p).collect())
            .collect()
    }

    pub fn new(list: &Phrases) -> PhraseTable {
        let mut t = PhraseTable::default();
        'phrases: for (i, text) in list.iter().enumerate() {
            let mut cmds = Vec::new();
            for c in text.chars() {
                match Command::decode(c) {
                    Decoded::Command(k) => cmds.push(k),
                    _ => {
                        t.dropped.push((text.to_string(), Dropped::BadCharacter(c)));
                        continue 'phrases;
                    }
                }
            }
            let geometry = [Geometry::new(&cmds, 0), Geometry::new(&cmds, 1)];
            let phrase = Phrase {
                text: text.to_string(),
                descents: cmds.iter().filter(|c| c.is_descent()).count(),
                cmds,
                score_index: i,
                geometry,
            };
            if !phrase.playable(6) {
                t.dropped.push((text.to_string(), Dropped::RepeatsItself));
                continue;
            }
            t.phrases.push(phrase);
        }
        let mut words: Vec<Word> = t
            .phrases
            .iter()
            .map(|p| Word::new(p.text.clone(), &t.phrases))
            .collect();
        for p in &t.phrases {
            // The smallest period of the text: a copy can start that many characters later.
            let len = p.text.len();
            let Some(period) =
                (1..len).find(|&d| p.text.as_bytes()[d..] == p.text.as_bytes()[..len - d])
            else {
                continue;
            };
            for copies in 2..=MAX_CHAIN {
                let text = format!("{}{}", &p.text[..period].repeat(copies - 1), p.text);
                let w = Word::new(text, &t.phrases);
                if w.playable(6) {
                    words.push(w);
                }
            }
        }
        t.words = words;
        t
    }

    /// One line per dropped phrase, for the user.
    pub fn warnings(&self) -> Vec<String> {
        self.dropped
            .iter()
            .map(|(p, why)| match why {
                Dropped::BadCharacter(c) => {
                    format!("phrase {p:?} dropped: {c:?} is not a command character")
                }
                Dropped::RepeatsItself => {
                    format!("phrase {p:?} dropped: it returns a unit to a position it held")
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unplayable_phrases_are_dropped() {
        let list = Phrases::new(["ei!", "pb", "sd", "a-b", "ddd"].map(String::from));
        let t = PhraseTable::new(&list);
        let kept: Vec<&str> = t.phrases.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(kept, vec!["ei!", "ddd"]);
        assert_eq!(t.dropped.len(), 3);
        assert_eq!(
            t.dropped[2],
            ("a-b".to_string(), Dropped::BadCharacter('-'))
        );
        // Three clockwise turns repeat for a unit symmetric under 180 degrees (k = 3), not for
        // one without symmetry.
        let ddd = &t.phrases[1];
        assert!(ddd.playable(6));
        assert!(!ddd.playable(3));
        assert!(!ddd.playable(1));
        assert_eq!(t.warnings().len(), 3);
    }

    #[test]
    fn official_phrases_are_all_playable_without_symmetry() {
        let t = PhraseTable::new(&Phrases::official());
        assert_eq!(t.phrases.len(), 18);
        let ei = &t.phrases[0];
        assert_eq!(ei.descents, 1);
        // E, SW, W from an even row: (1,0), (0,1), (-1,1).
        assert_eq!(ei.geometry[0].steps, vec![(1, 0, 0), (0, 1, 0), (-1, 1, 0)]);
        assert_eq!(ei.geometry[1].steps, vec![(1, 0, 0), (1, 1, 0), (0, 1, 0)]);
        // Only "ei!" and "ia! ia!" hold no rotation: a 1-cell unit (k = 1) plays just those.
        let k1: Vec<&str> = t
            .phrases
            .iter()
            .filter(|p| p.playable(1))
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(k1, vec!["ei!", "ia! ia!"]);
    }

    #[test]
    fn self_overlapping_phrases_chain_into_words() {
        let t = PhraseTable::new(&Phrases::official());
        let chain = t
            .words
            .iter()
            .find(|w| w.text == "ia! ia! ia!")
            .expect("a chain of three");
        assert_eq!(chain.counts, vec![(1, 2)]);
        let used = vec![false; t.phrases.len()];
        assert_eq!(chain.score(&t.phrases, &used), 300 + 28);
        assert_eq!(chain.value(&t.phrases, &used), 300 + 4 * 25 + 28);
        let mut used = used;
        used[1] = true;
        assert_eq!(chain.score(&t.phrases, &used), 28);
        assert_eq!(chain.value(&t.phrases, &used), 28);
        // "necronomicon" overlaps itself by its last letter; no other official phrase does.
        let nn = t
            .words
            .iter()
            .find(|w| w.text == "necronomiconecronomicon")
            .expect("n chain");
        assert_eq!(nn.counts, vec![(6, 2)]);
        assert_eq!(t.words.len(), 18 + 2 * (MAX_CHAIN - 1));
    }
}
