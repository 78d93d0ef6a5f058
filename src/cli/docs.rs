//! `strata completions SHELL` and `strata man`: shell completion scripts (clap_complete) and
//! the roff man page (clap_mangen), both generated from the one clap definition of the command
//! line, so they always list what the binary accepts. The man page is strata(1) with a section
//! for each subcommand (its synopsis and options).

use clap::CommandFactory;
use clap_complete::Shell;
use std::io::{self, Write};

/// Writes the completion script for `shell`.
pub fn completions(shell: Shell, out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = super::Cli::command();
    clap_complete::generate(shell, &mut cmd, "strata", out);
    Ok(())
}

/// Writes strata(1): the top-level page, then each subcommand's synopsis and options.
pub fn man(out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = super::Cli::command();
    cmd.build();
    clap_mangen::Man::new(cmd.clone()).render(out)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("strata {}", sub.get_name());
        let sub = sub.clone().bin_name(name.clone());
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        if let Some(about) = sub.get_long_about().or(sub.get_about()) {
            writeln!(out, "{}", escape(&about.to_string()))?;
        }
        let page = clap_mangen::Man::new(sub);
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
    Ok(())
}

/// Text safe at the start of a roff line: a leading `.` or `'` would be read as a request.
fn escape(text: &str) -> String {
    let text = text.replace('\\', "\\e");
    if text.starts_with('.') || text.starts_with('\'') {
        format!("\\&{text}")
    } else {
        text
    }
}
