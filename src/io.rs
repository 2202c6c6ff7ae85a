//! Files at the boundary: problem paths (files or folders), the contest's solution list, and
//! atomic writes (a temporary file in the same folder, then a rename, so that a reader never sees
//! a partial file and an interrupted run leaves the old file intact).

use crate::engine::Problem;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::path::{Path, PathBuf};

/// One entry of the contest's output list, as written (RULES.md section 12).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SolutionJson {
    pub problem_id: i64,
    pub seed: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    pub solution: String,
}

/// A validated solution entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub problem_id: i64,
    pub seed: u32,
    pub tag: Option<String>,
    pub solution: String,
}

impl TryFrom<SolutionJson> for Solution {
    type Error = String;
    fn try_from(j: SolutionJson) -> std::result::Result<Solution, String> {
        let seed = u32::try_from(j.seed).map_err(|_| {
            format!(
                "problem {}: seed {} is outside 0..={}",
                j.problem_id,
                j.seed,
                u32::MAX
            )
        })?;
        Ok(Solution {
            problem_id: j.problem_id,
            seed,
            tag: j.tag,
            solution: j.solution,
        })
    }
}

impl From<&Solution> for SolutionJson {
    fn from(s: &Solution) -> SolutionJson {
        SolutionJson {
            problem_id: s.problem_id,
            seed: s.seed as i64,
            tag: s.tag.clone(),
            solution: s.solution.clone(),
        }
    }
}

/// Reads a solution list (a JSON array of entries).
pub fn read_solutions(path: &Path) -> Result<Vec<Solution>> {
    let text = read_text(path)?;
    let raw: Vec<SolutionJson> = serde_json::from_str(&text).map_err(|source| {
        // Well-formed JSON of another shape (a problem file, a map) says what was expected.
        if source.is_data() {
            Error::invalid(
                path,
                format!(
                    "not a solution list: expected a JSON list of entries like \
                     {{\"problemId\": 1, \"seed\": 0, \"solution\": \"...\"}} ({source})"
                ),
            )
        } else {
            Error::Json {
                path: path.to_path_buf(),
                source,
            }
        }
    })?;
    raw.into_iter()
        .enumerate()
        .map(|(i, s)| {
            Solution::try_from(s).map_err(|w| Error::invalid(path, format!("entry {i}: {w}")))
        })
        .collect()
}

/// The solution list as JSON text, one entry per line.
pub fn solutions_to_json(list: &[Solution]) -> String {
    let mut out = String::from("[");
    for (i, s) in list.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(
            &serde_json::to_string(&SolutionJson::from(s)).expect("plain data serialises"),
        );
    }
    out.push_str("\n]\n");
    out
}

/// Reads, parses and validates a problem file.
pub fn read_problem(path: &Path) -> Result<Problem> {
    Problem::from_json(&read_text(path)?, path)
}

/// Reads a whole text file: the one place a file read becomes [`Error::Io`].
pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a whole file as bytes (the pack puzzles' inputs, which need not be UTF-8).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a whole text file, or standard input when the path is `-`.
pub fn read_text_or_stdin(path: &Path) -> Result<String> {
    if path != Path::new("-") {
        return read_text(path);
    }
    let mut s = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(s)
}

/// Reads a JSON file into an untyped value (for formats that accept several shapes, such as
/// the square puzzle's instances and answers).
pub fn read_json_value(path: &Path) -> Result<serde_json::Value> {
    serde_json::from_str(&read_text(path)?).map_err(|source| Error::Json {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let name = path
        .file_name()
        .ok_or_else(|| Error::invalid(path, "not a file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Expands problem arguments: a file stands for itself, a folder for every `*.json` in it, in
/// natural order of the names (problem_2 before problem_10).
pub fn expand_problem_paths(args: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for arg in args {
        let meta = std::fs::metadata(arg).map_err(|source| Error::Io {
            path: arg.clone(),
            source,
        })?;
        if !meta.is_dir() {
            out.push(arg.clone());
            continue;
        }
        let entries = std::fs::read_dir(arg).map_err(|source| Error::Io {
            path: arg.clone(),
            source,
        })?;
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
            .collect();
        if found.is_empty() {
            return Err(Error::invalid(arg, "folder holds no *.json problem file"));
        }
        found.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
        out.extend(found);
    }
    Ok(out)
}

/// Loads every problem named by the arguments; the first bad file is the error.
pub fn load_problems(args: &[PathBuf]) -> Result<Vec<(PathBuf, Problem)>> {
    expand_problem_paths(args)?
        .into_iter()
        .map(|p| read_problem(&p).map(|prob| (p, prob)))
        .collect()
}

/// Compares strings with runs of digits compared as numbers.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (trim_zeros(&a[..da]), trim_zeros(&b[..db]));
                let ord = na.len().cmp(&nb.len()).then(na.cmp(nb));
                if ord != Ordering::Equal {
                    return ord;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let z = d.iter().take_while(|&&c| c == b'0').count();
    &d[z..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut v = vec!["problem_10.json", "problem_2.json", "problem_1.json", "a"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            vec!["a", "problem_1.json", "problem_2.json", "problem_10.json"]
        );
    }

    #[test]
    fn solutions_round_trip() {
        let s = Solution {
            problem_id: 3,
            seed: 7,
            tag: Some("t".into()),
            solution: "ei! \n".into(),
        };
        let text = solutions_to_json(std::slice::from_ref(&s));
        let back: Vec<SolutionJson> = serde_json::from_str(&text).unwrap();
        assert_eq!(Solution::try_from(back[0].clone()).unwrap(), s);
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = std::env::temp_dir().join(format!("hextris-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
