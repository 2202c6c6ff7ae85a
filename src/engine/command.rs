//! The six commands and the characters that spell them (RULES.md section 5).
//!
//! Letters are matched case-insensitively, with the evaluator's per-character simple lower-case
//! mapping; `\t`, `\n` and `\r` are ignored; every other character is an error.

/// One of the six commands a unit obeys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Command {
    W = 0,
    E = 1,
    SW = 2,
    SE = 3,
    CW = 4,
    CCW = 5,
}

/// What a character of a solution means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    Command(Command),
    /// `\t`, `\n` or `\r`: skipped before the game sees it.
    Ignored,
    /// Any other character: the solution is an error.
    Invalid,
}

impl Command {
    pub const ALL: [Command; 6] = [
        Command::W,
        Command::E,
        Command::SW,
        Command::SE,
        Command::CW,
        Command::CCW,
    ];

    /// The characters that spell this command, the first one being the one the solver prefers
    /// when no phrase is being spelt.
    pub const fn chars(self) -> &'static str {
        match self {
            Command::W => "p'!.03",
            Command::E => "bcefy2",
            Command::SW => "aghij4",
            Command::SE => "lmno 5",
            Command::CW => "dqrvz1",
            Command::CCW => "kstuwx",
        }
    }

    /// A plain character for this command.
    pub fn char(self) -> char {
        self.chars().as_bytes()[0] as char
    }

    /// Whether the command moves the unit down a row (SW or SE).
    pub const fn is_descent(self) -> bool {
        matches!(self, Command::SW | Command::SE)
    }

    /// The direction a moving command takes the pivot, or `None` for the rotations.
    pub const fn dir(self) -> Option<super::hex::Dir> {
        use super::hex::Dir;
        match self {
            Command::W => Some(Dir::W),
            Command::E => Some(Dir::E),
            Command::SW => Some(Dir::SW),
            Command::SE => Some(Dir::SE),
            Command::CW | Command::CCW => None,
        }
    }

    /// The commands a unit can usefully play: all six, or without the rotations for a unit
    /// whose every orientation is the same member set (a turn would repeat its position).
    pub const fn usable(rotates: bool) -> &'static [Command] {
        if rotates {
            &Command::ALL
        } else {
            &Command::MOVES
        }
    }

    /// The command that undoes this one along a row (W and E, CW and CCW), or `None` for a
    /// descent, which nothing undoes: no command climbs.
    pub const fn reverse(self) -> Option<Command> {
        match self {
            Command::W => Some(Command::E),
            Command::E => Some(Command::W),
            Command::CW => Some(Command::CCW),
            Command::CCW => Some(Command::CW),
            Command::SW | Command::SE => None,
        }
    }

    /// The four commands that move the pivot, in the order of [`Command::ALL`].
    pub const MOVES: [Command; 4] = [Command::W, Command::E, Command::SW, Command::SE];

    pub fn from_index(i: usize) -> Command {
        Command::ALL[i]
    }

    /// The first command of a set given as a bit mask (bit `c` for command `c`, as
    /// [`crate::plan::UnitSpace::lock_cmds`] gives the commands that lock a unit), or `None`
    /// for the empty set. Every encoder locks with this one when no phrase asks for another,
    /// so that their plain texts agree.
    pub fn first_in(mask: u8) -> Option<Command> {
        (mask & 0b11_1111 != 0).then(|| Command::ALL[mask.trailing_zeros() as usize])
    }

    /// Decodes one character of a solution.
    pub fn decode(c: char) -> Decoded {
        let c = simple_lower(c);
        if c.is_ascii() {
            DECODE[c as usize]
        } else {
            Decoded::Invalid
        }
    }
}

/// ASCII decoding table, built at compile time from [`Command::chars`].
static DECODE: [Decoded; 128] = {
    let mut t = [Decoded::Invalid; 128];
    t[b'\t' as usize] = Decoded::Ignored;
    t[b'\n' as usize] = Decoded::Ignored;
    t[b'\r' as usize] = Decoded::Ignored;
    let mut k = 0;
    while k < 6 {
        let cmd = Command::ALL[k];
        let s = cmd.chars().as_bytes();
        let mut i = 0;
        while i < s.len() {
            t[s[i] as usize] = Decoded::Command(cmd);
            i += 1;
        }
        k += 1;
    }
    t
};

/// Lower-cases one character the way the evaluator's Haskell `toLower` does: the simple,
/// one-to-one Unicode mapping. It differs from Rust's full mapping only where the full mapping
/// yields several characters (U+0130 'İ' lower-cases to plain 'i' here). This matters because a
/// few non-ASCII capitals lower-case to command letters (U+212A KELVIN SIGN to 'k').
pub fn simple_lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if c == '\u{130}' {
        return 'i';
    }
    let mut it = c.to_lowercase();
    match (it.next(), it.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(s: &str) -> Vec<Command> {
        s.chars()
            .filter_map(|c| match Command::decode(c) {
                Decoded::Command(k) => Some(k),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn spec_decoding_example() {
        use Command::*;
        let want = vec![E, CCW, SW, CCW, SE, SW, CCW];
        assert_eq!(decode_all("2xjw 4s"), want);
        assert_eq!(decode_all("cthulhu"), want);
        assert_eq!(decode_all("CTHULHU"), want);
    }

    #[test]
    fn every_character_of_the_table() {
        let mut n = 0;
        for c in 0u8..128 {
            if let Decoded::Command(k) = Command::decode(c as char) {
                assert!(k.chars().contains((c as char).to_ascii_lowercase()));
                n += 1;
            }
        }
        // 36 characters, plus the upper-case forms of the 26 letters among them.
        assert_eq!(n, 36 + 26);
        for c in ['-', ',', '?', '"', '6', '7', '8', '9', '@', '\0'] {
            assert_eq!(Command::decode(c), Decoded::Invalid, "{c:?}");
        }
        assert_eq!(Command::decode('\n'), Decoded::Ignored);
        assert_eq!(Command::decode('é'), Decoded::Invalid);
    }

    #[test]
    fn unicode_capitals_lower_case_like_haskell() {
        assert_eq!(Command::decode('\u{212A}'), Decoded::Command(Command::CCW));
        assert_eq!(Command::decode('\u{130}'), Decoded::Command(Command::SW));
    }

    /// The first command of a mask is its lowest bit's, whatever else the mask holds.
    #[test]
    fn first_in_takes_the_lowest_command_of_a_mask() {
        assert_eq!(Command::first_in(0), None);
        for mask in 1u8..64 {
            let want = (0..6)
                .find(|&c| mask >> c & 1 == 1)
                .map(Command::from_index);
            assert_eq!(Command::first_in(mask), want, "{mask:#b}");
        }
    }
}
