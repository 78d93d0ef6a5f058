//! Colour on stderr (issue 16): `--color auto|always|never`. `auto` colours a terminal only,
//! and follows the conventions other tools follow: `NO_COLOR` (set and not empty) turns colour
//! off, `CLICOLOR_FORCE` (not `0`) turns it on off a terminal too, `CLICOLOR=0` and
//! `TERM=dumb` turn it off; the flag overrides all of them. Standard output (the rendered
//! document) is never coloured.
//!
//! Messages are rendered as plain text (`error.rs`); `paint` styles the parts it knows by their
//! shape, as rustc and clap do: the `error:` / `warning:` label and the message after it, the
//! `-->` arrow and the gutter of a quoted line, the carets, the `= hint:` / `= note:` labels.

use clap::ValueEnum;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this run colours stderr (set once the command line is read).
static ON: AtomicBool = AtomicBool::new(false);

pub(super) fn set(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

/// A rendered message as this run prints it on stderr.
pub(super) fn for_stderr(text: String) -> String {
    if ON.load(Ordering::Relaxed) {
        paint(&text)
    } else {
        text
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(super) enum When {
    #[default]
    Auto,
    Always,
    Never,
}

/// Whether to colour: `when`, the environment (`var`) and whether stderr is a terminal.
pub(super) fn enabled(when: When, var: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    match when {
        When::Always => true,
        When::Never => false,
        When::Auto if set("NO_COLOR") => false,
        When::Auto if var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") => true,
        When::Auto if var("CLICOLOR").as_deref() == Some("0") => false,
        When::Auto => terminal && var("TERM").as_deref() != Some("dumb"),
    }
}

/// The `--color` value on a command line, read before the command line is parsed (so that
/// clap's own usage errors follow it too); `None` when not given or not valid.
pub(super) fn from_args(args: &[String]) -> Option<When> {
    let mut value = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if let Some(v) = a.strip_prefix("--color=") {
            value = Some(v.to_string());
        } else if a == "--color" {
            value = it.next().cloned();
        }
    }
    When::from_str(value.as_deref()?, false).ok()
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const CYAN: &str = "\x1b[1;36m";

/// `text` (rendered errors and warnings) with ANSI styles.
pub(super) fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut level = RED;
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        out.push_str(&paint_line(body, &mut level));
        out.push_str(end);
    }
    out
}

fn paint_line(line: &str, level: &mut &'static str) -> String {
    for (label, colour) in [("error", RED), ("warning", YELLOW)] {
        if let Some(rest) = line.strip_prefix(label).and_then(|r| r.strip_prefix(": ")) {
            *level = colour;
            return format!("{colour}{label}{RESET}: {BOLD}{rest}{RESET}");
        }
    }
    if let Some(rest) = line.strip_prefix("  --> ") {
        return format!("  {BLUE}-->{RESET} {rest}");
    }
    for label in ["hint", "note"] {
        if let Some(rest) = line.strip_prefix(&format!("  = {label}:")) {
            return format!("  {BLUE}={RESET} {CYAN}{label}{RESET}:{rest}");
        }
    }
    // A quoted line (`12 | text`), the line above it (`   |`) or the carets (`   | ^^^`).
    if let Some(bar) = line.find(" |") {
        let (gutter, rest) = line.split_at(bar);
        let rest = &rest[2..];
        let is_gutter = gutter.trim_start().chars().all(|c| c.is_ascii_digit());
        if is_gutter && (rest.is_empty() || rest.starts_with(' ')) {
            let carets = rest.trim_start();
            if !carets.is_empty() && carets.chars().all(|c| c == '^') {
                let pad = &rest[..rest.len() - carets.len()];
                return format!(
                    "{BLUE}{gutter} |{RESET}{pad}{level}{carets}{RESET}",
                    level = *level
                );
            }
            return format!("{BLUE}{gutter} |{RESET}{rest}");
        }
    }
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn auto_follows_the_terminal_and_the_environment() {
        assert!(enabled(When::Auto, env(&[]), true));
        assert!(!enabled(When::Auto, env(&[]), false));
        assert!(!enabled(When::Auto, env(&[("NO_COLOR", "1")]), true));
        assert!(enabled(When::Auto, env(&[("NO_COLOR", "")]), true));
        assert!(enabled(When::Auto, env(&[("CLICOLOR_FORCE", "1")]), false));
        assert!(!enabled(When::Auto, env(&[("CLICOLOR_FORCE", "0")]), false));
        assert!(!enabled(
            When::Auto,
            env(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]),
            true
        ));
        assert!(!enabled(When::Auto, env(&[("CLICOLOR", "0")]), true));
        assert!(!enabled(When::Auto, env(&[("TERM", "dumb")]), true));
        assert!(enabled(When::Always, env(&[("NO_COLOR", "1")]), false));
        assert!(!enabled(When::Never, env(&[("CLICOLOR_FORCE", "1")]), true));
    }

    #[test]
    fn the_flag_is_found_before_parsing() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            from_args(&args(&["merge", "--color", "never", "a"])),
            Some(When::Never)
        );
        assert_eq!(
            from_args(&args(&["merge", "--color=always"])),
            Some(When::Always)
        );
        assert_eq!(from_args(&args(&["merge", "--", "--color=always"])), None);
        assert_eq!(from_args(&args(&["merge", "--color=pink"])), None);
    }

    #[test]
    fn paint_styles_the_known_parts_only() {
        let plain = "warning: a.yaml:2:3: duplicate key\nerror: bad\n  --> a.yaml:1:2\n  |\n1 | a: [\n  |    ^\n  = hint: close it\n";
        let painted = paint(plain);
        assert!(painted.contains("\x1b[1;33mwarning\x1b[0m: \x1b[1ma.yaml:2:3: duplicate key"));
        assert!(painted.contains("\x1b[1;31merror\x1b[0m: \x1b[1mbad"));
        assert!(painted.contains("\x1b[1;34m-->\x1b[0m a.yaml:1:2"));
        assert!(painted.contains("\x1b[1;34m1 |\x1b[0m a: ["));
        assert!(painted.contains("   \x1b[1;31m^\x1b[0m"), "{painted:?}");
        assert!(painted.contains("\x1b[1;36mhint\x1b[0m: close it"));
        let strip = painted
            .split('\x1b')
            .enumerate()
            .map(|(i, s)| {
                if i == 0 {
                    s
                } else {
                    &s[s.find('m').map_or(0, |m| m + 1)..]
                }
            })
            .collect::<String>();
        assert_eq!(strip, plain, "colour adds styles, nothing else");
        assert_eq!(
            paint("plain text | not a gutter"),
            "plain text | not a gutter"
        );
    }
}
