//! cloud-init merger specs → `Stack`: the string grammar (`dict(replace)+list(append)`, used by
//! `merge_how` strings, `Merge-Type` headers and `--how`) and the dict/list form, with exactly
//! cloud-init's normalisation, option precedence and failure classes.

use crate::strategy::{
    DictMethod, DictOpts, ListMethod, ListOpts, Merger, MergerSpec, Origin, Stack, StrMethod,
    StrOpts,
};
use crate::value::{Kind, Node, Span};

/// How cloud-init fails on a bad spec: `Rejected` (ValueError: the part is listed as ignored)
/// or `Skipped` (any other exception: the part is only logged). Both drop the part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    Rejected,
    Skipped,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HowError {
    pub failure: Failure,
    pub message: String,
    pub span: Span,
}

/// A merger's options: a list (membership tests) or, in the dict form, a plain string
/// (Python's `in` on a string is a substring test).
#[derive(Clone, Debug, PartialEq)]
enum Opts {
    List(Vec<String>),
    Text(String),
}

impl Opts {
    fn has(&self, opt: &str) -> bool {
        match self {
            Opts::List(l) => l.iter().any(|o| o == opt),
            Opts::Text(t) => t.contains(opt),
        }
    }
}

/// Parses the string grammar. Every merger's origin is `origin`.
pub fn parse_string(text: &str, origin: &Origin, span: Span) -> Result<Stack, HowError> {
    let mut mergers = Vec::new();
    for piece in text.split('+') {
        let piece = piece.to_lowercase().trim().replace('-', "_");
        if piece.is_empty() {
            continue;
        }
        let Some((name, opts)) = split_call(&piece) else {
            return Err(HowError {
                failure: Failure::Rejected,
                message: format!("Matcher identifier '{piece}' is not in the right format"),
                span,
            });
        };
        let opts: Vec<String> = opts
            .split(',')
            .map(|o| o.trim().to_lowercase())
            .filter(|o| !o.is_empty())
            .collect();
        let shown = format!("{name}({})", opts.join(","));
        mergers.push(build(name, &Opts::List(opts), shown, origin, span)?);
    }
    Ok(Stack {
        mergers,
        replace_unhandled: false,
        by_new_type: false,
    })
}

/// `NAME(OPTS)` with NAME = `[a-z_][a-z0-9_]*` directly followed by `(`, and `)` ending it.
fn split_call(piece: &str) -> Option<(&str, &str)> {
    let open = piece.find('(')?;
    let name = &piece[..open];
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let inner = piece[open + 1..].strip_suffix(')')?;
    Some((name, inner))
}

/// Parses the dict/list form (any non-string `merge_how` value).
pub fn parse_value(value: &Node, origin: &Origin) -> Result<Stack, HowError> {
    let skipped = |message: String, span: Span| HowError {
        failure: Failure::Skipped,
        message,
        span,
    };
    let items: Vec<Node> = match &value.kind {
        Kind::List(items) => items.to_vec(),
        // Iterating a mapping yields its keys; each key string is then indexed character-wise.
        Kind::Map(m) => m.keys().map(|k| k.0.clone()).collect(),
        Kind::Null => Vec::new(),
        _ => {
            return Err(skipped(
                format!(
                    "merge_how must be a string or a list, not {}",
                    value.kind_phrase()
                ),
                value.span,
            ))
        }
    };
    let mut mergers = Vec::new();
    for item in &items {
        let (name, opts) = match &item.kind {
            Kind::Map(_) => {
                let name = item.get("name").ok_or_else(|| {
                    skipped("merger entry has no 'name' (KeyError)".into(), item.span)
                })?;
                let settings = item.get("settings").ok_or_else(|| {
                    skipped(
                        "merger entry has no 'settings' (KeyError)".into(),
                        item.span,
                    )
                })?;
                let name = scalar_text(name)
                    .ok_or_else(|| skipped("merger 'name' must be a string".into(), name.span))?;
                let opts = match &settings.kind {
                    Kind::Str(s) => Opts::Text(s.to_string()),
                    Kind::List(l) => Opts::List(l.iter().filter_map(scalar_text).collect()),
                    Kind::Null => Opts::List(Vec::new()),
                    _ => Opts::List(Vec::new()),
                };
                (name.trim().replace('-', "_"), opts)
            }
            Kind::List(seq) => {
                let Some(first) = seq.first() else {
                    return Err(skipped(
                        "merger entry is an empty list (IndexError)".into(),
                        item.span,
                    ));
                };
                let name = scalar_text(first).unwrap_or_default();
                (
                    name,
                    Opts::List(seq[1..].iter().filter_map(scalar_text).collect()),
                )
            }
            // A string is a sequence of characters: its first character is the name.
            Kind::Str(s) => {
                let mut chars = s.chars();
                let name = chars.next().map(String::from).unwrap_or_default();
                (name, Opts::List(chars.map(String::from).collect()))
            }
            _ => {
                return Err(skipped(
                    format!(
                        "merger entry must be a mapping or a list, not {}",
                        item.kind_phrase()
                    ),
                    item.span,
                ))
            }
        };
        if name.is_empty() {
            continue;
        }
        let shown = match &opts {
            Opts::List(l) => format!("{name}({})", l.join(",")),
            Opts::Text(t) => format!("{name}({t})"),
        };
        let span = item.span;
        mergers.push(build(&name, &opts, shown, origin, span).map_err(|mut e| {
            e.failure = Failure::Skipped;
            e
        })?);
    }
    Ok(Stack {
        mergers,
        replace_unhandled: false,
        by_new_type: false,
    })
}

fn scalar_text(n: &Node) -> Option<String> {
    match &n.kind {
        Kind::Str(s) => Some(s.to_string()),
        Kind::Int(i) => Some(i.to_string()),
        Kind::Bool(b) => Some(if *b { "True" } else { "False" }.into()),
        _ => None,
    }
}

fn build(
    name: &str,
    opts: &Opts,
    text: String,
    origin: &Origin,
    span: Span,
) -> Result<Merger, HowError> {
    let module = if name.starts_with("m_") {
        name.to_string()
    } else {
        format!("m_{name}")
    };
    let spec = match module.as_str() {
        "m_dict" => MergerSpec::Dict(DictOpts {
            method: if opts.has("replace") { DictMethod::Replace } else { DictMethod::NoReplace },
            allow_delete: opts.has("allow_delete"),
            recurse_list: opts.has("recurse_array") || opts.has("recurse_list"),
            recurse_str: opts.has("recurse_str"),
            ..DictOpts::new(DictMethod::NoReplace)
        }),
        "m_list" => MergerSpec::List(ListOpts {
            method: if opts.has("append") {
                ListMethod::Append
            } else if opts.has("prepend") {
                ListMethod::Prepend
            } else if opts.has("replace") {
                ListMethod::Replace
            } else if opts.has("no_replace") {
                ListMethod::NoReplace
            } else {
                ListMethod::Replace
            },
            recurse_list: opts.has("recurse_array") || opts.has("recurse_list"),
            recurse_str: opts.has("recurse_str"),
            recurse_dict: opts.has("recurse_dict"),
        }),
        "m_str" => MergerSpec::Str(StrOpts {
            method: if opts.has("append") { StrMethod::Append } else { StrMethod::Replace },
        }),
        _ => {
            return Err(HowError {
                failure: Failure::Skipped,
                message: format!("unknown merger '{name}' (cloud-init has only dict, list and str; names are case-sensitive)"),
                span,
            })
        }
    };
    Ok(Merger {
        spec,
        text: text.into(),
        origin: origin.clone(),
    })
}

/// The options each merger reads; any other is ignored by cloud-init.
const KNOWN: [(&str, &[&str]); 3] = [
    (
        "dict",
        &[
            "replace",
            "no_replace",
            "allow_delete",
            "recurse_array",
            "recurse_list",
            "recurse_str",
            "recurse_dict",
        ],
    ),
    (
        "list",
        &[
            "append",
            "prepend",
            "replace",
            "no_replace",
            "recurse_array",
            "recurse_list",
            "recurse_str",
            "recurse_dict",
        ],
    ),
    ("str", &["append"]),
];

/// What cloud-init does silently with a merger stack that the user probably did not mean:
/// options it ignores (with the closest known option) and a stack without a dict merger
/// (cloud-init then keeps the earlier mapping whole: the layer changes nothing). Each with
/// where the stack was written.
pub fn lint(stack: &Stack) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let at = |m: &Merger| match m.origin {
        Origin::At(span) => span,
        Origin::Default(_) => Span::NONE,
    };
    for m in &stack.mergers {
        let Some((name, rest)) = m.text.split_once('(') else {
            continue;
        };
        let Some((_, known)) = KNOWN.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        for opt in rest
            .trim_end_matches(')')
            .split(',')
            .filter(|o| !o.is_empty())
        {
            if known.contains(&opt) {
                continue;
            }
            let near = known
                .iter()
                .map(|k| (crate::error::edit_distance(opt, k), *k))
                .filter(|(d, k)| *d <= k.len() / 3 + 1)
                .min_by_key(|(d, _)| *d);
            let hint = match near {
                Some((_, k)) => format!("did you mean '{k}'?"),
                None => format!("{name} knows {}", known.join(", ")),
            };
            out.push((
                format!("'{opt}' is not an option of {name}(...): cloud-init ignores it in '{}'; {hint}", m.text),
                at(m),
            ));
        }
    }
    // cloud-init's dict merger with `replace` takes a later value whole at every key both
    // sides have: it never recurses, so its recurse options and the list and str mergers
    // (reached only through a recursion: the document is a mapping) change nothing.
    if let Some(m) = stack.for_type("map") {
        if let MergerSpec::Dict(o) = &m.spec {
            if o.method == DictMethod::Replace {
                let mut idle: Vec<String> = Vec::new();
                if o.recurse_list {
                    idle.push("recurse_list".into());
                }
                if o.recurse_str {
                    idle.push("recurse_str".into());
                }
                idle.extend(
                    stack
                        .mergers
                        .iter()
                        // A merger with options the user chose (`list()` and `str()`, in
                        // cloud-init's own default, choose nothing).
                        .filter(|x| {
                            !matches!(x.spec, MergerSpec::Dict(_)) && !x.text.ends_with("()")
                        })
                        .map(|x| x.text.to_string()),
                );
                if !idle.is_empty() {
                    out.push((
                        format!("'{}' takes a later value whole at every key both layers have (cloud-init's dict merger does not recurse with 'replace'): {} have no effect here (to merge into nested mappings and lists write e.g. 'dict(no_replace,recurse_list)+list(append)', which keeps earlier scalars)", m.text, idle.join(", ")),
                        at(m),
                    ));
                }
            }
        }
    }
    if !stack.mergers.is_empty() && stack.for_type("map").is_none() {
        let text = stack.to_string();
        out.push((
            format!("'{text}' has no dict(...) merger: cloud-init keeps the earlier mapping whole, so this layer changes nothing; add one, e.g. 'dict(recurse_list)+{text}' (dict(replace) lets later values win)"),
            stack.mergers.first().map_or(Span::NONE, at),
        ));
    }
    out
}

/// cloud-init's per-part default when a part names no mergers.
pub fn part_default() -> Stack {
    let origin = Origin::Default("cloud-init default for parts without merge_how".into());
    parse_string("dict(replace)+list()+str()", &origin, Span::NONE).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        parse_string(s, &Origin::Default("".into()), Span::NONE)
            .map(|st| st.mergers.into_iter().map(|m| m.text.to_string()).collect())
            .unwrap_or_else(|e| vec![e.message])
    }

    #[test]
    fn grammar_normalises_like_cloud_init() {
        assert_eq!(
            texts(" list( append , PREPEND ) + Dict( Recurse-List )+str()"),
            ["list(append,prepend)", "dict(recurse_list)", "str()"]
        );
        assert_eq!(texts("a()++b()").len(), 1, "unknown merger fails");
        assert_eq!(texts("+ +"), Vec::<String>::new());
        assert_eq!(texts("list(append))"), ["list(append))"]);
        for bad in ["list", "list (append)", "1list()", "list()x"] {
            assert!(texts(bad)[0].contains("not in the right format"), "{bad}");
        }
    }
}
