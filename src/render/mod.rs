//! Renderers: `yaml` (YAML 1.1-safe writer), `json`, `explain` (provenance comments / JSON), and `diff` (what changed between two renders, and why).

#![warn(missing_docs)]

pub(crate) mod diff;
pub mod explain;
pub mod json;
pub mod yaml;
pub(crate) mod yaml_scalar;

/// Output format chosen with `--output`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// YAML (the default), keeping comments and spellings where they mean the same.
    #[default]
    Yaml,
    /// JSON.
    Json,
}
