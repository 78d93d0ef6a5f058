//! `hiera.yaml` version 5, read and checked as Puppet's `HieraConfigV5` checks it: `version`,
//! `defaults` (`datadir`, `data_hash`, `options`), and `hierarchy` entries with a name, a data
//! function and one location form (`path`, `paths`, `glob`, `globs`, `mapped_paths`).
//! `lookup_key: eyaml_lookup_key` levels (hiera-eyaml) are read as YAML levels with their
//! `pkcs7_private_key` / `pkcs7_public_key` options (`Eyaml`). Versions 3 and 4, other custom
//! backends (`lookup_key`, `data_dig`, `v3_backend`) and `uri` locations are refused with an
//! error that names the level.

use crate::error::{Error, ErrorKind, Result};
use crate::value::{Key, Kind, Node, Span};

/// Where a level's data comes from, before interpolation.
#[derive(Clone, Debug)]
pub enum Locations {
    Paths(Vec<String>),
    Globs(Vec<String>),
    /// `[variable, key, template]`.
    Mapped([String; 3]),
}

/// The data function of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

/// One hierarchy entry.
#[derive(Clone, Debug)]
pub struct Level {
    pub name: String,
    pub datadir: String,
    pub format: Format,
    pub locations: Locations,
    pub span: Span,
    /// `lookup_key: eyaml_lookup_key`: the data is YAML, its `ENC[...]` values decrypted.
    pub eyaml: Option<Eyaml>,
}

/// The options of an `eyaml_lookup_key` level (its own `options`, else the defaults'), as
/// written (Puppet interpolates them, scope variables only, when the key is read): a
/// relative key path is opened from the working directory, as hiera-eyaml does.
#[derive(Clone, Debug)]
pub struct Eyaml {
    pub private_key: Option<String>,
    pub public_key: Option<String>,
    /// `pkcs7_private_key_env_var`: the name of an environment variable holding the PEM text.
    pub private_key_env: Option<String>,
    /// `pkcs7_public_key_env_var`: the same for the certificate.
    pub public_key_env: Option<String>,
    /// Where the function was named (the level, or the defaults).
    pub span: Span,
}

/// The function a level names (`data_hash: yaml_data`, `lookup_key: eyaml_lookup_key`).
fn function(k: &str, v: &Node, label: &str) -> Result<(Format, bool)> {
    match (k, string(v, k)?.as_str()) {
        ("data_hash", f) => Ok((data_hash(f, label, v)?, false)),
        ("lookup_key", "eyaml_lookup_key") => Ok((Format::Yaml, true)),
        _ => Err(unsupported(k, label, v)),
    }
}

fn eyaml_options(opts: Option<&Node>, span: Span) -> Result<Eyaml> {
    let get = |k: &str| -> Result<Option<String>> {
        opts.and_then(|o| o.get(k))
            .map(|v| string(v, &format!("options.{k}")))
            .transpose()
    };
    Ok(Eyaml {
        private_key: get("pkcs7_private_key")?,
        public_key: get("pkcs7_public_key")?,
        private_key_env: get("pkcs7_private_key_env_var")?,
        public_key_env: get("pkcs7_public_key_env_var")?,
        span,
    })
}

#[derive(Clone, Debug)]
pub struct Config {
    pub levels: Vec<Level>,
}

const LEVEL_KEYS: &[&str] = &[
    "name",
    "options",
    "data_hash",
    "lookup_key",
    "v3_backend",
    "v4_data_hash",
    "data_dig",
    "path",
    "paths",
    "glob",
    "globs",
    "uri",
    "uris",
    "mapped_paths",
    "datadir",
];
const FUNCTION_KEYS: &[&str] = &[
    "data_hash",
    "lookup_key",
    "data_dig",
    "v3_backend",
    "v4_data_hash",
];
const LOCATION_KEYS: &[&str] = &[
    "path",
    "paths",
    "glob",
    "globs",
    "uri",
    "uris",
    "mapped_paths",
];

fn err(msg: impl Into<String>, at: Span) -> Error {
    Error::new(ErrorKind::Directive, msg).at(at)
}

fn string(v: &Node, what: &str) -> Result<String> {
    match &v.kind {
        Kind::Str(s) if !s.is_empty() => Ok(s.to_string()),
        _ => Err(err(
            format!("{what} must be a non-empty string, not {}", v.kind_phrase()),
            v.span,
        )),
    }
}

fn strings(v: &Node, what: &str, exactly: Option<usize>) -> Result<Vec<String>> {
    let items = v.as_list().ok_or_else(|| {
        err(
            format!("{what} must be a list of strings, not {}", v.kind_phrase()),
            v.span,
        )
    })?;
    if items.is_empty() || exactly.is_some_and(|n| n != items.len()) {
        let n = exactly.map_or("at least one".to_string(), |n| format!("exactly {n}"));
        return Err(err(format!("{what} must have {n} entries"), v.span));
    }
    items.iter().map(|i| string(i, what)).collect()
}

fn entries(m: &Node) -> Vec<(String, &Node, Span)> {
    m.as_map()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (crate::value::key_text(&k.0), v, k.span()))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads a parsed `hiera.yaml` (`None`: an empty file).
pub fn read(doc: Option<&Node>, at: Span) -> Result<Config> {
    let Some(doc) = doc.filter(|d| d.as_map().is_some()) else {
        return Err(err(
            "hiera.yaml holds no mapping: Puppet would fall back to a Hiera 3 default configuration, which strata does not read",
            doc.map_or(at, |d| d.span),
        )
        .hint("write 'version: 5' and a 'hierarchy:' list"));
    };
    let version = doc.get("version");
    match version.map(|v| &v.kind) {
        Some(Kind::Int(5)) => {}
        Some(Kind::Int(3 | 4)) => {
            return Err(err(
                format!(
                    "hiera.yaml is version {}: strata reads Hiera 5 configurations only",
                    version.map(super::ruby::to_s).unwrap_or_default()
                ),
                version.map_or(doc.span, |v| v.span),
            )
            .hint("convert it to version 5 (Puppet's docs: 'Convert a version 3 hiera.yaml to version 5')"));
        }
        None => {
            return Err(err(
                "hiera.yaml has no 'version': Puppet reads it as a Hiera 3 configuration, which strata does not read",
                doc.span,
            )
            .hint("write 'version: 5'"))
        }
        // Puppet takes `to_i` of the version to choose the reader, whose type check then
        // refuses anything but an Integer.
        Some(Kind::Str(s))
            if s.trim_start().split(|c: char| !c.is_ascii_digit()).next() == Some("5") =>
        {
            return Err(err(
                "The Lookup Configuration has wrong type, entry 'version' expects an Integer value, got String",
                version.map_or(doc.span, |v| v.span),
            )
            .hint("write version: 5, without quotes"));
        }
        Some(_) => {
            let v = version.map(super::ruby::to_s).unwrap_or_default();
            return Err(err(
                format!("This runtime does not support hiera.yaml version '{v}'"),
                version.map_or(doc.span, |v| v.span),
            )
            .hint("write 'version: 5'"));
        }
    }
    for (k, _, span) in entries(doc) {
        if ![
            "version",
            "defaults",
            "hierarchy",
            "plan_hierarchy",
            "default_hierarchy",
        ]
        .contains(&k.as_str())
        {
            return Err(err(format!("hiera.yaml has an unknown key '{k}'"), span)
                .hint("version 5 knows version, defaults, hierarchy, plan_hierarchy"));
        }
        if k == "default_hierarchy" {
            return Err(err(
                "'default_hierarchy' is only allowed in a module's hiera.yaml",
                span,
            ));
        }
    }
    let mut datadir = "data".to_string();
    let mut default_fn: Option<(String, Span)> = Some(("yaml_data".into(), Span::NONE));
    // The defaults' function key when it is not `data_hash` (`lookup_key`).
    let mut default_key: Option<String> = None;
    if let Some(defaults) = doc.get("defaults") {
        if defaults.as_map().is_none() {
            return Err(err("'defaults' must be a mapping", defaults.span));
        }
        default_fn = None;
        for (k, v, span) in entries(defaults) {
            match k.as_str() {
                "datadir" => datadir = string(v, "defaults.datadir")?,
                "options" => {}
                k if FUNCTION_KEYS.contains(&k) => {
                    if default_fn.is_some() {
                        return Err(err(
                            "Only one of data_hash, lookup_key, data_dig can be defined in defaults",
                            span,
                        ));
                    }
                    default_fn = Some((string(v, &format!("defaults.{k}"))?, v.span));
                    if k != "data_hash" {
                        function(k, v, "defaults")?;
                        default_key = Some(k.to_string());
                    }
                }
                _ => return Err(err(format!("'defaults' has an unknown key '{k}'"), span)),
            }
        }
    }
    let default_hierarchy;
    let hierarchy = match doc.get("hierarchy") {
        Some(h) => h,
        None => {
            let mut m = crate::value::Map::new();
            m.insert(Key::str("name"), Node::str("Common", Span::NONE));
            m.insert(Key::str("path"), Node::str("common.yaml", Span::NONE));
            default_hierarchy = Node::list(vec![Node::map(m, Span::NONE)], Span::NONE);
            &default_hierarchy
        }
    };
    let items = hierarchy.as_list().ok_or_else(|| {
        err(
            format!(
                "'hierarchy' must be a list, not {}",
                hierarchy.kind_phrase()
            ),
            hierarchy.span,
        )
    })?;
    let mut levels: Vec<Level> = Vec::new();
    for he in items {
        let defaults = Defaults {
            datadir: &datadir,
            function: default_fn.as_ref().map(|(f, s)| {
                (
                    default_key.as_deref().unwrap_or("data_hash"),
                    f.as_str(),
                    *s,
                )
            }),
            options: doc.get("defaults").and_then(|d| d.get("options")),
        };
        levels.push(level(he, &defaults, &levels)?);
    }
    Ok(Config { levels })
}

fn unsupported(key: &str, level: &str, v: &Node) -> Error {
    err(
        format!(
            "{level} uses {key}: {}: custom backends (lookup_key functions other than eyaml_lookup_key, data_dig, v3 backends) are out of strata's scope",
            super::ruby::to_s(v)
        ),
        v.span,
    )
    .hint("strata reads data_hash: yaml_data and json_data, and lookup_key: eyaml_lookup_key levels")
}

/// What a level takes from `defaults` when it does not say.
struct Defaults<'a> {
    datadir: &'a str,
    /// (key, function, where): `("data_hash", "yaml_data", ..)`.
    function: Option<(&'a str, &'a str, Span)>,
    options: Option<&'a Node>,
}

fn level(he: &Node, defaults: &Defaults<'_>, before: &[Level]) -> Result<Level> {
    if he.as_map().is_none() {
        return Err(err(
            format!(
                "a hierarchy entry must be a mapping, not {}",
                he.kind_phrase()
            ),
            he.span,
        ));
    }
    let name = match he.get("name") {
        Some(n) => string(n, "a hierarchy entry's name")?,
        None => return Err(err("a hierarchy entry has no 'name'", he.span)),
    };
    let label = format!("hierarchy entry \"{name}\"");
    if before.iter().any(|l| l.name == name) {
        return Err(err(
            format!("Hierarchy name '{name}' defined more than once"),
            he.get("name").map_or(he.span, |n| n.span),
        ));
    }
    let mut function = None;
    let mut location: Option<(&str, &Node)> = None;
    for (k, v, span) in entries(he) {
        if !LEVEL_KEYS.contains(&k.as_str()) {
            return Err(err(format!("{label} has an unknown key '{k}'"), span));
        }
        if FUNCTION_KEYS.contains(&k.as_str()) {
            if function.is_some() {
                return Err(err(
                    format!("Only one of data_hash, lookup_key, data_dig, or v3_backend can be defined in {label}"),
                    span,
                ));
            }
            function = Some((k.clone(), v));
        }
        if LOCATION_KEYS.contains(&k.as_str()) {
            if location.is_some() {
                return Err(err(
                    format!("Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in {label}"),
                    span,
                ));
            }
            let k = LOCATION_KEYS
                .iter()
                .find(|x| **x == k)
                .copied()
                .unwrap_or("path");
            location = Some((k, v));
        }
    }
    let (format, eyaml) = match function {
        Some((k, v)) => self::function(&k, v, &label)?,
        None => match defaults.function {
            Some((k, f, span)) => self::function(k, &Node::str(f, span), &label)?,
            None => {
                return Err(err(
                    format!("One of data_hash, lookup_key, data_dig, or v3_backend must be defined in {label}"),
                    he.span,
                ))
            }
        },
    };
    let locations = match location {
        Some(("path", v)) => Locations::Paths(vec![string(v, "path")?]),
        Some(("paths", v)) => Locations::Paths(strings(v, "paths", None)?),
        Some(("glob", v)) => Locations::Globs(vec![string(v, "glob")?]),
        Some(("globs", v)) => Locations::Globs(strings(v, "globs", None)?),
        Some(("mapped_paths", v)) => {
            let s = strings(v, "mapped_paths", Some(3))?;
            Locations::Mapped([s[0].clone(), s[1].clone(), s[2].clone()])
        }
        Some((k, v)) => {
            return Err(err(
                format!("{label} uses {k}: URIs are only meaningful to custom backends, which strata does not run"),
                v.span,
            ))
        }
        None => {
            return Err(err(
                format!("{label} has no path: one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"),
                he.span,
            )
            .hint("add path: \"common.yaml\" (relative to the datadir)"))
        }
    };
    if let Some(opts) = he.get("options") {
        for k in ["path", "uri"] {
            if opts.get(k).is_some() {
                return Err(err(
                    format!("Option key '{k}' used in {label} is reserved by Puppet"),
                    opts.span,
                ));
            }
        }
    }
    let datadir = match he.get("datadir") {
        Some(d) => string(d, "datadir")?,
        None => defaults.datadir.to_string(),
    };
    let eyaml = if eyaml {
        Some(eyaml_options(
            he.get("options").or(defaults.options),
            he.span,
        )?)
    } else {
        None
    };
    Ok(Level {
        name,
        datadir,
        format,
        locations,
        span: he.span,
        eyaml,
    })
}

fn data_hash(f: &str, label: &str, v: &Node) -> Result<Format> {
    match f {
        "yaml_data" => Ok(Format::Yaml),
        "json_data" => Ok(Format::Json),
        _ => Err(unsupported("data_hash", label, v)),
    }
}
