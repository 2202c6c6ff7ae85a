//! The source of units: the organisers' linear congruential generator (RULES.md section 3).
//!
//! `state' = (1103515245 * state + 12345) mod 2^32`; the output for a state is bits 30..16,
//! and the first output comes from the seed itself, before any step.

/// The random number generator of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lcg {
    state: u32,
}

impl Lcg {
    pub fn new(seed: u32) -> Lcg {
        Lcg { state: seed }
    }

    /// The output of the current state, then one step.
    pub fn next_output(&mut self) -> u32 {
        let out = (self.state >> 16) & 0x7FFF;
        self.state = self.state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        out
    }
}

/// The unit indices of a game, lazily: `length` of them, each `output mod units`.
#[derive(Clone, Debug)]
pub struct Source {
    lcg: Lcg,
    remaining: u64,
    units: u32,
}

impl Source {
    /// `units` must be at least 1 when `length` is above 0.
    pub fn new(seed: u32, length: u64, units: usize) -> Source {
        Source {
            lcg: Lcg::new(seed),
            remaining: length,
            units: units.max(1) as u32,
        }
    }

    /// Units not drawn yet.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }
}

impl Iterator for Source {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        Some((self.lcg.next_output() % self.units) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_17_outputs_from_the_spec() {
        let mut g = Lcg::new(17);
        let got: Vec<u32> = (0..10).map(|_| g.next_output()).collect();
        assert_eq!(
            got,
            [0, 24107, 16552, 12125, 9427, 13152, 21440, 3383, 6873, 16117]
        );
    }

    #[test]
    fn source_stops_after_its_length() {
        let s = Source::new(0, 3, 5);
        assert_eq!(s.count(), 3);
        assert_eq!(Source::new(0, 0, 5).next(), None);
    }
}
