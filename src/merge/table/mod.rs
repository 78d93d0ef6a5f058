//! The engine's behaviour as a table (issue 38, item 4): one line per case, no front-end.
//! `merges!(entry, "old", "new" => "result", [steps], notices [..])` loads both sides with
//! strata's own YAML loader, merges them through `entry` (an engine entry point and its rules) with a trace, and compares the result
//! (typed, key order included), the trace's steps (`"/path outcome"`, in order; checked only
//! when given) and the notices (always: none unless listed). `merges!(.. => fails "text")`
//! expects the merge to fail with a message containing `text` and leave the old value as it
//! was. `folds!(entry, [layers..] => "result")` folds several layers in the system's order
//! (cloud-init and the stack family: earliest first; Datum: most specific first, the result
//! so far ranking first; Hiera's `deep`: highest first, the result so far as the gem's
//! source). The policies are built here from the engine's specs (`strategy`), never through a
//! front-end; the families' tables are `stack`, `ranked` and `gem`.

use super::rank_ctx::RankCtx;
use super::{Engine, Notice, NoticeKind, Trace};
use crate::load::{yaml, LoadOptions};
use crate::strategy::ranked::RuleId;
use crate::strategy::selector::PathRules;
use crate::strategy::{Merger, MergerSpec, Origin, RuleSet};
use crate::value::{Kind, Node, Path};

/// How a case runs: which engine entry point, with which rules.
pub(super) enum Entry {
    /// `Engine::merge_layer` under a rule set (the stack family).
    Rules(RuleSet),
    /// `Engine::merge_at` this JSON Pointer (Deckhand's actions): steps recorded under it.
    At(RuleSet, &'static str),
    /// `merge_layer` with `recording_containers` (Heat's trace: a step per container).
    Recording(RuleSet),
    /// `Engine::merge_with` at the root with this spec on top (an empty old text: no old value).
    With(RuleSet, Merger),
    /// The ranked merge under path rules, the old value ranking first; `strip`: the result
    /// goes through `knockout::strip_markers` as a lookup's result does.
    Ranked { rules: PathRules, strip: bool },
    /// The deep_merge gem; folds put the result so far on the NEW side (Hiera's order).
    Gem(RuleSet),
}

/// A merger with a test's origin.
pub(super) fn merger(spec: MergerSpec, text: &str) -> Merger {
    Merger {
        spec,
        text: text.into(),
        origin: Origin::Default("table".into()),
    }
}

/// The `i`-th layer's text as a node; each layer gets its own offsets, so spans never collide.
pub(super) fn load(text: &str, i: usize) -> Option<Node> {
    let mut warnings = Vec::new();
    let source = u32::try_from(i * 100_000).unwrap_or(0);
    match yaml::load_single(text, source, &LoadOptions::default(), &mut warnings) {
        Ok(n) => n,
        Err(e) => panic!("table YAML does not load: {text:?}: {}", e.message),
    }
}

/// A node in one line, typed: strings quoted, so `'1'` and `1` differ in messages too.
pub(super) fn flow(n: &Node) -> String {
    match &n.kind {
        Kind::Null => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => format!("{f:?}"),
        Kind::Str(s) => format!("'{s}'"),
        Kind::Timestamp(s) => format!("!ts {s}"),
        Kind::BigInt(s) => s.to_string(),
        Kind::Bytes(b) => format!("!bytes {}", b.len()),
        Kind::List(items) => {
            let inner: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", inner.join(", "))
        }
        Kind::Tuple(items) => {
            let inner: Vec<String> = items.iter().map(flow).collect();
            format!("({})", inner.join(", "))
        }
        Kind::Map(m) | Kind::Set(m) => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", flow(&k.0), flow(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
    }
}

fn path_text(p: &Path) -> String {
    let t = p.to_string();
    if t.is_empty() {
        "/".into()
    } else {
        t
    }
}

/// A notice as the table writes it: `"/path what"`.
fn notice_text(n: &Notice) -> String {
    let what = match &n.what {
        NoticeKind::JoinedWithoutSeparator { .. } => "joined".to_string(),
        NoticeKind::KindChanged { old, new, .. } => format!("kind-changed {old} -> {new}"),
        NoticeKind::ShapeMismatch { first, other, .. } => {
            format!("shape-mismatch {first:?} {other:?}")
        }
        NoticeKind::ItemWithoutKey { key, .. } => format!("item-without-key {key}"),
        NoticeKind::ItemsComparedWhole { .. } => "compared-whole".to_string(),
        NoticeKind::ItemKeysFromFirst { keys, .. } => format!("keys-from-first {}", keys.join(",")),
    };
    format!("{} {what}", path_text(&n.path))
}

/// What a case produced.
struct Ran {
    result: Result<Node, (String, Node)>,
    steps: Vec<String>,
    notices: Vec<String>,
}

impl Entry {
    /// Folds the layers (at least one) in the system's order, with a trace.
    fn run(&self, layers: Vec<Option<Node>>) -> Ran {
        let mut trace = Trace::default();
        let mut notices: Vec<Notice> = Vec::new();
        let mut layers = layers.into_iter();
        let mut acc = layers.next().flatten();
        let mut failed = None;
        for (i, new) in layers.enumerate() {
            let Some(new) = new else { continue };
            trace.layer = u32::try_from(i + 1).unwrap_or(0);
            let step = match self {
                Entry::Rules(rules) | Entry::Gem(rules) => {
                    let mut eng = Engine::new(rules, Some(&mut trace));
                    let (old, new) = match (self, acc.take()) {
                        (Entry::Gem(_), Some(a)) => (new, a),
                        (_, Some(a)) => (a, new),
                        (_, None) => {
                            acc = Some(new);
                            continue;
                        }
                    };
                    let r = eng.merge_layer(old, new);
                    notices.append(&mut eng.notices);
                    r.map_err(|(e, old)| (e.message, old))
                }
                Entry::At(rules, at) => {
                    let Some(old) = acc.take() else {
                        acc = Some(new);
                        continue;
                    };
                    let at = Path::parse_pointer(at).unwrap_or_else(|e| panic!("{e}"));
                    let mut eng = Engine::new(rules, Some(&mut trace));
                    let r = eng.merge_at(&at, old, new);
                    notices.append(&mut eng.notices);
                    r.map_err(|(e, old)| (e.message, old))
                }
                Entry::Recording(rules) => {
                    let Some(old) = acc.take() else {
                        acc = Some(new);
                        continue;
                    };
                    let mut eng = Engine::new(rules, Some(&mut trace)).recording_containers();
                    let r = eng.merge_layer(old, new);
                    notices.append(&mut eng.notices);
                    r.map_err(|(e, old)| (e.message, old))
                }
                Entry::With(rules, spec) => {
                    let mut eng = Engine::new(rules, Some(&mut trace));
                    let old = acc.take();
                    let kept = old.clone();
                    let r = eng.merge_with(&Path::root(), spec, old, new);
                    notices.append(&mut eng.notices);
                    r.map_err(|e| (e.message, kept.unwrap_or_else(|| Node::null(e.span))))
                }
                Entry::Ranked { rules, .. } => {
                    let Some(old) = acc.take() else {
                        acc = Some(new);
                        continue;
                    };
                    let ctx =
                        RankCtx::new(rules, &[], merger(MergerSpec::Ranked(RuleId(0)), "scalar"));
                    let set = RuleSet::one(merger(MergerSpec::Ranked(RuleId(0)), "ranked"));
                    let mut eng = Engine::with_ranked(&set, &ctx, Some(&mut trace));
                    let r = eng.merge_layer(old, new);
                    notices.append(&mut eng.notices);
                    r.map_err(|(e, old)| (e.message, old))
                }
            };
            match step {
                Ok(n) => acc = Some(n),
                Err((message, old)) => {
                    failed = Some((message, old));
                    break;
                }
            }
        }
        let result = match (failed, acc) {
            (Some(f), _) => Err(f),
            (None, Some(n)) => Ok(self.finish(n)),
            (None, None) => Err((
                "no layer had a value".into(),
                Node::null(crate::value::Span::NONE),
            )),
        };
        Ran {
            result,
            steps: trace
                .steps
                .iter()
                .map(|s| format!("{} {}", path_text(&s.path), s.outcome))
                .collect(),
            notices: notices.iter().map(notice_text).collect(),
        }
    }

    fn finish(&self, n: Node) -> Node {
        match self {
            Entry::Ranked { rules, strip: true } => {
                let ctx = RankCtx::new(rules, &[], merger(MergerSpec::Ranked(RuleId(0)), "scalar"));
                super::knockout::strip_markers(&ctx, rules.strategy(RuleId(0)), n)
            }
            _ => n,
        }
    }
}

/// What a case expects.
pub(super) enum Want<'a> {
    Result(&'a str),
    Fails(&'a str),
}

/// Runs one case; panics naming the table line on a mismatch.
pub(super) fn case(
    line: u32,
    entry: &Entry,
    layers: &[&str],
    want: Want<'_>,
    steps: Option<&[&str]>,
    notices: &[&str],
    fold: bool,
) {
    let mut nodes: Vec<Option<Node>> = layers.iter().enumerate().map(|(i, t)| load(t, i)).collect();
    let first = nodes.first().cloned().flatten();
    if !fold && matches!(entry, Entry::Gem(_)) {
        // A pair is (old, new); the gem's fold starts from the highest (new) side.
        nodes.reverse();
    }
    let ran = entry.run(nodes);
    let at = format!("table line {line}: {layers:?}");
    match (want, &ran.result) {
        (Want::Result(text), Ok(got)) => {
            let want = load(text, 90).unwrap_or_else(|| Node::null(crate::value::Span::NONE));
            assert!(
                *got == want,
                "{at}\n  want {}\n   got {}",
                flow(&want),
                flow(got)
            );
        }
        (Want::Result(text), Err((message, _))) => {
            panic!("{at}\n  want {text}\n  failed: {message}")
        }
        (Want::Fails(text), Ok(got)) => {
            panic!("{at}\n  want a failure ({text})\n   got {}", flow(got))
        }
        (Want::Fails(text), Err((message, old))) => {
            assert!(
                message.contains(text),
                "{at}\n  want a failure with {text:?}\n  got {message:?}"
            );
            if let Some(first) = &first {
                if !fold {
                    assert!(
                        old == first,
                        "{at}\n  a failed merge changed the old value: {}",
                        flow(old)
                    );
                }
            }
        }
    }
    if let Some(steps) = steps {
        assert_eq!(ran.steps, steps, "{at}: steps");
    }
    assert_eq!(ran.notices, notices, "{at}: notices");
}

/// `merges!(entry, old, new => want [, [steps..]] [, notices [..]])`, or
/// `merges!(entry, old, new => fails "message part")`.
macro_rules! merges {
    ($p:expr, $old:expr, $new:expr => fails $msg:expr) => {
        $crate::merge::table::case(line!(), &$p, &[$old, $new], $crate::merge::table::Want::Fails($msg), None, &[], false)
    };
    ($p:expr, $old:expr, $new:expr => $want:expr $(, [$($step:expr),* $(,)?])? $(, notices [$($n:expr),* $(,)?])?) => {
        $crate::merge::table::case(
            line!(),
            &$p,
            &[$old, $new],
            $crate::merge::table::Want::Result($want),
            None $(.or(Some(&[$($step),*][..])))?,
            &[$($($n),*)?],
            false,
        )
    };
}

/// `folds!(entry, [layers..] => want [, notices [..]])`, layers in the system's order.
macro_rules! folds {
    ($p:expr, [$($layer:expr),+ $(,)?] => $want:expr $(, notices [$($n:expr),* $(,)?])?) => {
        $crate::merge::table::case(
            line!(),
            &$p,
            &[$($layer),+],
            $crate::merge::table::Want::Result($want),
            None,
            &[$($($n),*)?],
            true,
        )
    };
}

mod gem;
mod ranked;
mod stack;
