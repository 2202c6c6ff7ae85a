//! Phrases of power and the power score (RULES.md section 11).
//!
//! Matching runs on the raw solution text, lower-cased character by character as the evaluator
//! does ([`simple_lower`]), with every starting position tried, so overlapping occurrences each
//! count. A phrase that occurs `n > 0` times scores `2 * len * n + 300`.

use super::command::simple_lower;

/// What the first occurrence of a phrase adds, on top of its repetition points.
pub const FIRST_USE_POINTS: u64 = 300;

/// The points for `n` occurrences of a phrase of `len` characters, without the first-use bonus:
/// `2 * len * n`. The length counts characters, not bytes.
pub const fn repetition_points(len: usize, n: u32) -> u64 {
    2 * len as u64 * n as u64
}

/// The power score of a phrase of `len` characters occurring `n` times: `2 * len * n + 300`
/// when it occurs at all, 0 otherwise.
pub const fn phrase_points(len: usize, n: u32) -> u64 {
    if n == 0 {
        0
    } else {
        FIRST_USE_POINTS + repetition_points(len, n)
    }
}

/// The 18 phrases of power of the 2015 contest, as `phrases.txt` lists them.
pub const OFFICIAL_PHRASES: [&str; 18] = [
    "ei!",
    "ia! ia!",
    "r'lyeh",
    "yuggoth",
    "tsathoggua",
    "yogsothoth",
    "necronomicon",
    "vigintillion",
    "cthulhu fhtagn!",
    "ph'nglui mglw'nafh cthulhu r'lyeh wgah'nagl fhtagn.",
    "in his house at r'lyeh dead cthulhu waits dreaming.",
    "the laundry",
    "planet 10",
    "yoyodyne",
    "monkeyboy",
    "john bigboote",
    "blue hades",
    "case nightmare green",
];

/// The phrases a score counts, lower-cased and without duplicates, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrases {
    list: Vec<String>,
}

impl Phrases {
    /// The 18 official phrases.
    pub fn official() -> Phrases {
        Phrases::new(OFFICIAL_PHRASES.iter().map(|s| s.to_string()))
    }

    /// The given phrases, lower-cased, duplicates and empty strings dropped.
    pub fn new(list: impl IntoIterator<Item = String>) -> Phrases {
        let mut out: Vec<String> = Vec::new();
        for p in list {
            let lower: String = p.chars().map(simple_lower).collect();
            if !lower.is_empty() && !out.contains(&lower) {
                out.push(lower);
            }
        }
        Phrases { list: out }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn get(&self, i: usize) -> &str {
        &self.list[i]
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.list.iter().map(|s| s.as_str())
    }

    /// How many times each phrase occurs in `text`, overlaps included, in the order of the list.
    pub fn count(&self, text: &str) -> Vec<u32> {
        let lower: String = text.chars().map(simple_lower).collect();
        let hay = lower.as_bytes();
        self.list
            .iter()
            .map(|p| {
                // Lower-casing maps characters one to one, so byte windows of the UTF-8 text
                // match exactly where character windows would.
                let p = p.as_bytes();
                let Some(&first) = p.first() else { return 0 };
                let mut n = 0;
                let mut i = 0;
                while i + p.len() <= hay.len() {
                    if hay[i] == first && &hay[i..i + p.len()] == p {
                        n += 1;
                    }
                    i += 1;
                }
                n
            })
            .collect()
    }

    /// The power score of the counts returned by [`Phrases::count`].
    pub fn score(&self, counts: &[u32]) -> u64 {
        self.list
            .iter()
            .zip(counts)
            .map(|(p, &n)| phrase_points(p.chars().count(), n))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_occurrences_count() {
        let p = Phrases::official();
        let c = p.count("ia! ia! ia!");
        assert_eq!(c[1], 2);
        assert_eq!(p.score(&c), 328);
    }

    #[test]
    fn case_is_ignored_and_raw_text_matters() {
        let p = Phrases::official();
        assert_eq!(p.score(&p.count("EI!")), 306);
        assert_eq!(p.score(&p.count("ia!\n ia!")), 0);
        assert_eq!(p.score(&p.count("bap")), 0);
        // Each phrase pays 300 once, then 2 * len per occurrence.
        assert_eq!(p.score(&p.count("ei!ei!")), 312);
    }

    #[test]
    fn custom_phrases_are_lower_cased_and_deduplicated() {
        let p = Phrases::new(["EI!".to_string(), "ei!".to_string(), String::new()]);
        assert_eq!(p.len(), 1);
        assert_eq!(p.get(0), "ei!");
    }
}
