//! Paths of commands from a state to a lock: a shortest path by breadth-first search with parent
//! indices over the dense state index of a [`UnitSpace`], rebuilt at the end. A breadth-first
//! tree path never visits a position twice, so it obeys the no-repeat rule; it moves only through
//! free states (per the `free` bit rows of [`UnitSpace::free_map`]).

use super::scratch::Bfs;
use super::space::{LockKey, State, UnitSpace};
use crate::engine::Command;

impl UnitSpace {
    /// The free states of member set `key` from which some command locks the unit. A member set
    /// can be held by several states (a shape that looks the same after a rotation, turning
    /// about another pivot): they lock alike by E, W, SW and SE, which move the same cells, but
    /// not by the rotations, so a target is one of these, not any state of the key.
    pub fn lock_states(&self, free: &[u64], key: LockKey) -> Vec<State> {
        let mut out = self.states_with_key(key);
        out.retain(|&t| self.is_free(free, t) && self.lock_cmds(free, t) != 0);
        out
    }

    /// Whether `s` is one of [`UnitSpace::lock_states`] of `key`.
    pub fn is_lock_state(&self, free: &[u64], s: State, key: LockKey) -> bool {
        self.key(s) == key && self.lock_cmds(free, s) != 0
    }

    /// A shortest path of commands from `from` to a state with the member set `target` that can
    /// lock there (see [`UnitSpace::lock_states`]), moving only through free states and never
    /// visiting one twice. Returns the commands and the state reached.
    pub fn path(
        &self,
        free: &[u64],
        from: State,
        target: LockKey,
        bfs: &mut Bfs,
    ) -> Option<(Vec<Command>, State)> {
        bfs.begin(self.states);
        let start = self.index(from)?;
        bfs.visit(start, u32::MAX, 0);
        let mut head = 0;
        while head < bfs.queue.len() {
            let idx = bfs.queue[head] as usize;
            head += 1;
            let s = self.state_of(idx);
            if self.is_lock_state(free, s, target) {
                let mut cmds = Vec::new();
                let mut i = idx;
                while i != start {
                    let (p, c) = bfs.parent(i);
                    cmds.push(Command::from_index(c as usize));
                    i = p as usize;
                }
                cmds.reverse();
                return Some((cmds, s));
            }
            for &cmd in self.commands() {
                let n = self.step(s, cmd);
                if !self.is_free(free, n) {
                    continue;
                }
                let ni = self.index(n).expect("free states lie in the box");
                if !bfs.seen(ni) {
                    bfs.visit(ni, idx as u32, cmd as u8);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Command;
    use crate::engine::{Game, Outcome, Phrases, Problem};
    use crate::plan::{Bfs, ReachBufs, Stamps, UnitSpace};
    use std::path::Path;

    fn problem(w: usize, h: usize, units: &str, filled: &str) -> Problem {
        let json = format!(
            r#"{{"id":1,"width":{w},"height":{h},"filled":[{filled}],"sourceLength":5,
            "sourceSeeds":[0],"units":[{units}]}}"#
        );
        Problem::from_json(&json, Path::new("t")).unwrap()
    }

    #[test]
    fn paths_replay_to_their_locks() {
        let units =
            r#"{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":1,"y":1}],"pivot":{"x":0,"y":0}}"#;
        let p = problem(7, 8, units, r#"{"x":3,"y":5}"#);
        let space = UnitSpace::new(&p.units[0], p.width, p.height);
        let (mut free, mut reach, mut tmp, mut locks) =
            (vec![], vec![], ReachBufs::default(), vec![]);
        space.free_map(&p.board, &mut free);
        assert!(space.reach(&free, &mut reach, &mut tmp));
        space.locks(&free, &reach, false, &mut locks, &mut Stamps::default());
        assert!(locks.len() > 10);
        let mut bfs = Bfs::default();
        for lock in &locks {
            let (mut cmds, end) = space
                .path(&free, space.spawn_state(), lock.key, &mut bfs)
                .unwrap();
            assert_eq!(space.key(end), lock.key);
            let c = (0..6).find(|&c| lock.cmds >> c & 1 == 1).unwrap();
            cmds.push(Command::from_index(c));
            let mut g = Game::new(&p, 0);
            let mut outcome = Outcome::Moved;
            for &cmd in &cmds {
                outcome = g.step(cmd).unwrap();
            }
            assert!(matches!(outcome, Outcome::Locked { .. }));
            let text: String = cmds.iter().map(|c| c.char()).collect();
            let e = crate::engine::evaluate(&p, 0, &text, &Phrases::official());
            assert!(!e.end.is_error());
            assert_eq!(e.locked, 1);
        }
    }

    #[test]
    fn no_path_leads_to_a_lock_that_cannot_be_reached() {
        // A wall of filled cells across row 3 of a 5-wide board cuts off the rows below it.
        let units = r#"{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}"#;
        let wall: Vec<String> = (0..5).map(|x| format!(r#"{{"x":{x},"y":3}}"#)).collect();
        let p = problem(5, 6, units, &wall.join(","));
        let space = UnitSpace::new(&p.units[0], p.width, p.height);
        let mut free = vec![];
        space.free_map(&p.board, &mut free);
        let below = crate::plan::State { x: 2, y: 5, o: 0 };
        assert!(space.is_free(&free, below));
        let mut bfs = Bfs::default();
        assert!(space
            .path(&free, space.spawn_state(), space.key(below), &mut bfs)
            .is_none());
    }
}
