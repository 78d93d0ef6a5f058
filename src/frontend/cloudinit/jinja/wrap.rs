//! Jinja2's `wordwrap` filter as Jinja2 3.1 writes it: each line of Python's `splitlines()`
//! wrapped by Python's `textwrap.wrap(line, width, expand_tabs=False,
//! replace_whitespace=False, break_long_words, break_on_hyphens)`, the lines joined by
//! `wrapstring` (`"\n"`). textwrap's chunking (`TextWrapper.wordsep_re`, a regular expression
//! with look-behinds: whitespace runs, em-dashes `--` between words, words split after a
//! hyphen between letters) is matched by hand as Python's `re` matches it, with Python's
//! `\w` (Unicode letters and numbers, `_`) and `\d`; then `_wrap_chunks` and
//! `_handle_long_word`, with Python's errors for a width that is not a positive number.

use super::is_py_space;
use super::py::{py_repr_string, py_type_name as type_name};
use super::text::{py_error, Signature};
use minijinja::value::{Kwargs, Rest, Value, ValueKind};
use minijinja::{Error, ErrorKind};
use std::sync::LazyLock;

const WORDWRAP: Signature = Signature {
    name: "do_wordwrap",
    fixed: &["environment", "s"],
    optional: &[
        "width",
        "break_long_words",
        "wrapstring",
        "break_on_hyphens",
    ],
};

static WORD: LazyLock<Option<regex::Regex>> =
    LazyLock::new(|| regex::Regex::new(r"^[\p{L}\p{N}_]$").ok());
static DECIMAL: LazyLock<Option<regex::Regex>> =
    LazyLock::new(|| regex::Regex::new(r"^\p{Nd}$").ok());

fn class_match(re: &LazyLock<Option<regex::Regex>>, c: char) -> bool {
    let mut buf = [0u8; 4];
    re.as_ref()
        .is_some_and(|re| re.is_match(c.encode_utf8(&mut buf)))
}

/// Python's `\w` in a `str` pattern: a character of a Unicode letter or number category
/// (`L*`, `N*`), or `_`.
pub(super) fn is_word(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        class_match(&WORD, c)
    }
}

/// textwrap's `letter`, `[^\d\W]`: a word character that is not a decimal digit.
fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic() || c == '_'
    } else {
        class_match(&WORD, c) && !class_match(&DECIMAL, c)
    }
}

/// textwrap's `word_punct`, `[\w!"'&.,?]`.
fn is_word_punct(c: char) -> bool {
    is_word(c) || "!\"'&.,?".contains(c)
}

/// textwrap's `whitespace`: its own ASCII set, `\t\n\x0b\x0c\r `.
fn is_wrap_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ')
}

/// Python's `str.splitlines()`.
fn splitlines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let breaks = matches!(
            c,
            '\n' | '\r'
                | '\x0b'
                | '\x0c'
                | '\x1c'
                | '\x1d'
                | '\x1e'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !breaks {
            continue;
        }
        out.push(&s[start..i]);
        start = i + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
            chars.next();
            start += 1;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// The end of the run of `-` starting at `i`, when it is two or more long and a word character
/// follows (`-{2,}(?=\w)`).
fn em_dash_end(t: &[char], i: usize) -> Option<usize> {
    let mut e = i;
    while t.get(e) == Some(&'-') {
        e += 1;
    }
    (e - i >= 2 && t.get(e).is_some_and(|&c| is_word(c))).then_some(e)
}

/// The end of `wordsep_re`'s word alternative starting at `i` (a non-space character):
/// `\S+?` up to a hyphen between letters (the hyphen kept), the end of the word, or an em-dash.
fn word_end(t: &[char], i: usize) -> usize {
    let letter = |k: usize| t.get(k).is_some_and(|&c| is_letter(c));
    let n = t.len();
    let mut j = i + 1;
    loop {
        if t.get(j) == Some(&'-') {
            // `-(?: (?<=lt{2}-) | (?<=lt-lt-)) (?= lt -? lt)`
            let behind = (j >= 2 && letter(j - 2) && letter(j - 1))
                || (j >= 3 && letter(j - 3) && t[j - 2] == '-' && letter(j - 1));
            let ahead =
                letter(j + 1) && (letter(j + 2) || (t.get(j + 2) == Some(&'-') && letter(j + 3)));
            if behind && ahead {
                return j + 1;
            }
        }
        if j >= n || is_wrap_space(t[j]) {
            return j;
        }
        if is_word_punct(t[j - 1]) && em_dash_end(t, j).is_some() {
            return j;
        }
        j += 1;
    }
}

/// textwrap's `_split`: the chunks of a line, as `(start, end)` character ranges.
fn split(t: &[char], on_hyphens: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let end = if is_wrap_space(t[i]) {
            i + t[i..].iter().take_while(|&&c| is_wrap_space(c)).count()
        } else if !on_hyphens {
            i + t[i..].iter().take_while(|&&c| !is_wrap_space(c)).count()
        } else if i > 0 && is_word_punct(t[i - 1]) {
            em_dash_end(t, i).unwrap_or_else(|| word_end(t, i))
        } else {
            word_end(t, i)
        };
        out.push((i, end));
        i = end;
    }
    out
}

/// A textwrap width: an `int` (or `bool`) or a `float`.
#[derive(Clone, Copy)]
struct Width {
    value: f64,
    int: bool,
}

/// The options of one `textwrap.wrap` call.
struct Wrap {
    width: Width,
    break_long_words: bool,
    /// `break_on_hyphens is True`: split words after their hyphens.
    split_hyphens: bool,
    /// `break_on_hyphens` is true: break a long word after a hyphen.
    long_hyphens: bool,
}

fn blank(t: &[char], (a, b): (usize, usize)) -> bool {
    t[a..b].iter().all(|&c| is_py_space(c))
}

fn len((a, b): (usize, usize)) -> f64 {
    (b - a) as f64
}

impl Wrap {
    /// textwrap's `_wrap_chunks` of one line.
    fn lines(&self, line: &str) -> Result<Vec<String>, Error> {
        let t: Vec<char> = line.chars().collect();
        let width = self.width.value;
        if width <= 0.0 {
            return Err(py_error(
                "ValueError",
                format!("invalid width {} (must be > 0)", self.width_repr()),
            ));
        }
        let mut chunks = split(&t, self.split_hyphens);
        chunks.reverse();
        let mut lines: Vec<String> = Vec::new();
        while !chunks.is_empty() {
            let before = (chunks.len(), chunks.last().copied());
            let mut cur: Vec<(usize, usize)> = Vec::new();
            let mut cur_len = 0.0;
            if !lines.is_empty() && chunks.last().is_some_and(|&c| blank(&t, c)) {
                chunks.pop();
            }
            while let Some(&c) = chunks.last() {
                if cur_len + len(c) <= width {
                    cur.push(c);
                    cur_len += len(c);
                    chunks.pop();
                } else {
                    break;
                }
            }
            if chunks.last().is_some_and(|&c| len(c) > width) {
                self.long_word(&t, &mut chunks, &mut cur, cur_len)?;
            }
            if cur.last().is_some_and(|&c| blank(&t, c)) {
                cur.pop();
            }
            if !cur.is_empty() {
                lines.push(cur.iter().flat_map(|&(a, b)| &t[a..b]).collect());
            }
            if (chunks.len(), chunks.last().copied()) == before {
                // A NaN width fits nothing: Python loops for ever here.
                return Err(Error::new(
                    ErrorKind::InvalidOperation,
                    "wordwrap with a width of nan never ends (Python's textwrap loops for ever)",
                ));
            }
        }
        Ok(lines)
    }

    fn width_repr(&self) -> String {
        if self.width.int {
            format!("{}", self.width.value as i128)
        } else {
            py_repr_string(&Value::from(self.width.value))
        }
    }

    /// textwrap's `_handle_long_word`.
    fn long_word(
        &self,
        t: &[char],
        chunks: &mut Vec<(usize, usize)>,
        cur: &mut Vec<(usize, usize)>,
        cur_len: f64,
    ) -> Result<(), Error> {
        let width = self.width.value;
        let space_left = if width < 1.0 { 1.0 } else { width - cur_len };
        let integral = self.width.int || width < 1.0;
        let Some(&(a, b)) = chunks.last() else {
            return Ok(());
        };
        if self.break_long_words {
            if !integral {
                return Err(py_error(
                    "TypeError",
                    "slice indices must be integers or None or have an __index__ method",
                ));
            }
            let space_left = space_left as usize;
            let mut end = space_left;
            if self.long_hyphens && b - a > space_left {
                let head = &t[a..a + space_left.min(b - a)];
                if let Some(h) = head.iter().rposition(|&c| c == '-') {
                    if h > 0 && head[..h].iter().any(|&c| c != '-') {
                        end = h + 1;
                    }
                }
            }
            let end = end.min(b - a);
            cur.push((a, a + end));
            if let Some(last) = chunks.last_mut() {
                *last = (a + end, b);
            }
        } else if cur.is_empty() {
            cur.push((a, b));
            chunks.pop();
        }
        Ok(())
    }
}

/// `width <= 0` as Python evaluates it for a value of the template.
fn width_of(value: Option<Value>) -> Result<Width, Error> {
    let Some(v) = value else {
        return Ok(Width {
            value: 79.0,
            int: true,
        });
    };
    match v.kind() {
        ValueKind::Bool => Ok(Width {
            value: if v.is_true() { 1.0 } else { 0.0 },
            int: true,
        }),
        ValueKind::Number => {
            let value = f64::try_from(v.clone()).unwrap_or(f64::NAN);
            Ok(Width {
                value,
                int: v.is_integer(),
            })
        }
        ValueKind::Undefined => Err(Error::from(ErrorKind::UndefinedError)),
        _ => Err(py_error(
            "TypeError",
            format!(
                "'<=' not supported between instances of '{}' and 'int'",
                type_name(&v)
            ),
        )),
    }
}

/// `value` must be a `str` to have the method `name`.
fn text<'a>(value: &'a Value, method: &str) -> Result<&'a str, Error> {
    match value.kind() {
        ValueKind::String => Ok(value.as_str().unwrap_or_default()),
        ValueKind::Undefined => Err(Error::from(ErrorKind::UndefinedError)),
        _ => Err(py_error(
            "AttributeError",
            format!("'{}' object has no attribute '{method}'", type_name(value)),
        )),
    }
}

/// Jinja2's `do_wordwrap(s, width=79, break_long_words=True, wrapstring=None,
/// break_on_hyphens=True)`.
pub(super) fn wordwrap(value: Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let mut bound = WORDWRAP.bind(&args, &kwargs)?.into_iter();
    let (width, break_long, wrapstring, hyphens) =
        (bound.next(), bound.next(), bound.next(), bound.next());
    let (width, break_long, wrapstring, hyphens) = (
        width.flatten(),
        break_long.flatten(),
        wrapstring.flatten(),
        hyphens.flatten(),
    );
    // `wrapstring.join(...)` is looked up first, then `s.splitlines()`.
    let newline = Value::from("\n");
    let wrapstring = match wrapstring {
        Some(w) if w.kind() != ValueKind::None => w,
        _ => newline,
    };
    let sep = text(&wrapstring, "join")?.to_string();
    let s = text(&value, "splitlines")?;
    let mut paragraphs = Vec::new();
    for line in splitlines(s) {
        let wrap = Wrap {
            width: width_of(width.clone())?,
            break_long_words: break_long.as_ref().is_none_or(Value::is_true),
            split_hyphens: hyphens
                .as_ref()
                .is_none_or(|h| h.kind() == ValueKind::Bool && h.is_true()),
            long_hyphens: hyphens.as_ref().is_none_or(Value::is_true),
        };
        paragraphs.push(wrap.lines(line)?.join(&sep));
    }
    Ok(Value::from(paragraphs.join(&sep)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(s: &str) -> Vec<String> {
        let t: Vec<char> = s.chars().collect();
        split(&t, true)
            .into_iter()
            .map(|(a, b)| t[a..b].iter().collect())
            .collect()
    }

    #[test]
    fn splits_as_textwrap_documents() {
        assert_eq!(
            chunks("Look, goof-ball -- use the -b option!"),
            [
                "Look,", " ", "goof-", "ball", " ", "--", " ", "use", " ", "the", " ", "-b", " ",
                "option!"
            ]
        );
        assert_eq!(chunks("foo--bar"), ["foo", "--", "bar"]);
        assert_eq!(chunks("a-b-c"), ["a-b-c"]);
        assert_eq!(chunks("ab-cd-e"), ["ab-", "cd-e"]);
        assert_eq!(chunks("x1-ab"), ["x1-ab"]);
    }

    #[test]
    fn splits_lines_as_python() {
        assert_eq!(splitlines("a\r\nb\rc\n"), ["a", "b", "c"]);
        assert_eq!(splitlines("\n\nx\u{85}y"), ["", "", "x", "y"]);
        assert!(splitlines("").is_empty());
    }
}
