//! The phrase valuer: what spelling phrases of power on the way to each lock is worth, for the
//! planner's evaluation ([`super::LockScorer`]). It reads the encoders' own programmes (the
//! word-level [`crate::encode::line`] and the character-level [`super::forward`]), so it sits
//! above the encoders; the planner sees only its values, through the scorer.
//!
//! A valuer carries the phrase automaton's node from one unit to the next: the scorer hands it
//! the node the partial game's last lock left and gets, per lock, the value and the node after.

use super::forward::Forward;
use crate::encode::unit::Job;
use crate::encode::{line, Encoder, NEG};
use crate::plan::Lock;
use crate::work::Op;

/// The phrase potential of locks, for the planner: for a unit that cannot rotate, the value of
/// spelling its way to each lock, times `weight`. With the character-level programme
/// ([`Forward`], [`PhraseValuer::with_chars`]) the value counts every character, the
/// lock's included, and carries the phrase automaton's node from unit to unit; otherwise it is
/// the word-level forward programme of [`mod@crate::encode::line`] (exact up to the visited
/// positions), whose first uses count during the first `bonus_units` units. Units that can
/// rotate get nothing: their phrase potential follows the depth of the lock, which the heuristic
/// values already (a forward programme over their row components cost several plans' time and
/// showed no gain in the benchmark).
pub struct PhraseValuer<'e> {
    encoder: &'e Encoder<'e>,
    weight: f64,
    bonus_units: usize,
    fresh: Vec<i32>,
    used: Vec<i32>,
    line: Vec<i32>,
    chars: Option<Forward>,
    out: Vec<Option<(i32, u32)>>,
}

impl<'e> PhraseValuer<'e> {
    pub fn new(encoder: &'e Encoder<'e>, weight: f64, bonus_units: usize) -> PhraseValuer<'e> {
        let t = encoder.table;
        let values = |used: bool| -> Vec<i32> {
            let u = vec![used; t.phrases.len()];
            t.words.iter().map(|w| w.value(&t.phrases, &u)).collect()
        };
        PhraseValuer {
            encoder,
            weight,
            bonus_units,
            fresh: values(false),
            used: values(true),
            line: Vec::new(),
            chars: None,
            out: Vec::new(),
        }
    }

    /// The same valuer at the character level (see [`super::forward`]), where some phrase can be
    /// spelt without rotating.
    pub fn with_chars(mut self) -> PhraseValuer<'e> {
        self.chars = Forward::new(self.encoder.table);
        self
    }

    /// The carry after a game's opening text (for a plan that starts from it).
    pub fn carry_after(&self, text: &str) -> u32 {
        self.chars.as_ref().map_or(0, |f| f.carry_after(text))
    }

    /// Fills `out` with an extra value and the carry after it per lock of `locks` (same order;
    /// empty where the valuer gives nothing) for unit `unit`, the `step`-th unit of the game;
    /// `free` is the unit's free map on the board and `carry` what the lock before left.
    #[allow(clippy::too_many_arguments)]
    pub fn values(
        &mut self,
        step: usize,
        unit: usize,
        free: &[u64],
        locks: &[Lock],
        carry: u32,
        out: &mut Vec<(f64, u32)>,
    ) {
        out.clear();
        let e = self.encoder;
        let space = &e.tables.spaces[unit];
        if space.rotates() {
            // A unit that rotates is not valued, but it gives back the credit of the node it
            // starts from (see below), and leaves no node worth anything.
            if let Some(fw) = &self.chars {
                let back = -fw.potential(carry) as f64 * self.weight;
                out.resize(locks.len(), (back, 0));
            }
            return;
        }
        if let Some(fw) = self.chars.as_mut() {
            // A lock is credited with the potential of the node it leaves, and the unit after
            // it gives that credit back, since its own values realise what the node is worth:
            // over a game the credits cancel (the beam compares partial games by what they
            // spelt, plus what their last lock promises), and nothing is counted twice.
            fw.lock_values(space, unit, free, carry, locks, true, &mut self.out);
            let (w, credited) = (self.weight, fw.potential(carry));
            out.extend(
                self.out
                    .iter()
                    .map(|v| v.map_or((0.0, 0), |(v, c)| ((v - credited) as f64 * w, c))),
            );
            return;
        }
        let wval = if step < self.bonus_units {
            &self.fresh
        } else {
            &self.used
        };
        let job = Job {
            space,
            geometry: &e.geometry[unit],
            words: &e.words,
            free,
            // No lock is the target: the forward values serve every lock at once.
            target: (u8::MAX, 0, 0),
            start: space.spawn_state(),
        };
        crate::work::add(Op::ValuerWords, space.states as u64);
        let lw = line::LineWords::new(&job);
        line::forward(&job, &lw, wval, &mut self.line);
        out.extend(locks.iter().map(|l| {
            let v = line::forward_at(&job, &self.line, l.state);
            if v > NEG {
                (v as f64 * self.weight, 0)
            } else {
                (0.0, 0)
            }
        }));
    }
}
