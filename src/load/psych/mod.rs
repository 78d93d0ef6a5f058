//! Plain-scalar typing as Ruby's YAML reader builds it: Psych 4.0 (Ruby 3.1), whose
//! `ScalarScanner#tokenize` Puppet 7 reaches through `YAML.safe_load` for Hiera data,
//! `hiera.yaml` and a `--facts` file. What it reads differently from PyYAML (`resolve.rs`):
//!
//! - `yes` / `on` / `true` / `null` in any case (`yEs`, `nULL`); `y`, `n` stay strings;
//! - sexagesimals of two or three parts only, read as `a·3600 + b·60 (+ c)`: `1:30` is 5400,
//!   `-1:30` is -1800 (only the first part is negative), `1:2:3:4` a string;
//! - floats need a dot and a signed exponent: `.5`, `-.5`, `1.` are floats, `1e3` and `1.0e3`
//!   strings; `.inf` / `.nan` in any case; `,` is dropped from numbers (`1,000` is 1000);
//! - `0o17` and `0X1F` are strings, `0b_` fails (`Integer("0b")`);
//! - dates and timestamps build `Date` / `Time`, which `safe_load` refuses
//!   (`Tried to load unspecified class: Date`), even a date that does not exist;
//! - `:name` is a Ruby Symbol (permitted in Hiera data, refused in facts).
//!
//! The Ruby number parsing these rules call (`Integer()`, `Float()`, `String#to_i`,
//! `String#to_f`) and `unpack('m')` are in `ruby.rs`; tags and collections are
//! `yaml/psych.rs`'s.

mod ruby;
use ruby::{int_kind, ruby_float_gsubbed, ruby_integer, ruby_to_f, ruby_to_i};
pub(crate) use ruby::{ruby_float, unpack_base64};

use crate::value::{Kind, Span};
use std::sync::{Arc, Mutex};

/// How a loader reads YAML as Psych does (`LoadOptions::psych`).
#[derive(Clone, Debug, Default)]
pub struct Psych {
    /// Whether Symbol is a permitted class (Puppet: in Hiera data and hiera.yaml, not in
    /// facts).
    pub symbols: bool,
    /// Where what Puppet refuses but strata's tree cannot show is noted.
    pub noted: Refusals,
}

/// What Ruby builds and Puppet refuses as data, where strata's tree holds something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A Ruby Symbol, held as the string of its name (noted at that string's span).
    Symbol,
    /// A Boolean key (at `key`) that strata's map, comparing keys as Python does, merged into
    /// an equal number key (`1:` and `yes:`), where Ruby keeps both (noted at the mapping).
    BooleanKey { key: Span },
}

/// The refusals a run's loaders noted, by span; shared by the threads of one run.
#[derive(Clone, Default)]
pub struct Refusals(Arc<Mutex<Vec<(Span, Refusal)>>>);

impl std::fmt::Debug for Refusals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Refusals")
    }
}

impl Refusals {
    pub fn note(&self, at: Span, what: Refusal) {
        if let Ok(mut all) = self.0.lock() {
            all.push((at, what));
        }
    }

    /// What was noted since the last call.
    pub fn take(&self) -> Vec<(Span, Refusal)> {
        self.0
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
    }
}

/// What Psych builds from a scalar's text.
#[derive(Clone, Debug)]
pub(crate) enum Token {
    Value(Kind),
    /// A Ruby Symbol (`:name`), its name.
    Symbol(String),
}

/// A value Psych does not build: the exception `safe_load` raises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// `Psych::DisallowedClass`: an object of a class `safe_load` does not permit.
    Disallowed(String),
    /// Any other Ruby exception raised while building the value: its message.
    Raised(String),
}

impl Fault {
    /// Psych's message, as Puppet prints it after `Unable to parse (FILE): `.
    pub(crate) fn message(&self) -> String {
        match self {
            Fault::Disallowed(class) => format!("Tried to load unspecified class: {class}"),
            Fault::Raised(m) => m.clone(),
        }
    }
}

/// `ScalarScanner#tokenize`. `symbols`: whether Symbol is a permitted class (Puppet permits
/// it in Hiera data and hiera.yaml, not in a facts file).
pub(crate) fn tokenize(s: &str, symbols: bool) -> Result<Token, Fault> {
    let value = |k| Ok(Token::Value(k));
    if s.is_empty() {
        return value(Kind::Null);
    }
    if looks_like_word(s) || s.contains('\n') {
        return value(word(s));
    }
    if let Some(i) = plain_decimal(s) {
        return value(Kind::Int(i));
    }
    if is_time(s) {
        return Err(Fault::Disallowed("Time".into()));
    }
    if is_date(s) {
        return Err(Fault::Disallowed("Date".into()));
    }
    let is = |word: &str| s.eq_ignore_ascii_case(word);
    if is(".inf") || is("+.inf") {
        return value(Kind::Float(f64::INFINITY));
    }
    if is("-.inf") {
        return value(Kind::Float(f64::NEG_INFINITY));
    }
    if is(".nan") {
        return value(Kind::Float(f64::NAN));
    }
    if s.len() > 1 && s.starts_with(':') {
        if !symbols {
            return Err(Fault::Disallowed("Symbol".into()));
        }
        return Ok(Token::Symbol(symbol_name(s)));
    }
    if let Some(parts) = sexagesimal(s, false) {
        let mut total: i128 = 0;
        for (e, p) in parts.iter().enumerate() {
            let scale = 60i128.pow(scale_power(e));
            total = ruby_to_i(p)
                .and_then(|v| v.checked_mul(scale))
                .and_then(|v| total.checked_add(v))
                .ok_or_else(|| {
                    Fault::Raised(format!("the sexagesimal {s} is too large for strata"))
                })?;
        }
        return value(int_kind(total));
    }
    if let Some(parts) = sexagesimal(s, true) {
        let mut total = 0.0;
        for (e, p) in parts.iter().enumerate() {
            total += ruby_to_f(p) * f64::from(60u32.pow(scale_power(e)));
        }
        return value(Kind::Float(total));
    }
    if is_float(s) {
        let body = s.strip_prefix(['-', '+']).unwrap_or(s);
        if body == "." {
            return value(Kind::Str(s.into()));
        }
        return ruby_float_gsubbed(s).map(|f| Token::Value(Kind::Float(f)));
    }
    if is_integer(s) {
        let digits: String = s.chars().filter(|&c| c != ',' && c != '_').collect();
        return ruby_integer(&digits).map(Token::Value);
    }
    value(Kind::Str(s.into()))
}

/// The common spelling of an integer (`8080`, `-17`): a sign, then up to 18 decimal digits
/// without a leading zero, which every rule before `INTEGER` lets through.
fn plain_decimal(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let b = body.as_bytes();
    if !(1..=18).contains(&b.len()) || b[0] == b'0' || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = b.iter().fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
    Some(if neg { -v } else { v })
}

/// Whether a plain scalar is read back by Psych as this same string (for writers).
pub(crate) fn is_plain_str(s: &str) -> bool {
    // The word branch of `tokenize` for one line, without building the string (the common
    // case: the writer asks this of every string it writes plain): longer than five
    // characters, a string; shorter, a string unless a null or boolean word in any case.
    if looks_like_word(s) && !s.contains('\n') {
        return s.chars().count() > 5
            || !(s == "~"
                || ["null", "yes", "true", "on", "no", "false", "off"]
                    .iter()
                    .any(|w| s.eq_ignore_ascii_case(w)));
    }
    matches!(tokenize(s, true), Ok(Token::Value(Kind::Str(t))) if &*t == s)
}

/// `60 ** (e - 2).abs` for part `e` of a sexagesimal: 3600, 60, 1.
fn scale_power(e: usize) -> u32 {
    (2usize.abs_diff(e)) as u32
}

/// `%r{^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|/\\~;=]+}` at the start of the text.
fn looks_like_word(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(c0) = chars.next() else { return false };
    if word_char(c0) {
        return true;
    }
    !(c0.is_ascii_digit() || matches!(c0, '.' | ':' | '-')) && chars.next().is_some_and(word_char)
}

fn word_char(c: char) -> bool {
    c.is_alphabetic()
        || c == '_'
        || matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
        || "!@#$%^&*(){}<>|/\\~;=".contains(c)
}

/// The word branch: short words may be nulls or booleans. Ruby's `^` and `$` match at every
/// line, so a short text of several lines is typed by any of its lines.
fn word(s: &str) -> Kind {
    if s.chars().count() > 5 {
        return Kind::Str(s.into());
    }
    let lines: Vec<&str> = s.split('\n').collect();
    let last = lines.len() - 1;
    // /^[^ytonf~]/i: a line that starts with another character (an empty line starts with
    // its line break, except after the text's last one).
    let other_start = lines
        .iter()
        .enumerate()
        .any(|(i, l)| match l.chars().next() {
            Some(c) => !"ytonf~".contains(c.to_ascii_lowercase()),
            None => i < last,
        });
    let any = |words: &[&str]| {
        lines
            .iter()
            .any(|l| words.iter().any(|w| l.eq_ignore_ascii_case(w)))
    };
    if other_start {
        Kind::Str(s.into())
    } else if s == "~" || any(&["null"]) {
        Kind::Null
    } else if any(&["yes", "true", "on"]) {
        Kind::Bool(true)
    } else if any(&["no", "false", "off"]) {
        Kind::Bool(false)
    } else {
        Kind::Str(s.into())
    }
}

/// A little matcher over bytes, for the scanner's patterns.
struct At<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> At<'a> {
    fn new(s: &'a str) -> Self {
        At {
            b: s.as_bytes(),
            i: 0,
        }
    }
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn eat(&mut self, f: impl Fn(u8) -> bool) -> bool {
        let ok = self.peek().is_some_and(f);
        if ok {
            self.i += 1;
        }
        ok
    }
    fn byte(&mut self, c: u8) -> bool {
        self.eat(|b| b == c)
    }
    /// Between `min` and `max` bytes matching `f`; false (nothing consumed) below `min`.
    fn run(&mut self, min: usize, max: usize, f: impl Fn(u8) -> bool) -> bool {
        let start = self.i;
        while self.i - start < max && self.eat(&f) {}
        if self.i - start < min {
            self.i = start;
            return false;
        }
        true
    }
    fn digits(&mut self, min: usize, max: usize) -> bool {
        self.run(min, max, |b| b.is_ascii_digit())
    }
    fn done(&self) -> bool {
        self.i == self.b.len()
    }
}

fn space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

/// `TIME`: `^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?
/// (?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$`
fn is_time(s: &str) -> bool {
    let mut m = At::new(s);
    m.byte(b'-');
    let date = m.digits(4, 4) && m.byte(b'-') && m.digits(1, 2) && m.byte(b'-') && m.digits(1, 2);
    if !date || !(m.eat(|b| b == b'T' || b == b't') || m.run(1, usize::MAX, space)) {
        return false;
    }
    if !(m.digits(1, 2) && m.byte(b':') && m.digits(2, 2) && m.byte(b':') && m.digits(2, 2)) {
        return false;
    }
    if m.byte(b'.') {
        m.digits(0, usize::MAX);
    }
    if m.done() {
        return true;
    }
    // The zone: its spaces, then `Z` or an offset; the pattern must reach the end.
    m.run(0, usize::MAX, space);
    if m.byte(b'Z') {
        return m.done();
    }
    if !m.eat(|b| b == b'-' || b == b'+') {
        return false;
    }
    // `\d{1,2}:?(?:\d\d)?$`, backtracking as the regex would.
    let sign = m.i;
    for hours in [2, 1] {
        for (colon, mins) in [(true, true), (true, false), (false, true), (false, false)] {
            m.i = sign;
            if m.digits(hours, hours)
                && (!colon || m.byte(b':'))
                && (!mins || m.digits(2, 2))
                && m.done()
            {
                return true;
            }
        }
    }
    false
}

/// `^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let Some((year, rest)) = b.split_at_checked(4) else {
        return false;
    };
    if !year.iter().all(u8::is_ascii_digit) || rest.first() != Some(&b'-') {
        return false;
    }
    let rest = &rest[1..];
    let Some(dash) = rest.iter().position(|&c| c == b'-') else {
        return false;
    };
    let (month, day) = (&rest[..dash], &rest[dash + 1..]);
    let month_ok = matches!(
        month,
        [b'1', b'0'..=b'2'] | [b'0', b'0'..=b'9'] | [b'0'..=b'9']
    );
    let day_ok = matches!(
        day,
        [b'1' | b'2', b'0'..=b'9'] | [b'3', b'0' | b'1'] | [b'0', b'0'..=b'9'] | [b'0'..=b'9']
    );
    month_ok && day_ok
}

/// A Symbol's name: `:name`, or `:"name"` / `:'name'` (up to the last such quote, less one
/// leading colon).
fn symbol_name(s: &str) -> String {
    let rest = &s[1..];
    let quoted = rest
        .chars()
        .next()
        .filter(|&q| q == '"' || q == '\'')
        .and_then(|q| {
            let inner = &rest[1..];
            inner.rfind(q).map(|end| &inner[..end])
        });
    match quoted {
        Some(name) => name.strip_prefix(':').unwrap_or(name).to_string(),
        None => rest.to_string(),
    }
}

/// `^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$`, or with `\.[0-9_]*` after the last part
/// (`fraction`): the parts, as `split(':')` gives them.
fn sexagesimal(s: &str, fraction: bool) -> Option<Vec<&str>> {
    if !s.contains(':') {
        return None;
    }
    let parts: Vec<&str> = s.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let head = parts[0].strip_prefix(['-', '+']).unwrap_or(parts[0]);
    let head_ok = head.as_bytes().first().is_some_and(u8::is_ascii_digit)
        && head.bytes().all(|c| c.is_ascii_digit() || c == b'_');
    let last = parts.len() - 1;
    let tail_ok = parts[1..].iter().enumerate().all(|(i, p)| {
        let (whole, frac) = match p.split_once('.') {
            Some((w, f)) if fraction && i + 1 == last => (w, Some(f)),
            _ => (*p, None),
        };
        let whole_ok = match whole.as_bytes() {
            [d] => d.is_ascii_digit(),
            [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
            _ => false,
        };
        whole_ok && frac.is_none_or(|f| f.bytes().all(|c| c.is_ascii_digit() || c == b'_'))
    });
    let has_fraction = parts[last].contains('.');
    (head_ok && tail_ok && has_fraction == fraction).then_some(parts)
}

/// `FLOAT`: `^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$`
fn is_float(s: &str) -> bool {
    let mut m = At::new(s);
    m.eat(|b| b == b'-' || b == b'+');
    if m.digits(1, 1) {
        m.run(0, usize::MAX, |b| {
            b.is_ascii_digit() || b == b'_' || b == b','
        });
    }
    if !m.byte(b'.') {
        return false;
    }
    m.digits(0, usize::MAX);
    if m.eat(|b| b == b'e' || b == b'E')
        && !(m.eat(|b| b == b'-' || b == b'+') && m.digits(1, usize::MAX))
    {
        return false;
    }
    m.done()
}

/// `INTEGER`: binary, octal (a leading 0), decimal or hexadecimal, with `_` and `,`.
fn is_integer(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let all = |t: &str, f: fn(u8) -> bool| !t.is_empty() && t.bytes().all(f);
    if let Some(t) = body.strip_prefix("0b") {
        return all(t, |c| matches!(c, b'0' | b'1' | b'_' | b','));
    }
    if let Some(t) = body.strip_prefix("0x") {
        return all(t, |c| c.is_ascii_hexdigit() || c == b'_' || c == b',');
    }
    if body == "0" {
        return true;
    }
    if let Some(t) = body.strip_prefix('0') {
        return all(t, |c| matches!(c, b'0'..=b'7' | b'_' | b','));
    }
    // [1-9](?:[0-9]|,[0-9]|_[0-9])*
    let b = body.as_bytes();
    if !b.first().is_some_and(|c| (b'1'..=b'9').contains(c)) {
        return false;
    }
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'0'..=b'9' => i += 1,
            b',' | b'_' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => i += 2,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests;
