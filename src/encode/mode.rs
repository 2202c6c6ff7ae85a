//! The modes a plan is spelt in, as data: [`Mode`] (and its name, which ends the solver's tags:
//! a stored game keeps no other record of its spelling, and [`Mode::of_tag`] is the one place
//! it is read back), and the [`Opening`] a spelling keeps.

/// The opening of a game kept from another: its first `units` placements, already spelt as
/// `text` (see [`crate::plan::text_of_opening`]). The default keeps nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Opening<'t> {
    pub units: usize,
    pub text: &'t str,
}

/// How to spell a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The shortest path to each lock, in plain characters.
    Plain,
    /// Per unit, words inserted greedily on the way down ([`super::walk::greedy`]).
    Greedy,
    /// Per unit, words chosen by a dynamic programme over row components
    /// ([`super::walk::dp`], or [`mod@super::line`] for a unit that cannot rotate), the greedy
    /// walk kept where it does better.
    Dp,
    /// The whole game character by character on the phrase automaton ([`super::chars`]); where
    /// it cannot finish before the deadline, [`super::Encoder::spell`] spells the plan with
    /// [`Mode::Dp`].
    Chars,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Plain, Mode::Greedy, Mode::Dp, Mode::Chars];

    /// The mode's name in the solver's tags, which end with it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Plain => "plain",
            Mode::Greedy => "greedy",
            Mode::Dp => "dp",
            Mode::Chars => "chars",
        }
    }

    /// The mode of a name ([`Mode::name`]).
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The mode a solver's tag names: its last word that is a mode's name (a tag ends with
    /// the mode that spelt the game, and a stored game's tag may have more after it). A stored
    /// game keeps no other record of its spelling than its tag, and this is the one place it
    /// is read back.
    pub fn of_tag(tag: &str) -> Option<Mode> {
        tag.split_whitespace().rev().find_map(Mode::from_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mode's name reads back as the mode, from a tag too.
    #[test]
    fn a_mode_is_named_and_read_back_from_its_tag() {
        for m in Mode::ALL {
            assert_eq!(Mode::from_name(m.name()), Some(m));
            let tag = format!("hextris balanced#3 w16 from 12 {}", m.name());
            assert_eq!(Mode::of_tag(&tag), Some(m));
            assert_eq!(Mode::of_tag(&format!("{tag} (stored)")), Some(m));
        }
        assert_eq!(Mode::from_name("dpx"), None);
        assert_eq!(Mode::of_tag("hextris low#0 w1 (stored)"), None);
        assert_eq!(Mode::of_tag(""), None);
    }
}
