//! `strata completions SHELL` and `strata man`: shell completion scripts (clap_complete) and
//! the roff man page (clap_mangen), both generated from the one clap definition of the command
//! line, so they always list what the binary accepts. The man page is one page, strata(1):
//! the top-level synopsis, the COMMANDS (every subcommand, `ardana read` / `validate` /
//! `write` included), a section for each with its synopsis and options (hidden arguments left
//! out), then EXIT STATUS, ENVIRONMENT and EXAMPLES (the `--help` examples, `examples.rs`).

use super::examples::{layout, EXAMPLES, WIDTH};
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::{self, Write};

/// Writes the completion script for `shell`, with what clap_complete cannot express added
/// (`completions.rs`: git revisions for `diff --base`, the render command after `diff --`).
pub(super) fn completions(shell: Shell, out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = super::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "strata", &mut script);
    out.write_all(&super::completions::extend(shell, script))
}

/// Columns man indents a subsection's text by (7), and the 2 of `layout` it drops.
const MAN_INDENT: usize = 9;

/// The exit codes (`Error::exit_code`, `diff::CHANGED`).
const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "Rendered (for strata diff: also when the renders differ, unless --exit-code). A closed pipe on standard output also exits 0."),
    ("1", "The input is wrong: a parse error, a bad directive, a conflict, a missing parent, a violation of a model's rules, a file that cannot be read or written; the message names file:line:col. With --strict, a warning."),
    ("2", "The command line is wrong."),
    ("3", "strata diff --exit-code: the renders differ."),
];

/// Every environment variable strata reads (but its test hooks).
const ENVIRONMENT: &[(&str, &str)] = &[
    ("NO_COLOR", "Set and not empty: no colour on standard error with --color auto."),
    ("CLICOLOR_FORCE", "Set, not empty and not 0: colour with --color auto also when standard error is not a terminal (NO_COLOR wins)."),
    ("CLICOLOR", "0: no colour with --color auto."),
    ("TERM", "dumb: no colour with --color auto."),
    ("STRATA_STRICT", "1, true, yes or on: as --strict (every warning, not the notes, is an error); 0, false, no or off: not."),
    ("STRATA_ALLOW", "Warning kinds, comma-separated, accepted as with --allow (docs/warnings.md lists the kinds)."),
    ("STRATA_DENY", "Warning kinds, comma-separated, made errors as with --deny."),
    ("STRATA_CACHE_DIR", "The folder where strata lookup --hiera keeps the indexes of the data files it parsed, so that a one-key lookup parses only the entries it needs; empty: no cache. Default: $XDG_CACHE_HOME/strata, else ~/.cache/strata."),
    ("XDG_CACHE_HOME, HOME", "Where the cache folder is when STRATA_CACHE_DIR is not set."),
    ("COLUMNS", "The width of --help text when standard output is not a terminal (examples are never wrapped)."),
];

/// Writes strata(1): the top-level page, the commands, each subcommand's synopsis and
/// options, exit status, environment and examples.
pub(super) fn man(out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = super::Cli::command();
    cmd.build();
    let page = clap_mangen::Man::new(cmd.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    page.render_options_section(out)?;
    let commands = commands(&cmd, "strata");
    writeln!(out, ".SH COMMANDS")?;
    for (name, sub) in &commands {
        writeln!(out, ".TP\n\\fB{}\\fR", text(name))?;
        if let Some(about) = sub.get_about().or(sub.get_long_about()) {
            writeln!(out, "{}", text(&about.to_string()))?;
        }
    }
    writeln!(
        out,
        ".PP\nEach command's synopsis and options are in its section below."
    )?;
    for (name, sub) in &commands {
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        if let Some(about) = sub.get_long_about().or(sub.get_about()) {
            writeln!(out, "{}", text(&about.to_string()))?;
        }
        let page = clap_mangen::Man::new(visible(sub, name));
        let mut section = Vec::new();
        page.render_synopsis_section(&mut section)?;
        page.render_options_section(&mut section)?;
        // The subcommand's own sections become subsections of its part of the page.
        for line in String::from_utf8_lossy(&section).lines() {
            match line.strip_prefix(".SH ") {
                Some(title) => writeln!(out, ".SS {title}")?,
                None => writeln!(out, "{line}")?,
            }
        }
    }
    writeln!(out, ".SH \"EXIT STATUS\"")?;
    for (code, meaning) in EXIT_STATUS {
        writeln!(out, ".TP\n\\fB{code}\\fR\n{}", text(meaning))?;
    }
    writeln!(out, ".SH ENVIRONMENT")?;
    for (name, meaning) in ENVIRONMENT {
        writeln!(out, ".TP\n\\fB{}\\fR\n{}", text(name), text(meaning))?;
    }
    writeln!(
        out,
        ".PP\nstrata diff \\-\\-base runs git, which reads its own variables (GIT_DIR, ...)."
    )?;
    examples(out)?;
    page.render_version_section(out)
}

/// Every subcommand under `cmd`, depth first, with its full name (`strata ardana read`);
/// hidden ones and clap's `help` left out.
fn commands(cmd: &clap::Command, prefix: &str) -> Vec<(String, clap::Command)> {
    let mut all = Vec::new();
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        let name = format!("{prefix} {}", sub.get_name());
        all.push((name.clone(), sub.clone()));
        all.extend(commands(sub, &name));
    }
    all
}

/// A copy of `sub` named `name` without its hidden arguments (clap_mangen's synopsis lists
/// hidden positionals), for its synopsis and options.
fn visible(sub: &clap::Command, name: &str) -> clap::Command {
    // The synopsis shows the bin name; the name itself is not printed.
    let mut copy = clap::Command::new("strata")
        .bin_name(name.to_string())
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true);
    for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
        copy = copy.arg(arg.clone());
    }
    for s in sub
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        copy = copy.subcommand(s.clone());
    }
    copy
}

/// EXAMPLES: every subcommand's `--help` examples, unfilled, laid out (` \` continuations)
/// to fit 80 columns beside man's indentation.
fn examples(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, ".SH EXAMPLES")?;
    writeln!(
        out,
        "From the root of strata's repository (the examples read its fixtures/)."
    )?;
    for group in EXAMPLES {
        writeln!(out, ".SS \"strata {}\"\n.nf", group.path)?;
        for line in group.lines {
            for l in layout(line, WIDTH - MAN_INDENT) {
                let l = l.strip_prefix("  ").unwrap_or(&l);
                writeln!(out, "{}", literal(l))?;
            }
        }
        writeln!(out, ".fi")?;
    }
    Ok(())
}

/// Running text safe in roff: backslashes escaped, `-` a minus (a hyphen would not paste as
/// one), quotes as typed, and no leading `.` or `'` (a request).
fn text(s: &str) -> String {
    s.lines().map(literal).collect::<Vec<_>>().join("\n")
}

/// One line of roff that prints as `line`, character for character (ASCII `-`, `'`, `` ` ``,
/// `~`, `^`, which groff would otherwise turn into typographic ones).
fn literal(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    if line.starts_with(['.', '\'']) {
        out.push_str("\\&");
    }
    for c in line.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            '\'' => out.push_str("\\*(Aq"),
            '`' => out.push_str("\\(ga"),
            '~' => out.push_str("\\(ti"),
            '^' => out.push_str("\\(ha"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_text_cannot_start_a_request_or_change_a_character() {
        assert_eq!(literal(".hidden"), "\\&.hidden");
        assert_eq!(literal("a\\b"), "a\\eb");
        assert_eq!(literal("--how 'x'"), "\\-\\-how \\*(Aqx\\*(Aq");
    }
}
