//! Python's `str % args` (printf-style formatting, CPython's `PyUnicode_Format`) for a
//! template's `"%s-%s" % (a, b)`, which minijinja has no operator for: the template source
//! is rewritten to call `__py_mod` (`jinja.rs`). A tuple gives the arguments, a mapping the
//! `%(name)s` values, anything else is the one argument; conversions `s r a d i u o x X e E f
//! F g G c %` with flags `#0- +`, width and precision (`*` too). Errors carry Python's
//! words (cloud-init drops the part on a `TypeError` / `ValueError`).

use super::py::{py_repr_string, py_str};
use crate::value::py::float_repr;
use minijinja::value::{Value, ValueKind};
use minijinja::{Error, ErrorKind};

fn type_error(msg: impl Into<String>) -> Error {
    Error::new(
        ErrorKind::InvalidOperation,
        format!("TypeError: {}", msg.into()),
    )
}

fn value_error(msg: impl Into<String>) -> Error {
    Error::new(
        ErrorKind::InvalidOperation,
        format!("ValueError: {}", msg.into()),
    )
}

/// Python's type name of a value (for messages; Jinja2's undefined counts as `None`).
pub(super) fn type_name(v: &Value) -> &'static str {
    match v.kind() {
        ValueKind::String => "str",
        ValueKind::Bool => "bool",
        ValueKind::Number if v.is_integer() => "int",
        ValueKind::Number => "float",
        ValueKind::None | ValueKind::Undefined => "NoneType",
        ValueKind::Map => "dict",
        ValueKind::Seq if v.is_tuple() => "tuple",
        ValueKind::Seq => "list",
        _ => "object",
    }
}

/// The arguments as CPython walks them.
struct Args {
    items: Vec<Value>,
    /// `None`: one argument that is not a tuple (CPython's `arglen = -1`).
    tuple: bool,
    next: usize,
    single_used: bool,
    whole: Value,
}

impl Args {
    fn next(&mut self) -> Result<Value, Error> {
        if self.tuple {
            let v = self.items.get(self.next).cloned();
            self.next += 1;
            v.ok_or_else(|| type_error("not enough arguments for format string"))
        } else if !self.single_used {
            self.single_used = true;
            Ok(self.whole.clone())
        } else {
            Err(type_error("not enough arguments for format string"))
        }
    }
}

/// `fmt % args`.
pub(super) fn py_mod(fmt: &Value, args: &Value) -> Result<Value, Error> {
    let Some(fmt) = fmt.as_str() else {
        return Err(type_error(format!(
            "unsupported operand type(s) for %: '{}' and '{}'",
            type_name(fmt),
            type_name(args)
        )));
    };
    let tuple = args.is_tuple();
    // PyMapping_Check: dicts and lists (not tuples or strings) can serve `%(name)s`.
    let mapping = !tuple && matches!(args.kind(), ValueKind::Map | ValueKind::Seq);
    let mut a = Args {
        items: if tuple {
            args.try_iter()?.collect()
        } else {
            Vec::new()
        },
        tuple,
        next: 0,
        single_used: false,
        whole: args.clone(),
    };
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        i += 1;
        let mut arg: Option<Value> = None;
        if chars.get(i) == Some(&'(') {
            let (key, end) = mapping_key(&chars, i)?;
            i = end;
            if !mapping {
                return Err(type_error("format requires a mapping"));
            }
            if args.kind() != ValueKind::Map {
                return Err(type_error(format!(
                    "{} indices must be integers or slices, not str",
                    type_name(args)
                )));
            }
            let found = args
                .get_item(&Value::from(key.as_str()))
                .ok()
                .filter(|v| !v.is_undefined());
            arg = Some(found.ok_or_else(|| {
                Error::new(ErrorKind::InvalidOperation, format!("KeyError: '{key}'"))
            })?);
        }
        let mut spec = Spec::default();
        while let Some(&c) = chars.get(i) {
            match c {
                '-' => spec.left = true,
                '+' => spec.sign = true,
                ' ' => spec.space = true,
                '#' => spec.alt = true,
                '0' => spec.zero = true,
                _ => break,
            }
            i += 1;
        }
        spec.width = number(&chars, &mut i, &mut a)?;
        if let Some(w) = spec.width.filter(|w| *w < 0) {
            spec.left = true;
            spec.width = Some(-w);
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            spec.precision = Some(number(&chars, &mut i, &mut a)?.unwrap_or(0).max(0));
        }
        while matches!(chars.get(i), Some('h' | 'l' | 'L')) {
            i += 1;
        }
        let Some(&conv) = chars.get(i) else {
            return Err(value_error("incomplete format"));
        };
        i += 1;
        if conv == '%' {
            out.push('%');
            continue;
        }
        let v = match arg {
            Some(v) => v,
            None => a.next()?,
        };
        let (body, numeric) = convert(conv, &v, &spec, i - 1)?;
        pad(&mut out, &body, &spec, numeric);
    }
    let unused = if tuple {
        a.next < a.items.len()
    } else {
        !a.single_used
    };
    if unused && !mapping {
        return Err(type_error(
            "not all arguments converted during string formatting",
        ));
    }
    Ok(Value::from(out))
}

#[derive(Default)]
struct Spec {
    left: bool,
    sign: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: Option<i64>,
    precision: Option<i64>,
}

fn mapping_key(chars: &[char], at: usize) -> Result<(String, usize), Error> {
    let mut depth = 0;
    for (j, &c) in chars.iter().enumerate().skip(at) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok((chars[at + 1..j].iter().collect(), j + 1));
                }
            }
            _ => {}
        }
    }
    Err(value_error("incomplete format key"))
}

/// A width or precision: digits, or `*` (the next argument, an int).
fn number(chars: &[char], i: &mut usize, a: &mut Args) -> Result<Option<i64>, Error> {
    if chars.get(*i) == Some(&'*') {
        *i += 1;
        let v = a.next()?;
        return match v.kind() {
            ValueKind::Number | ValueKind::Bool
                if v.is_integer() || v.kind() == ValueKind::Bool =>
            {
                Ok(Some(i64::try_from(v).unwrap_or(0)))
            }
            _ => Err(type_error("* wants int")),
        };
    }
    let start = *i;
    while chars.get(*i).is_some_and(char::is_ascii_digit) {
        *i += 1;
    }
    if *i == start {
        return Ok(None);
    }
    let digits: String = chars[start..*i].iter().collect();
    digits
        .parse()
        .map(Some)
        .map_err(|_| value_error("width too big"))
}

/// An integer for `%d` (`int()` of a float) or `%x` (an int only).
fn int_of(v: &Value, conv: char, truncate: bool) -> Result<i128, Error> {
    match v.kind() {
        ValueKind::Bool => Ok(i128::from(v.is_true())),
        ValueKind::Number if v.is_integer() => Ok(i128::try_from(v.clone()).unwrap_or(0)),
        ValueKind::Number if truncate => {
            let f = f64::try_from(v.clone()).unwrap_or(0.0);
            if !f.is_finite() {
                return Err(Error::new(
                    ErrorKind::InvalidOperation,
                    format!(
                        "OverflowError: cannot convert float {} to integer",
                        float_repr(f)
                    ),
                ));
            }
            Ok(f.trunc() as i128)
        }
        ValueKind::Number => Err(type_error(format!(
            "%{conv} format: an integer is required, not float"
        ))),
        _ if truncate => Err(type_error(format!(
            "%{conv} format: a real number is required, not {}",
            type_name(v)
        ))),
        _ => Err(type_error(format!(
            "%{conv} format: an integer is required, not {}",
            type_name(v)
        ))),
    }
}

fn float_of(v: &Value) -> Result<f64, Error> {
    match v.kind() {
        ValueKind::Bool => Ok(if v.is_true() { 1.0 } else { 0.0 }),
        ValueKind::Number => Ok(f64::try_from(v.clone()).unwrap_or(0.0)),
        _ => Err(type_error(format!(
            "must be real number, not {}",
            type_name(v)
        ))),
    }
}

/// The converted text (sign included) and whether it is a number (zero padding applies).
fn convert(conv: char, v: &Value, spec: &Spec, at: usize) -> Result<(String, bool), Error> {
    let sign = |neg: bool| {
        if neg {
            "-"
        } else if spec.sign {
            "+"
        } else if spec.space {
            " "
        } else {
            ""
        }
    };
    Ok(match conv {
        's' | 'r' | 'a' => {
            let text = if conv == 's' {
                py_str(v)
            } else {
                py_repr_string(v)
            };
            let text = match spec.precision {
                Some(p) => text.chars().take(usize::try_from(p).unwrap_or(0)).collect(),
                None => text,
            };
            (text, false)
        }
        'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
            let n = int_of(v, conv, matches!(conv, 'd' | 'i' | 'u'))?;
            let digits = match conv {
                'o' => format!("{:o}", n.unsigned_abs()),
                'x' => format!("{:x}", n.unsigned_abs()),
                'X' => format!("{:X}", n.unsigned_abs()),
                _ => n.unsigned_abs().to_string(),
            };
            let min = usize::try_from(spec.precision.unwrap_or(0)).unwrap_or(0);
            let digits = format!("{}{digits}", "0".repeat(min.saturating_sub(digits.len())));
            let prefix = match conv {
                'o' if spec.alt => "0o",
                'x' if spec.alt => "0x",
                'X' if spec.alt => "0X",
                _ => "",
            };
            (format!("{}{prefix}{digits}", sign(n < 0)), true)
        }
        'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
            let f = float_of(v)?;
            let p = usize::try_from(spec.precision.unwrap_or(6)).unwrap_or(6);
            let body = float_format(f.abs(), conv.to_ascii_lowercase(), p, spec.alt);
            let body = if conv.is_ascii_uppercase() {
                body.to_uppercase()
            } else {
                body
            };
            (
                format!("{}{body}", sign(f.is_sign_negative() && !f.is_nan())),
                f.is_finite(),
            )
        }
        'c' => match v.kind() {
            ValueKind::String if v.as_str().is_some_and(|s| s.chars().count() == 1) => {
                (py_str(v), false)
            }
            ValueKind::Number | ValueKind::Bool
                if v.is_integer() || v.kind() == ValueKind::Bool =>
            {
                let n = int_of(v, 'c', false)?;
                let c = u32::try_from(n)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        Error::new(
                            ErrorKind::InvalidOperation,
                            "OverflowError: %c arg not in range(0x110000)",
                        )
                    })?;
                (c.to_string(), false)
            }
            _ => {
                return Err(type_error(format!(
                    "%c requires int or char, not {}",
                    type_name(v)
                )))
            }
        },
        c => {
            return Err(value_error(format!(
                "unsupported format character '{c}' (0x{:x}) at index {at}",
                u32::from(c)
            )))
        }
    })
}

/// `%e`, `%f`, `%g` of a non-negative float, as C's printf (and CPython) write them.
fn float_format(f: f64, conv: char, p: usize, alt: bool) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return "inf".into();
    }
    let exp_form = |p: usize| {
        let s = format!("{f:.p$e}");
        let (mantissa, e) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        let mantissa = if alt && p == 0 {
            format!("{mantissa}.")
        } else {
            mantissa.to_string()
        };
        format!("{mantissa}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
    };
    match conv {
        'f' => {
            let s = format!("{f:.p$}");
            if alt && p == 0 {
                s + "."
            } else {
                s
            }
        }
        'e' => exp_form(p),
        _ => {
            let p = p.max(1);
            let e_text = format!("{f:.prec$e}", prec = p - 1);
            let x: i64 = e_text
                .split_once('e')
                .and_then(|(_, e)| e.parse().ok())
                .unwrap_or(0);
            let p_i = i64::try_from(p).unwrap_or(6);
            let s = if (-4..p_i).contains(&x) {
                let digits = usize::try_from(p_i - 1 - x).unwrap_or(0);
                format!("{f:.digits$}")
            } else {
                exp_form(p - 1)
            };
            if alt {
                return s;
            }
            // Trailing zeros (and a bare point) removed from the mantissa.
            let (mantissa, exp) = match s.find('e') {
                Some(at) => (&s[..at], &s[at..]),
                None => (s.as_str(), ""),
            };
            let mantissa = if mantissa.contains('.') {
                mantissa.trim_end_matches('0').trim_end_matches('.')
            } else {
                mantissa
            };
            format!("{mantissa}{exp}")
        }
    }
}

fn pad(out: &mut String, body: &str, spec: &Spec, numeric: bool) {
    let width = usize::try_from(spec.width.unwrap_or(0)).unwrap_or(0);
    let len = body.chars().count();
    if len >= width {
        out.push_str(body);
        return;
    }
    let fill = width - len;
    if spec.left {
        out.push_str(body);
        out.extend(std::iter::repeat_n(' ', fill));
    } else if spec.zero && numeric {
        // Zeros go after the sign and the 0x prefix.
        let sign_len = body
            .chars()
            .take_while(|c| matches!(c, '-' | '+' | ' '))
            .count();
        let (sign, rest) = body.split_at(sign_len);
        let prefix_len =
            if rest.starts_with("0x") || rest.starts_with("0X") || rest.starts_with("0o") {
                2
            } else {
                0
            };
        let (prefix, digits) = rest.split_at(prefix_len);
        out.push_str(sign);
        out.push_str(prefix);
        out.extend(std::iter::repeat_n('0', fill));
        out.push_str(digits);
    } else {
        out.extend(std::iter::repeat_n(' ', fill));
        out.push_str(body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::value::Tuple;

    fn f(fmt: &str, args: Value) -> String {
        match py_mod(&Value::from(fmt), &args) {
            Ok(v) => v.as_str().unwrap_or_default().to_string(),
            Err(e) => format!("error: {}", e.detail().unwrap_or_default()),
        }
    }

    fn t(items: Vec<Value>) -> Value {
        Value::from(Tuple::from(items))
    }

    #[test]
    fn as_python_formats() {
        assert_eq!(f("%s-%s", t(vec![Value::from("a"), Value::from(1)])), "a-1");
        assert_eq!(
            f(
                "%5.2f|%-4d|%04d|%+d",
                t(vec![
                    Value::from(4.125),
                    Value::from(7),
                    Value::from(-7),
                    Value::from(3)
                ])
            ),
            " 4.12|7   |-007|+3"
        );
        assert_eq!(
            f(
                "%x %#x %o %#o %X",
                t(vec![
                    Value::from(255),
                    Value::from(255),
                    Value::from(8),
                    Value::from(8),
                    Value::from(255)
                ])
            ),
            "ff 0xff 10 0o10 FF"
        );
        assert_eq!(
            f(
                "%e %g %g %g",
                t(vec![
                    Value::from(12345.678),
                    Value::from(0.00001),
                    Value::from(1e22),
                    Value::from(100.0)
                ])
            ),
            "1.234568e+04 1e-05 1e+22 100"
        );
        assert_eq!(
            f(
                "%d %s %r",
                t(vec![Value::from(2.9), Value::from(true), Value::from("q")])
            ),
            "2 True 'q'"
        );
        assert_eq!(f("%s", Value::from(vec![1, 2])), "[1, 2]");
        assert_eq!(
            f("%.2s|%5s|%%", t(vec![Value::from("abc"), Value::from("x")])),
            "ab|    x|%"
        );
        assert_eq!(f("%*d", t(vec![Value::from(4), Value::from(7)])), "   7");
        assert_eq!(f("%c%c", t(vec![Value::from(65), Value::from("b")])), "Ab");
        assert_eq!(
            f(
                "%.0f %.1f %g",
                t(vec![Value::from(0.5), Value::from(0.25), Value::from(2.5)])
            ),
            "0 0.2 2.5"
        );
    }

    #[test]
    fn python_errors() {
        assert!(
            f("%s %s", t(vec![Value::from(1)])).contains("not enough arguments for format string")
        );
        assert!(f("%s", t(vec![Value::from(1), Value::from(2)]))
            .contains("not all arguments converted"));
        assert!(f("x", Value::from(5)).contains("not all arguments converted"));
        assert_eq!(f("x", Value::from(vec![5])), "x");
        assert!(f("%d", Value::from("a")).contains("%d format: a real number is required, not str"));
        assert!(f("%x", Value::from(1.5)).contains("%x format: an integer is required, not float"));
        assert!(
            f("%z", Value::from(1)).contains("unsupported format character 'z' (0x7a) at index 1")
        );
        assert!(f("%", Value::from(1)).contains("incomplete format"));
    }
}
