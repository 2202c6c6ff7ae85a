//! The locks of a unit: among the states its flood reached ([`UnitSpace::reach`]), those where
//! some command leaves the free states, found a bit row at a time, with the commands that lock
//! there. The rows above the stack take the empty board's locks, cached when the space is built.
//! A lock is one per member set: states with the same cells are merged by their key, a row of
//! states at a time, where orientations share a shape class.

use super::{bits, descent_offsets, Lock, State, UnitSpace};
use crate::engine::Command;
use crate::plan::scratch::KeySet;

impl UnitSpace {
    /// Lists the distinct locks (by member set) among the reachable states, in row order. With
    /// `supported`, only the locks where a descent (SW or SE) is blocked: a unit that could still
    /// drop would leave its cells hanging in the air, which a placement rarely wants. `reach`
    /// must be what [`UnitSpace::reach`] found on `free`.
    pub fn locks(
        &self,
        free: &[u64],
        reach: &[u64],
        supported: bool,
        out: &mut Vec<Lock>,
        seen: &mut KeySet,
    ) {
        let clear = self.clear_until(free);
        self.locks_with_clear(free, reach, clear, supported, out, seen);
    }

    /// [`UnitSpace::locks`] where the first row of `free` that is not an empty board's is known
    /// (`clear`, what [`UnitSpace::clear_until`] finds).
    pub fn locks_with_clear(
        &self,
        free: &[u64],
        reach: &[u64],
        clear: i64,
        supported: bool,
        out: &mut Vec<Lock>,
        seen: &mut KeySet,
    ) {
        out.clear();
        // A member set is identified by its class and anchor cell, and the anchor is a member,
        // so it lies on the board: a bit per key dedupes without hashing, and only where
        // another orientation shares the class.
        seen.begin(self.classes, self.width, self.height);
        // The locks of a row depend on its free and reachable states and on the free states of
        // the row below: above the stack, they are the empty board's.
        for (o, r) in self.orients.iter().enumerate() {
            let cached = self
                .clear
                .locks
                .get(o)
                .map_or(&[][..], |v| &v[supported as usize][..]);
            let mut next = 0;
            for yi in 0..r.ny {
                let y = r.y_lo + yi as i64;
                if y + 1 < clear {
                    while next < cached.len() && cached[next].state.y <= y {
                        let lock = &cached[next];
                        next += 1;
                        if lock.state.y == y && (!r.shared || seen.insert(lock.key)) {
                            out.push(*lock);
                        }
                    }
                    continue;
                }
                let seen = if r.shared { Some(&mut *seen) } else { None };
                self.row_locks(free, reach, o as u8, yi, supported, seen, |l| out.push(l));
            }
        }
    }

    /// Calls `emit` for every reachable state of row `yi` of orientation `o` where some command
    /// locks the unit (with `supported`, a descent), in column order, with those commands. With
    /// `seen`, the states whose member sets it holds are left out and the others added to it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn row_locks(
        &self,
        free: &[u64],
        reach: &[u64],
        o: u8,
        yi: usize,
        supported: bool,
        mut seen: Option<&mut KeySet>,
        mut emit: impl FnMut(Lock),
    ) {
        let r = &self.orients[o as usize];
        let k = self.k;
        let y = r.y_lo + yi as i64;
        let b = r.row_base + yi * r.nw;
        let row = &reach[b..b + r.nw];
        if row.iter().all(|&w| w == 0) {
            return;
        }
        let [sw_dx, se_dx] = descent_offsets(y);
        let below = self.row(o, y + 1);
        // The key of the state in column x is (class, x + kdx, y + kdy).
        let (class, kdx, kdy) = r.key[y.rem_euclid(2) as usize];
        for (j, &here) in row.iter().enumerate() {
            if here == 0 {
                continue;
            }
            let at = j as i64 * 64;
            let f = &free[b..b + r.nw];
            let mut masks = [0u64; 6];
            masks[Command::W as usize] = here & !bits::window(f, at - 1);
            masks[Command::E as usize] = here & !bits::window(f, at + 1);
            let (sw, se) = match below {
                Some((b2, n2)) => {
                    let f2 = &free[b2..b2 + n2];
                    (bits::window(f2, at + sw_dx), bits::window(f2, at + se_dx))
                }
                None => (0, 0),
            };
            masks[Command::SW as usize] = here & !sw;
            masks[Command::SE as usize] = here & !se;
            if self.rotates() {
                for (cmd, o2) in [(Command::CW, (o + 1) % k), (Command::CCW, (o + k - 1) % k)] {
                    let f2 = match self.row(o2, y) {
                        Some((b2, n2)) => {
                            let shift = r.x_lo - self.orients[o2 as usize].x_lo;
                            bits::window(&free[b2..b2 + n2], at + shift)
                        }
                        None => 0,
                    };
                    masks[cmd as usize] = here & !f2;
                }
            }
            let mut any = if supported {
                masks[Command::SW as usize] | masks[Command::SE as usize]
            } else {
                masks.iter().fold(0, |a, m| a | m)
            };
            let key_x = r.x_lo + at + kdx;
            if let Some(seen) = seen.as_deref_mut() {
                any &= !seen.window(class, y + kdy, key_x);
                seen.add_window(class, y + kdy, key_x, any);
            }
            while any != 0 {
                let t = any.trailing_zeros() as usize;
                any &= any - 1;
                let x = r.x_lo + (j * 64 + t) as i64;
                let cmds = (0..6)
                    .filter(|&c| masks[c] >> t & 1 == 1)
                    .fold(0u8, |a, c| a | 1 << c);
                emit(Lock {
                    state: State { x, y, o },
                    cmds,
                    key: (class, x + kdx, y + kdy),
                });
            }
        }
    }

    /// The commands that lock the unit at `s` (bit `c` for command `c`).
    pub fn lock_cmds(&self, free: &[u64], s: State) -> u8 {
        let mut m = 0u8;
        for &cmd in self.commands() {
            if !self.is_free(free, self.step(s, cmd)) {
                m |= 1 << cmd as u8;
            }
        }
        m
    }
}
