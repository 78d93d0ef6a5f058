//! Jinja2's `tojson` as Jinja2 3.1 writes it: Python's `json.dumps(value, sort_keys=True)`
//! (Jinja2's default `json.dumps_kwargs` policy; `indent` when given), then `<`, `>`, `&`, `'`
//! written `\u003c`, `\u003e`, `\u0026`, `\u0027` (`htmlsafe_json_dumps`). So keys sorted
//! (Python's `TypeError` for keys it cannot compare), every character outside ` `..`~` `\uXXXX`
//! (`ensure_ascii`, a pair of surrogates above U+FFFF), floats as Python's `repr` (`1e+22`,
//! `NaN`, `Infinity`), separators `, ` and `: ` (`,` at line ends with `indent`), and
//! `Object of type X is not JSON serializable` for an undefined value or a dict view.

use super::py::{comparable, py_type_name};
use super::text::{py_error, Signature};
use crate::value::py::{float_repr, json_str};
use minijinja::value::{Kwargs, Rest, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};

/// `do_tojson(value, indent=None)`.
pub(super) fn tojson(
    state: &State,
    value: Value,
    args: Rest<Value>,
    kwargs: Kwargs,
) -> Result<Value, Error> {
    let bound = Signature {
        name: "do_tojson",
        fixed: &["eval_ctx", "value"],
        optional: &["indent"],
    }
    .bind(&args, &kwargs)?;
    let indent = match bound.into_iter().next().flatten() {
        None => None,
        Some(v) => match v.kind() {
            ValueKind::None => None,
            ValueKind::String => Some(v.as_str().unwrap_or_default().to_string()),
            ValueKind::Bool => Some(" ".repeat(usize::from(v.is_true()))),
            ValueKind::Number if v.is_integer() => {
                let n = i64::try_from(v.clone()).unwrap_or(0).clamp(0, 1 << 16);
                Some(" ".repeat(usize::try_from(n).unwrap_or(0)))
            }
            ValueKind::Undefined => return Err(Error::from(ErrorKind::UndefinedError)),
            _ => {
                return Err(py_error(
                    "TypeError",
                    format!(
                        "can't multiply sequence by non-int of type '{}'",
                        py_type_name(&v)
                    ),
                ))
            }
        },
    };
    let mut out = String::new();
    Encoder {
        state,
        indent: indent.as_deref(),
    }
    .value(&mut out, &value, 0)?;
    let out = out
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\'', "\\u0027");
    Ok(Value::from_safe_string(out))
}

struct Encoder<'a, 's, 'e> {
    state: &'a State<'s, 'e>,
    indent: Option<&'a str>,
}

fn float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        float_repr(f)
    }
}

fn not_serializable(value: &Value) -> Error {
    let name = match value.kind() {
        ValueKind::Undefined => "UndefinedJinjaVariable",
        ValueKind::Bytes => "bytes",
        _ => py_type_name(value),
    };
    py_error(
        "TypeError",
        format!("Object of type {name} is not JSON serializable"),
    )
}

impl Encoder<'_, '_, '_> {
    /// The line break and indentation before an item at `level`, or nothing without `indent`.
    fn newline(&self, out: &mut String, level: usize) {
        if let Some(indent) = self.indent {
            out.push('\n');
            for _ in 0..level {
                out.push_str(indent);
            }
        }
    }

    fn separator(&self) -> &'static str {
        if self.indent.is_some() {
            ","
        } else {
            ", "
        }
    }

    fn value(&self, out: &mut String, value: &Value, level: usize) -> Result<(), Error> {
        self.state.consume_fuel(1)?;
        if super::py::is_view(value) {
            return Err(not_serializable(value));
        }
        match value.kind() {
            ValueKind::None => out.push_str("null"),
            ValueKind::Bool => out.push_str(if value.is_true() { "true" } else { "false" }),
            ValueKind::Number if value.is_integer() => out.push_str(&value.to_string()),
            ValueKind::Number => out.push_str(&float(f64::try_from(value.clone())?)),
            ValueKind::String => json_str(out, value.as_str().unwrap_or_default()),
            ValueKind::Seq => {
                let items: Vec<Value> = value.try_iter()?.collect();
                self.items(out, "[", "]", level, items.len(), |out, i, level| {
                    self.value(out, &items[i], level)
                })?;
            }
            ValueKind::Map => {
                let keys = self.sorted_keys(value)?;
                self.items(out, "{", "}", level, keys.len(), |out, i, level| {
                    json_str(out, &self.key(&keys[i])?);
                    out.push_str(": ");
                    self.value(out, &value.get_item(&keys[i]).unwrap_or_default(), level)
                })?;
            }
            _ => return Err(not_serializable(value)),
        }
        Ok(())
    }

    fn items(
        &self,
        out: &mut String,
        open: &str,
        close: &str,
        level: usize,
        n: usize,
        mut item: impl FnMut(&mut String, usize, usize) -> Result<(), Error>,
    ) -> Result<(), Error> {
        out.push_str(open);
        if n > 0 {
            for i in 0..n {
                if i > 0 {
                    out.push_str(self.separator());
                }
                self.newline(out, level + 1);
                item(out, i, level + 1)?;
            }
            self.newline(out, level);
        }
        out.push_str(close);
        Ok(())
    }

    /// `sorted(d.items())`: Python's order of the keys, or its `TypeError`.
    fn sorted_keys(&self, map: &Value) -> Result<Vec<Value>, Error> {
        let mut keys: Vec<Value> = map.try_iter()?.collect();
        keys.sort();
        comparable(&Value::from(keys.clone()), false, "<")?;
        Ok(keys)
    }

    /// A key as `json.dumps` writes it: a string, or a number, `true`, `null` made one.
    fn key(&self, key: &Value) -> Result<String, Error> {
        Ok(match key.kind() {
            ValueKind::String => key.as_str().unwrap_or_default().to_string(),
            ValueKind::None => "null".into(),
            ValueKind::Bool => if key.is_true() { "true" } else { "false" }.into(),
            ValueKind::Number if key.is_integer() => key.to_string(),
            ValueKind::Number => float(f64::try_from(key.clone())?),
            _ => {
                return Err(py_error(
                    "TypeError",
                    format!(
                        "keys must be str, int, float, bool or None, not {}",
                        py_type_name(key)
                    ),
                ))
            }
        })
    }
}
