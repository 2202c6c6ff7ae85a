//! The Aho–Corasick automaton of the phrases of power, for encoders that count phrase
//! occurrences character by character.
//!
//! A node stands for the longest suffix of the text written so far that is a prefix of some
//! phrase; feeding a character moves to the next node, and the phrases that end at a node (its
//! own phrase and those of its suffix links) are the occurrences that character completes. This
//! counts overlapping occurrences, occurrences of different phrases that share characters, and
//! occurrences that span two units, exactly as the evaluator counts them on the raw text
//! (RULES.md section 11), as long as the text is written in lower case, which the encoders do.
//!
//! For the dynamic programmes the transitions are grouped by command: of the characters that
//! spell a command, only those leading to distinct nodes matter, each with one representative
//! character (the first in [`Command::chars`] order). Every phrase character is an ASCII command
//! character (the phrase table drops the others), so a character outside every phrase leads
//! back to the root.

use crate::engine::Command;

/// Index of a node; the root is 0.
pub type Node = u16;

/// The automaton over a list of phrases.
#[derive(Clone, Debug)]
pub struct Automaton {
    /// Full transition table over ASCII.
    next: Vec<[Node; 128]>,
    /// Per node and command: the range of its distinct successors in `edges`.
    by_cmd: Vec<[(u32, u32); 6]>,
    /// Distinct successors with a representative character.
    edges: Vec<(Node, u8)>,
    /// Per node: the phrases (indices into the list given to [`Automaton::new`]) whose
    /// occurrence ends when the node is entered.
    ends: Vec<Vec<u16>>,
    /// Per node: its depth (the length of the prefix it stands for).
    depth: Vec<u16>,
}

impl Automaton {
    /// Builds the automaton of `phrases` (lower case, command characters only; others are
    /// ignored so that the automaton still builds).
    pub fn new<S: AsRef<str>>(phrases: &[S]) -> Automaton {
        let mut goto: Vec<[Node; 128]> = vec![[0; 128]];
        let mut has: Vec<[bool; 128]> = vec![[false; 128]];
        let mut ends: Vec<Vec<u16>> = vec![Vec::new()];
        let mut depth: Vec<u16> = vec![0];
        for (i, p) in phrases.iter().enumerate() {
            let p = p.as_ref();
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii()) {
                continue;
            }
            let mut s = 0usize;
            for b in p.bytes() {
                let b = b as usize;
                if !has[s][b] {
                    goto.push([0; 128]);
                    has.push([false; 128]);
                    ends.push(Vec::new());
                    depth.push(depth[s] + 1);
                    let t = goto.len() - 1;
                    assert!(t < Node::MAX as usize, "too many phrase characters");
                    goto[s][b] = t as Node;
                    has[s][b] = true;
                }
                s = goto[s][b] as usize;
            }
            ends[s].push(i as u16);
        }
        // Breadth-first: suffix links and the full transition table.
        let n = goto.len();
        let mut fail = vec![0usize; n];
        let mut next = vec![[0 as Node; 128]; n];
        let mut order = vec![0usize];
        let mut head = 0;
        while head < order.len() {
            let s = order[head];
            head += 1;
            for b in 0..128 {
                if has[s][b] {
                    let t = goto[s][b] as usize;
                    if s != 0 {
                        fail[t] = next[fail[s]][b] as usize;
                    }
                    next[s][b] = t as Node;
                    order.push(t);
                } else {
                    next[s][b] = if s == 0 { 0 } else { next[fail[s]][b] };
                }
            }
        }
        for &s in &order[1..] {
            let inherited = ends[fail[s]].clone();
            ends[s].extend(inherited);
        }
        let mut by_cmd = Vec::with_capacity(n);
        let mut edges = Vec::new();
        for row in &next {
            let ranges = std::array::from_fn(|c| {
                let start = edges.len();
                for b in Command::ALL[c].chars().bytes() {
                    let t = row[b as usize];
                    if !edges[start..].iter().any(|&(u, _)| u == t) {
                        edges.push((t, b));
                    }
                }
                (start as u32, edges.len() as u32)
            });
            by_cmd.push(ranges);
        }
        Automaton {
            next,
            by_cmd,
            edges,
            ends,
            depth,
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.next.len()
    }

    /// Always false: the root exists.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The node after feeding character `b` (lower case) to node `a`.
    #[inline]
    pub fn step(&self, a: Node, b: u8) -> Node {
        if b < 128 {
            self.next[a as usize][b as usize]
        } else {
            0
        }
    }

    /// The node after feeding a whole text from node `a`.
    pub fn feed(&self, a: Node, text: &str) -> Node {
        text.bytes().fold(a, |a, b| self.step(a, b))
    }

    /// The distinct successors of node `a` under command `c`, each with a character for it.
    #[inline]
    pub fn edges(&self, a: Node, c: Command) -> &[(Node, u8)] {
        let (s, e) = self.by_cmd[a as usize][c as usize];
        &self.edges[s as usize..e as usize]
    }

    /// The phrases whose occurrence ends on entering node `a`.
    pub fn ends(&self, a: Node) -> &[u16] {
        &self.ends[a as usize]
    }

    /// The length of the phrase prefix node `a` stands for.
    pub fn depth(&self, a: Node) -> usize {
        self.depth[a as usize] as usize
    }

    /// The gain of entering each node when phrase `i` is worth `values[i]` per occurrence.
    pub fn gains(&self, values: &[i32]) -> Vec<i32> {
        self.ends
            .iter()
            .map(|e| e.iter().map(|&p| values[p as usize]).sum())
            .collect()
    }

    /// For each node of `other`, the node of this automaton reached by feeding the prefix that
    /// node stands for (the longest suffix of that text which is a prefix of one of this
    /// automaton's phrases).
    pub fn map_from(&self, other: &Automaton) -> Vec<Node> {
        // Rebuild each of `other`'s node strings from its parents, breadth-first.
        let n = other.len();
        let mut text: Vec<Option<Vec<u8>>> = vec![None; n];
        text[0] = Some(Vec::new());
        let mut order = vec![0usize];
        let mut head = 0;
        while head < order.len() {
            let s = order[head];
            head += 1;
            for b in 0..128u8 {
                let t = other.next[s][b as usize] as usize;
                if text[t].is_none() && other.depth[t] == other.depth[s] + 1 {
                    let mut v = text[s].clone().expect("parents come first");
                    v.push(b);
                    text[t] = Some(v);
                    order.push(t);
                }
            }
        }
        text.iter()
            .map(|t| {
                t.as_ref()
                    .expect("every node is a prefix")
                    .iter()
                    .fold(0, |a, &b| self.step(a, b))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Phrases;

    /// The automaton's count of each phrase in `text`, by feeding it character by character.
    fn count(a: &Automaton, n: usize, text: &str) -> Vec<u32> {
        let mut c = vec![0; n];
        let mut s = 0;
        for b in text.bytes() {
            s = a.step(s, b);
            for &p in a.ends(s) {
                c[p as usize] += 1;
            }
        }
        c
    }

    #[test]
    fn counts_agree_with_the_engine_on_random_texts() {
        use rand::{Rng, SeedableRng};
        let phrases = Phrases::official();
        let list: Vec<&str> = phrases.iter().collect();
        let a = Automaton::new(&list);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let alphabet: Vec<u8> = Command::ALL
            .iter()
            .flat_map(|c| c.chars().bytes())
            .collect();
        for _ in 0..2000 {
            // Texts built from pieces of phrases and random characters, so that occurrences,
            // overlaps and near misses are all common.
            let mut text = String::new();
            while text.len() < 80 {
                if rng.gen_bool(0.5) {
                    let p = list[rng.gen_range(0..list.len())];
                    let i = rng.gen_range(0..p.len());
                    let j = rng.gen_range(i..=p.len());
                    text.push_str(&p[i..j]);
                    if rng.gen_bool(0.5) {
                        text.push_str(p);
                    }
                } else {
                    text.push(alphabet[rng.gen_range(0..alphabet.len())] as char);
                }
            }
            assert_eq!(
                count(&a, list.len(), &text),
                phrases.count(&text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn chains_and_spans_count_every_occurrence() {
        let a = Automaton::new(&["ia! ia!", "ei!"]);
        assert_eq!(count(&a, 2, "ia! ia! ia! ia!"), vec![3, 0]);
        assert_eq!(count(&a, 2, "ei!ia! ia!ei!"), vec![1, 2]);
    }

    #[test]
    fn edges_group_characters_by_command() {
        let a = Automaton::new(&["ei!"]);
        // From the root, E leads to the node of "e" (by 'e') or stays at the root.
        let e = a.edges(0, Command::E);
        assert_eq!(e.len(), 2);
        assert!(e.iter().any(|&(n, b)| b == b'e' && a.depth(n) == 1));
        assert!(e.iter().any(|&(n, _)| n == 0));
        // Rotations never start "ei!".
        assert_eq!(a.edges(0, Command::CW), &[(0, b'd')]);
        let ei = a.feed(0, "ei");
        assert_eq!(a.depth(ei), 2);
        let done = a.step(ei, b'!');
        assert_eq!(a.ends(done), &[0]);
        assert_eq!(a.gains(&[6]), {
            let mut g = vec![0; a.len()];
            g[done as usize] = 6;
            g
        });
    }

    #[test]
    fn nodes_map_between_automata() {
        let full = Automaton::new(&["ei!", "yuggoth", "ia! ia!"]);
        let small = Automaton::new(&["ei!", "ia! ia!"]);
        let map = small.map_from(&full);
        assert_eq!(map.len(), full.len());
        for text in ["", "e", "ei", "yug", "ia! i", "yuggoth"] {
            assert_eq!(
                map[full.feed(0, text) as usize],
                small.feed(0, text),
                "{text:?}"
            );
        }
    }
}
