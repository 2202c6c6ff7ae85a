//! How a [`Kernel`] is built from an automaton: each node's heading, where the context nodes
//! lie, and per command the root's successors, the exceptions and which context nodes take the
//! root's value (see the module doc of [`super`]).

use super::{Exception, Kernel, CLASSES, LANES, OFF};
use crate::encode::automaton::Automaton;
use crate::encode::chars::heading::{self, FRESH};
use crate::encode::NEG;
use crate::engine::Command;

/// Each node's heading: the command of the character that enters it (the root's is unused).
fn headings(ac: &Automaton) -> Vec<u8> {
    let mut heading = vec![FRESH as u8; ac.len()];
    for a in 0..ac.len() {
        for c in Command::ALL {
            for &(a2, _) in ac.edges(a as u16, c) {
                if a2 != 0 {
                    heading[a2 as usize] = heading::after(c) as u8;
                }
            }
        }
    }
    heading
}

/// Where the context nodes lie: per class, its root, then its nodes; then padding to whole
/// vectors of [`LANES`], context nodes no transition enters (they stay impossible), so that the
/// raises run on vector instructions alone, one of them at least: the target of an exception's
/// missing successors.
struct Layout {
    blocks: [(u32, u32); CLASSES],
    /// Per node but the root: its context node.
    cn_node: Vec<u32>,
    /// Per context node: its class ([`CLASSES`] for the padding) and its node
    /// (`usize::MAX` for the padding).
    class_of: Vec<u8>,
    node_of: Vec<usize>,
    /// A padding context node.
    pad: usize,
}

impl Layout {
    fn new(heading: &[u8]) -> Layout {
        let na = heading.len();
        let mut blocks = [(0u32, 0u32); CLASSES];
        let mut cn_node = vec![u32::MAX; na];
        let (mut class_of, mut node_of) = (Vec::new(), Vec::new());
        for (h, block) in blocks.iter_mut().enumerate() {
            let start = class_of.len() as u32;
            class_of.push(h as u8);
            node_of.push(0);
            for a in 1..na {
                if heading[a] as usize == h {
                    cn_node[a] = class_of.len() as u32;
                    class_of.push(h as u8);
                    node_of.push(a);
                }
            }
            *block = (start, class_of.len() as u32);
        }
        let pad = class_of.len();
        while class_of.len() < (pad + 1).next_multiple_of(LANES) {
            class_of.push(CLASSES as u8);
            node_of.push(usize::MAX);
        }
        Layout {
            blocks,
            cn_node,
            class_of,
            node_of,
            pad,
        }
    }

    /// The context node a walk enters by command `c` into node `a2`.
    fn cn(&self, a2: u16, c: Command) -> u32 {
        if a2 == 0 {
            self.blocks[heading::after(c)].0
        } else {
            self.cn_node[a2 as usize]
        }
    }

    fn padding(&self, x: usize) -> bool {
        self.node_of[x] == usize::MAX
    }
}

impl Kernel {
    /// The kernel of automaton `ac` with node gains `gains` (scaled), `terminal` values per node
    /// after a lock, for a unit that rotates or not.
    pub fn new(ac: &Automaton, gains: &[i32], terminal: &[i32], rotates: bool) -> Kernel {
        let na = ac.len();
        let heading = headings(ac);
        let layout = Layout::new(&heading);
        let mut k = Kernel {
            na,
            ncn: layout.class_of.len(),
            heading,
            blocks: layout.blocks,
            cn_node: layout.cn_node.clone(),
            exc_mask: vec![0; na],
            node_exc: vec![[(0, 0); 6]; na],
            class_bits: layout.class_of.iter().map(|&h| 1 << h & 31).collect(),
            ..Kernel::default()
        };
        for c in Command::ALL {
            let moves = rotates || !matches!(c, Command::CW | Command::CCW);
            let exceptional = if moves {
                k.transitions(ac, gains, c, &layout)
            } else {
                vec![false; na]
            };
            k.defaults(c, moves, &exceptional, &layout);
            let ci = c as usize;
            k.node_lock[ci] = (0..na)
                .map(|a| {
                    ac.edges(a as u16, c)
                        .iter()
                        .map(|&(a2, _)| gains[a2 as usize] + terminal[a2 as usize])
                        .max()
                        .unwrap_or(NEG)
                })
                .collect();
            k.lock[ci] = (0..k.ncn)
                .map(|x| {
                    if layout.padding(x) {
                        NEG
                    } else {
                        k.node_lock[ci][layout.node_of[x]]
                    }
                })
                .collect();
        }
        // What `apply_with` relies on to read and raise the exceptions unchecked.
        assert!(k
            .exc
            .iter()
            .chain(&k.exc2)
            .flatten()
            .all(|e| { (e.cn as usize) < k.ncn && e.own.iter().all(|&o| (o as usize) < k.ncn) }));
        k
    }

    /// Command `c`'s transitions: the root's successors, and every node's whose differ from
    /// them (its exceptions). Which nodes are exceptions, per node.
    fn transitions(
        &mut self,
        ac: &Automaton,
        gains: &[i32],
        c: Command,
        lay: &Layout,
    ) -> Vec<bool> {
        let ci = c as usize;
        let pen = if c.is_descent() { 0 } else { 1 };
        let edge = |a2: u16| (lay.cn(a2, c), gains[a2 as usize] - pen);
        self.root[ci] = ac.edges(0, c).iter().map(|&(a2, _)| edge(a2)).collect();
        let roots: Vec<u16> = ac.edges(0, c).iter().map(|e| e.0).collect();
        // Exceptional when some character of the command leads elsewhere than from the root.
        let exceptional: Vec<bool> = (0..ac.len())
            .map(|a| {
                a != 0
                    && c.chars()
                        .bytes()
                        .any(|b| ac.step(a as u16, b) != ac.step(0, b))
            })
            .collect();
        for a in (1..ac.len()).filter(|&a| exceptional[a]) {
            let start = self.edges.len() as u32;
            self.edges
                .extend(ac.edges(a as u16, c).iter().map(|&(a2, _)| edge(a2)));
            self.exc_mask[a] |= 1 << ci;
            self.node_exc[a][ci] = (start, self.edges.len() as u32);
            let h = self.heading[a] as usize;
            if heading::forbids(h, c) {
                continue;
            }
            // Its successors: the root's it reaches, and its own, two by two.
            let mut mask = 0u8;
            let mut own: Vec<(u32, i32)> = Vec::new();
            for &(a2, _) in ac.edges(a as u16, c) {
                match roots.iter().position(|&r| r == a2) {
                    Some(j) => mask |= 1 << j,
                    None => own.push(edge(a2)),
                }
            }
            let none = (lay.pad as u32, 0);
            let pairs = own.len().div_ceil(2).max(1);
            for j in 0..pairs {
                let (a0, a1) = (
                    own.get(2 * j).copied().unwrap_or(none),
                    own.get(2 * j + 1).copied().unwrap_or(none),
                );
                let e = Exception {
                    cn: self.cn_node[a] as u16,
                    class: 1 << h,
                    mask: if j == 0 { mask } else { 0 },
                    own: [a0.0 as u16, a1.0 as u16],
                    gain: [a0.1, a1.1],
                };
                if a1 == none {
                    self.exc[ci].push(e);
                } else {
                    self.exc2[ci].push(e);
                }
            }
        }
        exceptional
    }

    /// Which context nodes take the root's value for command `c` (a move when `moves`): those
    /// whose heading allows it, of nodes no exception; as offsets, and their classes.
    fn defaults(&mut self, c: Command, moves: bool, exceptional: &[bool], lay: &Layout) {
        let ci = c as usize;
        self.off[ci] = (0..self.ncn)
            .map(|x| {
                let takes = moves
                    && !lay.padding(x)
                    && !heading::forbids(lay.class_of[x] as usize, c)
                    && !exceptional[lay.node_of[x]];
                if takes {
                    0
                } else {
                    OFF
                }
            })
            .collect();
        self.takes[ci] = (0..self.ncn)
            .filter(|&x| self.off[ci][x] == 0)
            .fold(0, |m, x| m | (1 << lay.class_of[x]) as u8);
    }
}
