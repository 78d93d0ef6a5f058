//! What the completion scripts know beyond clap_complete's static scripts, for `strata diff`:
//! `--base` / `--head` complete git revisions (`HEAD` and `git for-each-ref`, run when the
//! user presses TAB), and after `--` the render command is completed as a command of its own
//! (its name, then its options and files, as `strata SUBCOMMAND` completes). Added to the
//! generated bash, zsh and fish scripts at the places clap_complete writes for these
//! arguments; a script whose places are not found is left as generated (the tests check
//! that they are found).

use clap::CommandFactory;
use clap_complete::Shell;

/// The render commands `strata diff ... --` takes.
fn render_commands() -> String {
    super::Cli::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| !matches!(n.as_str(), "completions" | "diff" | "man" | "help"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The generated `script` for `shell` with the diff completions added.
pub(super) fn extend(shell: Shell, script: Vec<u8>) -> Vec<u8> {
    let Ok(text) = String::from_utf8(script.clone()) else {
        return script;
    };
    let commands = render_commands();
    let text = match shell {
        Shell::Bash => bash(text, &commands),
        Shell::Zsh => zsh(text, &commands),
        Shell::Fish => fish(text, &commands),
        _ => text,
    };
    text.into_bytes()
}

const REFS: &str =
    "git for-each-ref --format='%(refname:short)' refs/heads refs/remotes refs/tags 2>/dev/null";

fn bash(text: String, commands: &str) -> String {
    let case = "        strata__subcmd__diff)\n";
    if !text.contains(case) {
        return text;
    }
    let text = text.replacen(
        case,
        &format!("{case}            _strata_diff \"$@\" && return 0\n"),
        1,
    );
    let helper = r#"
# strata diff: git revisions after --base / --head; after '--', the render command: its name,
# then its own arguments as 'strata COMMAND' completes them.
_strata_diff() {
    local i
    for (( i = 2; i < COMP_CWORD; i++ )); do
        if [[ ${COMP_WORDS[i]} == -- ]]; then
            if (( COMP_CWORD == i + 1 )); then
                COMPREPLY=( $(compgen -W "COMMANDS" -- "${cur}") )
            else
                local -a rest=( "${COMP_WORDS[0]}" "${COMP_WORDS[@]:i+1}" )
                local COMP_CWORD=$(( COMP_CWORD - i ))
                local -a COMP_WORDS=( "${rest[@]}" )
                _strata "$1" "${cur}" "${COMP_WORDS[COMP_CWORD-1]}"
            fi
            return 0
        fi
    done
    local option="${prev}"
    if [[ ${prev} == = ]]; then
        option="${COMP_WORDS[COMP_CWORD-2]}"
    fi
    case "${option}" in
        --base|--head)
            COMPREPLY=( $(compgen -W "HEAD $(REFS)" -- "${cur}") )
            return 0
            ;;
    esac
    return 1
}
"#
    .replace("COMMANDS", commands)
    .replace("REFS", REFS);
    insert_before(text, "\nif [[ \"${BASH_VERSINFO[0]}\"", &helper)
}

fn zsh(text: String, commands: &str) -> String {
    let mut found = 0;
    let mut out = String::with_capacity(text.len() + 1024);
    for line in text.split_inclusive('\n') {
        let revision = line.starts_with("'--base=[") || line.starts_with("'--head=[");
        if revision && line.contains(":REV:_default'") {
            out.push_str(&line.replacen(":REV:_default'", ":REV:_strata_git_refs'", 1));
            found += 1;
        } else if line.starts_with("'*::args -- OLD NEW") && line.contains(":_default'") {
            out.push_str(&line.replacen(":_default'", ":_strata_diff_args'", 1));
            found += 1;
        } else {
            out.push_str(line);
        }
    }
    if found != 3 {
        return text;
    }
    let helper = r#"
# strata diff: git revisions for --base / --head.
(( $+functions[_strata_git_refs] )) ||
_strata_git_refs() {
    local -a refs
    refs=(HEAD ${(f)"$(REFS)"})
    _describe -t revisions 'git revision' refs
}
# strata diff's arguments: OLD NEW files, or after '--' the render command (its name, then
# its own arguments as 'strata COMMAND' completes them).
(( $+functions[_strata_diff_args] )) ||
_strata_diff_args() {
    if [[ ${words[1]} == -- ]]; then
        shift words
        (( CURRENT-- ))
    fi
    if [[ $LBUFFER != *' -- '* ]]; then
        _files
    elif (( CURRENT == 1 )); then
        local -a commands
        commands=(COMMANDS)
        _describe -t commands 'render command' commands
    else
        words=(strata "${words[@]}")
        (( CURRENT++ ))
        _strata
    fi
}
"#
    .replace("COMMANDS", commands)
    .replace("REFS", REFS);
    insert_before(
        out,
        "\nif [ \"$funcstack[1]\" = \"_strata\" ]; then",
        &helper,
    )
}

fn fish(text: String, commands: &str) -> String {
    let mut found = 0;
    let mut out = String::with_capacity(text.len() + 1024);
    for line in text.split_inclusive('\n') {
        let diff =
            line.starts_with("complete -c strata -n \"__fish_strata_using_subcommand diff\"");
        if diff
            && (line.contains(" -l base ") || line.contains(" -l head "))
            && line.trim_end().ends_with(" -r")
        {
            out.push_str(line.trim_end());
            out.push_str(" -f -a \"(__fish_strata_git_refs)\"\n");
            found += 1;
        } else {
            out.push_str(line);
        }
    }
    if found != 2 {
        return text;
    }
    let helper = r#"
# strata diff: git revisions for --base / --head; after '--', the render command (its name,
# then its own arguments as 'strata COMMAND' completes them).
function __fish_strata_git_refs
    echo HEAD
    REFS
end

function __fish_strata_diff_after_dashes
    contains -- -- (commandline -opc)
end

function __fish_strata_diff_render
    set -l tokens (commandline -opc)
    set -l at (contains -i -- -- $tokens)
    set -l rest $tokens[(math $at + 1)..-1]
    if test (count $rest) -eq 0
        printf '%s\n' COMMANDS
    else
        complete -C "strata "(string join ' ' -- (string escape -- $rest))" "(commandline -ct)
    end
end

complete -c strata -n "__fish_strata_using_subcommand diff; and __fish_strata_diff_after_dashes" -f -a "(__fish_strata_diff_render)"
"#
    .replace("COMMANDS", commands)
    .replace("REFS", REFS);
    out.push_str(&helper);
    out
}

/// `text` with `insert` before the first `anchor`, or at the end without one.
fn insert_before(text: String, anchor: &str, insert: &str) -> String {
    match text.find(anchor) {
        Some(at) => format!("{}{insert}{}", &text[..at], &text[at..]),
        None => text + insert,
    }
}
