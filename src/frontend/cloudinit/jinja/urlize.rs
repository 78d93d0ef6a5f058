//! Jinja2's `urlize` filter as Jinja2 3.1 writes it (`filters.do_urlize`, `utils.urlize`):
//! the text escaped as markupsafe escapes it, split at white space, each word's leading `(`,
//! `<` and trailing `)`, `>`, `.`, `,` set apart (brackets balanced back in), then a word that
//! is a URL (`http://`, `https://`, `www.`, a domain under `.com`, `.net`, `.int`, `.edu`,
//! `.gov`, `.org`, `.info`, `.mil`, an IPv4 or IPv6 URL) made a link with Jinja2's default
//! `rel="noopener"`, a `mailto:` or e-mail address a `mailto:` link, and a word starting with
//! one of `extra_schemes` a link. Jinja2's regular expressions are written for Rust's `regex`
//! with Python's `\w`, `\S` and `re.IGNORECASE` (under which `i` also matches `ı` and `İ`).

use super::is_py_space;
use super::markup::{escape_text, escape_value};
use super::py::{py_repr_string, py_type_name};
use super::text::{py_error, Signature};
use minijinja::value::{Kwargs, Rest, Value, ValueKind};
use minijinja::{Error, ErrorKind};
use std::sync::LazyLock;

const URLIZE: Signature = Signature {
    name: "do_urlize",
    fixed: &["eval_ctx", "value"],
    optional: &[
        "trim_url_limit",
        "nofollow",
        "target",
        "rel",
        "extra_schemes",
    ],
};

/// Python's `\w`, `\S`, and `i` under `re.IGNORECASE`, for the patterns below.
fn python_classes(pattern: &str) -> String {
    pattern
        .replace(r"\w", r"\p{L}\p{N}_")
        .replace(r"\S", r"[^\s\x1c-\x1f]")
        .replace("I", r"[i\x{130}\x{131}]")
}

/// `utils._http_re` (`re.IGNORECASE | re.VERBOSE`).
static HTTP: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
    let pattern = concat!(
        r"(?i)^(?:",
        r"(?:https?://|www\.)(?:(?:[\w%-]+\.)+)?(?:[a-zI]{2,63}|xn--[\w%]{2,59})",
        r"|(?:[\w%-]{2,63}\.)+(?:com|net|Int|edu|gov|org|Info|mIl)",
        r"|https?://(?:\d{1,3}(?:\.\d{1,3}){3}|\[(?:[\da-f]{0,4}:){2}(?:[\da-f]{0,4}:?){1,6}\])",
        r")(?::\d{1,5})?(?:[/?#]\S*)?$",
    );
    // `\w` only inside brackets: it becomes the categories, without brackets of its own.
    let pattern = python_classes(pattern);
    regex::Regex::new(&pattern).ok()
});

/// `utils._email_re`.
static EMAIL: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
    let pattern = python_classes(r"^\S+@[\w][\w.-]*\.[\w]+$");
    regex::Regex::new(&pattern).ok()
});

/// `filters._uri_scheme_re`.
static SCHEME: LazyLock<Option<regex::Regex>> =
    LazyLock::new(|| regex::Regex::new(&python_classes(r"^[\w.+-]{2,}:/{0,2}$")).ok());

fn matches(re: &LazyLock<Option<regex::Regex>>, s: &str) -> bool {
    re.as_ref().is_some_and(|re| re.is_match(s))
}

/// The keyword arguments' values, as `do_urlize` reads them.
struct Options {
    trim: Option<Value>,
    rel_attr: String,
    target_attr: String,
    schemes: Vec<String>,
}

/// Python's `str.split()` of a `rel` value.
fn rel_words(rel: &Value) -> Result<Vec<String>, Error> {
    if !rel.is_true() {
        return Ok(Vec::new());
    }
    match rel.as_str() {
        Some(s) => Ok(s
            .split(is_py_space)
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()),
        None => Err(py_error(
            "AttributeError",
            format!("'{}' object has no attribute 'split'", py_type_name(rel)),
        )),
    }
}

fn options(args: &[Value], kwargs: &Kwargs) -> Result<Options, Error> {
    let mut bound = URLIZE.bind(args, kwargs)?.into_iter();
    let mut next = || bound.next().flatten();
    let (trim, nofollow, target, rel, schemes) = (next(), next(), next(), next(), next());
    let mut rel_parts = match &rel {
        Some(rel) => rel_words(rel)?,
        None => Vec::new(),
    };
    if nofollow.as_ref().is_some_and(Value::is_true) {
        rel_parts.push("nofollow".into());
    }
    rel_parts.push("noopener".into());
    rel_parts.sort();
    rel_parts.dedup();
    let rel = rel_parts.join(" ");
    let target_attr = match target.filter(|t| t.kind() != ValueKind::None) {
        Some(t) if t.is_true() => format!(" target=\"{}\"", escape_value(&t)),
        _ => String::new(),
    };
    let mut names: Vec<String> = Vec::new();
    if let Some(schemes) = schemes.filter(|s| s.kind() != ValueKind::None) {
        if matches!(schemes.kind(), ValueKind::Number | ValueKind::Bool) {
            return Err(py_error(
                "TypeError",
                format!("'{}' object is not iterable", py_type_name(&schemes)),
            ));
        }
        for scheme in schemes.try_iter()? {
            let Some(name) = scheme.as_str().map(String::from) else {
                return Err(py_error(
                    "TypeError",
                    format!(
                        "expected string or bytes-like object, got '{}'",
                        py_type_name(&scheme)
                    ),
                ));
            };
            match name {
                name if matches(&SCHEME, &name) => names.push(name),
                _ => {
                    return Err(Error::new(
                        ErrorKind::InvalidOperation,
                        format!(
                            "FilterArgumentError: {} is not a valid URI scheme prefix.",
                            py_repr_string(&scheme)
                        ),
                    ))
                }
            }
        }
    }
    Ok(Options {
        trim: trim.filter(|t| t.kind() != ValueKind::None),
        rel_attr: format!(" rel=\"{}\"", escape_text(&rel)),
        target_attr,
        schemes: names,
    })
}

/// `trim_url(x)`: `x[:limit] + "..."` when longer than the limit.
fn trim_url(x: &str, limit: Option<&Value>) -> Result<String, Error> {
    let Some(limit) = limit else {
        return Ok(x.to_string());
    };
    let n = x.chars().count() as i64;
    let limit = match limit.kind() {
        ValueKind::Bool => i64::from(limit.is_true()),
        ValueKind::Number if limit.is_integer() => i64::try_from(limit.clone()).unwrap_or(i64::MAX),
        ValueKind::Number => {
            let f = f64::try_from(limit.clone()).unwrap_or(f64::NAN);
            if (n as f64) > f {
                return Err(py_error(
                    "TypeError",
                    "slice indices must be integers or None or have an __index__ method",
                ));
            }
            return Ok(x.to_string());
        }
        ValueKind::Undefined => return Err(Error::from(ErrorKind::UndefinedError)),
        _ => {
            return Err(py_error(
                "TypeError",
                format!(
                    "'>' not supported between instances of 'int' and '{}'",
                    py_type_name(limit)
                ),
            ))
        }
    };
    if n <= limit {
        return Ok(x.to_string());
    }
    // A negative limit counts from the end, as Python's slices do.
    let keep = if limit < 0 { (n + limit).max(0) } else { limit };
    let head: String = x.chars().take(usize::try_from(keep).unwrap_or(0)).collect();
    Ok(format!("{head}..."))
}

/// The leading `(`, `<`, `&lt;` of a word.
fn head_len(word: &str) -> usize {
    let mut at = 0;
    loop {
        let rest = &word[at..];
        if rest.starts_with(['(', '<']) {
            at += 1;
        } else if rest.starts_with("&lt;") {
            at += 4;
        } else {
            return at;
        }
    }
}

/// Where the trailing run of `)`, `>`, `.`, `,`, newlines and `&gt;` of a word starts.
fn tail_start(word: &str) -> usize {
    let mut end = word.len();
    loop {
        let rest = &word[..end];
        if rest.ends_with([')', '>', '.', ',', '\n']) {
            end -= 1;
        } else if rest.ends_with("&gt;") {
            end -= 4;
        } else {
            return end;
        }
    }
}

/// One word (or run of white space) as `utils.urlize` rewrites it.
fn link_word(word: &str, o: &Options) -> Result<String, Error> {
    let h = head_len(word);
    let (head, rest) = word.split_at(h);
    let t = tail_start(rest);
    let (mut middle, mut tail) = (rest[..t].to_string(), rest[t..].to_string());
    for (open, close) in [("(", ")"), ("<", ">"), ("&lt;", "&gt;")] {
        let opened = middle.matches(open).count();
        if opened <= middle.matches(close).count() {
            continue;
        }
        for _ in 0..opened.min(tail.matches(close).count()) {
            let Some(at) = tail.find(close) else { break };
            let end = at + close.len();
            middle.push_str(&tail[..end]);
            tail = tail[end..].to_string();
        }
    }
    let (rel, target) = (&o.rel_attr, &o.target_attr);
    let middle = if matches(&HTTP, &middle) {
        let shown = trim_url(&middle, o.trim.as_ref())?;
        if middle.starts_with("https://") || middle.starts_with("http://") {
            format!("<a href=\"{middle}\"{rel}{target}>{shown}</a>")
        } else {
            format!("<a href=\"https://{middle}\"{rel}{target}>{shown}</a>")
        }
    } else if middle
        .strip_prefix("mailto:")
        .is_some_and(|m| matches(&EMAIL, m))
    {
        format!("<a href=\"{middle}\">{}</a>", &middle[7..])
    } else if middle.contains('@')
        && !middle.starts_with("www.")
        && !middle.contains(':')
        && matches(&EMAIL, &middle)
    {
        format!("<a href=\"mailto:{middle}\">{middle}</a>")
    } else {
        let mut m = middle;
        for scheme in &o.schemes {
            if m != *scheme && m.starts_with(scheme.as_str()) {
                m = format!("<a href=\"{m}\"{rel}{target}>{m}</a>");
            }
        }
        m
    };
    Ok(format!("{head}{middle}{tail}"))
}

/// `do_urlize(value, trim_url_limit=None, nofollow=False, target=None, rel=None,
/// extra_schemes=None)`.
pub(super) fn urlize(value: Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let o = options(&args, &kwargs)?;
    let text = escape_value(&value);
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    // `re.split(r"(\s+)", text)`: words and the white space between them, each rewritten.
    while !rest.is_empty() {
        let space = rest.starts_with(is_py_space);
        let end = rest
            .find(|c: char| is_py_space(c) != space)
            .unwrap_or(rest.len());
        out.push_str(&link_word(&rest[..end], &o)?);
        rest = &rest[end..];
    }
    Ok(Value::from(out))
}
