//! One unit's walk: a search over exact states (the positions visited on the row included)
//! under the programme's values, which bound every exact path from above.
//!
//! Where the bound is tight (always for a unit that cannot rotate, and for most units that can),
//! some path reaches it: [`Walk::exact_first`] follows the children that keep the bound, depth
//! first, and finds one after a few nodes per character. Where it does not, or past its budget,
//! [`Walk::astar`] finds the best exact path, and past its own budget [`Walk::depth_first`] a
//! valid one.

use super::automaton::Node;
use super::heading::{self, FRESH};
use super::region::Region;
use super::{possible, CharStats, NONE};
use crate::encode::automaton::Automaton;
use crate::engine::Command;
use crate::plan::UnitSpace;
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

    /// The best path under the values (A*: they bound every exact path from above), or `None`
    /// past `budget` expansions.
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

    /// A path of value at least the bound at the root less each of [`SLACKS`] in turn, found
    /// depth first within `limit` nodes ([`Walk::at_bound`]), else a valid one ([`Walk::depth_first`]).
    /// With `limit` 0, the reference encoder's search: the best path by A* within `budget`
    /// expansions, else a valid one found depth first within as many nodes. `None` when none
    /// finds one.
    pub(super) fn search(
        &self,
        a0: Node,
        limit: usize,
        budget: usize,
        stats: &mut CharStats,
    ) -> Option<String> {
        if limit > 0 {
            for slack in SLACKS {
                if let Some(text) = self.at_bound(a0, slack, limit, &mut stats.expansions) {
                    return Some(text);
                }
                stats.exact_misses += 1;
            }
            stats.depth_first += 1;
            return self.depth_first(a0, limit);
        }
        self.astar(a0, budget, &mut stats.expansions).or_else(|| {
            stats.depth_first += 1;
            self.depth_first(a0, budget)
        })
    }

    /// A path whose exact value is at least the bound at the root less `slack`, found depth
    /// first: only the children whose bound reaches that are tried (no other can lead to such a
    /// path), the best bound first, then those that earned more so far, then in the order of
    /// [`Walk::children`]; backtracking from dead ends (a position the row has visited, which
    /// the programme's relaxation allowed). An exact state entered again with no more earned
    /// than before is not searched again: it can find nothing the first time did not. `None`
    /// past `limit` nodes or when no such path exists.
    pub(super) fn at_bound(
        &self,
        a0: Node,
        slack: i32,
        limit: usize,
        expanded: &mut usize,
    ) -> Option<String> {
        let root = self.root(a0)?;
        let target = self.vals.at(root.i as usize, FRESH, a0 as usize) - slack;
        let mut nodes = vec![root];
        // Per level: the children still to try, the next one last.
        let mut stack: Vec<Vec<SearchNode>> = Vec::new();
        // Per exact state entered: the most earned on arriving there.
        let mut seen: rustc_hash::FxHashMap<(u32, u8, Node, u64), i32> = Default::default();
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
            *expanded += 1;
            self.row(&nodes, at, &mut row);
            let node = nodes[at as usize];
            let key = (node.i, node.ctx, node.a, visited_hash(&row));
            let mut level: Vec<SearchNode> = Vec::new();
            if seen.get(&key).is_none_or(|&g| g < node.g) {
                seen.insert(key, node.g);
                self.children(&node, at, &row, &mut kids);
                let mut order: Vec<(i32, i32, std::cmp::Reverse<usize>)> = kids
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| k.0 >= target)
                    .map(|(j, k)| (k.0, k.1.g, std::cmp::Reverse(j)))
                    .collect();
                order.sort_unstable();
                level.extend(order.iter().map(|o| kids[o.2 .0].1));
            }
            stack.push(level);
            loop {
                let level = stack.last_mut()?;
                if let Some(child) = level.pop() {
                    nodes.push(child);
                    at = nodes.len() as u32 - 1;
                    break;
                }
                stack.pop();
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

/// Search expansions the A* search of one unit may spend per compact state of its region...
pub(super) const BUDGET_PER_STATE: usize = 64;
/// ...and besides, whatever the region's size.
pub(super) const BUDGET_BASE: usize = 4096;

/// The A* search's budget for a unit whose region has `states` compact states: a few dozen
/// expansions per state, so that it grows with the unit's freedom. Past it the walk falls back
/// to the depth-first search, which is given as many nodes (see [`Walk::search`]).
pub(super) fn search_budget(states: usize) -> usize {
    BUDGET_PER_STATE * states + BUDGET_BASE
}
