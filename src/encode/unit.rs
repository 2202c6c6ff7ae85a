//! Encoding one unit: a command path from its start to a lock with a given member set, spelling
//! words (phrases of power, and chains of a self-overlapping phrase) on the way.
//!
//! The unit's free states are split, row by row, into components: sets of states connected by
//! moves along the row (E, W and the rotations), which cost no descent. A component is *alive*
//! when the target can be reached from it, that is when it holds a target state or a state that
//! can descend into an alive component of the next row. Two walkers share this machinery:
//!
//! - [`greedy`]: from the start, spell the first word (in a preference order) that can be played
//!   from where the unit is and leaves it somewhere viable; otherwise descend, or move along the
//!   row towards a state that can descend.
//! - [`dp`]: a dynamic programme first values every component, from the bottom row up, by the
//!   best word score of a path from it to the target (moving along a row is free, so a whole
//!   component shares one value); the walk then looks, along the row, for the state whose best
//!   action reaches that value.
//!
//! The no-repeat rule: positions are compared by (pivot, canonical orientation); the walkers keep
//! the positions visited on the current row (a descent clears them, since no command climbs) and
//! check every command against them. A word whose own states coincide for this unit is never
//! played. *Viable* means: from this state, with these positions of its row visited, some path
//! along the row reaches the target or a descent into an alive component. Every action a walker
//! takes keeps the unit viable, and a viable unit can always go on, so the walkers never get
//! stuck; the dynamic programme's values ignore visited positions and are only estimates.

use crate::engine::Command;
use crate::plan::bits;
use crate::plan::{Bfs, LockKey, RowMask, State, UnitSpace};

/// How many states along the row the dynamic programme's walk considers at each step.
const SEARCH: usize = 512;

/// Value of an impossible component in the dynamic programme.
pub const NEG: i32 = i32::MIN / 4;

/// A word's geometry for one unit (rotations reduced modulo the unit's distinct orientations),
/// per start-row parity; `None` when the unit can never play it.
pub type UnitGeometry = Option<[Vec<(i64, i64, u8)>; 2]>;

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

/// The row components of a unit on a board, their liveness and values.
#[derive(Debug, Default)]
pub struct Comps {
    /// Per component.
    pub alive: Vec<bool>,
    pub value: Vec<i32>,
    has_target: Vec<bool>,
    /// Per component, its row mask (see [`RowMask`]).
    masks: Vec<u64>,
    /// Per row from `y0`: the range of its component ids.
    row_comps: Vec<(u32, u32)>,
    y0: i64,
    layout: RowMask,
    remaining: Vec<u64>,
    tmp: Vec<u64>,
    word_mask: Vec<u64>,
}

impl Comps {
    /// The component holding `s`: the few components of its row are tested bit by bit, which
    /// is cheaper than keeping a component index per state.
    fn comp(&self, space: &UnitSpace, s: State) -> Option<usize> {
        let i = s.x - space.x_lo(s.o);
        if i < 0 {
            return None;
        }
        let (off, n) = self.layout.span(s.o);
        let (w, b) = (i as usize / 64, i as usize % 64);
        if w >= n {
            return None;
        }
        self.row_range(s.y)
            .find(|&c| self.masks[c * self.layout.len + off + w] >> b & 1 == 1)
    }

    fn mask(&self, c: usize) -> &[u64] {
        let n = self.layout.len;
        &self.masks[c * n..(c + 1) * n]
    }

    fn row_range(&self, y: i64) -> std::ops::Range<usize> {
        let i = y - self.y0;
        if i < 0 || i as usize >= self.row_comps.len() {
            return 0..0;
        }
        let (a, b) = self.row_comps[i as usize];
        a as usize..b as usize
    }

    /// Splits the free states from the start's row down into components and marks which are
    /// alive. With `values`, also runs the dynamic programme with word values `wval`.
    pub fn build(&mut self, job: &Job, values: Option<&[i32]>) {
        let sp = job.space;
        self.layout.clone_from(sp.layout());
        let n = self.layout.len;
        self.masks.clear();
        self.row_comps.clear();
        self.alive.clear();
        self.value.clear();
        self.has_target.clear();
        let rows = sp.rows_from(job.start.y);
        self.y0 = job.start.y;
        for y in rows.clone() {
            let first = self.alive.len() as u32;
            self.remaining.clear();
            self.remaining.resize(n, 0);
            self.layout.load(sp, job.free, y, &mut self.remaining);
            while let Some((o, i)) = self.layout.first_bit(&self.remaining) {
                let start = self.masks.len();
                self.masks.resize(start + n, 0);
                let cm = &mut self.masks[start..];
                self.layout.set(cm, o, i);
                self.layout.flood(sp, cm, &self.remaining, &mut self.tmp);
                for (r, c) in self.remaining.iter_mut().zip(cm.iter()) {
                    *r &= !c;
                }
                self.alive.push(false);
                self.value.push(NEG);
                self.has_target.push(false);
            }
            self.row_comps.push((first, self.alive.len() as u32));
        }
        for t in sp.lock_states(job.free, job.target) {
            if let Some(c) = self.comp(sp, t) {
                self.has_target[c] = true;
            }
        }
        // Words that end by locking the unit at the target are worth their value from where they
        // start, like a lock.
        let lock_words = if values.is_some() {
            job.lock_word_starts()
        } else {
            Vec::new()
        };
        // Bottom-up: liveness, and the values.
        let mut d = std::mem::take(&mut self.tmp);
        for y in rows.rev() {
            for c in self.row_range(y) {
                let mut alive = self.has_target[c];
                let mut value = if alive { 0 } else { NEG };
                self.descents(sp, job.free, c, y, &mut d, |c2, me| {
                    if me.alive[c2] {
                        alive = true;
                        value = value.max(me.value[c2]);
                    }
                });
                self.alive[c] = alive;
                self.value[c] = value;
            }
            if let Some(wval) = values {
                for &(s, w) in lock_words.iter().filter(|(s, _)| s.y == y) {
                    if let Some(c) = self.comp(sp, s) {
                        if self.alive[c] {
                            self.value[c] = self.value[c].max(wval[w]);
                        }
                    }
                }
                self.word_values(job, y, wval);
            }
        }
        self.tmp = d;
    }

    /// Calls `f` for every component of row `y + 1` that a state of component `c` (row `y`) can
    /// descend into.
    fn descents(
        &self,
        sp: &UnitSpace,
        free: &[u64],
        c: usize,
        y: i64,
        d: &mut Vec<u64>,
        mut f: impl FnMut(usize, &Self),
    ) {
        let [sw, se] = crate::plan::space::descent_offsets(y);
        let cm = self.mask(c);
        d.clear();
        d.resize(self.layout.len, 0);
        for o in 0..sp.k {
            let Some((b2, n2)) = sp.row(o, y + 1) else {
                continue;
            };
            let (off, nw) = self.layout.span(o);
            let dst = &mut d[off..off + nw];
            bits::or_shifted(dst, &cm[off..off + nw], -se);
            bits::or_shifted(dst, &cm[off..off + nw], -sw);
            for (w, fr) in dst.iter_mut().zip(&free[b2..b2 + n2]) {
                *w &= fr;
            }
        }
        for c2 in self.row_range(y + 1) {
            if self.mask(c2).iter().zip(d.iter()).any(|(a, b)| a & b != 0) {
                f(c2, self);
            }
        }
    }

    /// Raises the values of row `y`'s components by the words that can start in them.
    fn word_values(&mut self, job: &Job, y: i64, wval: &[i32]) {
        if !self.row_range(y).any(|c| self.alive[c]) {
            return;
        }
        let parity = y.rem_euclid(2) as usize;
        let mut links = Vec::new();
        for (w, geo) in job.geometry.iter().enumerate() {
            let Some(geo) = geo else { continue };
            // A word that ends on a row without an alive component is worth nothing here.
            let ldy = geo[parity].last().expect("words are not empty").1;
            if !self.row_range(y + ldy).any(|c| self.alive[c]) {
                continue;
            }
            self.word_links(job, y, &geo[parity], &mut links);
            for &(cs, ce) in &links {
                if self.alive[ce] {
                    self.value[cs] = self.value[cs].max(wval[w] + self.value[ce]);
                }
            }
        }
    }

    /// Lists in `links` every (start, end) pair of components such that the word with these
    /// steps, played from some state of the start component (row `y`), moves through free states
    /// only and ends in the end component. The test is bit-parallel over whole rows.
    fn word_links(
        &mut self,
        job: &Job,
        y: i64,
        steps: &[(i64, i64, u8)],
        links: &mut Vec<(usize, usize)>,
    ) {
        links.clear();
        let sp = job.space;
        let &(ldx, ldy, lrot) = steps.last().expect("words are not empty");
        for o in 0..sp.k {
            let Some((b, nw)) = sp.row(o, y) else {
                continue;
            };
            // Starts where every state of the word is free.
            self.word_mask.clear();
            self.word_mask.extend_from_slice(&job.free[b..b + nw]);
            for &(dx, dy, rot) in steps {
                let o2 = (o + rot) % sp.k;
                match sp.row(o2, y + dy) {
                    Some((b2, n2)) => {
                        let shift = dx + sp.x_lo(o) - sp.x_lo(o2);
                        bits::and_shifted(&mut self.word_mask, &job.free[b2..b2 + n2], shift);
                    }
                    None => self.word_mask.iter_mut().for_each(|m| *m = 0),
                }
                if self.word_mask.iter().all(|&m| m == 0) {
                    break;
                }
            }
            if self.word_mask.iter().all(|&m| m == 0) {
                continue;
            }
            // Which component each start ends in, and which component it starts from.
            let o_end = (o + lrot) % sp.k;
            let shift = ldx + sp.x_lo(o) - sp.x_lo(o_end);
            let (eoff, enw) = self.layout.span(o_end);
            let (soff, _) = self.layout.span(o);
            let n = self.layout.len;
            for ce in self.row_range(y + ldy) {
                self.tmp.clear();
                self.tmp.resize(nw, 0);
                bits::or_shifted(
                    &mut self.tmp,
                    &self.masks[ce * n + eoff..ce * n + eoff + enw],
                    shift,
                );
                let mut any = false;
                for (t, m) in self.tmp.iter_mut().zip(&self.word_mask) {
                    *t &= m;
                    any |= *t != 0;
                }
                if !any {
                    continue;
                }
                for cs in self.row_range(y) {
                    let sm = &self.masks[cs * n + soff..cs * n + soff + nw];
                    if sm.iter().zip(&self.tmp).any(|(a, b)| a & b != 0) {
                        links.push((cs, ce));
                    }
                }
            }
        }
    }

    /// The value of the component of `s`, `NEG` if none or dead.
    pub fn value_of(&self, sp: &UnitSpace, s: State) -> i32 {
        match self.comp(sp, s) {
            Some(c) if self.alive[c] => self.value[c],
            _ => NEG,
        }
    }

    /// Whether `s` lies in an alive component.
    pub fn alive_at(&self, sp: &UnitSpace, s: State) -> bool {
        self.comp(sp, s).is_some_and(|c| self.alive[c])
    }
}

impl Job<'_> {
    fn state(&self, s: State, step: (i64, i64, u8)) -> State {
        State {
            x: s.x + step.0,
            y: s.y + step.1,
            o: (s.o + step.2) % self.space.k,
        }
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

    /// Whether `s` has the target's member set and can lock there (a state of the same member
    /// set may lock only by a rotation, which another one need not share).
    pub fn at_target(&self, s: State) -> bool {
        self.space.is_lock_state(self.free, s, self.target)
    }

    /// A command that locks the unit at `s`.
    pub fn lock_cmd(&self, s: State) -> Command {
        let m = self.space.lock_cmds(self.free, s);
        Command::from_index(
            (0..6)
                .find(|&c| m >> c & 1 == 1)
                .expect("a target state can lock"),
        )
    }

    /// The in-row moves (E, W and, for units with several orientations, the rotations).
    fn row_moves(&self) -> &'static [Command] {
        if !self.space.rotates() {
            &[Command::W, Command::E]
        } else {
            &[Command::W, Command::E, Command::CW, Command::CCW]
        }
    }

    /// Breadth-first search within the row of `s`, through free states not in `visited`, until
    /// `limit` states are found or `stop` holds for one. Fills `bfs.queue` with their dense
    /// indices, nearest first (`s` first); returns the index where `stop` held.
    pub fn row_search(
        &self,
        s: State,
        visited: &RowVisited,
        limit: usize,
        bfs: &mut Bfs,
        mut stop: impl FnMut(State) -> bool,
    ) -> Option<usize> {
        let sp = self.space;
        bfs.begin(sp.states);
        let si = sp.index(s).expect("the unit's state is free");
        bfs.visit(si, u32::MAX, 0);
        if stop(s) {
            return Some(si);
        }
        let mut head = 0;
        while head < bfs.queue.len() {
            let i = bfs.queue[head] as usize;
            head += 1;
            let cur = sp.state_of(i);
            for &cmd in self.row_moves() {
                let n = sp.step(cur, cmd);
                if !sp.is_free(self.free, n) || visited.contains(&(n.x, n.o)) {
                    continue;
                }
                let ni = sp.index(n).expect("free states lie in the box");
                if !bfs.seen(ni) {
                    bfs.visit(ni, i as u32, cmd as u8);
                    if stop(n) {
                        return Some(ni);
                    }
                    if bfs.queue.len() >= limit {
                        return None;
                    }
                }
            }
        }
        None
    }

    /// The commands from the search's root to dense index `i`, with the states on the way.
    pub fn row_path(&self, bfs: &Bfs, i: usize) -> Vec<(Command, State)> {
        let mut path = Vec::new();
        let mut cur = i;
        loop {
            let (p, c) = bfs.parent(cur);
            if p == u32::MAX {
                break;
            }
            path.push((Command::from_index(c as usize), self.space.state_of(cur)));
            cur = p as usize;
        }
        path.reverse();
        path
    }

    /// A free descent from `s` into an alive component, if any.
    fn alive_descent(&self, comps: &Comps, s: State) -> Option<(Command, State)> {
        [Command::SW, Command::SE].into_iter().find_map(|c| {
            let n = self.space.step(s, c);
            (self.space.is_free(self.free, n) && comps.alive_at(self.space, n)).then_some((c, n))
        })
    }

    /// A path along the row from `s` (avoiding `visited`) to the nearest state where `good`
    /// holds, if any.
    pub fn escape_to(
        &self,
        s: State,
        visited: &RowVisited,
        bfs: &mut Bfs,
        good: impl Fn(State) -> bool,
    ) -> Option<Vec<(Command, State)>> {
        let found = self.row_search(s, visited, usize::MAX, bfs, good)?;
        Some(self.row_path(bfs, found))
    }

    /// A path along the row to the nearest state that is the target or can descend into an
    /// alive component: what keeps the unit viable.
    fn escape(
        &self,
        comps: &Comps,
        s: State,
        visited: &RowVisited,
        bfs: &mut Bfs,
    ) -> Option<Vec<(Command, State)>> {
        self.escape_to(s, visited, bfs, |t| {
            self.at_target(t) || self.alive_descent(comps, t).is_some()
        })
    }
}

/// The output of a walker for one unit.
#[derive(Debug, Default)]
pub struct Spelt {
    pub text: String,
    /// Words spelt (indices into the table), in order.
    pub words: Vec<usize>,
}

/// Moves along a row path, recording the positions.
fn follow(out: &mut Spelt, visited: &mut RowVisited, path: &[(Command, State)]) {
    for (c, st) in path {
        out.text.push(c.char());
        visited.push((st.x, st.o));
    }
}

/// The greedy walker; `order` lists the words to try, best first. `comps` must be built (no
/// values needed). `None` only if the start itself cannot reach the target.
pub fn greedy(job: &Job, comps: &Comps, order: &[usize], bfs: &mut [Bfs; 2]) -> Option<Spelt> {
    let sp = job.space;
    let mut out = Spelt::default();
    let mut s = job.start;
    let mut visited: RowVisited = vec![(s.x, s.o)];
    if !comps.alive_at(sp, s) {
        return None;
    }
    loop {
        if let Some(&w) = order.iter().find(|&&w| job.locks_with(w, s, &visited)) {
            out.text.push_str(&job.words[w]);
            out.words.push(w);
            return Some(out);
        }
        let word = order.iter().find_map(|&w| {
            let (end, row) = job.try_word(w, s, &visited)?;
            if !comps.alive_at(sp, end) {
                return None;
            }
            job.escape(comps, end, &row, &mut bfs[0])?;
            Some((w, end, row))
        });
        if let Some((w, end, row)) = word {
            out.text.push_str(&job.words[w]);
            out.words.push(w);
            s = end;
            visited = row;
            continue;
        }
        if job.at_target(s) {
            out.text.push(job.lock_cmd(s).char());
            return Some(out);
        }
        if let Some((c, n)) = job.alive_descent(comps, s) {
            out.text.push(c.char());
            s = n;
            visited = vec![(n.x, n.o)];
            continue;
        }
        // Viability guarantees a way along the row; take its first move and look again.
        let path = job
            .escape(comps, s, &visited, &mut bfs[0])
            .expect("the walk stays viable");
        let first = &path[..1];
        follow(&mut out, &mut visited, first);
        s = first[0].1;
    }
}

/// Word `w` was spelt: the first use of each of its phrases is earned, so every word holding one
/// of them is worth that much less from now on.
pub fn earn(w: usize, wval: &mut [i32], word_phrases: &[Vec<usize>], bonus: &mut [i32]) {
    for &p in &word_phrases[w] {
        if bonus[p] != 0 {
            for (w2, ps) in word_phrases.iter().enumerate() {
                if ps.contains(&p) {
                    wval[w2] -= bonus[p];
                }
            }
            bonus[p] = 0;
        }
    }
}

/// A row path to a launch state, with the action taken there and its value.
type Choice = (i32, Vec<(Command, State)>, Action);

enum Action {
    Lock(State),
    /// A word that ends by locking the unit.
    LockWord(usize),
    Descend(Command, State),
    Word(usize, State, RowVisited),
}

/// The walker of the dynamic programme. `comps` must be built with values for `wval`, which
/// the walk lowers as phrases get used (`bonus` holds the first-use part still unearned).
pub fn dp(
    job: &Job,
    comps: &Comps,
    wval: &mut [i32],
    word_phrases: &[Vec<usize>],
    bonus: &mut [i32],
    bfs: &mut [Bfs; 2],
) -> Option<Spelt> {
    let sp = job.space;
    let mut out = Spelt::default();
    let mut s = job.start;
    let mut visited: RowVisited = vec![(s.x, s.o)];
    if !comps.alive_at(sp, s) {
        return None;
    }
    loop {
        let goal = comps.value_of(sp, s);
        let [outer, inner] = bfs;
        job.row_search(s, &visited, SEARCH, outer, |_| false);
        let order: Vec<usize> = outer.queue.iter().map(|&i| i as usize).collect();
        let mut chosen: Option<Choice> = None;
        // Nearest first; stop at a state whose best action reaches the component's value, or
        // after a bounded number of states (the rest of the row rarely beats the nearest ones).
        let mut vis = RowVisited::new();
        for &a in &order {
            let at = sp.state_of(a);
            let path = job.row_path(outer, a);
            vis.clear();
            vis.extend_from_slice(&visited);
            vis.extend(path.iter().map(|(_, st)| (st.x, st.o)));
            let floor = chosen.as_ref().map_or(NEG, |c| c.0);
            if let Some((val, act)) = best_action(job, comps, wval, at, &vis, floor, inner) {
                chosen = Some((val, path, act));
                if val >= goal {
                    break;
                }
            }
        }
        let (_, path, act) = match chosen {
            Some(c) => c,
            None => {
                // Nothing among the nearest states: follow the way out that viability promises.
                let path = job
                    .escape(comps, s, &visited, inner)
                    .expect("the walk stays viable");
                let at = path.last().map_or(s, |p| p.1);
                let act = if job.at_target(at) {
                    Action::Lock(at)
                } else {
                    let (c, n) = job
                        .alive_descent(comps, at)
                        .expect("escape ends at a descent");
                    Action::Descend(c, n)
                };
                (0, path, act)
            }
        };
        follow(&mut out, &mut visited, &path);
        match act {
            Action::Lock(at) => {
                out.text.push(job.lock_cmd(at).char());
                return Some(out);
            }
            Action::LockWord(w) => {
                out.text.push_str(&job.words[w]);
                out.words.push(w);
                return Some(out);
            }
            Action::Descend(c, n) => {
                out.text.push(c.char());
                s = n;
                visited = vec![(n.x, n.o)];
            }
            Action::Word(w, end, row) => {
                out.text.push_str(&job.words[w]);
                out.words.push(w);
                earn(w, wval, word_phrases, bonus);
                s = end;
                visited = row;
            }
        }
    }
}

/// The best action at `s` better than `floor`, with the row's visited positions checked exactly
/// and words accepted only where they leave the unit viable.
fn best_action(
    job: &Job,
    comps: &Comps,
    wval: &[i32],
    s: State,
    visited: &RowVisited,
    floor: i32,
    bfs: &mut Bfs,
) -> Option<(i32, Action)> {
    let sp = job.space;
    let mut best: Option<(i32, Action)> = None;
    let beats =
        |v: i32, best: &Option<(i32, Action)>| v > floor && best.as_ref().is_none_or(|b| v > b.0);
    if job.at_target(s) && beats(0, &best) {
        best = Some((0, Action::Lock(s)));
    }
    for (w, &wv) in wval.iter().enumerate() {
        if beats(wv, &best) && job.locks_with(w, s, visited) {
            best = Some((wv, Action::LockWord(w)));
        }
    }
    for c in [Command::SW, Command::SE] {
        let n = sp.step(s, c);
        if sp.is_free(job.free, n) {
            let v = comps.value_of(sp, n);
            if v > NEG && beats(v, &best) {
                best = Some((v, Action::Descend(c, n)));
            }
        }
    }
    for (w, &wv) in wval.iter().enumerate() {
        if job.geometry[w].is_none() {
            continue;
        }
        let Some((end, row)) = job.try_word(w, s, visited) else {
            continue;
        };
        let ve = comps.value_of(sp, end);
        if ve <= NEG || !beats(wv + ve, &best) {
            continue;
        }
        if job.escape(comps, end, &row, bfs).is_some() {
            best = Some((wv + ve, Action::Word(w, end, row)));
        }
    }
    best
}
