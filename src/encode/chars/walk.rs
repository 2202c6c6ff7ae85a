//! One unit's walk: a search over exact states (the positions visited on the row included)
//! under the programme's values, which bound every exact path from above.
//!
//! Where the bound is tight (always for a unit that cannot rotate, and for most units that can),
//! some path reaches it: [`Walk::at_bound`] follows the children that keep the bound, depth
//! first, and finds one after a few nodes per character. Where it does not, [`Walk::search`]
//! lowers the bound step by step until a path is found and bisects for the best; past its budget
//! [`Walk::depth_first`] finds a valid one. (The reference encoder's walk, in the tests, is an
//! A* search.)

use super::automaton::Node;
use super::heading::{self, FRESH};
use super::region::Region;
use super::{possible, CharStats, NONE};
use crate::encode::automaton::Automaton;
use crate::engine::Command;
use crate::plan::UnitSpace;
#[cfg(test)]
use std::collections::BinaryHeap;

/// A node of the walk's search.
#[derive(Clone, Copy, Debug)]
pub(super) struct SearchNode {
    /// Compact state.
    pub(super) i: u32,
    pub(super) ctx: u8,
    pub(super) a: Node,
    /// Value earned so far (scaled, penalties included).
    pub(super) g: i32,
    pub(super) parent: u32,
    /// The character that led here.
    pub(super) ch: u8,
    /// Whether this node is the lock (the end of the unit).
    pub(super) done: bool,
}

/// The values a walk searches under: at compact state `i`, heading `h` and automaton node `a`
/// (a pair some walk can reach), an upper bound of the value of every exact path on from there.
pub(super) trait Bound {
    fn at(&self, i: usize, h: usize, a: usize) -> i32;
}

/// One unit's walk: the programme's values and what they were computed with.
pub(super) struct Walk<'a, V: Bound> {
    pub(super) sp: &'a UnitSpace,
    pub(super) region: &'a Region,
    pub(super) vals: &'a V,
    pub(super) ac: &'a Automaton,
    pub(super) gains: &'a [i32],
    pub(super) terminal: &'a [i32],
}

impl<V: Bound> Walk<'_, V> {
    /// The positions visited on the row of node `ni`: up the parents to the last descent.
    pub(super) fn row(&self, nodes: &[SearchNode], ni: u32, row: &mut Vec<(i64, u8)>) {
        row.clear();
        let y = self.region.states[nodes[ni as usize].i as usize].y;
        let mut p = ni;
        loop {
            let q = nodes[p as usize];
            let st = self.region.states[q.i as usize];
            if st.y != y {
                break;
            }
            row.push((st.x, st.o));
            if q.parent == u32::MAX {
                break;
            }
            p = q.parent;
        }
    }

    /// The children of a node that obey the no-repeat rule exactly, each with its bound
    /// `g + value` (exact for a lock).
    pub(super) fn children(
        &self,
        node: &SearchNode,
        ni: u32,
        row: &[(i64, u8)],
        out: &mut Vec<(i32, SearchNode)>,
    ) {
        out.clear();
        let region = self.region;
        let i = node.i as usize;
        let s = region.states[i];
        let lm = region.locks[i];
        for c in Command::ALL {
            if !self.sp.rotates() && matches!(c, Command::CW | Command::CCW) {
                continue;
            }
            let n = region.next[i][c as usize];
            let locks = lm >> c as u8 & 1 == 1;
            if !locks {
                if n == NONE || heading::forbids(node.ctx as usize, c) {
                    continue;
                }
                let t = region.states[n as usize];
                if t.y == s.y && row.contains(&(t.x, t.o)) {
                    continue;
                }
            }
            for &(a2, ch) in self.ac.edges(node.a, c) {
                let gain = self.gains[a2 as usize];
                let (h, g) = if locks {
                    (self.terminal[a2 as usize], node.g + gain)
                } else {
                    let pen = if c.is_descent() { 0 } else { 1 };
                    (
                        self.vals.at(n as usize, heading::after(c), a2 as usize),
                        node.g + gain - pen,
                    )
                };
                if !possible(h) {
                    continue;
                }
                out.push((
                    g + h,
                    SearchNode {
                        i: if locks { node.i } else { n },
                        ctx: heading::after(c) as u8,
                        a: a2,
                        g,
                        parent: ni,
                        ch,
                        done: locks,
                    },
                ));
            }
        }
    }

    pub(super) fn root(&self, a0: Node) -> Option<SearchNode> {
        let start = self.region.spawn;
        possible(self.vals.at(start as usize, FRESH, a0 as usize)).then_some(SearchNode {
            i: start,
            ctx: FRESH as u8,
            a: a0,
            g: 0,
            parent: u32::MAX,
            ch: 0,
            done: false,
        })
    }

    /// The reference encoder's search: the best path by A* within `budget` expansions, else a
    /// valid one found depth first within as many nodes.
    #[cfg(test)]
    pub(super) fn astar_search(
        &self,
        a0: Node,
        budget: usize,
        stats: &mut CharStats,
    ) -> Option<String> {
        self.astar(a0, budget, &mut stats.expansions).or_else(|| {
            stats.depth_first += 1;
            self.depth_first(a0, budget)
        })
    }

    /// The best path under the values (A*: they bound every exact path from above), or `None`
    /// past `budget` expansions: the reference encoder's search.
    #[cfg(test)]
    pub(super) fn astar(&self, a0: Node, budget: usize, expanded: &mut usize) -> Option<String> {
        let root = self.root(a0)?;
        let h0 = self.vals.at(root.i as usize, FRESH, a0 as usize);
        let mut nodes = vec![root];
        // Max-heap on (f, g, -index): deeper and older first among equals.
        let mut heap: BinaryHeap<(i32, i32, std::cmp::Reverse<u32>)> = BinaryHeap::new();
        heap.push((h0, 0, std::cmp::Reverse(0)));
        let mut closed: rustc_hash::FxHashSet<(u32, u8, Node, u64)> = Default::default();
        let mut expansions = 0;
        let mut row = Vec::new();
        let mut kids = Vec::new();
        while let Some((_, _, std::cmp::Reverse(ni))) = heap.pop() {
            let node = nodes[ni as usize];
            if node.done {
                return Some(rebuild(&nodes, ni));
            }
            self.row(&nodes, ni, &mut row);
            if !closed.insert((node.i, node.ctx, node.a, visited_hash(&row))) {
                continue;
            }
            expansions += 1;
            *expanded += 1;
            if expansions > budget {
                return None;
            }
            self.children(&node, ni, &row, &mut kids);
            for &(f, child) in &kids {
                nodes.push(child);
                heap.push((f, child.g, std::cmp::Reverse(nodes.len() as u32 - 1)));
            }
        }
        None
    }

    /// The best exact path under the values: paths at the bound at the root less each of
    /// [`SLACKS`] in turn ([`Walk::at_bound`]), and once one is found below a slack the search
    /// exhausted, a bisection between the two for the best; past `limit` nodes in a search, the
    /// best found, else a valid path found depth first ([`Walk::depth_first`]). `None` when none
    /// finds one.
    pub(super) fn search(&self, a0: Node, limit: usize, stats: &mut CharStats) -> Option<String> {
        let bound = self.vals.at(self.region.spawn as usize, FRESH, a0 as usize);
        let mut exhausted = None;
        for slack in SLACKS {
            match self.at_bound(a0, bound - slack, limit, &mut stats.expansions) {
                Ok(text) => {
                    let Some(above) = exhausted else {
                        return Some(text);
                    };
                    return Some(self.bisect(a0, text, above, limit, stats));
                }
                Err(Miss::Exhausted) => exhausted = Some(bound - slack),
                Err(Miss::Limit) => exhausted = None,
            }
            stats.exact_misses += 1;
        }
        stats.depth_first += 1;
        self.depth_first(a0, limit)
    }

    /// The best of the paths between `text` (found) and `above` (a value no path reaches):
    /// bisection with [`Walk::at_bound`], the best found when a search runs out of nodes.
    fn bisect(
        &self,
        a0: Node,
        mut text: String,
        above: i32,
        limit: usize,
        stats: &mut CharStats,
    ) -> String {
        let (mut lo, mut hi) = (self.value_of(a0, &text), above - 1);
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            match self.at_bound(a0, mid, limit, &mut stats.expansions) {
                Ok(t) => {
                    lo = self.value_of(a0, &t);
                    text = t;
                }
                Err(Miss::Exhausted) => hi = mid - 1,
                Err(Miss::Limit) => break,
            }
        }
        text
    }

    /// The value of the unit's text `text` from node `a0` under the walk's gains, penalties
    /// and terminal values: what [`Walk::children`] gives its lock node.
    pub(super) fn value_of(&self, a0: Node, text: &str) -> i32 {
        let mut a = a0;
        let mut g = 0;
        let last = text.len().saturating_sub(1);
        for (k, b) in text.bytes().enumerate() {
            a = self.ac.step(a, b);
            g += self.gains[a as usize];
            let row_move = matches!(
                Command::decode(b as char),
                crate::engine::Decoded::Command(c) if !c.is_descent()
            );
            if k < last && row_move {
                g -= 1;
            }
        }
        g + self.terminal[a as usize]
    }

    /// A path whose exact value is at least `target`, found depth first: only the children
    /// whose bound reaches it are tried (no other can lead to such a path), the best bound
    /// first, then those that earned more so far, then in the order of [`Walk::children`];
    /// backtracking from dead ends (a position the row has visited, which the programme's
    /// relaxation allowed). An exact state entered again with no more earned than before is not
    /// searched again: it can find nothing the first time did not. [`Miss::Exhausted`] when no
    /// such path exists, [`Miss::Limit`] past `limit` nodes.
    pub(super) fn at_bound(
        &self,
        a0: Node,
        target: i32,
        limit: usize,
        expanded: &mut usize,
    ) -> Result<String, Miss> {
        let root = self.root(a0).ok_or(Miss::Exhausted)?;
        let mut nodes = vec![root];
        // Per level: the children still to try, the next one last.
        let mut stack: Vec<Vec<SearchNode>> = Vec::new();
        // Per exact state entered: the most earned on arriving there.
        let mut seen: rustc_hash::FxHashMap<(u32, u8, Node, u64), i32> = Default::default();
        let mut row = Vec::new();
        let mut kids = Vec::new();
        // The levels' vectors and the children's order, reused rather than allocated per node.
        let mut spare: Vec<Vec<SearchNode>> = Vec::new();
        let mut order: Vec<(i32, i32, std::cmp::Reverse<usize>)> = Vec::new();
        let mut at = 0u32;
        loop {
            if nodes[at as usize].done {
                return Ok(rebuild(&nodes, at));
            }
            if nodes.len() > limit {
                return Err(Miss::Limit);
            }
            *expanded += 1;
            self.row(&nodes, at, &mut row);
            let node = nodes[at as usize];
            let key = (node.i, node.ctx, node.a, visited_hash(&row));
            let mut level = spare.pop().unwrap_or_default();
            if seen.get(&key).is_none_or(|&g| g < node.g) {
                seen.insert(key, node.g);
                self.children(&node, at, &row, &mut kids);
                order.clear();
                order.extend(
                    kids.iter()
                        .enumerate()
                        .filter(|(_, k)| k.0 >= target)
                        .map(|(j, k)| (k.0, k.1.g, std::cmp::Reverse(j))),
                );
                order.sort_unstable();
                level.extend(order.iter().map(|o| kids[o.2 .0].1));
            }
            stack.push(level);
            loop {
                let level = stack.last_mut().ok_or(Miss::Exhausted)?;
                if let Some(child) = level.pop() {
                    nodes.push(child);
                    at = nodes.len() as u32 - 1;
                    break;
                }
                // Empty: kept for a later level.
                spare.extend(stack.pop());
            }
        }
    }

    /// A valid path found depth first, the most promising child first, backtracking from dead
    /// ends; `None` past `limit` nodes.
    pub(super) fn depth_first(&self, a0: Node, limit: usize) -> Option<String> {
        let root = self.root(a0)?;
        let mut nodes = vec![root];
        // Per level: the children still to try, best last.
        let mut stack: Vec<Vec<(i32, SearchNode)>> = Vec::new();
        let mut row = Vec::new();
        let mut kids = Vec::new();
        let mut at = 0u32;
        loop {
            if nodes[at as usize].done {
                return Some(rebuild(&nodes, at));
            }
            if nodes.len() > limit {
                return None;
            }
            self.row(&nodes, at, &mut row);
            self.children(&nodes[at as usize], at, &row, &mut kids);
            kids.sort_by_key(|k| k.0);
            stack.push(kids.clone());
            // Go down the best untried child, backtracking while a level has none left.
            loop {
                let level = stack.last_mut()?;
                if let Some((_, child)) = level.pop() {
                    nodes.push(child);
                    at = nodes.len() as u32 - 1;
                    break;
                }
                stack.pop();
            }
        }
    }
}

/// Why [`Walk::at_bound`] found no path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Miss {
    /// None reaches the target.
    Exhausted,
    /// The search ran out of nodes first.
    Limit,
}

/// The slacks below the programme's bound the walk searches at, one after the other (see
/// [`Walk::at_bound`]): the bound is often reached or missed by a row move or two (a position
/// the relaxation let a walk visit twice), else by part of a phrase.
const SLACKS: [i32; 14] = [0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096];

/// An order-independent hash of a row's visited positions.
pub(super) fn visited_hash(row: &[(i64, u8)]) -> u64 {
    row.iter()
        .map(|&(x, o)| {
            let v = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (o as u64) << 59;
            v ^ (v >> 29)
        })
        .fold(0u64, |h, v| {
            h.wrapping_add(v.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        })
}

pub(super) fn rebuild(nodes: &[SearchNode], mut i: u32) -> String {
    let mut out = Vec::new();
    while nodes[i as usize].parent != u32::MAX {
        out.push(nodes[i as usize].ch);
        i = nodes[i as usize].parent;
    }
    out.reverse();
    String::from_utf8(out).expect("command characters are ASCII")
}

#[cfg(test)]
mod tests {
    use super::super::brute::{random_phrases, region_of, tiny_case, Brute};
    use super::super::kernel::FastProgramme;
    use super::super::region::Bufs;
    use super::super::rounds::Programme;
    use super::super::SCALE;
    use super::*;
    use crate::encode::test_util::target_of;
    use crate::engine::Game;
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// On tiny boards, against the slow twin ([`Brute`]): the walk under the fast programme's
    /// values finds the best valid path (without a corridor; with one, a valid path no better
    /// than the best), the values bound every path from above, and the depth-first search
    /// finds a valid path as well; some cases need a search below the bound.
    #[test]
    fn the_walk_finds_the_best_valid_path_on_tiny_boards() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let mut checked = 0;
        let mut rotating = 0;
        let mut skipped = 0;
        let mut searched_below = 0;
        for case in 0..1500 {
            let Some((json, p, tables, lock)) = tiny_case(&mut rng) else {
                continue;
            };
            let sp = &tables.spaces[0];
            let phrases = random_phrases(&mut rng);
            let ac = Automaton::new(&phrases);
            let values_of: Vec<i32> = phrases.iter().map(|s| 2 * s.len() as i32 * SCALE).collect();
            let gains = ac.gains(&values_of);
            let terminal: Vec<i32> = (0..ac.len()).map(|_| rng.gen_range(0..3) * SCALE).collect();
            let mut bufs = Bufs::default();
            let corridor = if rng.gen_bool(0.3) { Some(1) } else { None };
            let region = region_of(sp, &p, &lock, corridor, &mut bufs).unwrap_or_else(|| {
                panic!("case {case}: {json} lock {lock:?} corridor {corridor:?}")
            });
            let mut programme = FastProgramme::default();
            let vals = programme.value(sp, &region, &ac, &gains, &terminal);
            let walk = Walk {
                sp,
                region: &region,
                vals,
                ac: &ac,
                gains: &gains,
                terminal: &terminal,
            };
            let mut stats = CharStats::default();
            let text = walk
                .search(0, 1 << 20, &mut stats)
                .unwrap_or_else(|| panic!("case {case}: no path"));
            searched_below += stats.exact_misses.min(1);
            let game = Game::new(&p, 0);
            let target = target_of(sp, &lock);
            let mut brute = Brute {
                ac: &ac,
                gains: &gains,
                first: &[],
                terminal: &terminal,
                target,
                memo: HashMap::new(),
                aborted: false,
            };
            let got = brute.score(&game, &text);
            // The region of a corridor may leave the best path out; the walk is then only
            // valid, never better than the brute.
            let (best, best_text) =
                brute.best_text(&game, &[(game.piece().unwrap().pivot.x, 0)], 0, 0);
            if brute.aborted {
                skipped += 1;
                continue;
            }
            if corridor.is_none() {
                assert_eq!(
                    got, best,
                    "case {case}: {json}\nphrases {phrases:?} lock {lock:?} terminal {terminal:?}\nwalk {text:?} slow twin {best_text:?} value at spawn {}",
                    vals.at(region.spawn as usize, FRESH, 0)
                );
                // The values bound every path from above.
                assert!(
                    vals.at(region.spawn as usize, FRESH, 0) >= best,
                    "case {case}"
                );
            } else {
                assert!(got <= best, "case {case}");
            }
            // The depth-first search finds a valid path as well.
            let dfs = walk.depth_first(0, usize::MAX).expect("a path exists");
            assert!(brute.score(&game, &dfs) <= best);
            checked += 1;
            rotating += sp.rotates() as usize;
        }
        eprintln!(
            "{checked} cases checked, {rotating} rotating, {skipped} skipped as too big, \
             {searched_below} searched below the bound"
        );
        assert!(
            checked > 500 && rotating > 150 && skipped * 5 < checked,
            "{checked} cases, {rotating} rotating, {skipped} skipped"
        );
    }
}
