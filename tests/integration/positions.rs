//! The `--explain` promise, checked on every render the behaviour tests make: every leaf of
//! the result points (file, byte range) at text that, parsed on its own, is that value.
//! `util::strata` calls `check` after each successful run, so new fixtures are covered
//! without writing anything case by case.

use strata::load::{json, yaml, LoadOptions};
use strata::merge::Outcome;
use strata::value::{Kind, Node, SourceMap};

/// Problems found in one render (made with `--explain`): leaves whose position does not hold
/// their value.
pub(crate) fn check_rendered(
    rendered: &strata::frontend::Rendered,
    sources: &SourceMap,
) -> Vec<String> {
    let Some(trace) = rendered.trace.as_ref() else {
        return vec!["--explain recorded no trace".into()];
    };
    let mut leaves = Vec::new();
    walk(&rendered.doc, &mut leaves);
    let mut problems = Vec::new();
    for leaf in leaves {
        if leaf.span.is_none() {
            problems.push(format!("{:?} has no position", leaf.kind));
            continue;
        }
        let Some(text) = sources.slice(leaf.span) else {
            problems.push(format!("{:?}: span outside its source", leaf.kind));
            continue;
        };
        let concatenated = trace
            .all_for(leaf.span)
            .any(|s| s.outcome == Outcome::Concatenated);
        // A new string made by a substitution (a pattern replaced inside the string written
        // here, or a part of the source string written here): the text is a string.
        let substituted = trace
            .all_for(leaf.span)
            .any(|s| s.outcome == Outcome::Substituted);
        let Some(parsed) = parse(sources, leaf, text) else {
            problems.push(format!(
                "{}: '{text}' does not parse",
                where_(sources, leaf)
            ));
            continue;
        };
        let ok = if substituted {
            matches!((&parsed.kind, &leaf.kind), (Kind::Str(_), Kind::Str(_)))
        } else if concatenated {
            // The value starts with the first contributor's text; the trace lists the rest.
            matches!((&parsed.kind, &leaf.kind), (Kind::Str(a), Kind::Str(b)) if b.starts_with(a.as_str()))
        } else {
            parsed.py_eq(leaf)
        };
        if !ok {
            problems.push(format!(
                "{}: text '{text}' is {:?}, the value is {:?}",
                where_(sources, leaf),
                parsed.kind,
                leaf.kind
            ));
        }
    }
    problems
}

fn where_(sources: &SourceMap, n: &Node) -> String {
    sources
        .locate(n.span)
        .map(|l| l.to_string())
        .unwrap_or_default()
}

fn parse(sources: &SourceMap, leaf: &Node, text: &str) -> Option<Node> {
    let opts = LoadOptions::default();
    let name = sources.id_of(leaf.span).map_or("", |id| sources.name(id));
    if name.ends_with(".json") {
        return json::load(text, 0, &opts).ok();
    }
    let mut warnings = Vec::new();
    match yaml::load_single(text, 0, &opts, &mut warnings) {
        Ok(Some(n)) => Some(n),
        Ok(None) => Some(Node::null(leaf.span)),
        Err(_) => None,
    }
}

fn walk<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
    match &n.kind {
        Kind::List(l) if !l.is_empty() => l.iter().for_each(|c| walk(c, out)),
        Kind::Map(m) if !m.is_empty() => m.values().for_each(|c| walk(c, out)),
        Kind::List(_) | Kind::Map(_) => {}
        _ => out.push(n),
    }
}

#[test]
fn the_check_catches_a_wrong_position() {
    let file = crate::util::fixtures()
        .join("cloud-init/runcmd/01-base.yaml")
        .display()
        .to_string();
    let (mut rendered, sources) =
        strata::cli::explain_in_process(&["cloud-init".into(), file]).expect("renders");
    assert!(check_rendered(&rendered, &sources).is_empty());
    let mut leaves = 0;
    if let Some(map) = rendered.doc.as_map_mut() {
        leaves = map.len();
        // Point 'timezone' at the text of 'packages'.
        let other = map.get_index(1).map(|(_, v)| v.span).expect("two keys");
        if let Some((_, v)) = map.get_index_mut(0) {
            v.span = other;
        }
    }
    assert!(leaves >= 2);
    assert!(
        !check_rendered(&rendered, &sources).is_empty(),
        "a wrong span must be reported"
    );
}
