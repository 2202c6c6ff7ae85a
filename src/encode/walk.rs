//! The two walkers that spell one unit's path from its start to the target lock:
//!
//! - [`greedy`]: from the start, spell the first word (in a preference order) that can be played
//!   from where the unit is and leaves it somewhere viable; otherwise descend, or move along the
//!   row towards a state that can descend.
//! - [`dp`]: walk along the values of the components ([`super::comps`]), looking along the row
//!   for the state whose best action reaches the value of its component.
//!
//! Every action keeps the unit viable (see [`super::unit`]), so neither walker gets stuck, and
//! every command is checked against the positions visited on the current row (the no-repeat
//! rule).

use super::comps::Comps;
use super::row::RowSearch;
use super::unit::{Job, RowVisited};
use super::PhraseTable;
use super::NEG;
use crate::engine::Command;
use crate::plan::State;

/// How many states along the row the dynamic programme's walk considers at each step.
const SEARCH: usize = 512;

/// The output of a walker for one unit.
#[derive(Debug, Default)]
pub struct Spelt {
    pub text: String,
    /// Words spelt (indices into the table), in order.
    pub words: Vec<usize>,
}

impl Spelt {
    /// The power score its words add, given the phrases `used` before: each word at its value
    /// when spelt, so a phrase's first use counts once (`word_phrases`: see
    /// [`PhraseTable::word_phrases`]).
    pub fn power(&self, table: &PhraseTable, word_phrases: &[Vec<usize>], used: &[bool]) -> i64 {
        let mut used = used.to_vec();
        let mut total = 0i64;
        for &w in &self.words {
            total += table.words[w].value(&table.phrases, &used) as i64;
            for &p in &word_phrases[w] {
                used[p] = true;
            }
        }
        total
    }
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
pub fn greedy(
    job: &Job,
    comps: &Comps,
    order: &[usize],
    bfs: &mut [RowSearch; 2],
) -> Option<Spelt> {
    let sp = job.space;
    let mut out = Spelt::default();
    let mut s = job.start;
    let mut visited: RowVisited = vec![(s.x, s.o)];
    if !comps.alive_at(sp, s) {
        return None;
    }
    loop {
        crate::work::add(crate::work::Op::EncStep, order.len() as u64);
        if let Some(&w) = order.iter().find(|&&w| job.locks_with(w, s, &visited)) {
            out.text.push_str(&job.words[w]);
            out.words.push(w);
            return Some(out);
        }
        let word = order.iter().find_map(|&w| {
            // The end must be alive: known at once, before the word is played out.
            if !comps.alive_at(sp, job.word_target(w, s)?) {
                return None;
            }
            let (end, row) = job.try_word(w, s, &visited)?;
            comps.escapable(sp, end, &row, &mut bfs[0]).then_some(())?;
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
        if let Some((c, n)) = comps.alive_descent(job, s) {
            out.text.push(c.char());
            s = n;
            visited = vec![(n.x, n.o)];
            continue;
        }
        // Viability guarantees a way along the row; take its first move and look again.
        let path = comps
            .escape(job, s, &visited, &mut bfs[0])
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

/// The value of an action, the position along the row (of the walk's search) where it is
/// taken, and the action.
type Choice = (i32, u32, Action);

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
    bfs: &mut [RowSearch; 2],
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
        let mut chosen: Option<Choice> = None;
        // Nearest first; stop at a state whose best action reaches the component's value, or
        // after a bounded number of states (the rest of the row rarely beats the nearest ones).
        // The search along the row grows only as far as the states looked at: most steps stop
        // within the first few.
        let mut vis = RowVisited::new();
        outer.begin(job, s, &visited);
        for k in 0..SEARCH {
            while outer.queue.len() <= k && !outer.done() {
                outer.grow(job, |_, _| false);
            }
            let Some(&a) = outer.queue.get(k) else {
                break;
            };
            let at = outer.state(job, a);
            vis.clear();
            vis.extend_from_slice(&visited);
            outer.visit_path(job, a, &mut vis);
            let floor = chosen.as_ref().map_or(NEG, |c| c.0);
            if let Some((val, act)) = best_action(job, comps, wval, at, &vis, floor, inner) {
                chosen = Some((val, a, act));
                if val >= goal {
                    break;
                }
            }
        }
        let (_, path, act) = match chosen {
            Some((val, a, act)) => (val, outer.path(job, a), act),
            None => {
                // Nothing among the nearest states: follow the way out that viability promises.
                let path = comps
                    .escape(job, s, &visited, inner)
                    .expect("the walk stays viable");
                let at = path.last().map_or(s, |p| p.1);
                let act = if job.at_target(at) {
                    Action::Lock(at)
                } else {
                    let (c, n) = comps
                        .alive_descent(job, at)
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
    bfs: &mut RowSearch,
) -> Option<(i32, Action)> {
    let sp = job.space;
    crate::work::add(crate::work::Op::EncStep, wval.len() as u64);
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
    // A word's end lies in an alive component of the row where it ends, so its value is at
    // most its own plus the best of that row's: words that cannot beat the best so far are not
    // played out. Nor are those whose end, known at once, is worth too little.
    let parity = s.y.rem_euclid(2) as usize;
    for (w, &wv) in wval.iter().enumerate() {
        let Some(geo) = &job.geometry[w] else {
            continue;
        };
        let &last = geo[parity].last().expect("words are not empty");
        if !beats(wv.saturating_add(comps.row_max(s.y + last.1)), &best) {
            continue;
        }
        let ve = comps.value_of(sp, job.word_target(w, s).expect("a playable word"));
        if ve <= NEG || !beats(wv + ve, &best) {
            continue;
        }
        let Some((end, row)) = job.try_word(w, s, visited) else {
            continue;
        };
        if comps.escapable(sp, end, &row, bfs) {
            best = Some((wv + ve, Action::Word(w, end, row)));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::unit::fixture::Case;
    use crate::engine::{Decoded, Game, Outcome};
    use rand::{Rng, SeedableRng};

    /// Replays `text` from the spawn of the case's first unit: every command is accepted, the
    /// last one locks the unit, and it locks there with the member set of the target. Returns
    /// the phrases' power.
    fn check_replay(case: &Case, job: &Job, text: &str) -> u64 {
        let mut g = Game::new(&case.problem, 0);
        let cmds: Vec<Command> = text
            .chars()
            .map(|c| match Command::decode(c) {
                Decoded::Command(k) => k,
                _ => panic!("{c:?} is not a command"),
            })
            .collect();
        for (i, &c) in cmds.iter().enumerate() {
            let before = g.piece().expect("a unit in play");
            let out = g.step(c).unwrap_or_else(|e| panic!("{text}: {e:?} at {i}"));
            if i + 1 < cmds.len() {
                assert_eq!(out, Outcome::Moved, "{text}: locked early at {i}");
            } else {
                assert!(matches!(out, Outcome::Locked { .. }), "{text}: no lock");
                let unit = &case.problem.units[0];
                let at = State {
                    x: before.pivot.x,
                    y: before.pivot.y,
                    o: unit.canon(before.orient),
                };
                assert_eq!(case.space.key(at), job.target, "{text}: locked elsewhere");
            }
        }
        let phrases = crate::engine::Phrases::official();
        phrases.score(&phrases.count(text))
    }

    /// On random boards and targets, both walkers spell a path that the engine replays without
    /// error to a lock on the target; the words they report are in their text.
    #[test]
    fn walks_replay_to_their_target() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
        let (mut cases, mut spelt_words) = (0, 0);
        while cases < 200 {
            let Some(case) = Case::random(&mut rng) else {
                continue;
            };
            cases += 1;
            let job = case.job(rng.gen_range(0..case.locks.len()));
            let n = case.words.len();
            let phrases = &case.table.phrases;
            let used = vec![false; phrases.len()];
            let mut wval: Vec<i32> = case
                .table
                .words
                .iter()
                .map(|w| w.value(phrases, &used))
                .collect();
            let word_phrases = case.table.word_phrases();
            let mut bonus: Vec<i32> = phrases.iter().map(|p| p.first_use()).collect();
            let mut comps = Comps::default();
            comps.build(&job, Some(&wval));
            let mut bfs: [RowSearch; 2] = Default::default();
            let order: Vec<usize> = (0..n).collect();
            let g = greedy(&job, &comps, &order, &mut bfs).expect("the spawn reaches the lock");
            check_replay(&case, &job, &g.text);
            let d = dp(&job, &comps, &mut wval, &word_phrases, &mut bonus, &mut bfs)
                .expect("the spawn reaches the lock");
            check_replay(&case, &job, &d.text);
            for s in [&g, &d] {
                for &w in &s.words {
                    assert!(s.text.contains(&case.words[w]));
                    spelt_words += 1;
                }
            }
        }
        assert!(spelt_words > 50, "only {spelt_words} words spelt");
    }

    /// The programme's value at the start bounds the power of every walk to the target (each
    /// word at its value before the unit, a first use counted at each use, and the visited
    /// positions ignored): on random boards, targets and phrases already used, neither walker
    /// spells more than the row components' value, nor, for a unit that cannot rotate, than the
    /// value of [`super::super::line`]'s programme. The encoder skips the greedy walk when the
    /// programme's walk reaches the bound, which is only right if no walk passes it.
    #[test]
    fn no_walk_spells_more_than_the_programmes_value_at_the_start() {
        use crate::encode::line;
        use rand::seq::SliceRandom;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(23);
        let (mut cases, mut lines, mut reached) = (0, 0, 0);
        while cases < 2000 {
            let Some(case) = Case::random(&mut rng) else {
                continue;
            };
            cases += 1;
            let job = case.job(rng.gen_range(0..case.locks.len()));
            let phrases = &case.table.phrases;
            let words = &case.table.words;
            let used: Vec<bool> = phrases.iter().map(|_| rng.gen_bool(0.4)).collect();
            let wval: Vec<i32> = words.iter().map(|w| w.value(phrases, &used)).collect();
            let bonus: Vec<i32> = phrases
                .iter()
                .zip(&used)
                .map(|(p, &u)| if u { 0 } else { p.first_use() })
                .collect();
            let word_phrases = case.table.word_phrases();
            let power = |s: &Spelt| s.power(&case.table, &word_phrases, &used);
            let mut comps = Comps::default();
            comps.build(&job, Some(&wval));
            let bound = comps.value_of(&case.space, job.start) as i64;
            let mut bfs: [RowSearch; 2] = Default::default();
            let mut order: Vec<usize> = (0..words.len()).collect();
            order.shuffle(&mut rng);
            let g = greedy(&job, &comps, &order, &mut bfs).expect("the spawn reaches the lock");
            let (mut wv, mut bo) = (wval.clone(), bonus.clone());
            let d = dp(&job, &comps, &mut wv, &word_phrases, &mut bo, &mut bfs)
                .expect("the spawn reaches the lock");
            assert!(power(&g) <= bound, "case {cases}: greedy {:?}", g.text);
            assert!(power(&d) <= bound, "case {cases}: dp {:?}", d.text);
            reached += (power(&d) == bound && bound > 0) as usize;
            if !case.space.rotates() {
                lines += 1;
                let lw = line::LineWords::new(&job);
                let mut v = Vec::new();
                line::values(&job, &lw, &wval, &mut v);
                let lb = line::start_value(&job, &v) as i64;
                let (mut wv, mut bo) = (wval.clone(), bonus.clone());
                let [b0, _] = &mut bfs;
                if let Some(l) = line::walk(&job, &lw, &mut wv, &word_phrases, &mut bo, &v, b0) {
                    assert!(power(&l) <= lb, "case {cases}: line {:?}", l.text);
                }
                assert!(power(&g) <= lb, "case {cases}: greedy {:?} (line)", g.text);
            }
        }
        // Both programmes are exercised, and the bound is often reached (else the skip is moot).
        assert!(
            lines > 100 && reached > 200,
            "{lines} line cases, {reached} reached"
        );
    }
}
