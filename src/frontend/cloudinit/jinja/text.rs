//! Jinja2's text filters that minijinja does not have, as Jinja2 3.1 (Debian's python3-jinja2,
//! which cloud-init 22.4 renders with) writes them: `center` (Python's `str.center`),
//! `wordcount` (runs of word characters), `filesizeformat` (decimal or binary units) and
//! `truncate` (at a word boundary unless `killwords`, with the environment's default leeway
//! of 5); `wordwrap` comes from `wrap`. Their failures are Python's exceptions, worded as
//! Python words them; a filter's arguments are bound to its Python parameters as CPython binds
//! a call (`Signature`: positional, then keywords in the order written, with CPython's
//! `TypeError`s for an unknown keyword, a parameter given twice, too many positional
//! arguments, in the order CPython checks them).

use super::printf::type_name;
use super::py::py_str;
use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind};

/// Adds the filters to a template environment.
pub(super) fn install(env: &mut Environment<'_>) {
    env.add_filter("center", center);
    env.add_filter("wordcount", wordcount);
    env.add_filter("filesizeformat", filesizeformat);
    env.add_filter("truncate", truncate);
    env.add_filter("wordwrap", super::wrap::wordwrap);
}

/// A Python exception (`TypeError`, `ValueError`, ...) raised inside a filter: `jinja.rs` reads
/// the class name back from the message.
pub(super) fn py_error(class: &str, message: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::InvalidOperation, format!("{class}: {message}"))
}

/// A filter's Python signature: its function name, the parameters Jinja2 always fills (the
/// environment or evaluation context, then the filtered value) and the optional ones after them.
pub(super) struct Signature {
    pub(super) name: &'static str,
    pub(super) fixed: &'static [&'static str],
    pub(super) optional: &'static [&'static str],
}

impl Signature {
    /// The value of each optional parameter (`None`: not given, the default applies).
    pub(super) fn bind(
        &self,
        args: &[Value],
        kwargs: &Kwargs,
    ) -> Result<Vec<Option<Value>>, Error> {
        let mut bound: Vec<Option<Value>> = vec![None; self.optional.len()];
        for (i, arg) in args.iter().take(self.optional.len()).enumerate() {
            bound[i] = Some(arg.clone());
        }
        let keys: Vec<String> = kwargs.args().map(str::to_string).collect();
        for key in keys {
            let value: Value = kwargs.get(&key)?;
            let slot = self.optional.iter().position(|p| *p == key);
            let given_twice =
                self.fixed.contains(&key.as_str()) || slot.is_some_and(|i| bound[i].is_some());
            if given_twice {
                return Err(py_error(
                    "TypeError",
                    format!("{}() got multiple values for argument '{key}'", self.name),
                ));
            }
            match slot {
                Some(i) => bound[i] = Some(value),
                None => {
                    return Err(py_error(
                        "TypeError",
                        format!("{}() got an unexpected keyword argument '{key}'", self.name),
                    ))
                }
            }
        }
        if args.len() > self.optional.len() {
            let given = self.fixed.len() + args.len();
            let most = self.fixed.len() + self.optional.len();
            let takes = if self.optional.is_empty() {
                format!(
                    "{most} positional argument{}",
                    if most == 1 { "" } else { "s" }
                )
            } else {
                format!("from {} to {most} positional arguments", self.fixed.len())
            };
            let were = if given == 1 { "was" } else { "were" };
            return Err(py_error(
                "TypeError",
                format!("{}() takes {takes} but {given} {were} given", self.name),
            ));
        }
        Ok(bound)
    }
}

/// `str(value).center(width)`: CPython gives the odd space to the left when the width is odd.
fn center(value: Value, width: Option<i64>) -> String {
    let s = py_str(&value);
    let width = width.unwrap_or(80);
    let len = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
    if width <= len {
        return s;
    }
    let marg = width - len;
    let left = marg / 2 + (marg & width & 1);
    let pad = |n: i64| " ".repeat(usize::try_from(n).unwrap_or(0));
    format!("{}{s}{}", pad(left), pad(marg - left))
}

/// `len(re.findall(r"\w+", str(value)))`.
fn wordcount(value: Value) -> usize {
    let s = py_str(&value);
    let mut count = 0;
    let mut inside = false;
    for c in s.chars() {
        let w = super::wrap::is_word(c);
        if w && !inside {
            count += 1;
        }
        inside = w;
    }
    count
}

/// Python's `float(value)` for the values a template holds.
fn py_float(value: &Value) -> Result<f64, Error> {
    match value.kind() {
        ValueKind::Number | ValueKind::Bool => Ok(f64::try_from(value.clone()).unwrap_or(0.0)),
        ValueKind::String => {
            let text = value.as_str().unwrap_or_default();
            text.trim().replace('_', "").parse::<f64>().map_err(|_| {
                py_error(
                    "ValueError",
                    format!(
                        "could not convert string to float: {}",
                        super::py::py_repr_string(value)
                    ),
                )
            })
        }
        _ => Err(py_error(
            "TypeError",
            format!(
                "float() argument must be a string or a real number, not '{}'",
                type_name(value)
            ),
        )),
    }
}

/// Jinja2's `do_filesizeformat`: `1 Byte`, `N Bytes` below the base, else one decimal and the
/// unit (`kB`, `MB`, … or `KiB`, `MiB`, … with `binary`), the largest unit for anything above.
fn filesizeformat(value: Value, binary: Option<bool>, kwargs: Kwargs) -> Result<String, Error> {
    let binary = match kwargs.get::<Option<bool>>("binary")? {
        Some(b) => b,
        None => binary.unwrap_or(false),
    };
    kwargs.assert_all_used()?;
    let bytes = py_float(&value)?;
    if bytes.is_nan() {
        return Ok(format!("nan {}", if binary { "YiB" } else { "YB" }));
    }
    let base = if binary { 1024.0 } else { 1000.0 };
    let prefixes: [&str; 8] = if binary {
        ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"]
    } else {
        ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]
    };
    if bytes == 1.0 {
        return Ok("1 Byte".into());
    }
    if bytes < base {
        // Python's `int(bytes)`: toward zero.
        return Ok(format!("{} Bytes", bytes.trunc() as i64));
    }
    let mut unit = base;
    for prefix in prefixes {
        unit *= base;
        if bytes < unit {
            return Ok(format!("{:.1} {prefix}", base * bytes / unit));
        }
    }
    Ok(format!("{:.1} {}", base * bytes / unit, prefixes[7]))
}

/// Jinja2's `do_truncate(s, length=255, killwords=False, end='...', leeway=5)`.
fn truncate(
    value: Value,
    length: Option<i64>,
    killwords: Option<bool>,
    end: Option<String>,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let length = kwargs
        .get::<Option<i64>>("length")?
        .or(length)
        .unwrap_or(255);
    let killwords = kwargs
        .get::<Option<bool>>("killwords")?
        .or(killwords)
        .unwrap_or(false);
    let end = kwargs
        .get::<Option<String>>("end")?
        .or(end)
        .unwrap_or_else(|| "...".into());
    let leeway = kwargs.get::<Option<i64>>("leeway")?.unwrap_or(5);
    kwargs.assert_all_used()?;
    let end_len = i64::try_from(end.chars().count()).unwrap_or(i64::MAX);
    if length < end_len {
        let message = format!("expected length >= {end_len}, got {length}");
        return Err(py_error("AssertionError", message));
    }
    if leeway < 0 {
        return Err(py_error(
            "AssertionError",
            format!("expected leeway >= 0, got {leeway}"),
        ));
    }
    let s = match value.kind() {
        ValueKind::String => value.as_str().unwrap_or_default().to_string(),
        // `len()` of Jinja2's undefined is 0: it comes back as it was.
        ValueKind::Undefined => return Ok(value),
        // A list or a mapping short enough comes back whole; longer, Python fails slicing it.
        ValueKind::Seq | ValueKind::Map => {
            let len = i64::try_from(value.len().unwrap_or(0)).unwrap_or(i64::MAX);
            if len <= length.saturating_add(leeway) {
                return Ok(value);
            }
            let message = format!("'{}' object has no attribute 'rsplit'", type_name(&value));
            return Err(py_error("AttributeError", message));
        }
        _ => {
            let message = format!("object of type '{}' has no len()", type_name(&value));
            return Err(py_error("TypeError", message));
        }
    };
    let chars: Vec<char> = s.chars().collect();
    let len = i64::try_from(chars.len()).unwrap_or(i64::MAX);
    if len <= length.saturating_add(leeway) {
        return Ok(Value::from(s));
    }
    let keep = usize::try_from(length - end_len)
        .unwrap_or(0)
        .min(chars.len());
    let head: String = chars[..keep].iter().collect();
    if killwords {
        return Ok(Value::from(head + &end));
    }
    // `s[:n].rsplit(" ", 1)[0]`: up to the last space, or all of it without one.
    let cut = match head.rfind(' ') {
        Some(i) => &head[..i],
        None => &head,
    };
    Ok(Value::from(format!("{cut}{end}")))
}
