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
    ///
    /// An A* search: the rows left to a lock state, the sideways moves its column needs beyond
    /// what descents give, and the turns to its orientation bound the commands still needed
    /// (each command does one of the three, by one), and the states of equal bound are
    /// taken last-in first-out, the move towards the lock's column last pushed. On a tall board
    /// this follows the way down instead of widening a breadth-first front over the whole
    /// board (seconds a unit on 1000 x 1000).
    pub fn path(
        &self,
        free: &[u64],
        from: State,
        target: LockKey,
        bfs: &mut Bfs,
    ) -> Option<(Vec<Command>, State)> {
        let goals = self.lock_states(free, target);
        let goal = *goals.iter().min_by_key(|s| (s.y, s.x))?;
        let k = self.k as i64;
        let turns = |a: u8, b: u8| {
            let d = (a as i64 - b as i64).rem_euclid(k);
            d.min(k - d)
        };
        // In axial columns (q = x - floor(y / 2)) a descent keeps q (SE) or lowers it by one
        // (SW), so `rows` descents reach columns q - rows ..= q; columns outside need sideways
        // moves. Rows, sideways moves and turns are made by different commands.
        let q = |s: State| s.x - s.y.div_euclid(2);
        let h = |s: State| {
            goals
                .iter()
                .map(|g| {
                    let rows = (g.y - s.y).max(0);
                    let (q0, qg) = (q(s), q(*g));
                    rows + (qg - q0).max(0) + (q0 - rows - qg).max(0) + turns(s.o, g.o)
                })
                .min()
                .unwrap_or(0) as usize
        };
        bfs.begin(self.states);
        let start = self.index(from)?;
        let f0 = h(from);
        bfs.visit(start, u32::MAX, 0);
        bfs.dist[start] = 0;
        for b in bfs.buckets.iter_mut() {
            b.clear();
        }
        bfs.push(0, start as u32);
        let mut f = 0;
        let mut next: Vec<(i64, State, Command)> = Vec::with_capacity(6);
        while f < bfs.buckets.len() {
            let Some(idx) = bfs.buckets[f].pop() else {
                f += 1;
                continue;
            };
            let idx = idx as usize;
            let s = self.state_of(idx);
            let g = bfs.dist[idx] as usize;
            if g + h(s) - f0 != f {
                // Reached again by a shorter way since it was queued.
                continue;
            }
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
            next.clear();
            for &cmd in self.commands() {
                let n = self.step(s, cmd);
                if self.is_free(free, n) {
                    next.push(((n.x - goal.x).abs(), n, cmd));
                }
            }
            // The move towards the lock's column is pushed last, so taken first.
            next.sort_by_key(|&(d, _, _)| std::cmp::Reverse(d));
            for &(_, n, cmd) in &next {
                let ni = self.index(n).expect("free states lie in the box");
                if !bfs.seen(ni) || (g + 1) < bfs.dist[ni] as usize {
                    bfs.visit(ni, idx as u32, cmd as u8);
                    bfs.dist[ni] = (g + 1) as u32;
                    bfs.push(g + 1 + h(n) - f0, ni as u32);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Command;
    use crate::engine::{Game, Outcome, Phrases};
    use crate::plan::{Bfs, KeySet, ReachBufs, UnitSpace};
    use crate::testkit::problem;

    #[test]
    fn paths_replay_to_their_locks() {
        let units =
            r#"{"members":[{"x":0,"y":0},{"x":1,"y":0},{"x":1,"y":1}],"pivot":{"x":0,"y":0}}"#;
        let p = problem(7, 8, units, &[(3, 5)]);
        let space = UnitSpace::new(&p.units[0], p.width, p.height);
        let (mut free, mut reach, mut tmp, mut locks) =
            (vec![], vec![], ReachBufs::default(), vec![]);
        space.free_map(&p.board, &mut free);
        assert!(space.reach(&free, &mut reach, &mut tmp));
        space.locks(&free, &reach, false, &mut locks, &mut KeySet::default());
        assert!(locks.len() > 10);
        let mut bfs = Bfs::default();
        for lock in &locks {
            let (mut cmds, end) = space
                .path(&free, space.spawn_state(), lock.key, &mut bfs)
                .unwrap();
            assert_eq!(space.key(end), lock.key);
            cmds.push(Command::first_in(lock.cmds).unwrap());
            let mut g = Game::new(&p, 0);
            let mut outcome = Outcome::Moved;
            for &cmd in &cmds {
                outcome = g.step(cmd).unwrap();
            }
            assert!(matches!(outcome, Outcome::Locked { .. }));
            let text: String = cmds.iter().map(|c| c.char()).collect();
            let e = crate::engine::replay(&p, 0, &text, &Phrases::official());
            assert!(!e.end.is_error());
            assert_eq!(e.locked, 1);
        }
    }

    #[test]
    fn no_path_leads_to_a_lock_that_cannot_be_reached() {
        // A wall of filled cells across row 3 of a 5-wide board cuts off the rows below it.
        let units = r#"{"members":[{"x":0,"y":0}],"pivot":{"x":0,"y":0}}"#;
        let wall: Vec<(i64, i64)> = (0..5).map(|x| (x, 3)).collect();
        let p = problem(5, 6, units, &wall);
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
