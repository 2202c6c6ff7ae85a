//! Building the encoder of one problem and one phrase table: per unit, the geometry of every
//! word the unit can play, which the spelling loop ([`super::spell`]), the character encoder
//! ([`super::chars`]) and the planner's phrase valuers (`crate::eval::phrase`) read.

use super::comps::Comps;
use super::unit::UnitGeometry;
use super::{row, PhraseTable};
use crate::engine::{Phrases, Problem};
use crate::plan::{Bfs, Tables};

/// The encoder of one problem and one phrase table.
pub struct Encoder<'a> {
    pub(super) problem: &'a Problem,
    pub(crate) tables: &'a Tables,
    pub(crate) table: &'a PhraseTable,
    /// Per unit, per word.
    pub(crate) geometry: Vec<Vec<UnitGeometry>>,
    pub(crate) words: Vec<String>,
    /// Per word, the phrases it holds.
    pub(super) word_phrases: Vec<Vec<usize>>,
    /// The table's phrases, in its order, for the engine's count of a kept opening.
    pub(super) counted: Phrases,
}

/// Reusable buffers of the encoder.
#[derive(Debug, Default)]
pub(super) struct Buffers {
    pub(super) free: Vec<u64>,
    pub(super) bfs: [row::RowSearch; 2],
    pub(super) path: Bfs,
    pub(super) comps: Comps,
    pub(super) line: Vec<i32>,
}

impl<'a> Encoder<'a> {
    pub fn new(problem: &'a Problem, tables: &'a Tables, table: &'a PhraseTable) -> Encoder<'a> {
        let geometry = tables
            .spaces
            .iter()
            .map(|sp| {
                table
                    .words
                    .iter()
                    .map(|w| {
                        w.playable(sp.k).then(|| {
                            std::array::from_fn(|par| {
                                w.geometry[par]
                                    .steps
                                    .iter()
                                    .map(|&(dx, dy, r)| (dx, dy, r % sp.k))
                                    .collect()
                            })
                        })
                    })
                    .collect()
            })
            .collect();
        let words = table.words.iter().map(|w| w.text.clone()).collect();
        let word_phrases = table.word_phrases();
        let encoder = Encoder {
            problem,
            tables,
            table,
            geometry,
            words,
            word_phrases,
            counted: Phrases::new(table.phrases.iter().map(|p| p.text.clone())),
        };
        debug_assert_eq!(encoder.counted.len(), table.phrases.len());
        encoder
    }
}
