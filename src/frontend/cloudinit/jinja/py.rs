//! Python's values in a cloud-init template, as Jinja2 makes and prints them: `str()` of a
//! value (`True`, `None`, `1.5`, `{'a': 1}`), tuples printed `('k', 'v')` (minijinja's
//! `Tuple`: `(1, 2)` literals, and the pairs `dictsort`, `items` and `dict.items()` give, as
//! Jinja2 gives tuples there), `groupby`'s groups printed as the tuples Jinja2's
//! `_GroupTuple` prints, and `dict.keys()` / `.values()` / `.items()` as Python's views
//! (`dict_items([('a', 1)])`). Python's other `str` / `dict` / `list` methods come from
//! minijinja-contrib's `pycompat`.

use crate::value::py::{float_repr, str_repr};
use minijinja::value::{Enumerator, Kwargs, Object, ObjectRepr, Tuple, Value, ValueKind};
use minijinja::{Environment, Error, State};
use std::sync::Arc;

/// The filters and methods that give tuples where Jinja2 does.
pub(super) fn install(env: &mut Environment<'_>) {
    env.add_filter(
        "dictsort",
        |v: Value, kwargs: Kwargs| -> Result<Value, Error> {
            let by_value = kwargs.peek::<Option<&str>>("by")? == Some("value");
            let sorted = minijinja::filters::dictsort(&v, kwargs).map(tuples)?;
            if by_value {
                let values: Vec<Value> = sorted
                    .try_iter()?
                    .map(|pair| pair.get_item(&Value::from(1)).unwrap_or_default())
                    .collect();
                comparable(&Value::from(values), false, "<")?;
            }
            Ok(sorted)
        },
    );
    env.add_filter("items", |v: Value| -> Result<Value, Error> {
        minijinja::filters::items(&v).map(tuples)
    });
    // Python's json.dumps(sort_keys=True), as Jinja2's tojson.
    env.add_filter("tojson", super::json::tojson);
    // Jinja2's `join`, `string`, `upper`, `lower` take Python's `str()` of a value (`1e+22`,
    // not minijinja's `10000000000000000000000.0`).
    env.add_filter("string", |v: Value| -> Value {
        match v.kind() {
            ValueKind::String | ValueKind::Undefined => v,
            _ => Value::from(py_str(&v)),
        }
    });
    env.add_filter("upper", |v: Value| -> Value {
        Value::from(py_str(&v).to_uppercase())
    });
    env.add_filter("lower", |v: Value| -> Value {
        Value::from(py_str(&v).to_lowercase())
    });
    env.add_filter(
        "join",
        |state: &State, v: Value, sep: Option<Value>, kwargs: Kwargs| -> Result<Value, Error> {
            let attribute: Option<String> = kwargs.get("attribute")?;
            kwargs.assert_all_used()?;
            if v.is_undefined() {
                return Ok(Value::from(""));
            }
            let sep = sep.map(|s| py_str(&s)).unwrap_or_default();
            let items: Vec<Value> = if let Some(s) = v.as_str() {
                s.chars().map(Value::from).collect()
            } else {
                v.try_iter()?.collect()
            };
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                let item = match &attribute {
                    Some(path) => attr_path(&item, path),
                    None => item,
                };
                state.consume_fuel(1)?;
                out.push(py_str(&item));
            }
            Ok(Value::from(out.join(&sep)))
        },
    );
    // Python's sorted() / min() / max() raise on values they cannot compare (`1 < "a"`,
    // `None < None`); minijinja orders anything.
    env.add_filter(
        "sort",
        |state: &State, v: Value, kwargs: Kwargs| -> Result<Value, Error> {
            let plain = !kwargs.has("attribute");
            let sorted = minijinja::filters::sort(state, v, kwargs)?;
            if plain {
                comparable(&sorted, true, "<")?;
            }
            Ok(sorted)
        },
    );
    for (name, f, op) in [
        ("min", minijinja::filters::min as MinMax, "<"),
        ("max", minijinja::filters::max as MinMax, ">"),
    ] {
        env.add_filter(
            name,
            move |state: &State, v: Value, kwargs: Kwargs| -> Result<Value, Error> {
                if !kwargs.has("attribute") {
                    let sorted = minijinja::filters::sort(
                        state,
                        v.clone(),
                        Kwargs::from_iter(None::<(&str, Value)>),
                    )?;
                    comparable(&sorted, false, op)?;
                }
                f(state, v, kwargs)
            },
        );
    }
    env.set_unknown_method_callback(methods);
    // What the source rewriting in jinja.rs calls: `"%s" % x` and list literals.
    env.add_function("__py_mod", |fmt: Value, args: Value| {
        super::printf::py_mod(&fmt, &args)
    });
    env.add_function("__py_list", |items: Value| {
        super::pylist::PyList::make(&items)
    });
    // `list()` makes a new Python list: mutable too.
    env.add_filter("list", |state: &State, v: Value| -> Result<Value, Error> {
        super::pylist::PyList::make(&minijinja::filters::list(state, v)?)
    });
}

/// Jinja2's `make_attrgetter`: `a.b.0` looks up `a`, then `b`, then item 0.
fn attr_path(v: &Value, path: &str) -> Value {
    path.split('.').fold(v.clone(), |v, part| {
        let key = part
            .parse::<i64>()
            .map_or_else(|_| Value::from(part), Value::from);
        v.get_item(&key).unwrap_or_default()
    })
}

/// Whether `v` is a dict view (`dict.items()`).
pub(super) fn is_view(v: &Value) -> bool {
    v.downcast_object_ref::<View>().is_some()
}

type MinMax = fn(&State, Value, Kwargs) -> Result<Value, Error>;

/// Python's class of a value for `<`: numbers with numbers, text with text, lists with
/// lists, tuples with tuples; `None` and dicts with nothing.
fn order_class(v: &Value) -> Option<u8> {
    match v.kind() {
        ValueKind::Bool | ValueKind::Number => Some(0),
        ValueKind::String => Some(1),
        ValueKind::Seq if v.is_tuple() => Some(3),
        ValueKind::Seq | ValueKind::Iterable => Some(2),
        _ => None,
    }
}

/// Python's `a < b` raises: the names of the types that cannot be compared.
fn cannot_compare(a: &Value, b: &Value) -> Option<(&'static str, &'static str)> {
    let (ca, cb) = (order_class(a), order_class(b));
    if ca.is_none() || ca != cb {
        return Some((py_type(a), py_type(b)));
    }
    if ca == Some(2) || ca == Some(3) {
        // Lexicographic: the first items that differ are compared.
        let xs: Vec<Value> = a.try_iter().ok()?.collect();
        let ys: Vec<Value> = b.try_iter().ok()?.collect();
        let (x, y) = xs.iter().zip(&ys).find(|(x, y)| x != y)?;
        return cannot_compare(x, y);
    }
    None
}

fn py_type(v: &Value) -> &'static str {
    match v.kind() {
        ValueKind::Bool => "bool",
        ValueKind::Number if v.is_integer() => "int",
        ValueKind::Number => "float",
        ValueKind::String => "str",
        ValueKind::None => "NoneType",
        ValueKind::Undefined => "Undefined",
        ValueKind::Map => "dict",
        ValueKind::Seq if v.is_tuple() => "tuple",
        _ => "list",
    }
}

/// Python's `sorted()` of a sorted sequence raises where two neighbours cannot be compared
/// (a sort compares every pair it leaves side by side). Jinja2's `sort` compares one-item
/// lists (`make_multi_attrgetter`): equal neighbours are never compared with `<` then
/// (`equal_ok`); `dictsort`, `min` and `max` compare the values themselves (`op`: `<`, `>`).
pub(super) fn comparable(sorted: &Value, equal_ok: bool, op: &str) -> Result<(), Error> {
    let items: Vec<Value> = sorted.try_iter()?.collect();
    for pair in items.windows(2) {
        if equal_ok && pair[0] == pair[1] {
            continue;
        }
        if let Some((a, b)) = cannot_compare(&pair[1], &pair[0]) {
            return Err(Error::new(
                minijinja::ErrorKind::InvalidOperation,
                format!("TypeError: '{op}' not supported between instances of '{a}' and '{b}'"),
            ));
        }
    }
    Ok(())
}

/// Each pair of `seq` a tuple.
fn tuples(seq: Value) -> Value {
    match seq.try_iter() {
        Ok(items) => Value::from(
            items
                .map(|pair| match pair.try_iter() {
                    Ok(p) if pair.kind() == ValueKind::Seq && !pair.is_tuple() => {
                        Value::from(Tuple::from(p.collect::<Vec<_>>()))
                    }
                    _ => pair,
                })
                .collect::<Vec<_>>(),
        ),
        Err(_) => seq,
    }
}

/// `dict.keys()`, `.values()`, `.items()`: Python's views; every other method as pycompat has
/// it.
fn methods(state: &mut State, value: &Value, method: &str, args: &[Value]) -> Result<Value, Error> {
    if value.kind() == ValueKind::Map && args.is_empty() {
        let kind = match method {
            "keys" => Some("dict_keys"),
            "values" => Some("dict_values"),
            "items" => Some("dict_items"),
            _ => None,
        };
        if let (Some(kind), Ok(keys)) = (kind, value.try_iter()) {
            let items = keys
                .map(|k| {
                    let v = value.get_item(&k).unwrap_or_default();
                    match method {
                        "keys" => k,
                        "values" => v,
                        _ => Value::from(Tuple::from([k, v])),
                    }
                })
                .collect();
            return Ok(Value::from_object(View { kind, items }));
        }
    }
    minijinja_contrib::pycompat::unknown_method_callback(state, value, method, args)
}

/// A dict view: iterable (not indexable, as in Python), printed `dict_items([...])`.
#[derive(Debug)]
struct View {
    kind: &'static str,
    items: Vec<Value>,
}

impl Object for View {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Iterable
    }
    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(self.items.clone())
    }
    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.items.len())
    }
    /// As `~` writes it: `dict_items([...])`.
    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = String::new();
        py_repr(&mut out, &Value::from_dyn_object(self.clone()));
        f.write_str(&out)
    }
}

/// Python's type name of a template value, as an exception names it (`dict_items` for a view).
pub(super) fn py_type_name(value: &Value) -> &'static str {
    match value.downcast_object_ref::<View>() {
        Some(view) => view.kind,
        None => super::printf::type_name(value),
    }
}

/// Python's `repr()` of a template value.
pub(super) fn py_repr_string(value: &Value) -> String {
    let mut out = String::new();
    py_repr(&mut out, value);
    out
}

/// Python's `str()` of a template value, as Jinja2 prints it.
pub(super) fn py_str(value: &Value) -> String {
    match value.kind() {
        ValueKind::Undefined => String::new(),
        ValueKind::String => value.as_str().unwrap_or_default().to_string(),
        _ => {
            let mut out = String::new();
            py_repr(&mut out, value);
            out
        }
    }
}

fn items(out: &mut String, value: &Value, open: &str, close: &str) {
    out.push_str(open);
    let mut n = 0;
    if let Ok(items) = value.try_iter() {
        for (i, item) in items.enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            py_repr(out, &item);
            n += 1;
        }
    }
    if n == 1 && open == "(" {
        out.push(',');
    }
    out.push_str(close);
}

/// `groupby`'s groups: minijinja's own (private) type, a pair with a `grouper` attribute.
fn is_group(value: &Value) -> bool {
    !value.is_tuple()
        && value
            .as_object()
            .is_some_and(|o| o.enumerator_len() == Some(2))
        && value.get_attr("grouper").is_ok_and(|g| !g.is_undefined())
}

fn py_repr(out: &mut String, value: &Value) {
    if let Some(view) = value.downcast_object_ref::<View>() {
        out.push_str(view.kind);
        out.push('(');
        items(out, value, "[", "]");
        out.push(')');
        return;
    }
    match value.kind() {
        // Jinja2's `Undefined.__repr__` (an undefined value inside a list or a dict).
        ValueKind::Undefined => out.push_str("Undefined"),
        ValueKind::None => out.push_str("None"),
        ValueKind::Bool => out.push_str(if value.is_true() { "True" } else { "False" }),
        ValueKind::Number => match f64::try_from(value.clone()) {
            Ok(f) if !value.is_integer() => out.push_str(&float_repr(f)),
            _ => out.push_str(&value.to_string()),
        },
        ValueKind::String => str_repr(out, value.as_str().unwrap_or_default()),
        ValueKind::Bytes => {
            out.push('b');
            let bytes = value.as_bytes().unwrap_or_default();
            str_repr(out, &String::from_utf8_lossy(bytes));
        }
        ValueKind::Map => {
            out.push('{');
            if let Ok(keys) = value.try_iter() {
                for (i, k) in keys.enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    py_repr(out, &k);
                    out.push_str(": ");
                    py_repr(out, &value.get_item(&k).unwrap_or_default());
                }
            }
            out.push('}');
        }
        ValueKind::Seq if value.is_tuple() => items(out, value, "(", ")"),
        ValueKind::Seq if is_group(value) => {
            out.push('(');
            py_repr(out, &value.get_attr("grouper").unwrap_or_default());
            out.push_str(", ");
            py_repr(out, &value.get_attr("list").unwrap_or_default());
            out.push(')');
        }
        ValueKind::Seq | ValueKind::Iterable => items(out, value, "[", "]"),
        _ => out.push_str(&value.to_string()),
    }
}
