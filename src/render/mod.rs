//! Renderers: `yaml` (YAML 1.1-safe writer), `json`, and `explain` (provenance comments / JSON).

pub mod explain;
pub mod json;
pub mod yaml;
mod yaml_scalar;

/// Output format chosen with `--output`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Yaml,
    Json,
}
