//! A Python list made by a template's list literal (`{% set names = [] %}`): mutable, as in
//! Jinja2, so that `{% do names.append(x) %}` works. minijinja's own lists are immutable and
//! it has no hook for literals: the template source is rewritten to wrap each list literal
//! in `__py_list(...)` (`jinja.rs`). `append`, `extend`, `insert`, `pop`, `remove`, `clear`,
//! `reverse`, `index`, `count` and `copy` as Python has them; every reference sees a change
//! (one shared list). Lists made otherwise (instance data, a filter's result, `| list`) stay
//! minijinja's: a method that changes them fails as before.

use minijinja::value::{Enumerator, Object, ObjectRepr, Value, ValueKind};
use minijinja::{Error, ErrorKind, State};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
pub(super) struct PyList(Mutex<Vec<Value>>);

impl PyList {
    pub(super) fn make(items: &Value) -> Result<Value, Error> {
        Ok(Value::from_object(PyList(Mutex::new(
            items.try_iter()?.collect(),
        ))))
    }

    fn items(&self) -> std::sync::MutexGuard<'_, Vec<Value>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn py_error(kind: &str, msg: &str) -> Error {
    Error::new(ErrorKind::InvalidOperation, format!("{kind}: {msg}"))
}

fn arity(method: &str, args: &[Value], min: usize, max: usize) -> Result<(), Error> {
    if args.len() < min || args.len() > max {
        return Err(py_error(
            "TypeError",
            &format!(
                "list.{method}() takes {max} argument(s) ({} given)",
                args.len()
            ),
        ));
    }
    Ok(())
}

/// A Python index (negative from the end), as `insert` clamps it.
fn clamp(i: &Value, len: usize) -> Result<usize, Error> {
    let i = i64::try_from(i.clone())
        .map_err(|_| py_error("TypeError", "list indices must be integers"))?;
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    let at = if i < 0 { (len + i).max(0) } else { i.min(len) };
    Ok(usize::try_from(at).unwrap_or(0))
}

impl Object for PyList {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.items().get(key.as_usize()?).cloned()
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(self.items().clone())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.items().len())
    }

    /// As `~` writes it: Python's `str()` of the list.
    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::py::py_repr_string(&Value::from_dyn_object(
            self.clone(),
        )))
    }

    fn call_method(
        self: &Arc<Self>,
        state: &mut State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        let none = Value::from(());
        match method {
            "append" => {
                arity(method, args, 1, 1)?;
                self.items().push(args[0].clone());
                Ok(none)
            }
            "extend" => {
                arity(method, args, 1, 1)?;
                // Python iterates strings, lists, dicts (and Jinja2's undefined, as empty).
                let kind = args[0].kind();
                if matches!(kind, ValueKind::None | ValueKind::Bool | ValueKind::Number) {
                    return Err(py_error(
                        "TypeError",
                        &format!(
                            "'{}' object is not iterable",
                            super::printf::type_name(&args[0])
                        ),
                    ));
                }
                let more: Vec<Value> = args[0].try_iter()?.collect();
                state.consume_fuel(more.len() as u64)?;
                self.items().extend(more);
                Ok(none)
            }
            "insert" => {
                arity(method, args, 2, 2)?;
                let mut items = self.items();
                let at = clamp(&args[0], items.len())?;
                items.insert(at, args[1].clone());
                Ok(none)
            }
            "pop" => {
                arity(method, args, 0, 1)?;
                let mut items = self.items();
                if items.is_empty() {
                    return Err(py_error("IndexError", "pop from empty list"));
                }
                let len = items.len();
                let at = match args.first() {
                    None => len - 1,
                    Some(i) => {
                        let i = i64::try_from(i.clone())
                            .map_err(|_| py_error("TypeError", "list indices must be integers"))?;
                        let at = if i < 0 { i + len as i64 } else { i };
                        if at < 0 || at >= len as i64 {
                            return Err(py_error("IndexError", "pop index out of range"));
                        }
                        at as usize
                    }
                };
                Ok(items.remove(at))
            }
            "remove" | "index" => {
                arity(method, args, 1, 1)?;
                let mut items = self.items();
                let Some(at) = items.iter().position(|v| *v == args[0]) else {
                    return Err(py_error(
                        "ValueError",
                        &if method == "remove" {
                            "list.remove(x): x not in list".to_string()
                        } else {
                            format!("{} is not in list", super::py::py_repr_string(&args[0]))
                        },
                    ));
                };
                if method == "index" {
                    return Ok(Value::from(at));
                }
                items.remove(at);
                Ok(none)
            }
            "count" => {
                arity(method, args, 1, 1)?;
                Ok(Value::from(
                    self.items().iter().filter(|v| **v == args[0]).count(),
                ))
            }
            "clear" => {
                arity(method, args, 0, 0)?;
                self.items().clear();
                Ok(none)
            }
            "reverse" => {
                arity(method, args, 0, 0)?;
                self.items().reverse();
                Ok(none)
            }
            "copy" => {
                arity(method, args, 0, 0)?;
                let items = self.items().clone();
                Ok(Value::from_object(PyList(Mutex::new(items))))
            }
            _ => Err(Error::from(ErrorKind::UnknownMethod)),
        }
    }
}
