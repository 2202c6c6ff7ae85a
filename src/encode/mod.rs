//! Encoders: turn a [`crate::plan::Plan`] (a lock per unit) into the command string of a whole
//! game.
//!
//! Four modes: [`Mode::Plain`] spells the shortest path to each lock in plain characters;
//! [`Mode::Greedy`] and [`Mode::Dp`] spell phrases of power on the way, word by word (see
//! [`mod@unit`]); [`Mode::Chars`] spells them character by character ([`chars`]), so that every
//! occurrence counts, at up to tens of times the DP encoder's cost. Every unit ends with a lock
//! at exactly the member set the plan chose, so the board evolves as planned whatever the mode.
//! [`Encoder::spell`] takes any mode and returns the text with the mode that spelt it
//! ([`Spelling`]), so that a caller knows it as data.

pub mod automaton;
pub mod chars;
pub mod comps;
pub mod encoder;
pub mod heading;
pub mod line;
pub mod mode;
pub mod phrases;
pub mod plain;
pub mod row;
pub mod spell;
#[cfg(test)]
pub(crate) mod test_util;
pub mod unit;
pub mod walk;

pub use chars::{CharStats, CharTables};
pub use encoder::Encoder;
pub use mode::{Mode, Opening};
pub use phrases::{Dropped, Phrase, PhraseTable, Word};
pub(crate) use plain::plain_text;
pub use plain::{plain, spellable};
pub use spell::Spelling;

/// Value of an impossible state in the encoders' dynamic programmes: far enough below zero
/// that adding the gains of any path to it stays far below every possible value, and far
/// enough above `i32::MIN` that it never overflows.
pub const NEG: i32 = i32::MIN / 4;
