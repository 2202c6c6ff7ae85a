//! Small helpers on bit rows (`&[u64]`, bit `i` of word `i / 64` is element `i`).
//!
//! Shifts take a signed offset and read bits outside the source as 0, so callers can align rows
//! whose index ranges start at different columns without special cases.

/// The 64 bits of `src` starting at bit `b` (result bit 0 = bit `b` of `src`); bits outside
/// `src` read as 0.
#[inline]
pub fn window(src: &[u64], b: i64) -> u64 {
    let q = b.div_euclid(64);
    let r = b.rem_euclid(64) as u32;
    let word = |i: i64| -> u64 {
        if i >= 0 && (i as usize) < src.len() {
            src[i as usize]
        } else {
            0
        }
    };
    if r == 0 {
        word(q)
    } else {
        (word(q) >> r) | (word(q + 1) << (64 - r))
    }
}

/// Copies the bit row `src` into `dst` (the same length). A row of one word is copied as a
/// word: `copy_from_slice` of a length known only at run time calls `memmove`, which cost more
/// than the copy itself in move generation on boards up to 64 wide.
#[inline]
pub fn copy_row(dst: &mut [u64], src: &[u64]) {
    match (dst, src) {
        ([d], [s]) => *d = *s,
        (d, s) => d.copy_from_slice(s),
    }
}

/// `dst[i] |= src[i + shift]` for every bit of `dst`.
#[inline]
pub fn or_shifted(dst: &mut [u64], src: &[u64], shift: i64) {
    for (j, d) in dst.iter_mut().enumerate() {
        *d |= window(src, j as i64 * 64 + shift);
    }
}

/// `dst[i] &= src[i + shift]` for every bit of `dst`.
#[inline]
pub fn and_shifted(dst: &mut [u64], src: &[u64], shift: i64) {
    for (j, d) in dst.iter_mut().enumerate() {
        *d &= window(src, j as i64 * 64 + shift);
    }
}

/// Expands `g` to the whole runs of `p` that contain one of its bits (`g` must be a subset of
/// `p`): everything reachable from `g` by steps of one bit through `p`. Returns whether `g`
/// changed.
pub fn fill_runs(g: &mut [u64], p: &[u64]) -> bool {
    let n = g.len();
    let mut changed = false;
    // An upward pass fills each word and carries runs across word boundaries towards higher
    // words; a downward pass then carries them towards lower words, where a word's top bit
    // gets a seed from the word above it that it lacked (every other word is already filled).
    for i in 0..n {
        let mut w = g[i];
        if i > 0 && g[i - 1] >> 63 & 1 == 1 {
            w |= p[i] & 1;
        }
        let w = fill_word(w, p[i]);
        changed |= w != g[i];
        g[i] = w;
    }
    for i in (0..n.saturating_sub(1)).rev() {
        if g[i + 1] & 1 == 1 && p[i] >> 63 & 1 == 1 && g[i] >> 63 & 1 == 0 {
            g[i] = fill_word(g[i] | 1 << 63, p[i]);
            changed = true;
        }
    }
    changed
}

/// Occluded fill within one word, both directions: upwards by the carry of an addition (adding
/// a run's seeds to it clears the run from its lowest seed up), downwards by Kogge-Stone
/// doubling.
#[inline]
fn fill_word(g: u64, p: u64) -> u64 {
    let g = g & p;
    if g == 0 || g == p {
        return g;
    }
    let up = g | ((p.wrapping_add(g) ^ p) & p);
    let mut down = g;
    let mut pd = p;
    for s in [1, 2, 4, 8, 16, 32] {
        down |= pd & (down >> s);
        pd &= pd >> s;
    }
    up | down
}

/// Iterates over the set bits of a row.
pub fn ones(row: &[u64]) -> impl Iterator<Item = usize> + '_ {
    row.iter().enumerate().flat_map(|(j, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let t = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(j * 64 + t)
        })
    })
}

/// The runs of set bits of a row, in order: `(first, one past the last)`.
pub fn runs(row: &[u64]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let n = row.len() * 64;
    let mut at = 0;
    std::iter::from_fn(move || {
        let lo = next(row, at, false)?;
        let hi = next(row, lo, true).unwrap_or(n);
        at = hi;
        Some((lo, hi))
    })
}

/// The first bit at or after `from` that is set (or clear, with `clear`).
#[inline]
fn next(row: &[u64], from: usize, clear: bool) -> Option<usize> {
    let mut j = from / 64;
    if j >= row.len() {
        return None;
    }
    let flip = if clear { u64::MAX } else { 0 };
    let mut w = (row[j] ^ flip) & (u64::MAX << (from % 64));
    loop {
        if w != 0 {
            return Some(j * 64 + w.trailing_zeros() as usize);
        }
        j += 1;
        if j == row.len() {
            return None;
        }
        w = row[j] ^ flip;
    }
}

/// The bits `lo..hi` as a mask of word `j`.
#[inline]
fn range_in_word(j: usize, lo: usize, hi: usize) -> u64 {
    let (a, b) = (lo.max(j * 64), hi.min(j * 64 + 64));
    if a >= b {
        return 0;
    }
    let len = b - a;
    let ones = if len == 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    };
    ones << (a - j * 64)
}

/// Whether any of the bits `lo..hi` is set.
#[inline]
pub fn any_in(row: &[u64], lo: usize, hi: usize) -> bool {
    (lo / 64..hi.div_ceil(64)).any(|j| row[j] & range_in_word(j, lo, hi) != 0)
}

/// Sets the bits `lo..hi`.
#[inline]
pub fn set_range(row: &mut [u64], lo: usize, hi: usize) {
    let first = lo / 64;
    for (j, w) in row[first..hi.div_ceil(64)].iter_mut().enumerate() {
        *w |= range_in_word(first + j, lo, hi);
    }
}

/// Whether bit `i` is set.
#[inline]
pub fn get(row: &[u64], i: usize) -> bool {
    row[i / 64] >> (i % 64) & 1 == 1
}

/// Sets bit `i`.
#[inline]
pub fn set(row: &mut [u64], i: usize) {
    row[i / 64] |= 1 << (i % 64);
}

/// A row of `n` bits all set (the bits past `n` clear).
pub fn full_row(row: &mut [u64], n: usize) {
    for (j, w) in row.iter_mut().enumerate() {
        let lo = j * 64;
        *w = if lo + 64 <= n {
            u64::MAX
        } else if lo >= n {
            0
        } else {
            (1u64 << (n - lo)) - 1
        };
    }
}

/// 64 emptiness bits of a board row starting at column `b`: 1 where the cell is on the board
/// and empty.
#[inline]
pub fn empty_window(row: &[u64], width: usize, b: i64) -> u64 {
    if b >= width as i64 {
        return 0;
    }
    let w = !window(row, b);
    if b < 0 {
        // Columns left of the board read as 0 in `window`, so they came out empty: clear them.
        let neg = (-b).min(64) as u32;
        if neg == 64 {
            0
        } else {
            w & (u64::MAX << neg)
        }
    } else {
        w
    }
}

/// [`empty_window`] of a row of one word and its padding's (a board at most 64 columns wide):
/// the same bits, read from the two words as one 128-bit number instead of the general window's
/// word arithmetic (compared with it on random rows by `a_narrow_row_is_the_general_one`).
#[inline]
pub fn empty_window_narrow(row: &[u64], width: usize, b: i64) -> u64 {
    debug_assert!(width <= 64 && row.len() >= 2);
    if b >= width as i64 {
        0
    } else if b >= 0 {
        let both = (row[1] as u128) << 64 | row[0] as u128;
        !((both >> b) as u64)
    } else if b > -64 {
        // Columns left of the board read as filled.
        !(row[0] << -b) & (u64::MAX << -b)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_and_shifts() {
        let src = [0b1011u64, 1 << 63 | 1];
        assert_eq!(window(&src, 0) & 0xF, 0b1011);
        assert_eq!(window(&src, 1) & 0x7, 0b101);
        assert_eq!(window(&src, -1) & 0xF, 0b0110);
        assert_eq!(window(&src, 63) & 0b11, 0b10);
        assert_eq!(window(&src, 200), 0);
        let mut d = [0u64; 2];
        or_shifted(&mut d, &src, -64);
        assert_eq!(d, [0, 0b1011]);
    }

    #[test]
    fn fill_runs_across_words() {
        // Free bits 60..70 and 75..80; seed at 68: the whole first run, none of the second.
        let mut p = [0u64; 2];
        for i in (60..70).chain(75..80) {
            set(&mut p, i);
        }
        let mut g = [0u64; 2];
        set(&mut g, 68);
        assert!(fill_runs(&mut g, &p));
        let got: Vec<usize> = ones(&g).collect();
        assert_eq!(got, (60..70).collect::<Vec<_>>());
        assert!(!fill_runs(&mut g, &p));
    }

    /// A xorshift generator of random words, from `x` (not zero).
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// `fill_runs` against a bit-by-bit fill on random rows of one to four words: runs that
    /// cross one or several word boundaries, seeds in either word, full and empty words.
    #[test]
    fn fill_runs_matches_a_naive_fill() {
        let mut rand = xorshift(0x9E37_79B9_7F4A_7C15u64);
        for case in 0..5000 {
            let n = 1 + case % 4;
            let p: Vec<u64> = (0..n)
                .map(|_| match rand() % 4 {
                    0 => u64::MAX,
                    1 => 0,
                    _ => rand() | rand(),
                })
                .collect();
            let g0: Vec<u64> = p.iter().map(|&w| w & rand() & rand() & rand()).collect();
            let bit = |v: &[u64], i: usize| v[i / 64] >> (i % 64) & 1 == 1;
            let mut naive = g0.clone();
            loop {
                let mut next = naive.clone();
                for i in 0..n * 64 {
                    let near = bit(&naive, i)
                        || (i > 0 && bit(&naive, i - 1))
                        || (i + 1 < n * 64 && bit(&naive, i + 1));
                    if near && bit(&p, i) {
                        next[i / 64] |= 1 << (i % 64);
                    }
                }
                if next == naive {
                    break;
                }
                naive = next;
            }
            let mut g = g0.clone();
            let changed = fill_runs(&mut g, &p);
            assert_eq!(g, naive, "case {case}: p {p:x?} g {g0:x?}");
            assert_eq!(changed, g != g0, "case {case}");
        }
    }

    /// Runs, range tests and range sets against a bit-by-bit reading, on random rows of one to
    /// three words (runs across word boundaries, full and empty words included).
    #[test]
    fn runs_and_ranges_match_a_naive_reading() {
        let mut rand = xorshift(0x2545_F491_4F6C_DD1Du64);
        for case in 0..3000 {
            let n = 1 + case % 3;
            let row: Vec<u64> = (0..n)
                .map(|_| match rand() % 4 {
                    0 => 0,
                    1 => u64::MAX,
                    _ => rand() | rand(),
                })
                .collect();
            let bit = |i: usize| get(&row, i);
            let mut naive = Vec::new();
            let mut i = 0;
            while i < n * 64 {
                if bit(i) {
                    let lo = i;
                    while i < n * 64 && bit(i) {
                        i += 1;
                    }
                    naive.push((lo, i));
                } else {
                    i += 1;
                }
            }
            assert_eq!(runs(&row).collect::<Vec<_>>(), naive, "{row:x?}");
            let lo = (rand() % (n as u64 * 64)) as usize;
            let hi = lo + (rand() % (n as u64 * 64 - lo as u64 + 1)) as usize;
            assert_eq!(any_in(&row, lo, hi), (lo..hi).any(bit), "{lo}..{hi}");
            let mut set = row.clone();
            set_range(&mut set, lo, hi);
            for i in 0..n * 64 {
                assert_eq!(get(&set, i), bit(i) || (lo..hi).contains(&i));
            }
        }
    }

    #[test]
    fn fill_word_matches_a_naive_fill() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let p = x;
            let g = p & x.rotate_left(17) & x.rotate_left(31);
            let mut naive = g;
            loop {
                let n = (naive | naive << 1 | naive >> 1) & p;
                if n == naive {
                    break;
                }
                naive = n;
            }
            assert_eq!(fill_word(g, p), naive);
        }
    }
}
