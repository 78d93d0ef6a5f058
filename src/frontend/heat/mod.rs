//! `strata heat`: Heat environment merging with `parameter_merge_strategies`.

use crate::error::{Error, ErrorKind, Result};
use crate::frontend::{Input, Rendered, Settings};
use crate::value::SourceMap;

/// What the CLI hands over for `strata heat`.
#[derive(Debug)]
pub struct HeatJob {
    /// `--template T`: HOT template giving parameter types.
    pub template: Option<Input>,
    /// `-P NAME=VALUE` in command-line order.
    pub params: Vec<(String, String)>,
    /// `-e ENV` files in order.
    pub envs: Vec<Input>,
}

pub fn render(_job: HeatJob, _sources: &mut SourceMap, _settings: &Settings) -> Result<Rendered> {
    Err(Error::new(
        ErrorKind::Usage,
        "strata heat is not implemented yet",
    ))
}
