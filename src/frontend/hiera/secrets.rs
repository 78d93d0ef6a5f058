//! hiera-eyaml in a Hiera run: the values an `eyaml_lookup_key` level finds are decrypted as
//! Puppet's `eyaml_lookup_key` function decrypts them (`decrypt_value`: strings holding
//! `ENC[...]`, inside hashes and arrays too, before interpolation), with the level's
//! `pkcs7_private_key` (opened as written, from the working directory, as hiera-eyaml does)
//! or the `--eyaml-private-key` given instead. Every plaintext is remembered so that
//! `redact` can take it out of the `--explain` trace, the `--explain-levels` report, warnings
//! and errors: strata prints a decrypted secret only as the looked-up value itself.

use super::eyaml::{self, EyamlError};
use super::keyring::Material;
use super::state::Hiera;
use crate::error::{Error, ErrorKind, Result, Warning};
use crate::frontend::Input;
use crate::merge::{Outcome, RuleRef, Trace};
use crate::strategy::Origin;
use crate::value::{Kind, Node, Path as VPath, Span};
use rustc_hash::FxHashMap;
use std::path::Path;
use std::rc::Rc;

/// What stands for a decrypted value wherever strata explains rather than renders.
pub const REDACTED: &str = "<decrypted eyaml value>";

/// The eyaml state of a run.
#[derive(Default)]
pub struct Secrets {
    /// `--eyaml-private-key FILE`: used instead of every level's `pkcs7_private_key`.
    pub key_override: Option<Input>,
    /// `--allow-encrypted`: `ENC[...]` values stay as written (nothing is decrypted).
    pub allow_encrypted: bool,
    /// The environment (`pkcs7_private_key_env_var`): the CLI's, none in tests of the library.
    pub env: Option<fn(&str) -> Option<String>>,
    /// Each eyaml level's key material read so far, or why it could not be.
    pub(super) material: FxHashMap<usize, std::result::Result<Rc<Material>, String>>,
    /// Every plaintext decrypted so far.
    plain: Vec<String>,
    /// How many values were decrypted (for the report).
    pub count: usize,
    /// Where the decrypted values were written (their text changes again when interpolated).
    spans: rustc_hash::FxHashSet<Span>,
}

/// Where a value being decrypted was found.
struct At<'p> {
    level: usize,
    key: &'p str,
    path: &'p Path,
}

impl Hiera<'_> {
    /// Puppet's `decrypt_value` on the value `key` has in the eyaml level `level`'s file
    /// `path`; the value unchanged when the level is not an eyaml level.
    pub(super) fn decrypt(
        &mut self,
        v: Node,
        level: usize,
        key: &str,
        path: &Path,
    ) -> Result<Node> {
        if self.config.levels[level].eyaml.is_none() || self.secrets.allow_encrypted {
            return Ok(v);
        }
        let at = At { level, key, path };
        let mut v = v;
        let before = self.secrets.count;
        self.walk(&mut v, &at, &mut VPath::root())?;
        let n = self.secrets.count - before;
        if n > 0 {
            let with = self.key_name(level);
            super::report::say(&mut self.log, || {
                format!("Decrypted {n} hiera-eyaml value(s) (PKCS7) with {with}")
            });
        }
        Ok(v)
    }

    fn walk(&mut self, v: &mut Node, at: &At<'_>, path: &mut VPath) -> Result<()> {
        match &mut v.kind {
            Kind::Str(s) if eyaml::is_encrypted(s.as_str()) => {
                let before = self.secrets.count;
                let text = self.decrypt_str(s.as_str(), v.span, at)?;
                *v = Node::str(text, v.span);
                if self.secrets.count > before {
                    self.secrets.spans.insert(v.span);
                    let rule = RuleRef {
                        text: format!(
                            "hiera-eyaml: ENC[PKCS7,...] decrypted with {}",
                            self.key_name(at.level)
                        )
                        .into(),
                        origin: Origin::At(self.config.levels[at.level].span),
                    };
                    if let Some(t) = self.trace.as_mut() {
                        t.record(path, Outcome::Substituted, Some(rule), v.span, &[], &[]);
                    }
                }
            }
            Kind::List(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    path.push_index(i);
                    self.walk(item, at, path)?;
                    path.pop();
                }
            }
            Kind::Map(m) => {
                for (k, item) in m.iter_mut() {
                    path.push_key(&crate::value::key_text(&k.0));
                    self.walk(item, at, path)?;
                    path.pop();
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn decrypt_str(&mut self, s: &str, span: Span, at: &At<'_>) -> Result<String> {
        eyaml::check_schemes(s).map_err(|e| self.failure(s, span, at, &e.to_string()))?;
        if eyaml::tokens(s).is_empty() {
            // Text that only looks like a token: kept, chomped as hiera-eyaml does.
            return Ok(eyaml::chomp(s.to_string()));
        }
        let m = self
            .material(at.level)
            .map_err(|e| self.failure(s, span, at, &e))?;
        let (text, parts) = match eyaml::decrypt_string(s, &m.key, m.cert.as_deref()) {
            Ok(done) => done,
            Err(e) => {
                let why = match e {
                    EyamlError::BadDecrypt | EyamlError::Mismatch | EyamlError::NoRecipient => {
                        format!("{e} (key: {})", m.name)
                    }
                    e => e.to_string(),
                };
                return Err(self.failure(s, span, at, &why));
            }
        };
        self.secrets.count += 1;
        for p in parts {
            self.remember(p);
        }
        self.remember(text.clone());
        Ok(text)
    }

    /// Remembers the decrypted values of `v` as interpolation left them.
    pub(super) fn remember_interpolated(&mut self, v: &Node) {
        if self.secrets.spans.is_empty() {
            return;
        }
        match &v.kind {
            Kind::Str(s) if self.secrets.spans.contains(&v.span) => self.remember(s.to_string()),
            Kind::List(items) => items.iter().for_each(|i| self.remember_interpolated(i)),
            Kind::Map(m) => m.values().for_each(|i| self.remember_interpolated(i)),
            _ => {}
        }
    }

    fn remember(&mut self, plain: String) {
        let p = plain.trim();
        if !p.is_empty() && !self.secrets.plain.iter().any(|q| q == p) {
            self.secrets.plain.push(p.to_string());
        }
    }

    fn failure(&self, s: &str, span: Span, at: &At<'_>, why: &str) -> Error {
        let shown = eyaml::tokens(s)
            .first()
            .map(|t| &s[t.range.clone()])
            .unwrap_or(s)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>();
        let shown = match shown.char_indices().nth(24) {
            Some((i, _)) => format!("{}…]", &shown[..i]),
            None => shown,
        };
        Error::new(
            ErrorKind::Merge,
            format!(
                "Lookup of key '{}' failed: hiera-eyaml backend error decrypting {shown} when looking up {} in {}. Error was {why}",
                at.key,
                at.key,
                at.path.display()
            ),
        )
        .code("lookup-error")
        .at(span)
        .hint(if why.starts_with("Could not parse") {
            "the ENC[...] block is damaged: encrypt the value again (eyaml encrypt), or --allow-encrypted to print ENC[...] values as written"
        } else if why.starts_with("source sequence") {
            "the plaintext is not UTF-8 text, which Puppet cannot print: encrypt the text again (eyaml encrypt -s), or --allow-encrypted to print ENC[...] values as written"
        } else if why.starts_with("unsupported") {
            "encrypt the value with PKCS7 (eyaml encrypt), or --allow-encrypted to print ENC[...] values as written"
        } else {
            "give the key that encrypted the data (--eyaml-private-key FILE), or --allow-encrypted to print ENC[...] values as written"
        })
    }

    /// Takes every decrypted text out of what explains the run.
    pub(super) fn redact_all(&mut self, report: Option<String>) -> Option<String> {
        let plain = &self.secrets.plain;
        if plain.is_empty() {
            return report;
        }
        if let Some(t) = self.trace.as_mut() {
            redact_trace(t, plain);
        }
        for w in &mut self.warnings {
            redact_warning(w, plain);
        }
        report.map(|r| redact(&r, plain))
    }

    /// An error with every decrypted text taken out.
    pub(super) fn redact_error(&self, mut e: Error) -> Error {
        let plain = &self.secrets.plain;
        if !plain.is_empty() {
            e.message = redact(&e.message, plain);
            e.hint = e.hint.map(|h| redact(&h, plain));
        }
        e
    }
}

/// Shorter plaintexts are taken out only where they stand whole (a quoted value, a whole
/// string): replacing every `a` of a report would garble it.
const SHORT: usize = 4;

/// `text` with every occurrence of a plaintext (raw, and as Ruby's `inspect` shows it)
/// replaced, longest first; a short one only as a quoted value.
pub fn redact(text: &str, plain: &[String]) -> String {
    let mut all: Vec<String> = Vec::with_capacity(plain.len() * 2);
    for p in plain {
        let inspected = super::report::value(&Node::str(p.as_str(), Span::NONE));
        if p.chars().count() >= SHORT {
            all.push(p.clone());
            all.push(inspected.trim_matches('"').to_string());
        } else {
            all.push(inspected);
            all.push(format!("'{p}'"));
        }
    }
    all.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let mut out = text.to_string();
    for p in all.iter().filter(|p| !p.is_empty()) {
        if out.contains(p.as_str()) {
            let with = if p.starts_with(['"', '\'']) && p.len() > 1 {
                format!("{}{REDACTED}{}", &p[..1], &p[..1])
            } else {
                REDACTED.to_string()
            };
            out = out.replace(p.as_str(), &with);
        }
    }
    out
}

fn redact_node(n: &mut Node, plain: &[String]) {
    if let Kind::Str(s) = &n.kind {
        let r = if plain.iter().any(|p| p.as_str() == s.trim()) {
            REDACTED.to_string()
        } else {
            redact(s.as_str(), plain)
        };
        if r != s.as_str() {
            *n = Node::str(r, n.span);
        }
    }
}

fn redact_trace(t: &mut Trace, plain: &[String]) {
    for step in &mut t.steps {
        for p in step.overrode.iter_mut().chain(step.others.iter_mut()) {
            redact_node(&mut p.value, plain);
        }
    }
}

fn redact_warning(w: &mut Warning, plain: &[String]) {
    w.message = redact(&w.message, plain);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_secrets_are_taken_out_only_whole() {
        let plain = ["a".to_string(), "s3cret-pw".to_string()];
        let r = REDACTED;
        assert_eq!(
            redact("Searching: [\"a\", 'a', \"ab\", x-s3cret-pw]", &plain),
            format!("Searching: [\"{r}\", '{r}', \"ab\", x-{r}]")
        );
        let mut n = Node::str(" a ", Span::NONE);
        redact_node(&mut n, &plain);
        assert_eq!(n.as_str(), Some(r));
    }
}
