//! Move generation: where a unit can go on a board, where it can lock, and how to get there.
//!
//! A state is a pivot cell and a CANONICAL orientation `o < k` (`k` = distinct member sets of the
//! unit, see [`crate::engine::Unit::canon`]); clockwise from `o` is `(o + 1) % k`. Two states
//! with the same pivot and canonical orientation are the same position for the no-repeat rule.
//!
//! For each canonical orientation the pivots that keep every member on the board form a box of
//! rows `y_lo .. y_lo + ny` and columns `x_lo .. x_lo + nx` (per orientation, so that a pivot far
//! off the board costs nothing). Over that box a board gives a bit row per (orientation, row):
//! bit `i` of row `y` is set when the unit fits with its pivot at `(x_lo + i, y)`. Reachability is
//! then a flood fill on those bit rows, row by row from the spawn downwards (no command raises the
//! pivot), and the locks are the reachable states with a command that leads to a non-free state
//! (listed by the child module `locks`). The free map and the flood are the child module
//! `reach`'s; the orientations no path reaches are emptied by the child module `prune`.
//! Paths to a lock are [`super::path`]'s job, the shape outlines the heuristic reads
//! [`super::outline`]'s, and the reusable stamp sets [`super::scratch`]'s.

mod locks;
mod prune;
mod reach;

pub use reach::ReachBufs;

use super::bits;
use super::outline::Outline;
use super::rowmask::{RowMask, RowSpace};
use crate::engine::hex::column_offset;
use crate::engine::{offset_step, Cell, Command, Dir, Unit};

/// A unit's position: pivot and canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub x: i64,
    pub y: i64,
    pub o: u8,
}

/// Identifies the member set of a state: the class of its shape (orientations whose member sets
/// are translates of each other share a class) and its anchor cell.
pub type LockKey = (u8, i64, i64);

/// The commands of a lock's `cmds` that descend (SW, SE): a lock is supported where one of them
/// locks.
pub(crate) const DESCENDS: u8 = 1 << Command::SW as u8 | 1 << Command::SE as u8;

/// A place where the unit can lock: a reachable state and the commands that lock it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    pub state: State,
    /// Bit `c` set when command `c` (as `Command as u8`) locks the unit from `state`.
    pub cmds: u8,
    pub key: LockKey,
}

#[derive(Clone, Debug, Default)]
struct Orient {
    x_lo: i64,
    nx: usize,
    nw: usize,
    y_lo: i64,
    ny: usize,
    /// Member offsets `(dx, dy)` per pivot-row parity.
    cells: [Vec<(i64, i64)>; 2],
    /// The outline of the shape per parity, for the heuristic.
    outline: [Outline; 2],
    /// Shape class and anchor offset `(dx, dy)` per parity.
    key: [(u8, i64, i64); 2],
    /// Offset of this orientation's bit rows in the flat row buffers, in words.
    row_base: usize,
    /// Offset of this orientation's states in the dense state index.
    state_base: usize,
    /// The lowest row of its cells below the pivot (the same for both parities).
    max_dy: i64,
    /// Whether another orientation has the same shape class, so that the two may hold the
    /// same member set: only then are its locks checked against those already found.
    shared: bool,
}

/// What move generation finds on an empty board, kept so that the rows above a board's stack
/// need not be worked out again: where every row the unit covers is empty, the free states, the
/// reachable ones and the locks are those of the empty board (the rows above the stack of a tall
/// board are most of its rows, and cost as much as the others).
#[derive(Clone, Debug, Default)]
struct Clear {
    /// Per orientation and pivot-row parity: the free row of an empty board (every row of one
    /// parity is the same there).
    rows: Vec<[Vec<u64>; 2]>,
    /// Per orientation: the reachable states of an empty board, row by row from the
    /// orientation's first row, up to the first row from which every free state of every
    /// orientation is reachable (the rows from there on are `rows`).
    reach: Vec<Vec<u64>>,
    /// Per orientation: the locks of an empty board, by row, before the locks of one member
    /// set are merged; `[0]` every one, `[1]` the supported ones only.
    locks: Vec<[Vec<Lock>; 2]>,
}

/// Everything about one unit that does not depend on the board, computed once per problem.
#[derive(Clone, Debug)]
pub struct UnitSpace {
    /// Number of distinct orientations; canonical orientations are `0..k`.
    pub k: u8,
    pub size: usize,
    pub spawn: Cell,
    orients: Vec<Orient>,
    /// Words in a full set of bit rows (all orientations).
    pub row_words: usize,
    /// Number of states in the dense index.
    pub states: usize,
    /// Number of shape classes.
    classes: usize,
    width: usize,
    height: usize,
    /// The layout of one row of states over all orientations, for the row floods.
    layout: RowMask,
    /// One past the last pivot row of any orientation.
    y_end: i64,
    /// Move generation on an empty board (empty while the space is being built).
    clear: Clear,
}

impl UnitSpace {
    pub fn new(unit: &Unit, width: usize, height: usize) -> UnitSpace {
        let k = unit.distinct_orientations() as u8;
        // Shape classes: orientations whose axial offsets are translates of each other.
        let normal = |o: u8| {
            let offs = unit.axial_offsets(o);
            let min = *offs.iter().min_by_key(|a| (a.r, a.q)).unwrap();
            let mut v: Vec<_> = offs.iter().map(|&a| a - min).collect();
            v.sort();
            (min, v)
        };
        let mut classes: Vec<Vec<crate::engine::Axial>> = Vec::new();
        let mut orients = Vec::with_capacity(k as usize);
        for o in 0..k {
            let (min, norm) = normal(o);
            let class = match classes.iter().position(|c| *c == norm) {
                Some(i) => i,
                None => {
                    classes.push(norm);
                    classes.len() - 1
                }
            } as u8;
            let cells: [Vec<(i64, i64)>; 2] =
                std::array::from_fn(|p| unit.shape(o, p as i64).cells.clone());
            let outline: [Outline; 2] = std::array::from_fn(|p| Outline::new(&cells[p], p as i64));
            let key: [(u8, i64, i64); 2] =
                std::array::from_fn(|p| (class, column_offset(min.q, min.r, p as i64), min.r));
            let s0 = unit.shape(o, 0);
            let s1 = unit.shape(o, 1);
            let x_lo = (-s0.min_dx).min(-s1.min_dx);
            let x_hi = (width as i64 - 1 - s0.max_dx).max(width as i64 - 1 - s1.max_dx);
            let y_lo = -s0.min_dy;
            let y_hi = height as i64 - 1 - s0.max_dy;
            let (nx, ny) = if x_hi >= x_lo && y_hi >= y_lo {
                ((x_hi - x_lo + 1) as usize, (y_hi - y_lo + 1) as usize)
            } else {
                (0, 0)
            };
            let nw = nx.div_ceil(64);
            let max_dy = s0.max_dy.max(s1.max_dy);
            orients.push(Orient {
                x_lo,
                nx,
                nw,
                y_lo,
                ny,
                cells,
                outline,
                key,
                row_base: 0,
                state_base: 0,
                max_dy,
                shared: false,
            });
        }
        for o in 0..orients.len() {
            let class = orients[o].key[0].0;
            orients[o].shared = orients.iter().filter(|r| r.key[0].0 == class).count() > 1;
        }
        prune::prune_unreachable(&mut orients, unit.spawn());
        let (mut row_words, mut states) = (0, 0);
        for r in &mut orients {
            (r.row_base, r.state_base) = (row_words, states);
            row_words += r.nw * r.ny;
            states += r.nx * r.ny;
        }
        let y_end = orients
            .iter()
            .map(|r| r.y_lo + r.ny as i64)
            .max()
            .unwrap_or(0);
        let mut space = UnitSpace {
            k,
            size: unit.size(),
            spawn: unit.spawn(),
            orients,
            row_words,
            states,
            classes: classes.len(),
            width,
            height,
            layout: RowMask::default(),
            y_end,
            clear: Clear::default(),
        };
        space.layout = RowMask::new(&space);
        space.clear = space.empty_board();
        space
    }

    /// The layout of one row of states over all orientations.
    pub fn layout(&self) -> &RowMask {
        &self.layout
    }

    /// The spawn state.
    pub fn spawn_state(&self) -> State {
        State {
            x: self.spawn.x,
            y: self.spawn.y,
            o: 0,
        }
    }

    /// Word offset and length of the bit row of orientation `o`, row `y`, if that row exists.
    #[inline]
    pub fn row(&self, o: u8, y: i64) -> Option<(usize, usize)> {
        let r = &self.orients[o as usize];
        let yi = y - r.y_lo;
        if yi < 0 || yi as usize >= r.ny || r.nw == 0 {
            None
        } else {
            Some((r.row_base + yi as usize * r.nw, r.nw))
        }
    }

    /// The column of bit 0 in the rows of orientation `o`.
    pub fn x_lo(&self, o: u8) -> i64 {
        self.orients[o as usize].x_lo
    }

    /// Words per bit row of orientation `o`.
    pub fn row_len(&self, o: u8) -> usize {
        self.orients[o as usize].nw
    }

    /// Dense index of a state, if it lies in its orientation's box.
    #[inline]
    pub fn index(&self, s: State) -> Option<usize> {
        let r = &self.orients[s.o as usize];
        let (xi, yi) = (s.x - r.x_lo, s.y - r.y_lo);
        if xi < 0 || yi < 0 || xi as usize >= r.nx || yi as usize >= r.ny {
            None
        } else {
            Some(r.state_base + yi as usize * r.nx + xi as usize)
        }
    }

    /// The state of a dense index.
    pub fn state_of(&self, idx: usize) -> State {
        let o = self
            .orients
            .iter()
            .rposition(|r| r.state_base <= idx && r.nx * r.ny > 0)
            .unwrap();
        let r = &self.orients[o];
        let i = idx - r.state_base;
        State {
            x: r.x_lo + (i % r.nx) as i64,
            y: r.y_lo + (i / r.nx) as i64,
            o: o as u8,
        }
    }

    /// The member cells of a state, as offsets from its pivot.
    pub fn cells(&self, s: State) -> &[(i64, i64)] {
        &self.orients[s.o as usize].cells[s.y.rem_euclid(2) as usize]
    }

    /// The outline of a state's shape.
    pub fn outline(&self, s: State) -> &Outline {
        &self.orients[s.o as usize].outline[s.y.rem_euclid(2) as usize]
    }

    /// The member-set key of a state.
    pub fn key(&self, s: State) -> LockKey {
        let (c, dx, dy) = self.orients[s.o as usize].key[s.y.rem_euclid(2) as usize];
        (c, s.x + dx, s.y + dy)
    }

    /// The state a command leads to (whether or not it is free).
    #[inline]
    pub fn step(&self, s: State, cmd: Command) -> State {
        let k = self.k;
        match cmd {
            Command::CW => State {
                o: (s.o + 1) % k,
                ..s
            },
            Command::CCW => State {
                o: (s.o + k - 1) % k,
                ..s
            },
            _ => {
                let dir = cmd.dir().expect("a command that is not a rotation moves");
                let (x, y) = offset_step(s.x, s.y, dir);
                State { x, y, o: s.o }
            }
        }
    }

    /// Whether the unit has more than one distinct orientation: a unit that does not can never
    /// turn (a turn would repeat its position), so its searches skip the rotations.
    #[inline]
    pub fn rotates(&self) -> bool {
        self.k > 1
    }

    /// The commands worth trying for this unit, in the order of [`Command::ALL`].
    #[inline]
    pub fn commands(&self) -> &'static [Command] {
        Command::usable(self.rotates())
    }

    /// Whether the unit fits at `s` according to `free`.
    #[inline]
    pub fn is_free(&self, free: &[u64], s: State) -> bool {
        let r = &self.orients[s.o as usize];
        let (xi, yi) = (s.x - r.x_lo, s.y - r.y_lo);
        if xi < 0 || yi < 0 || xi as usize >= r.nx || yi as usize >= r.ny {
            return false;
        }
        bits::get(&free[r.row_base + yi as usize * r.nw..], xi as usize)
    }

    /// Sets the bit of state `s` in `map`, a bit map of this space (as [`UnitSpace::is_free`]
    /// reads one); `s` lies in its orientation's box.
    #[inline]
    pub(super) fn set_state(&self, map: &mut [u64], s: State) {
        let r = &self.orients[s.o as usize];
        let (xi, yi) = ((s.x - r.x_lo) as usize, (s.y - r.y_lo) as usize);
        debug_assert!(xi < r.nx && yi < r.ny, "{s:?} lies outside its box");
        bits::set(&mut map[r.row_base + yi * r.nw..], xi);
    }

    /// The cells of the unit times the words of their bit rows, summed over its orientations:
    /// the word operations [`UnitSpace::free_map`] spends on a board row it works out (the
    /// measure of that work for the work counts, [`crate::work::Op::MapCell`]).
    pub fn map_cells_per_row(&self) -> u64 {
        self.orients
            .iter()
            .map(|r| (r.cells[0].len() + r.cells[1].len()).div_ceil(2) * r.nw)
            .sum::<usize>() as u64
    }

    /// The states of a row, on average (all orientations): the measure of a row's work for the
    /// work counts ([`crate::work`]).
    pub fn states_per_row(&self) -> u64 {
        (self.states as u64).div_ceil(self.height.max(1) as u64)
    }

    /// The pivot rows a unit starting on row `y0` can reach: from `y0` down to the first row
    /// where no orientation fits on the board. (Orientations of a unit whose pivot lies far away
    /// occupy far-apart rows; a descent only goes one row down, so the gap ends the range.)
    pub fn rows_from(&self, y0: i64) -> std::ops::Range<i64> {
        let has_row = |y: i64| {
            self.orients
                .iter()
                .any(|r| r.nw > 0 && y >= r.y_lo && y < r.y_lo + r.ny as i64)
        };
        let mut y = y0;
        while has_row(y) {
            y += 1;
        }
        y0..y
    }

    /// The free states of orientation `o` in row `y`, by column.
    pub fn free_in_row<'f>(
        &self,
        free: &'f [u64],
        o: u8,
        y: i64,
    ) -> impl Iterator<Item = State> + 'f {
        let x_lo = self.orients[o as usize].x_lo;
        let row: &'f [u64] = match self.row(o, y) {
            Some((b, n)) => &free[b..b + n],
            None => &[],
        };
        bits::ones(row).map(move |i| State {
            x: x_lo + i as i64,
            y,
            o,
        })
    }

    /// Every state (free or not) whose member set has the key `key`.
    pub fn states_with_key(&self, key: LockKey) -> Vec<State> {
        let (class, ax, ay) = key;
        let mut out = Vec::new();
        for (o, r) in self.orients.iter().enumerate() {
            // The anchor's row offset does not depend on the parity; its column offset does.
            let (c, _, dy) = r.key[0];
            if c != class {
                continue;
            }
            let y = ay - dy;
            let (_, dx, _) = r.key[y.rem_euclid(2) as usize];
            out.push(State {
                x: ax - dx,
                y,
                o: o as u8,
            });
        }
        out
    }

    /// The same space without the empty board's move generation: everything worked out row by
    /// row (the slow twin of the tests).
    #[cfg(test)]
    fn uncached(&self) -> UnitSpace {
        UnitSpace {
            clear: Clear::default(),
            ..self.clone()
        }
    }

    /// The states from which `s` is one command away, with that command (a check of
    /// [`UnitSpace::step`] in the tests).
    #[cfg(test)]
    fn predecessors(&self, s: State) -> [(State, Command); 6] {
        let k = self.k;
        // A move into `s` comes from the neighbour in the opposite direction.
        let from = |dir| {
            let (x, y) = offset_step(s.x, s.y, dir);
            State { x, y, o: s.o }
        };
        [
            (from(Dir::E), Command::W),
            (from(Dir::W), Command::E),
            (from(Dir::NE), Command::SW),
            (from(Dir::NW), Command::SE),
            (
                State {
                    o: (s.o + k - 1) % k,
                    ..s
                },
                Command::CW,
            ),
            (
                State {
                    o: (s.o + 1) % k,
                    ..s
                },
                Command::CCW,
            ),
        ]
    }
}

/// The layout of a row of states reads the space through this (see [`RowSpace`]).
impl RowSpace for UnitSpace {
    fn orientations(&self) -> u8 {
        self.k
    }

    fn row_len(&self, o: u8) -> usize {
        UnitSpace::row_len(self, o)
    }

    fn x_lo(&self, o: u8) -> i64 {
        UnitSpace::x_lo(self, o)
    }

    fn row(&self, o: u8, y: i64) -> Option<(usize, usize)> {
        UnitSpace::row(self, o, y)
    }
}

/// The column offsets `[SW, SE]` of the two descents from pivot row `y`, from the engine's
/// [`offset_step`]: the bit-parallel searches shift whole rows by them.
#[inline]
pub fn descent_offsets(y: i64) -> [i64; 2] {
    [offset_step(0, y, Dir::SW).0, offset_step(0, y, Dir::SE).0]
}

#[cfg(test)]
mod tests;
