//! The evaluation room: everything that says what a lock or a board is worth to the planner.
//! The beam ([`crate::plan::beam`]) searches through one small trait,
//! [`crate::plan::Evaluator`], declared in the planner so that the planner never imports this
//! module; [`LockScorer`] implements it here.
//!
//! - [`heuristic`]: a lock's features and the weights of the named scoring systems;
//! - [`stack`]: the stack evaluation for survival (on the problem's [`crate::plan::StackMap`]);
//! - [`scorer`]: the lock scorer, which sums the two, the tie-breaking noise and the phrase
//!   valuer's value;
//! - [`phrase`] and [`forward`]: the phrase valuers, which read the encoders' programmes, so this
//!   module sits above [`crate::encode`].

pub mod forward;
pub mod heuristic;
pub mod phrase;
pub mod scorer;
pub mod stack;

pub use heuristic::{
    compiled_systems, read_systems, systems_from_json, Features, Weights, SYSTEMS,
};
pub use phrase::PhraseValuer;
pub use scorer::LockScorer;
pub use stack::{LockStack, StackNode};
