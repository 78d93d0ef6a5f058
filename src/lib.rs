//! strata renders layered configuration the way the system that owns the format merges it,
//! and explains where every value came from.
//!
//! Data flow (docs/ARCHITECTURE.md has the page a developer reads before adding a front-end):
//!
//! ```text
//! argv ─ cli ─▶ inputs (read once) ─▶ SourceMap (text + lines), a SourceId per file / part
//! bytes ─ load::{yaml,json,mime} ─▶ value::Node trees; every node carries a Span
//!           └─ without --explain a file's text is then released (re-read for a message)
//! documents ─ frontend::<system> ─▶ ordered layers + strategy::RuleSet (behaviour-named
//!           specs: Dict, List, Str, Plus, Ranked, Gem — what each system compiles to)
//! layers ─ merge::Engine (one Merger per spec, dispatch on the old or the new value's type)
//!           ─▶ merged Node; with --explain a merge::Trace of Steps; PyFault / Notice for the
//!           front-end to word in its system's terms
//! merged ─ rendered::Rendered ─ render::{yaml,json,explain} ─▶ stdout or --out
//! failure ─ error::Error + SourceMap ─▶ "file:line:col" + snippet, exit code
//! ```
//!
//! Modules: [`value`] (tree, spans, paths), [`load`], [`strategy`], [`merge`], [`frontend`],
//! [`rendered`], [`render`], [`error`], and [`cli`] — the only one that touches files and the
//! terminal.

#![deny(unsafe_code)]

pub mod cli;
pub mod error;
pub mod frontend;
pub mod load;
pub mod merge;
pub mod par;
pub mod render;
pub mod rendered;
pub mod strategy;
pub mod value;
/// Warnings, their kinds and the `--strict` / `--allow` / `--deny` policy (part of `error`).
pub use error::warning;
