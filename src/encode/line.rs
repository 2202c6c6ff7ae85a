//! The dynamic programme for units with a single orientation (a 1-cell unit whose pivot is its
//! cell, or any shape symmetric under 60 degrees).
//!
//! Such a unit cannot rotate, so on a row it can only move east or west, and once it has moved
//! one way it cannot turn back (the cell behind it was visited). The component values of
//! [`super::unit`] assume free movement along the row and overrate, for instance, "ei!" (E, SW, W)
//! after "ei!": the second E would return to a visited cell. Here the state is (cell, how the
//! unit arrived on its row): *fresh* (by a descent or the spawn, nothing else visited), *going
//! west* (the east neighbour is visited) or *going east*. A word is allowed from a state when
//! none of its first-row positions is the blocked neighbour; it ends going west, going east or
//! fresh according to its last command. The walk checks the visited positions exactly.

use super::heading::{after_along_row, forbids, EAST, FRESH, WEST};
use super::row::RowSearch;
use super::unit::{Job, RowVisited};
use super::walk::Spelt;
use super::NEG;
use crate::engine::Command;
use crate::plan::State;

/// Per word of the job: the heading after the word, and which neighbours of the start (west,
/// east) its first-row positions use, per start-row parity.
pub struct LineWords {
    tail: Vec<usize>,
    uses: Vec<[(bool, bool); 2]>,
}

impl LineWords {
    pub fn new(job: &Job) -> LineWords {
        let mut tail = Vec::new();
        let mut uses = Vec::new();
        for (w, geo) in job.geometry.iter().enumerate() {
            let last = job.words[w].chars().last().map(Command::decode);
            tail.push(match last {
                Some(crate::engine::Decoded::Command(c)) => after_along_row(c),
                _ => FRESH,
            });
            uses.push(std::array::from_fn(|p| match geo {
                Some(g) => {
                    let first_row = g[p].iter().filter(|st| st.1 == 0);
                    let v: Vec<i64> = first_row.map(|st| st.0).collect();
                    (v.contains(&-1), v.contains(&1))
                }
                None => (false, false),
            }));
        }
        LineWords { tail, uses }
    }

    fn allowed(&self, w: usize, parity: usize, heading: usize) -> bool {
        let (west, east) = self.uses[w][parity];
        match heading {
            WEST => !east,
            EAST => !west,
            _ => true,
        }
    }
}

/// Values per (dense state, heading): `v[3 * i + heading]`.
pub fn values(job: &Job, words: &LineWords, wval: &[i32], v: &mut Vec<i32>) {
    let sp = job.space;
    v.clear();
    v.resize(sp.states * 3, NEG);
    let rows = job.rows();
    let at = |s: State| sp.index(s).filter(|_| sp.is_free(job.free, s));
    for y in rows.rev() {
        let parity = y.rem_euclid(2) as usize;
        let xs: Vec<State> = sp.free_in_row(job.free, 0, y).collect();
        crate::work::add(crate::work::Op::LineState, (xs.len() * wval.len()) as u64);
        let mut local = vec![[NEG; 3]; xs.len()];
        for (k, &s) in xs.iter().enumerate() {
            let mut base = if job.at_target(s) { 0 } else { NEG };
            for c in [Command::SW, Command::SE] {
                if let Some(ni) = at(sp.step(s, c)) {
                    base = base.max(v[3 * ni + FRESH]);
                }
            }
            let mut best = [base; 3];
            for (w, &wv) in wval.iter().enumerate() {
                if job.locks_with(w, s, &Vec::new()) {
                    for (h, b) in best.iter_mut().enumerate() {
                        if words.allowed(w, parity, h) {
                            *b = (*b).max(wv);
                        }
                    }
                }
                let Some(end) = job.word_end(w, s) else {
                    continue;
                };
                let ve = v[3 * sp.index(end).unwrap() + words.tail[w]];
                if ve <= NEG {
                    continue;
                }
                for (h, b) in best.iter_mut().enumerate() {
                    if words.allowed(w, parity, h) {
                        *b = (*b).max(wv + ve);
                    }
                }
            }
            local[k] = best;
        }
        // Going west: this cell's actions, or one more step west. Going east, the mirror.
        // Fresh: this cell's actions, or a first step either way.
        let idx: Vec<usize> = xs.iter().map(|&s| sp.index(s).unwrap()).collect();
        for k in 0..xs.len() {
            let mut val = local[k][WEST];
            if k > 0 && xs[k - 1].x == xs[k].x - 1 {
                val = val.max(v[3 * idx[k - 1] + WEST]);
            }
            v[3 * idx[k] + WEST] = val;
        }
        for k in (0..xs.len()).rev() {
            let mut val = local[k][EAST];
            if k + 1 < xs.len() && xs[k + 1].x == xs[k].x + 1 {
                val = val.max(v[3 * idx[k + 1] + EAST]);
            }
            v[3 * idx[k] + EAST] = val;
        }
        for k in 0..xs.len() {
            let mut val = local[k][FRESH];
            if k > 0 && xs[k - 1].x == xs[k].x - 1 {
                val = val.max(v[3 * idx[k - 1] + WEST]);
            }
            if k + 1 < xs.len() && xs[k + 1].x == xs[k].x + 1 {
                val = val.max(v[3 * idx[k + 1] + EAST]);
            }
            v[3 * idx[k] + FRESH] = val;
        }
    }
}

/// The forward programme: `f[3 * i + heading]` is the best word value of a path from the
/// unit's start to state `i`, arriving with that heading (`NEG` if none). One pass values every
/// lock at once: the planner reads [`forward_at`] for each candidate.
pub fn forward(job: &Job, words: &LineWords, wval: &[i32], f: &mut Vec<i32>) {
    let sp = job.space;
    f.clear();
    f.resize(sp.states * 3, NEG);
    let Some(i0) = sp
        .index(job.start)
        .filter(|_| sp.is_free(job.free, job.start))
    else {
        return;
    };
    f[3 * i0 + FRESH] = 0;
    let at = |s: State| sp.index(s).filter(|_| sp.is_free(job.free, s));
    for y in sp.rows_from(job.start.y) {
        let parity = y.rem_euclid(2) as usize;
        let xs: Vec<State> = sp.free_in_row(job.free, 0, y).collect();
        let idx: Vec<usize> = xs.iter().map(|&s| sp.index(s).unwrap()).collect();
        // Along the row: a first step either way from a fresh arrival, then on in that direction.
        for k in 1..xs.len() {
            if xs[k - 1].x == xs[k].x - 1 {
                let from = f[3 * idx[k - 1] + EAST].max(f[3 * idx[k - 1] + FRESH]);
                f[3 * idx[k] + EAST] = f[3 * idx[k] + EAST].max(from);
            }
        }
        for k in (0..xs.len().saturating_sub(1)).rev() {
            if xs[k + 1].x == xs[k].x + 1 {
                let from = f[3 * idx[k + 1] + WEST].max(f[3 * idx[k + 1] + FRESH]);
                f[3 * idx[k] + WEST] = f[3 * idx[k] + WEST].max(from);
            }
        }
        // Down: descents arrive fresh; words arrive with their tail's heading.
        for (k, &s) in xs.iter().enumerate() {
            let here = [f[3 * idx[k]], f[3 * idx[k] + 1], f[3 * idx[k] + 2]];
            let best = here.iter().copied().max().unwrap();
            if best <= NEG {
                continue;
            }
            for c in [Command::SW, Command::SE] {
                if let Some(ni) = at(sp.step(s, c)) {
                    f[3 * ni + FRESH] = f[3 * ni + FRESH].max(best);
                }
            }
            for (w, &wv) in wval.iter().enumerate() {
                let Some(end) = job.word_end(w, s) else {
                    continue;
                };
                let from = (0..3)
                    .filter(|&h| words.allowed(w, parity, h))
                    .map(|h| here[h])
                    .max()
                    .unwrap_or(NEG);
                if from > NEG {
                    let e = 3 * sp.index(end).unwrap() + words.tail[w];
                    f[e] = f[e].max(from + wv);
                }
            }
        }
    }
}

/// The value of state `s` arrived at with `heading`, from the values `v` of [`values`]: `NEG`
/// where the unit does not fit or the target cannot be reached.
fn value_at(job: &Job, v: &[i32], s: State, heading: usize) -> i32 {
    job.space
        .index(s)
        .filter(|_| job.space.is_free(job.free, s))
        .map_or(NEG, |i| v[3 * i + heading])
}

/// The value of the start, as the walk begins there (fresh, nothing visited).
pub fn start_value(job: &Job, v: &[i32]) -> i32 {
    value_at(job, v, job.start, FRESH)
}

/// The best forward value of state `s`, whatever the heading (see [`forward`]).
pub fn forward_at(job: &Job, f: &[i32], s: State) -> i32 {
    job.space
        .index(s)
        .map_or(NEG, |i| f[3 * i].max(f[3 * i + 1]).max(f[3 * i + 2]))
}

/// The walk along the values: at each step the best action allowed from the unit's state,
/// checked exactly against the visited positions, words only where they leave a way to the
/// target. `None` when the start has no value (the caller falls back).
pub fn walk(
    job: &Job,
    words: &LineWords,
    wval: &mut [i32],
    word_phrases: &[Vec<usize>],
    bonus: &mut [i32],
    v: &[i32],
    bfs: &mut RowSearch,
) -> Option<Spelt> {
    let sp = job.space;
    let val = |s: State, h: usize| value_at(job, v, s, h);
    let mut s = job.start;
    let mut heading = FRESH;
    let mut visited: RowVisited = vec![(s.x, s.o)];
    if val(s, FRESH) <= NEG {
        return None;
    }
    let mut out = Spelt::default();
    loop {
        // Candidates: (value, rank, action); the rank prefers, at equal value, what scores or
        // descends now over a free move whose value lies further on.
        let mut best: Option<(i32, u8, Step)> = None;
        let consider = |value: i32, rank: u8, step: Step, best: &mut Option<(i32, u8, Step)>| {
            if value > NEG && best.as_ref().is_none_or(|b| (value, rank) > (b.0, b.1)) {
                *best = Some((value, rank, step));
            }
        };
        if job.at_target(s) {
            consider(0, 3, Step::Lock, &mut best);
        }
        for (w, &wv) in wval.iter().enumerate() {
            if job.locks_with(w, s, &visited) {
                consider(wv, 4, Step::LockWord(w), &mut best);
            }
        }
        for (w, &wv) in wval.iter().enumerate() {
            if job.geometry[w].is_none() {
                continue;
            }
            let Some((end, row)) = job.try_word(w, s, &visited) else {
                continue;
            };
            let ve = val(end, words.tail[w]);
            let viable = |t: State| {
                job.at_target(t)
                    || [Command::SW, Command::SE]
                        .iter()
                        .any(|&c| val(sp.step(t, c), FRESH) > NEG)
            };
            if ve > NEG
                && best.as_ref().is_none_or(|b| wv + ve > b.0)
                && bfs.escape_to(job, end, &row, viable).is_some()
            {
                consider(wv + ve, 2, Step::Word(w, end, row), &mut best);
            }
        }
        for c in [Command::SW, Command::SE] {
            let n = sp.step(s, c);
            consider(val(n, FRESH), 1, Step::Move(c, n, FRESH), &mut best);
        }
        for (c, h) in [(Command::W, WEST), (Command::E, EAST)] {
            let n = sp.step(s, c);
            if !forbids(heading, c) && !visited.contains(&(n.x, n.o)) {
                consider(val(n, h), 0, Step::Move(c, n, h), &mut best);
            }
        }
        let (_, _, step) = best?;
        match step {
            Step::Lock => {
                out.text.push(job.lock_cmd(s).char());
                return Some(out);
            }
            Step::LockWord(w) => {
                out.text.push_str(&job.words[w]);
                out.words.push(w);
                return Some(out);
            }
            Step::Move(c, n, h) => {
                out.text.push(c.char());
                if c.is_descent() {
                    visited.clear();
                }
                visited.push((n.x, n.o));
                s = n;
                heading = h;
            }
            Step::Word(w, end, row) => {
                out.text.push_str(&job.words[w]);
                out.words.push(w);
                super::walk::earn(w, wval, word_phrases, bonus);
                heading = words.tail[w];
                s = end;
                visited = row;
            }
        }
    }
}

enum Step {
    Lock,
    LockWord(usize),
    Move(Command, State, usize),
    Word(usize, State, RowVisited),
}
