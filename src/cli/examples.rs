//! The examples each subcommand's `--help` ends with, and the man page's EXAMPLES: one table,
//! every example a command that runs from the repository's root on its `fixtures/`.
//!
//! clap wraps its help text to the terminal at spaces, which would cut a long command in two
//! (copied, the second half runs as a command of its own). So the examples are not clap's
//! `after_help`: `print_for` writes them after clap's help, never wrapped, each command laid
//! out by `layout` in lines of at most `WIDTH` columns joined by ` \` continuations, so a
//! copied example runs whole at any terminal width.

use clap::CommandFactory;
use std::io::Write;

/// The widest example line: fits an 80-column terminal.
pub(super) const WIDTH: usize = 80;

/// A subcommand's examples: its path (`"ardana read"`), the heading, the lines (a command, or
/// a `# ` comment about the command after it).
pub(super) struct Examples {
    pub path: &'static str,
    pub heading: &'static str,
    pub lines: &'static [&'static str],
}

const REPO: &str = "Examples (from the repository):";

pub(super) const EXAMPLES: &[Examples] = &[
    Examples {
        path: "cloud-init",
        heading: REPO,
        lines: &[
            "strata cloud-init fixtures/cloud-init/runcmd/01-base.yaml fixtures/cloud-init/runcmd/02-extra.yaml",
            "strata cloud-init --explain fixtures/cloud-init/runcmd/01-base.yaml fixtures/cloud-init/runcmd/02-extra.yaml",
            "strata cloud-init --output json --strict fixtures/cloud-init/runcmd/01-base.yaml",
            "# '-' reads standard input (so does no INPUT when it is a pipe or a file)",
            "cat fixtures/cloud-init/runcmd/02-extra.yaml | strata cloud-init fixtures/cloud-init/runcmd/01-base.yaml -",
        ],
    },
    Examples {
        path: "heat",
        heading: REPO,
        lines: &[
            "strata heat --template fixtures/heat/types/template.yaml -e fixtures/heat/types/env-1.yaml -e fixtures/heat/types/env-2.yaml",
            "strata heat --explain --template fixtures/heat/types/template.yaml -e fixtures/heat/types/env-1.yaml fixtures/heat/types/env-2.yaml",
        ],
    },
    Examples {
        path: "lookup",
        heading: REPO,
        lines: &[
            "strata lookup --layer fixtures/lookup/rules/node.yml fixtures/lookup/rules/role.yml --options fixtures/lookup/rules/options.yml",
            "strata lookup --hiera fixtures/hiera/site/hiera.yaml --facts fixtures/hiera/site/facts.yaml",
            "strata lookup packages --hiera fixtures/hiera/site/hiera.yaml --facts fixtures/hiera/site/facts.yaml --explain-levels",
        ],
    },
    Examples {
        path: "deckhand",
        heading: REPO,
        lines: &[
            "strata deckhand fixtures/deckhand/site",
            "strata deckhand --validate --output json fixtures/deckhand/site",
        ],
    },
    Examples {
        path: "ardana",
        heading: REPO,
        lines: &[
            "strata ardana read fixtures/ardana/model",
            "strata ardana validate fixtures/ardana/model",
            "strata ardana read fixtures/ardana/model | strata ardana write --dry-run - fixtures/ardana/model",
        ],
    },
    Examples {
        path: "ardana read",
        heading: REPO,
        lines: &[
            "strata ardana read fixtures/ardana/model",
            "strata ardana read --output yaml fixtures/ardana/model",
        ],
    },
    Examples {
        path: "ardana validate",
        heading: REPO,
        lines: &["strata ardana validate fixtures/ardana/model"],
    },
    Examples {
        path: "ardana write",
        heading: REPO,
        lines: &[
            "# the model as 'ardana read' prints it ('-': standard input), written back with --dry-run",
            "strata ardana read fixtures/ardana/model | strata ardana write --dry-run - fixtures/ardana/model",
        ],
    },
    Examples {
        path: "merge",
        heading: REPO,
        lines: &[
            "strata merge fixtures/merge/base.yaml fixtures/merge/prod.yaml",
            "strata merge --how 'dict(no_replace,recurse_list)+list(append)' fixtures/merge/base.yaml fixtures/merge/prod.yaml",
            "strata merge --explain=/app/replicas fixtures/merge/base.yaml fixtures/merge/prod.yaml",
            "cat fixtures/merge/prod.yaml | strata merge fixtures/merge/base.yaml -",
            "cat fixtures/merge/base.yaml | strata merge",
        ],
    },
    Examples {
        path: "diff",
        heading: "Examples (from the repository, a git checkout):",
        lines: &[
            "strata diff --base HEAD -- merge fixtures/merge/base.yaml fixtures/merge/prod.yaml",
            "strata diff --base HEAD --stat -- deckhand fixtures/deckhand/site",
            "strata diff --output json fixtures/merge/base.yaml fixtures/merge/prod.yaml",
            "# in a pull request, with the target branch (origin/main) as --base: exit 3 when the render changed",
            "strata diff --base HEAD --exit-code -- deckhand fixtures/deckhand/site",
        ],
    },
];

/// The examples of the subcommand at `path`, if it has any.
pub(super) fn of(path: &str) -> Option<&'static Examples> {
    EXAMPLES.iter().find(|e| e.path == path)
}

/// The examples as `--help` prints them: the heading, then each line laid out (indented two
/// columns, continuations six).
pub(super) fn text(examples: &Examples) -> String {
    let mut out = format!("{}\n", examples.heading);
    for line in examples.lines {
        for l in layout(line, WIDTH) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// One example in lines of at most `width` columns (a single word wider than that stays
/// whole): words are cut only at spaces outside quotes, never between an option and its
/// value, and every line but the last ends with ` \`. A `# ` comment is cut at spaces into `# ` lines.
pub(super) fn layout(example: &str, width: usize) -> Vec<String> {
    let comment = example.starts_with("# ");
    let words = if comment {
        example[2..].split(' ').map(str::to_string).collect()
    } else {
        units(shell_words(example))
    };
    let (first, next, end) = if comment {
        ("  # ", "  # ", "")
    } else {
        ("  ", "      ", " \\")
    };
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for w in words {
        if !empty && line.len() + 1 + w.len() + end.len() > width {
            lines.push(format!("{line}{end}"));
            line = next.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(&w);
        empty = false;
    }
    lines.push(line);
    lines
}

/// Words kept on one line: an option and the value after it (`-e env.yaml`).
fn units(words: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut joinable = false;
    for w in words {
        let option = w.len() > 1 && w.starts_with('-') && !w.contains('=');
        match out.last_mut().filter(|_| joinable && !option) {
            Some(last) => {
                last.push(' ');
                last.push_str(&w);
                joinable = false;
            }
            None => {
                out.push(w);
                joinable = option;
            }
        }
    }
    out
}

/// The words of a command line, split at spaces outside single or double quotes (quotes kept).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (c, quote) {
            (' ', None) => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                continue;
            }
            ('\'' | '"', None) => quote = Some(c),
            (q, Some(open)) if q == open => quote = None,
            _ => {}
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The subcommand a `--help` command line asks about (`strata ardana read --help`,
/// `strata help merge`): the subcommand names in its words, in order.
pub(super) fn path_of(args: &[String]) -> String {
    let mut cmd = super::Cli::command();
    let mut path: Vec<&str> = Vec::new();
    for a in args.iter().skip(1) {
        if a == "--" {
            break;
        }
        if a.starts_with('-') || a == "help" {
            continue;
        }
        match cmd.find_subcommand(a) {
            Some(sub) => {
                cmd = sub.clone();
                path.push(a);
            }
            None => break,
        }
    }
    path.join(" ")
}

/// After clap's `--help` on stdout: the examples of the subcommand asked about.
pub(super) fn print_for(args: &[String]) {
    if let Some(examples) = of(&path_of(args)) {
        let mut stdout = std::io::stdout().lock();
        let _ = write!(stdout, "\n{}", text(examples));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_example_is_cut_at_spaces_outside_quotes() {
        let lines = layout("strata merge --how 'a b c' one.yaml two.yaml", 25);
        assert_eq!(
            lines,
            [
                "  strata merge \\",
                "      --how 'a b c' \\",
                "      one.yaml two.yaml"
            ]
        );
        let lines = layout("strata heat --strict -e one.yaml -e two.yaml", 31);
        assert_eq!(
            lines,
            ["  strata heat --strict \\", "      -e one.yaml -e two.yaml"]
        );
        assert_eq!(
            layout("strata deckhand site", 80),
            ["  strata deckhand site"]
        );
        assert_eq!(layout("# one two three", 12), ["  # one two", "  # three"]);
    }

    #[test]
    fn the_subcommand_asked_about_is_found_in_the_words() {
        let args = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(path_of(&args("strata merge --help")), "merge");
        assert_eq!(path_of(&args("strata ardana read --help")), "ardana read");
        assert_eq!(path_of(&args("strata help ardana write")), "ardana write");
        assert_eq!(path_of(&args("strata merge --how merge -h")), "merge");
        assert_eq!(path_of(&args("strata --help")), "");
    }
}
