//! `dagaz sweep FILE --set NAME=v1,v2 ...`: one copy of the file per combination of values, in which
//! `(define NAME ...)` has the value as its body and every call `(NAME)` is the value itself (so that the value
//! can be a macro's argument, pasted into names: `(breakthrough (SIZE))` becomes `(breakthrough 6)`; ZRF
//! pastes an argument's text, unexpanded). The copies go to `OUT/sweep/` and are evaluated as any file.

use super::SetSpec;
use std::path::Path;

/// One `--set`: a define's name and the values to try.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub values: Vec<String>,
}

impl std::str::FromStr for Param {
    type Err = String;
    fn from_str(s: &str) -> Result<Param, String> {
        let (name, values) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}` is not NAME=v1,v2,..."))?;
        let name = name.trim();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || "()\";".contains(c)) {
            return Err(format!("`{name}` is not a define's name"));
        }
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        if values.iter().any(|v| v.is_empty()) {
            return Err(format!("`{s}`: an empty value"));
        }
        if values.iter().any(|v| v.contains(['(', ')', '"', ';'])) {
            return Err(format!(
                "`{s}`: a value is one atom (no parentheses, quotes or `;`)"
            ));
        }
        Ok(Param {
            name: name.to_string(),
            values,
        })
    }
}

/// Byte ranges of the text that are code (not in a string or a `;` comment), as a mask.
fn code_mask(text: &str) -> Vec<bool> {
    let b = text.as_bytes();
    let mut mask = vec![true; b.len()];
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    mask[i] = false;
                    i += 1;
                }
            }
            b'"' => {
                mask[i] = false;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    mask[i] = false;
                    i += 1;
                }
                if i < b.len() {
                    mask[i] = false;
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    mask
}

fn is_atom_byte(c: u8) -> bool {
    !c.is_ascii_whitespace() && !b"()\";".contains(&c)
}

/// `(` then optional space then `name` as a whole atom, at byte `i` in code: the index after the name.
fn call_at(text: &str, mask: &[bool], i: usize, head: &[&str]) -> Option<usize> {
    let b = text.as_bytes();
    if b[i] != b'(' || !mask[i] {
        return None;
    }
    let mut j = i + 1;
    for (k, word) in head.iter().enumerate() {
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if k > 0 && j == i + 1 {
            return None;
        }
        let end = j + word.len();
        if end > b.len() || !text[j..end].eq_ignore_ascii_case(word) {
            return None;
        }
        if end < b.len() && is_atom_byte(b[end]) {
            return None;
        }
        j = end;
    }
    Some(j)
}

/// The index just past the `)` closing the list opened at `open`.
fn close_of(text: &str, mask: &[bool], open: usize) -> Option<usize> {
    let mut depth = 0i64;
    for (i, c) in text.bytes().enumerate().skip(open) {
        if !mask[i] {
            continue;
        }
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The text with `(define NAME ...)`'s body set to `value` and every `(NAME)` replaced by `value`. An error
/// if the file has no such define.
pub fn substitute(text: &str, name: &str, value: &str) -> Result<String, String> {
    let mask = code_mask(text);
    let mut out = String::with_capacity(text.len());
    let mut found = false;
    let mut i = 0;
    let mut copied = 0;
    while i < text.len() {
        if let Some(after) = call_at(text, &mask, i, &["define", name]) {
            let end = close_of(text, &mask, i)
                .ok_or_else(|| format!("`(define {name}` is never closed"))?;
            out.push_str(&text[copied..i]);
            out.push_str(&format!("(define {name} {value})"));
            let _ = after;
            found = true;
            i = end;
            copied = end;
            continue;
        }
        if let Some(after) = call_at(text, &mask, i, &[name]) {
            let b = text.as_bytes();
            let mut j = after;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len() && b[j] == b')' {
                out.push_str(&text[copied..i]);
                out.push_str(value);
                i = j + 1;
                copied = i;
                continue;
            }
        }
        i += text[i..].chars().next().map_or(1, char::len_utf8);
    }
    out.push_str(&text[copied..]);
    if !found {
        return Err(format!("the file has no `(define {name} ...)` to set"));
    }
    Ok(out)
}

/// Every combination of the parameters' values, the first parameter varying slowest.
pub fn combinations(params: &[Param]) -> Vec<Vec<String>> {
    let mut out = vec![vec![]];
    for p in params {
        out = out
            .into_iter()
            .flat_map(|c| {
                p.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push(v.clone());
                    c
                })
            })
            .collect();
    }
    out
}

/// Writes the copies of `file` into `out/sweep/` and lists their rule sets (every variant of each copy),
/// each under the original file's name with its values. A define the file lacks is an error for the whole
/// sweep (no copy could differ).
pub fn sweep_sets(file: &str, params: &[Param], out: &Path) -> Result<Vec<SetSpec>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read `{file}`: {e}"))?;
    let dir = out.join("sweep");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let mut sets = vec![];
    for combo in combinations(params) {
        let mut t = text.clone();
        let mut label = stem.clone();
        for (p, v) in params.iter().zip(&combo) {
            t = substitute(&t, &p.name, v).map_err(|e| format!("{file}: {e}"))?;
            let safe: String = v
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            label.push_str(&format!("-{}={safe}", p.name));
        }
        let copy = dir.join(format!("{label}.zrf"));
        std::fs::write(&copy, t).map_err(|e| format!("{}: {e}", copy.display()))?;
        for mut s in super::variants_of(&copy.to_string_lossy(), None) {
            s.file = file.to_string();
            s.values = combo.clone();
            sets.push(s);
        }
    }
    Ok(sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_define_gets_the_value_and_its_calls_become_it() {
        let text = "; (define SIZE 9) in a comment\n(define SIZE 6)\n(define size-text \"(SIZE)\")\n(game (breakthrough (SIZE)) ( size ) (SIZES))";
        let t = substitute(text, "SIZE", "5").unwrap();
        assert_eq!(
            t,
            "; (define SIZE 9) in a comment\n(define SIZE 5)\n(define size-text \"(SIZE)\")\n(game (breakthrough 5) 5 (SIZES))"
        );
        assert!(substitute("(define SIZES 6)", "SIZE", "5")
            .unwrap_err()
            .contains("no `(define SIZE ...)`"));
        // A body over several lines and lists.
        assert_eq!(
            substitute("(define ROW (a (b\n c)))x", "ROW", "7").unwrap(),
            "(define ROW 7)x"
        );
    }

    #[test]
    fn values_and_combinations() {
        let p: Param = "SIZE=5, 6".parse().unwrap();
        assert_eq!(p.values, ["5", "6"]);
        let q: Param = "ROW=a,b".parse().unwrap();
        assert_eq!(
            combinations(&[p, q]),
            [["5", "a"], ["5", "b"], ["6", "a"], ["6", "b"]]
        );
        assert!("SIZE".parse::<Param>().is_err());
        assert!("SIZE=5,".parse::<Param>().is_err());
        assert!("SIZE=(x)".parse::<Param>().is_err());
    }
}
