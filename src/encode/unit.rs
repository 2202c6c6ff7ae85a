//! Encoding one unit: what a walker knows of the unit being encoded ([`Job`]: its space, the
//! board's free states, the words' geometry, the target lock) and the moves it can make along a
//! row and into the next one. The searches along a row are [`super::row`]'s job, the row
//! components and their values (with the ways out of a row into them) [`super::comps`]'s, the
//! walkers themselves [`super::walk`]'s; they all build on this file, which uses none of them.
//!
//! The no-repeat rule: positions are compared by (pivot, canonical orientation); the walkers keep
//! the positions visited on the current row (a descent clears them, since no command climbs) and
//! check every command against them. A word whose own states coincide for this unit is never
//! played. *Viable* means: from this state, with these positions of its row visited, some path
//! along the row reaches the target or a descent into an alive component. Every action a walker
//! takes keeps the unit viable, and a viable unit can always go on, so the walkers never get
//! stuck; the dynamic programme's values ignore visited positions and are only estimates.

use super::phrases::PhraseTable;
use crate::engine::Command;
use crate::plan::{LockKey, State, UnitSpace};

/// A word's geometry for one unit (rotations reduced modulo the unit's distinct orientations),
/// per start-row parity; `None` when the unit can never play it.
pub type UnitGeometry = Option<[Vec<(i64, i64, u8)>; 2]>;

/// Each word of `table`'s geometry for a unit of `k` canonical orientations (`None` for a word
/// it cannot play): the word's steps with their rotations taken modulo `k`.
pub fn geometry_of(table: &PhraseTable, k: u8) -> Vec<UnitGeometry> {
    table
        .words
        .iter()
        .map(|w| {
            w.playable(k).then(|| {
                std::array::from_fn(|par| {
                    w.geometry[par]
                        .steps
                        .iter()
                        .map(|&(dx, dy, r)| (dx, dy, r % k))
                        .collect()
                })
            })
        })
        .collect()
}

/// Everything a walker needs about the unit being encoded.
pub struct Job<'a> {
    pub space: &'a UnitSpace,
    /// Per word of the table.
    pub geometry: &'a [UnitGeometry],
    /// Per word: its text.
    pub words: &'a [String],
    pub free: &'a [u64],
    pub target: LockKey,
    pub start: State,
}

/// Positions visited on the current row: (pivot column, canonical orientation).
pub type RowVisited = Vec<(i64, u8)>;

impl Job<'_> {
    pub(super) fn state(&self, s: State, step: (i64, i64, u8)) -> State {
        State {
            x: s.x + step.0,
            y: s.y + step.1,
            o: (s.o + step.2) % self.space.k,
        }
    }

    /// Where word `w` would take the unit from `s` (`None` when the unit can never play it), the
    /// way there not checked: a walker tests the end before playing the word out.
    pub fn word_target(&self, w: usize, s: State) -> Option<State> {
        let steps = &self.geometry[w].as_ref()?[s.y.rem_euclid(2) as usize];
        Some(self.state(s, *steps.last()?))
    }

    /// Where word `w` takes the unit from `s`, if every state on the way is free (visited
    /// positions are not checked).
    pub fn word_end(&self, w: usize, s: State) -> Option<State> {
        let steps = &self.geometry[w].as_ref()?[s.y.rem_euclid(2) as usize];
        let mut last = s;
        for &st in steps {
            last = self.state(s, st);
            if !self.space.is_free(self.free, last) {
                return None;
            }
        }
        Some(last)
    }

    /// Whether word `w`, played from `s`, locks the unit at the target with its last command:
    /// every command before the last moves through free states (not revisiting `visited` on the
    /// start row), the state before the last command has the target's member set, and the last
    /// command leads off the free states. The lock then counts as a phrase character.
    pub fn locks_with(&self, w: usize, s: State, visited: &RowVisited) -> bool {
        let Some(geo) = self.geometry[w].as_ref() else {
            return false;
        };
        let steps = &geo[s.y.rem_euclid(2) as usize];
        let (last, prefix) = steps.split_last().expect("words are not empty");
        // Where the prefix ends is known at once: test the target first, the way there after.
        let before = prefix.last().map_or(s, |&st| self.state(s, st));
        if !self.at_target(before) || self.space.is_free(self.free, self.state(s, *last)) {
            return false;
        }
        prefix.iter().all(|&st| {
            let n = self.state(s, st);
            self.space.is_free(self.free, n) && !(st.1 == 0 && visited.contains(&(n.x, n.o)))
        })
    }

    /// The states from which some word locks the unit at the target (see [`Job::locks_with`],
    /// with nothing visited), with the word.
    pub fn lock_word_starts(&self) -> Vec<(State, usize)> {
        let sp = self.space;
        let mut out = Vec::new();
        for t in sp.lock_states(self.free, self.target) {
            for (w, geo) in self.geometry.iter().enumerate() {
                let Some(geo) = geo else { continue };
                for (parity, steps) in geo.iter().enumerate() {
                    let n = steps.len();
                    let (dx, dy, rot) = if n >= 2 { steps[n - 2] } else { (0, 0, 0) };
                    let k = sp.k;
                    let s = State {
                        x: t.x - dx,
                        y: t.y - dy,
                        o: (t.o + k - rot % k) % k,
                    };
                    if s.y.rem_euclid(2) as usize == parity
                        && sp.is_free(self.free, s)
                        && self.locks_with(w, s, &Vec::new())
                    {
                        out.push((s, w));
                    }
                }
            }
        }
        out
    }

    /// Plays word `w` from `s` exactly: every state free and no position of the current row
    /// revisited. Returns the end state and the positions visited on its row.
    pub fn try_word(
        &self,
        w: usize,
        s: State,
        visited: &RowVisited,
    ) -> Option<(State, RowVisited)> {
        let steps = &self.geometry[w].as_ref()?[s.y.rem_euclid(2) as usize];
        for &st in steps {
            let n = self.state(s, st);
            if !self.space.is_free(self.free, n) || (st.1 == 0 && visited.contains(&(n.x, n.o))) {
                return None;
            }
        }
        let &last = steps.last()?;
        let end = self.state(s, last);
        let row: RowVisited = steps
            .iter()
            .filter(|st| st.1 == last.1)
            .map(|&st| {
                let n = self.state(s, st);
                (n.x, n.o)
            })
            .collect();
        Some((end, row))
    }

    /// The rows a walk to the target can use: from the start's row down to the lowest row of a
    /// target state. No command climbs, so a state below that row never reaches the target, and
    /// the programmes need not look there (on a board whose stack leaves many rows below the
    /// lock, most of the rows). All the rows the unit can reach when no state is a target.
    pub fn rows(&self) -> std::ops::Range<i64> {
        let rows = self.space.rows_from(self.start.y);
        let targets = self.space.lock_states(self.free, self.target);
        match targets.iter().map(|t| t.y).max() {
            Some(last) => rows.start..rows.end.min(last + 1),
            None => rows,
        }
    }

    /// Whether `s` has the target's member set and can lock there (a state of the same member
    /// set may lock only by a rotation, which another one need not share).
    pub fn at_target(&self, s: State) -> bool {
        self.space.is_lock_state(self.free, s, self.target)
    }

    /// A command that locks the unit at `s`.
    pub fn lock_cmd(&self, s: State) -> Command {
        Command::first_in(self.space.lock_cmds(self.free, s)).expect("a target state can lock")
    }

    /// The in-row moves (E, W and, for units with several orientations, the rotations).
    pub fn row_moves(&self) -> &'static [Command] {
        if !self.space.rotates() {
            &[Command::W, Command::E]
        } else {
            &[Command::W, Command::E, Command::CW, Command::CCW]
        }
    }
}

/// Random encoding cases for the tests of the walkers and the components: a small random board
/// with one unit kind, the official phrases' words, and a reachable lock as the target.
#[cfg(test)]
pub(crate) mod fixture {
    use super::{Job, UnitGeometry};
    use crate::encode::PhraseTable;
    use crate::engine::{Phrases, Problem};
    use crate::plan::{KeySet, Lock, ReachBufs, UnitSpace};
    use rand::Rng;

    pub struct Case {
        pub problem: Problem,
        pub space: UnitSpace,
        pub table: PhraseTable,
        pub geometry: Vec<UnitGeometry>,
        pub words: Vec<String>,
        pub free: Vec<u64>,
        pub locks: Vec<Lock>,
    }

    impl Case {
        /// A random case, or `None` when the unit cannot even spawn.
        pub fn random(rng: &mut impl Rng) -> Option<Case> {
            let (w, h) = (rng.gen_range(4..14usize), rng.gen_range(5..13usize));
            let units = [crate::testkit::random_unit(rng, 4, 0.3)];
            let json =
                crate::testkit::random_problem(rng, (w, h), (h / 2, 0.25), &units, (5, &[0]));
            let problem = Problem::from_json(&json, std::path::Path::new("t")).ok()?;
            let space = UnitSpace::new(&problem.units[0], problem.width, problem.height);
            let (mut free, mut reach, mut locks) = (vec![], vec![], vec![]);
            space.free_map(&problem.board, &mut free);
            if !space.reach(&free, &mut reach, &mut ReachBufs::default()) {
                return None;
            }
            space.locks(&free, &reach, false, &mut locks, &mut KeySet::default());
            let table = PhraseTable::new(&Phrases::official());
            let geometry = super::geometry_of(&table, space.k);
            let words = table.words.iter().map(|w| w.text.clone()).collect();
            Some(Case {
                problem,
                space,
                table,
                geometry,
                words,
                free,
                locks,
            })
        }

        /// The job of spelling a path from the spawn to lock `i`.
        pub fn job(&self, i: usize) -> Job<'_> {
            Job {
                space: &self.space,
                geometry: &self.geometry,
                words: &self.words,
                free: &self.free,
                target: self.locks[i].key,
                start: self.space.spawn_state(),
            }
        }
    }
}
