//! Heat's words for a merge it cannot do: the engine reports which Python exception
//! `merge_map`, `merge_list`, `''.join` or `+` would raise (`merge::PyFault`); this turns it into
//! strata's error — what met what, where, the parameter and its strategy, the exception as
//! Heat's log shows it, and what to change.

use super::env::{describe, pytype};
use super::types::PType;
use crate::error::{Error, ErrorKind};
use crate::merge::{MergeError, RuleRef};
use crate::value::{Kind, SourceMap};

/// The parameter being merged, for messages.
#[derive(Debug)]
pub struct Site {
    pub param: String,
    pub ptype: PType,
    pub file: String,
    pub rule: RuleRef,
}

/// The error for a merge Heat would crash on.
pub(super) fn crash(e: MergeError, site: &Site, sources: &SourceMap) -> Error {
    let Some(fault) = e.python else {
        return Error::new(ErrorKind::Merge, e.message)
            .at(e.span)
            .with_path(e.path);
    };
    let (old, new) = (&fault.old.value, &fault.new.value);
    let python = fault.python(pytype);
    let from = match sources.locate(fault.old.span) {
        Some(loc) => format!(" (from {loc})"),
        None => String::new(),
    };
    // At the parameter itself (/section/name), not inside a deep-merged value.
    let top = e.path.0.len() <= 2;
    let mixed_list = site.ptype == PType::List
        && matches!(
            (&old.kind, &new.kind),
            (Kind::Str(_), Kind::List(_)) | (Kind::List(_), Kind::Str(_))
        );
    let hint = if mixed_list {
        format!("write '{}' the same way everywhere: a YAML list in every file, or a comma-separated string in every file (a -P value is a string, a -P name given twice a list)", site.param)
    } else if site.ptype == PType::Json && top && matches!(old.kind, Kind::Str(_)) {
        format!("give '{}' as a YAML mapping, not as a JSON string (Heat keeps a string from the first file or from -P as it is; set the value in an environment file instead)", site.param)
    } else if site.ptype == PType::Json && top {
        format!("merging the Json parameter '{}' needs a mapping on both sides: give it a mapping in every file, or the strategy overwrite", site.param)
    } else {
        format!(
            "give the values of '{}' the same kind in every file, or give it the strategy overwrite",
            site.param
        )
    };
    let here = if e.path.0.is_empty() {
        "/".to_string()
    } else {
        e.path.to_string()
    };
    Error::new(
        ErrorKind::Merge,
        format!(
            "cannot merge {} into {}{from} at {here} ({} parameter '{}', strategy '{}'): Heat crashes here with {python}",
            describe(new),
            describe(old),
            site.ptype.name(),
            site.param,
            site.rule.text
        ),
    )
    .at(e.span)
    .with_path(e.path)
    .hint(hint)
}

/// At most 60 characters of a string, for messages.
pub(super) fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}
