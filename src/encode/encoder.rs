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

impl Buffers {
    /// Runs `f` with this thread's buffers: they are sized by the board's state count, and on a
    /// large board filling them anew costs more than spelling a unit, so each thread keeps its
    /// own between encodings (fresh ones when they are already in use, in a nested call).
    pub(super) fn with<T>(f: impl FnOnce(&mut Buffers) -> T) -> T {
        thread_local! {
            static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
        }
        BUFFERS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut b) => f(&mut b),
            Err(_) => f(&mut Buffers::default()),
        })
    }
}

impl<'a> Encoder<'a> {
    pub fn new(problem: &'a Problem, tables: &'a Tables, table: &'a PhraseTable) -> Encoder<'a> {
        let geometry = tables
            .spaces
            .iter()
            .map(|sp| super::unit::geometry_of(table, sp.k))
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
