//! `--explain-levels`: a text report laid out like `puppet lookup --explain` (each lookup,
//! provider, hierarchy entry and path searched, found / not found, the merge and its options,
//! the merged result), with values printed as Puppet prints them (`"a" => 1`, two spaces per
//! level). Filled in by the lookup as it runs; nothing is recorded without the flag.

use super::ruby;
use crate::value::{Kind, Node};

/// The report being written: lines and the current indentation.
#[derive(Debug, Default)]
pub struct Log {
    lines: Vec<String>,
    depth: usize,
}

impl Log {
    pub fn line(&mut self, text: impl AsRef<str>) {
        let pad = "  ".repeat(self.depth);
        let text = text.as_ref();
        let mut out = String::with_capacity(pad.len() + text.len());
        for (i, l) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&pad);
            out.push_str(l);
        }
        self.lines.push(out);
    }

    pub fn push(&mut self) {
        self.depth += 1;
    }

    pub fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Depth to come back to after an early return.
    pub fn depth(&self) -> usize {
        self.depth
    }

    pub fn reset(&mut self, depth: usize) {
        self.depth = depth;
    }

    pub fn text(&self) -> String {
        let mut s = self.lines.join("\n");
        s.push('\n');
        s
    }
}

/// Runs `f` with one more level of indentation when a log is kept.
pub fn nested<T>(log: &mut Option<Log>, f: impl FnOnce(&mut Option<Log>) -> T) -> T {
    if let Some(l) = log.as_mut() {
        l.push();
    }
    let r = f(log);
    if let Some(l) = log.as_mut() {
        l.pop();
    }
    r
}

/// Writes a line when a log is kept.
pub fn say(log: &mut Option<Log>, text: impl FnOnce() -> String) {
    if let Some(l) = log.as_mut() {
        l.line(text());
    }
}

/// A value as `puppet lookup --explain` prints it.
pub fn value(n: &Node) -> String {
    let mut out = String::new();
    write(n, 0, &mut out);
    out
}

fn write(n: &Node, depth: usize, out: &mut String) {
    let pad = |d: usize| "  ".repeat(d);
    match &n.kind {
        Kind::List(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                write(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push(']');
        }
        Kind::Map(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (i, (k, v)) in m.iter().enumerate() {
                out.push_str(&pad(depth + 1));
                out.push_str(&ruby::inspect(&k.0));
                out.push_str(" => ");
                write(v, depth + 1, out);
                out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(depth));
            out.push('}');
        }
        Kind::List(_) => out.push_str("[]"),
        Kind::Map(_) => out.push_str("{}"),
        _ => out.push_str(&ruby::inspect(n)),
    }
}
