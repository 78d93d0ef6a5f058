//! `--explain` rendering (stub until the explain work lands).

use super::Format;
use crate::error::Result;
use crate::frontend::Rendered;
use crate::value::{Path, SourceMap};

pub fn render(
    rendered: &Rendered,
    _sources: &SourceMap,
    format: Format,
    _focus: Option<&Path>,
) -> Result<String> {
    match format {
        Format::Yaml => Ok(super::yaml::to_string(&rendered.doc, rendered.header)),
        Format::Json => super::json::to_string(&rendered.doc),
    }
}
