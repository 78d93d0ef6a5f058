//! Warnings: what a render says besides its result, each of a named kind (`[duplicate-key]`),
//! and the policy that decides which are shown, which are kept quiet and which fail the run
//! (`--strict`, `--allow KIND`, `--deny KIND`). The list of kinds is the one docs/warnings.md
//! documents; a test keeps the two the same.

use crate::error::{Error, ErrorKind};
use crate::value::{Path, SourceMap, Span};

/// How a kind is reported when no option names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `warning:` on stderr; `--strict` makes it an error.
    Warning,
    /// `note:` on stderr: a fact about the input, not a fault of it. `--strict` leaves it
    /// alone; `--deny KIND` still makes it an error.
    Note,
}

macro_rules! kinds {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal, $level:ident;)*) => {
        /// The kind of a warning: a stable name users can `--allow` or `--deny`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Kind {
            /// Every kind, in the order docs/warnings.md lists them.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant,)*];

            /// The name printed in `[...]` and given to `--allow` / `--deny`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$variant => $name,)*
                }
            }

            /// Whether this kind is a warning or a note.
            pub fn level(self) -> Level {
                match self {
                    $(Kind::$variant => Level::$level,)*
                }
            }
        }
    };
}

kinds! {
    /// A mapping repeats a key; the later value wins (or, for lookup_options, the first).
    DuplicateKey = "duplicate-key", Warning;
    /// A file holds no document, or a model's top file is empty: it adds nothing.
    EmptyInput = "empty-input", Warning;
    /// A file holds several documents that a subcommand merges into one.
    MultiDocument = "multi-document", Warning;
    /// A null document replaces the whole result of a plain merge.
    NullDocument = "null-document", Warning;
    /// A value is replaced by one of another kind (a mapping by a list, ...).
    KindChange = "kind-change", Warning;
    /// A layer or data file that must be a mapping is not one.
    NotAMapping = "not-a-mapping", Warning;
    /// An option, in the combination given, changes nothing.
    NoEffect = "no-effect", Warning;
    /// A name the system does not know, which it ignores or reads as its default.
    UnknownOption = "unknown-option", Warning;
    /// A `merge --rules` rule that matches no path of the result.
    UnusedRule = "unused-rule", Warning;
    /// Something the real system would run or fetch that strata does not.
    Unsupported = "unsupported", Warning;
    /// An interpolation in a hierarchy path found nothing: that path segment is empty.
    EmptyInterpolation = "empty-interpolation", Warning;
    /// Strings joined without a separator by a merge strategy.
    StringJoin = "string-join", Warning;
    /// List items merged without the tuple keys that would match them.
    TupleKeys = "tuple-keys", Warning;
    /// A cloud-init part that cloud-init skips: it is not merged.
    PartSkipped = "part-skipped", Warning;
    /// A cloud-init part that cloud-init runs instead of merging (a script, a boothook).
    ScriptPart = "script-part", Note;
    /// A cloud-init jinja template used a variable the instance data does not have.
    MissingVariable = "missing-variable", Warning;
    /// A Heat parameter the template does not declare.
    UndeclaredParameter = "undeclared-parameter", Warning;
    /// Heat parameter types inferred from the values, as no template was given.
    InferredTypes = "inferred-types", Note;
    /// A Heat parameter_defaults entry the stack's parameters override (said by --explain).
    Overridden = "overridden", Note;
    /// A null that Heat ignores: it cannot unset a parameter.
    NullIgnored = "null-ignored", Warning;
    /// An environment section of the wrong type, which Heat skips.
    SectionSkipped = "section-skipped", Warning;
    /// Input strata reads that the real system refuses.
    AcceptedInvalid = "accepted-invalid", Warning;
    /// A Deckhand substitution skipped or nulled by --allow-missing-substitution-source.
    MissingSource = "missing-source", Warning;
    /// A Deckhand path that does not do what its jsonpath text says.
    PathQuirk = "path-quirk", Warning;
    /// A Deckhand substitution that does not do what it looks like it does.
    SubstitutionQuirk = "substitution-quirk", Warning;
    /// A Deckhand document that is not layered, or a LayeringPolicy that is ignored.
    Unlayered = "unlayered", Warning;
    /// The same Deckhand document given twice.
    DuplicateDocument = "duplicate-document", Warning;
    /// An Ardana model directory reached through a symbolic link, which the service skips.
    LinkedDir = "linked-dir", Warning;
    /// Ardana files that key one list by different fields.
    KeyField = "key-field", Warning;
    /// A value with no JSON type (binary data, a set) written to JSON.
    JsonLossy = "json-lossy", Warning;
    /// An `-o` file name that says another format than the one written.
    OutputName = "output-name", Warning;
}

impl Kind {
    /// The kind named `name`, or a message that says which names exist.
    pub fn parse(name: &str) -> Result<Kind, String> {
        let name = name.trim();
        if let Some(k) = Kind::ALL.iter().find(|k| k.name() == name) {
            return Ok(*k);
        }
        let near = Kind::ALL
            .iter()
            .map(|k| (crate::error::edit_distance(k.name(), name), k.name()))
            .filter(|(d, _)| *d <= 3)
            .min();
        Err(match near {
            Some((_, k)) => format!("no warning kind '{name}': did you mean '{k}'?"),
            None => format!(
                "no warning kind '{name}' (the kinds: {}; docs/warnings.md)",
                Kind::ALL
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }
}

/// Something the real system does that deserves attention; `--strict` makes it an error.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The stable kind `--allow` / `--deny` name.
    pub kind: Kind,
    /// The message, without the `warning:` prefix or a position.
    pub message: String,
    /// Where in the input, when there is a place to point at.
    pub span: Option<Span>,
    /// The document path the warning affects, so `--explain` can attach it to that value.
    pub path: Option<Path>,
}

impl Warning {
    /// A warning of `kind` at `span` (`Span::NONE`: no position).
    pub fn new(kind: Kind, message: impl Into<String>, span: Span) -> Warning {
        Warning {
            kind,
            message: message.into(),
            span: (!span.is_none()).then_some(span),
            path: None,
        }
    }
    /// The warning about the value at `path`, for `--explain` to attach it there.
    pub fn with_path(mut self, path: Path) -> Warning {
        self.path = Some(path);
        self
    }

    /// `warning` or `note`.
    pub fn label(&self) -> &'static str {
        match self.kind.level() {
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }

    /// One line: `warning: file:line:col: message [kind]` (the line scripts grep).
    pub fn line(&self, sources: &SourceMap) -> String {
        let (label, kind) = (self.label(), self.kind.name());
        match self.span.and_then(|s| sources.locate(s)) {
            Some(loc) => format!("{label}: {loc}: {} [{kind}]", self.message),
            None => format!("{label}: {} [{kind}]", self.message),
        }
    }

    /// For stderr: `line`, then, as for an error, the line of the input it points at with a
    /// caret under the place.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = self.line(sources);
        if let Some((span, loc)) = self.span.and_then(|s| Some((s, sources.locate(s)?))) {
            out.push('\n');
            crate::error::snippet(&mut out, span, &loc, sources);
            out.truncate(out.trim_end().len());
        }
        out
    }

    /// The error this warning becomes when `why` (`--strict`, `--deny KIND`) fails it.
    pub fn into_error(self, why: &str) -> Error {
        let kind = self.kind.name();
        let mut e =
            Error::new(ErrorKind::Strict, format!("{} [{kind}]", self.message)).hint(format!(
                "a {} made an error by {why}; --allow {kind} accepts it",
                self.label()
            ));
        e.span = self.span;
        e.path = self.path;
        e
    }
}

/// What to do with a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Printed; the run goes on.
    Show,
    /// Not printed (`--allow`).
    Quiet,
    /// An error (`--strict`, `--deny`).
    Fail,
}

/// `--strict`, `--allow` and `--deny` together.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// `--strict`: every warning not allowed fails.
    pub strict: bool,
    /// `--allow`: kinds never printed, never failed.
    pub allow: Vec<Kind>,
    /// `--deny`: kinds that fail with or without `--strict`.
    pub deny: Vec<Kind>,
}

impl Policy {
    /// A kind both allowed and denied is a contradiction the user must resolve.
    pub fn new(strict: bool, allow: Vec<Kind>, deny: Vec<Kind>) -> Result<Policy, Error> {
        if let Some(k) = allow.iter().find(|k| deny.contains(k)) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("warning kind '{}' is both allowed and denied", k.name()),
            )
            .hint("--allow and --deny also come from STRATA_ALLOW and STRATA_DENY"));
        }
        Ok(Policy {
            strict,
            allow,
            deny,
        })
    }

    /// What to do with a warning of `kind`: `--deny` first, then `--allow`, then `--strict`.
    pub fn action(&self, kind: Kind) -> Action {
        if self.deny.contains(&kind) {
            Action::Fail
        } else if self.allow.contains(&kind) {
            Action::Quiet
        } else if self.strict && kind.level() == Level::Warning {
            Action::Fail
        } else {
            Action::Show
        }
    }

    /// What failed a kind, for the error's hint.
    pub fn why(&self, kind: Kind) -> String {
        if self.deny.contains(&kind) {
            format!("--deny {}", kind.name())
        } else {
            "--strict".to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.name()), Ok(*k));
            assert_eq!(Kind::ALL.iter().filter(|o| o.name() == k.name()).count(), 1);
        }
        assert!(Kind::parse("duplicate-keys")
            .unwrap_err()
            .contains("duplicate-key"));
        assert!(Kind::parse("zzzzzzzz").unwrap_err().contains("the kinds:"));
    }

    #[test]
    fn allow_beats_strict_and_deny_beats_notes() {
        let p = Policy::new(true, vec![Kind::DuplicateKey], vec![Kind::ScriptPart]).unwrap();
        assert_eq!(p.action(Kind::DuplicateKey), Action::Quiet);
        assert_eq!(p.action(Kind::KindChange), Action::Fail);
        assert_eq!(p.action(Kind::ScriptPart), Action::Fail);
        assert_eq!(p.action(Kind::InferredTypes), Action::Show);
        assert!(Policy::new(false, vec![Kind::NoEffect], vec![Kind::NoEffect]).is_err());
    }
}
