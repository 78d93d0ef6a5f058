//! The `--facts` file as `puppet lookup --facts` takes it (`Puppet::Application::Lookup`):
//! a YAML or JSON hash (YAML read by Psych without Symbols), and the four facts Puppet
//! derives the node's trusted information from — `hostname`, `domain`, `fqdn`, `clientcert` —
//! given all or none.

use crate::error::{Error, ErrorKind, Result};
use crate::value::{Kind, Map, Node, Span};

/// The facts Puppet refuses to take some of without the others.
const TRUSTED_INFORMATION_FACTS: [&str; 4] = ["hostname", "domain", "fqdn", "clientcert"];

/// The facts of a parsed facts file (`name` as given), checked as Puppet checks them.
pub fn given(doc: Option<Node>, at: Span, name: &str) -> Result<Map> {
    let facts = match doc.map(|d| (d.span, d.kind)) {
        Some((_, Kind::Map(m))) => *m,
        other => {
            let (span, what) = match &other {
                Some((span, kind)) => (*span, Node::new(kind.clone(), *span).kind_phrase()),
                None => (at, "no document"),
            };
            return Err(Error::new(
                ErrorKind::Parse,
                format!(
                    "Incorrectly formatted data in {name} given via the --facts flag (only accepts yaml and json files): it holds {what}, not a hash"
                ),
            )
            .at(span)
            .hint("write one fact per line: 'nodename: web01'"));
        }
    };
    let given: Vec<&str> = TRUSTED_INFORMATION_FACTS
        .into_iter()
        .filter(|k| facts.get_str(k).is_some())
        .collect();
    if !given.is_empty() && given.len() < TRUSTED_INFORMATION_FACTS.len() {
        let missing: Vec<&str> = TRUSTED_INFORMATION_FACTS
            .into_iter()
            .filter(|k| !given.contains(k))
            .collect();
        let first = facts
            .iter()
            .find(|(k, _)| k.as_str().is_some_and(|k| given.contains(&k)))
            .map_or(at, |(k, _)| k.span());
        return Err(Error::new(
            ErrorKind::Parse,
            format!(
                "When overriding any of the {} facts with {name} given via the --facts flag, they must all be overridden.",
                TRUSTED_INFORMATION_FACTS.join(",")
            ),
        )
        .at(first)
        .hint(format!(
            "puppet lookup refuses this file: add {} too, or leave out {}",
            missing.join(", "),
            given.join(", ")
        )));
    }
    Ok(facts)
}
