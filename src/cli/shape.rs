//! The shape of a problem's games, from replaying its answers: how deep the units lock, how many
//! descents each walks, how many characters each takes, and how much power each character of the
//! answer carries.
//!
//! `hextris bench` prints these beside each problem's score (issue 71), so that a change to the
//! search shows what it moved: games that keep the stack low lock their units on deeper rows, walk
//! more descents per unit and so carry more characters per unit. Rows are the board's, 0 at the
//! top; a unit's lock row is its pivot's row when it locks.

use crate::engine::{Command, Decoded, Game, Outcome, Problem};

/// Sums over the games of one problem; their means are what the table prints.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameShape {
    /// Units locked.
    pub units: u64,
    /// The sum of their lock rows.
    pub lock_rows: i64,
    /// Descents (SW, SE) that moved a unit.
    pub descents: u64,
    /// Characters of the answers.
    pub chars: u64,
    /// Their power score.
    pub power: u64,
}

impl GameShape {
    /// Adds one answer for `seed`: replays it until it ends or errs (an answer that errs counts
    /// only up to its error).
    pub fn add(&mut self, problem: &Problem, seed: u32, solution: &str, power: u64) {
        let mut game = Game::new(problem, seed);
        for c in solution.chars() {
            let Decoded::Command(cmd) = Command::decode(c) else {
                continue;
            };
            let before = game.piece();
            match game.step(cmd) {
                Ok(Outcome::Moved) if cmd.is_descent() => self.descents += 1,
                Ok(Outcome::Locked { .. }) => {
                    self.units += 1;
                    self.lock_rows += before.map_or(0, |p| p.pivot.y);
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        self.chars += solution.chars().count() as u64;
        self.power += power;
    }

    /// The columns: mean lock row, descents per unit, characters per unit, power per character.
    pub fn columns(&self) -> String {
        let per_unit = |v: f64| v / self.units.max(1) as f64;
        format!(
            " {:>6.1} {:>6.1} {:>6.1} {:>6.2}",
            per_unit(self.lock_rows as f64),
            per_unit(self.descents as f64),
            per_unit(self.chars as f64),
            self.power as f64 / self.chars.max(1) as f64
        )
    }

    /// The header of [`GameShape::columns`].
    pub const HEADER: &'static str = "   lock desc/u  chr/u  pw/ch";
}

/// The shape of a problem's answers, each with its power score.
pub fn shape_of<'a>(
    problem: &Problem,
    answers: impl IntoIterator<Item = (u32, &'a str, u64)>,
) -> GameShape {
    let mut shape = GameShape::default();
    for (seed, solution, power) in answers {
        shape.add(problem, seed, solution, power);
    }
    shape
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Phrases;
    use crate::testkit::problem;

    #[test]
    fn lock_rows_descents_and_power_per_character_are_counted() {
        // One cell on an empty 5 x 6 board, spawned at row 0. "a" (SW) and "l" (SE) in turn
        // walk it straight down: five descents move it to row 5, the sixth locks it there. The
        // second unit takes the same path and locks on the first, at row 4, after four; the last
        // "l" moves the third unit down once (a unit in play counts its descents, not its row).
        let p = problem(
            5,
            6,
            r#"{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}"#,
            &[],
        );
        let phrases = Phrases::new(["al".to_string()]);
        let solution = "alalalalalal";
        let power = phrases.score(&phrases.count(solution));
        let shape = shape_of(&p, [(0, solution, power)]);
        let want = GameShape {
            units: 2,
            lock_rows: 5 + 4,
            descents: 5 + 4 + 1,
            chars: 12,
            power,
        };
        assert_eq!(shape, want);
        assert!(power > 0);
        assert_eq!(
            shape.columns(),
            format!(
                " {:>6.1} {:>6.1} {:>6.1} {:>6.2}",
                4.5,
                5.0,
                6.0,
                power as f64 / 12.0
            )
        );
    }
}
