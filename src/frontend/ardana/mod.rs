//! `strata ardana`: an Ardana input model — a directory of YAML files that together form one
//! model — read into the combined JSON the Ardana service builds (`read_model`: `inputModel`
//! plus the `fileInfo` index of which file holds which section, `name`, `version`, `readme`,
//! `errors`), with the input-model document's uniqueness rules enforced (`validate` reports
//! every violation at once). `walk` finds the files in the service's order, `combine` adds
//! each file to the model and checks the rules; this file reads `cloudConfig.yml`, loads the
//! files and builds the output (keys of the metadata sorted as the service's REST API sorts
//! them; `inputModel` in the files' order).

mod combine;
mod graft;
mod walk;
pub mod write;

use crate::error::{Error, ErrorKind, Result, WarnKind, Warning};
use crate::frontend::{add_text_input, parse_inputs, Files, Parsed, Run, Settings};
use crate::load;
use crate::merge::fold::Fold;
use crate::merge::{Outcome, RuleRef, Trace};
use crate::rendered::Rendered;
use crate::strategy::Origin;
use crate::value::{Key, Kind, List, Map, Node, Path, SourceMap, Span};
use combine::{Model, Placed};
use std::path::{Path as FsPath, PathBuf};
use walk::Entry;

/// What the CLI hands over for `strata ardana read` / `validate`.
pub struct ArdanaJob {
    pub dir: PathBuf,
}

/// Reads the model in `job.dir` (from the run's store) into the combined model.
pub fn read(job: &ArdanaJob, run: &mut Run<'_>) -> Result<Rendered> {
    let mut reading = Reading {
        files: &mut *run.files,
        sources: &mut *run.sources,
        settings: run.settings,
        warnings: Vec::new(),
        trace: run.settings.explain.then(Trace::default),
    };
    let doc = reading.model(&job.dir)?;
    Ok(Rendered::new(doc, reading.warnings, reading.trace))
}

/// Checks the model in `job.dir`: the summary line when it keeps every rule, else an error
/// listing every violation.
pub fn validate(job: &ArdanaJob, run: &mut Run<'_>) -> Result<(String, Vec<Warning>)> {
    let rendered = read(job, run)?;
    let count = |key: &str| {
        rendered
            .doc
            .get("fileInfo")
            .and_then(|f| f.get(key))
            .map_or(0, |n| match &n.kind {
                Kind::List(l) => l.len(),
                Kind::Map(m) => m.len(),
                _ => 0,
            })
    };
    let summary = format!(
        "{}: {} model files, {} sections, no violation of the input-model rules",
        job.dir.display(),
        count("files"),
        count("sections")
    );
    Ok((summary, rendered.warnings))
}

/// A model being read: the parts of the run it is read in, and what the reading gathers.
struct Reading<'a> {
    files: &'a mut dyn Files,
    sources: &'a mut SourceMap,
    settings: &'a Settings,
    warnings: Vec<Warning>,
    trace: Option<Trace>,
}

impl Reading<'_> {
    /// Loads one YAML file; `None` when it does not exist.
    fn load(&mut self, path: &FsPath) -> Result<Option<Node>> {
        match self.files.read(path)? {
            Some(input) => self.parse(input).map(Some),
            None => Ok(None),
        }
    }

    /// Parses one YAML file's bytes (a document of nothing is null).
    fn parse(&mut self, input: crate::frontend::Input) -> Result<Node> {
        let id = add_text_input(input, self.sources, self.settings)?;
        let doc = load::load_document(
            self.sources.text(id),
            id,
            false,
            &self.settings.load,
            &mut self.warnings,
        )?;
        Ok(doc.unwrap_or_else(|| Node::null(crate::frontend::file_span(id))))
    }

    /// The model files among `entries`, read and parsed ahead on `--jobs` threads
    /// (issue 19), one per `Entry::Yaml` in order; `None` where the walk reads the file itself
    /// (missing, unreadable, or after a refused one), so every message comes at the
    /// same point as in the sequential walk.
    fn parse_ahead(&mut self, entries: &[Entry]) -> Vec<Result<Parsed<Node>>> {
        if !crate::frontend::parse::reads_ahead(self.settings) {
            return Vec::new();
        }
        let mut inputs = Vec::new();
        for entry in entries {
            let Entry::Yaml { path, .. } = entry else {
                continue;
            };
            match self.files.read(path) {
                Ok(Some(input)) => inputs.push(input),
                _ => break,
            }
        }
        let load = &self.settings.load;
        parse_inputs(inputs, self.sources, self.settings, |_, text, id, w| {
            let doc = load::load_document(text.as_str(), id, false, load, w)?;
            Ok(doc.unwrap_or_else(|| Node::null(crate::frontend::file_span(id))))
        })
    }

    fn model(&mut self, dir: &FsPath) -> Result<Node> {
        let config_path = dir.join("cloudConfig.yml");
        let missing = || {
            Error::new(
                ErrorKind::Io,
                format!(
                    "{} has no cloudConfig.yml: it is not an Ardana input model",
                    dir.display()
                ),
            )
            .hint("give the model's top directory (the one holding cloudConfig.yml)")
        };
        let config = match self.files.read(&config_path)? {
            None => return Err(missing()),
            // `yaml.safe_load` of nothing is None: the service's empty answer.
            Some(input) if input.bytes.is_empty() => {
                let id = self.sources.add(input.name, String::new());
                Node::null(crate::frontend::file_span(id))
            }
            Some(input) => self.parse(input)?,
        };
        if !crate::value::py::py_truthy(&config) {
            // `if not doc: return model`: the service reads nothing else.
            let what = match &config.kind {
                Kind::Null => "is empty".to_string(),
                _ => format!(
                    "holds {} ({}), which Python takes for false",
                    config.kind_phrase(),
                    crate::value::py::py_repr(&config)
                ),
            };
            self.warnings.push(Warning::new(WarnKind::EmptyInput,
                format!("cloudConfig.yml {what}: the Ardana service returns an empty model (no inputModel, name and version null) and reads no other file"),
                config.span,
            ));
            return Ok(sorted(vec![
                ("errors", Node::list(List::new(), Span::NONE)),
                ("fileInfo", Node::empty_map(Span::NONE)),
                ("name", Node::null(Span::NONE)),
                ("readme", Node::empty_map(Span::NONE)),
                ("version", Node::null(Span::NONE)),
            ]));
        }
        let field = |outer: &str, inner: &str| -> Result<Node> {
            config
                .get(outer)
                .and_then(|o| o.get(inner))
                .cloned()
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Conflict,
                        format!("cloudConfig.yml has no {outer}.{inner}"),
                    )
                    .at(config.span)
                    .hint(format!(
                        "write {outer}: {{{inner}: ...}} in cloudConfig.yml"
                    ))
                })
        };
        let Some(_) = config.as_map() else {
            return Err(Error::new(
                ErrorKind::Conflict,
                format!(
                    "cloudConfig.yml holds {}, not a mapping",
                    config.kind_phrase()
                ),
            )
            .at(config.span));
        };
        let (version, name) = (field("product", "version")?, field("cloud", "name")?);
        let mut model = Model::default();
        model.files.push("cloudConfig.yml".into());
        self.add(&mut model, "cloudConfig.yml", config);
        let mut readme = Map::new();
        let entries = walk::walk(self.files, dir);
        let mut parsed = self.parse_ahead(&entries).into_iter();
        for entry in entries {
            match entry {
                Entry::Yaml { rel, path } => {
                    model.files.push(rel.clone());
                    let loaded = match parsed.next() {
                        Some(Ok(loaded)) => {
                            self.warnings.extend(loaded.warnings);
                            loaded.value.map(Some)
                        }
                        Some(Err(refused)) => Err(refused),
                        _ => self.load(&path),
                    };
                    match loaded {
                        Ok(Some(doc)) if doc.as_map().is_some() => self.add(&mut model, &rel, doc),
                        Ok(Some(doc)) => model.violations.push(
                            Error::new(
                                ErrorKind::Conflict,
                                format!("{rel} holds {}, not a mapping of sections", doc.kind_phrase()),
                            )
                            .code("InvalidModelFile")
                            .at(doc.span)
                            .hint("a model file is a mapping: product, then its sections; the service crashes on this file"),
                        ),
                        Ok(None) => return Err(self.unreadable(&rel, &path)),
                        Err(e) => model.violations.push(e),
                    }
                }
                Entry::Readme { suffix, path } => match self.files.read(&path)? {
                    Some(input) => {
                        let text = String::from_utf8_lossy(&input.bytes)
                            .replace("\r\n", "\n")
                            .replace('\r', "\n");
                        readme.insert(Key::str(&suffix), Node::str(text, Span::NONE));
                    }
                    None => {
                        let rel = path.strip_prefix(dir).unwrap_or(&path).display().to_string();
                        return Err(self.unreadable(&rel, &path));
                    }
                },
                Entry::LinkedDir { rel } => self.warnings.push(Warning::new(WarnKind::LinkedDir,
                    format!(
                        "{} is a symbolic link to a directory: the Ardana service's walk does not go into it (os.walk without followlinks), so no file below it is part of the model",
                        dir.join(&rel).display()
                    ),
                    Span::NONE,
                )),
            }
        }
        model.finish();
        self.warnings.append(&mut model.warnings);
        if let Some(first) = model.violations.first().cloned() {
            let n = model.violations.len();
            let mut e = first;
            for v in model.violations.into_iter().skip(1) {
                e = e.also(v);
            }
            return Err(e.also(Error::new(
                ErrorKind::Conflict,
                format!(
                    "{n} violation{} of the input-model rules in {}",
                    if n == 1 { "" } else { "s" },
                    dir.display()
                ),
            )));
        }
        Ok(output(model, name, version, readme))
    }

    /// A file the walk listed that cannot be read: a symbolic link to nothing (or a file
    /// removed meanwhile). The service's `open` fails there.
    fn unreadable(&mut self, rel: &str, path: &FsPath) -> Error {
        let what = if self.files.is_link(path) {
            "is a symbolic link to nothing"
        } else {
            "cannot be read"
        };
        Error::new(
            ErrorKind::Io,
            format!("{rel} {what} (the Ardana service crashes here: FileNotFoundError)"),
        )
        .hint(format!(
            "remove {} or make it point to a file",
            path.display()
        ))
    }

    /// Adds a file's sections to the model (recording each value's origin for `--explain`).
    fn add(&mut self, model: &mut Model, rel: &str, doc: Node) {
        Fold::layer(self.trace.as_mut(), model.files.len());
        if let (Some(trace), Some(map)) = (self.trace.as_mut(), doc.as_map()) {
            let rule = RuleRef {
                text: format!("ardana: {rel}").into(),
                origin: Origin::Default(
                    "Ardana: lists concatenated over files, pass-through merged two levels deep, any other section from one file".into(),
                ),
            };
            for (k, v) in map.iter() {
                let mut at = Path::root();
                at.push_key("inputModel");
                at.push_key(&crate::value::key_text(&k.0));
                let old = model.input.get(k);
                match (&v.kind, old) {
                    (Kind::List(items), _) => {
                        let start = old.and_then(Node::as_list).map_or(0, <[Node]>::len);
                        let outcome = if start > 0 {
                            Outcome::Appended
                        } else {
                            Outcome::Added
                        };
                        for (i, item) in items.iter().enumerate() {
                            let mut p = at.clone();
                            p.push_index(start + i);
                            trace.record(&p, outcome, Some(rule.clone()), item.span, &[], &[]);
                        }
                    }
                    (
                        Kind::Map(m),
                        Some(Node {
                            kind: Kind::Map(pt),
                            ..
                        }),
                    ) if crate::value::key_text(&k.0) == "pass-through" => {
                        for (pk, pv) in m.iter() {
                            let mut p = at.clone();
                            p.push_key(&crate::value::key_text(&pk.0));
                            let before = pt.get(pk);
                            match (&pv.kind, before) {
                                (Kind::Map(children), Some(b)) if b.as_map().is_some() => {
                                    for (ck, cv) in children.iter() {
                                        let mut c = p.clone();
                                        c.push_key(&crate::value::key_text(&ck.0));
                                        let prior = b.get(&crate::value::key_text(&ck.0));
                                        record_set(trace, &c, &rule, cv, prior);
                                    }
                                }
                                _ => record_set(trace, &p, &rule, pv, before),
                            }
                        }
                    }
                    _ => record_set(trace, &at, &rule, v, old),
                }
            }
        }
        if let Kind::Map(map) = doc.kind {
            model.add(rel, *map);
        }
    }
}

/// Records a value set at `at`: added, or replacing what an earlier file put there.
fn record_set(trace: &mut Trace, at: &Path, rule: &RuleRef, value: &Node, prior: Option<&Node>) {
    let (outcome, overrode) = match prior {
        Some(p) => (Outcome::Replaced, vec![p]),
        None => (Outcome::Added, Vec::new()),
    };
    trace.record(at, outcome, Some(rule.clone()), value.span, &overrode, &[]);
}

/// A map with its keys in sorted order, as the service's REST API writes every object.
fn sorted(entries: Vec<(&str, Node)>) -> Node {
    let mut entries = entries;
    entries.sort_by(|a, b| a.0.cmp(b.0));
    let mut map = Map::new();
    for (k, v) in entries {
        map.insert(Key::str(k), v);
    }
    Node::map(map, Span::NONE)
}

/// A map rebuilt with its keys in sorted order.
fn sort_map(map: Map) -> Node {
    let mut entries: Vec<(Key, Node)> = map.into_iter().collect();
    entries.sort_by_key(|(k, _)| crate::value::key_text(&k.0));
    let mut out = Map::new();
    for (k, v) in entries {
        out.insert(k, v);
    }
    Node::map(out, Span::NONE)
}

fn strings(items: &[String]) -> Node {
    Node::list(
        items
            .iter()
            .map(|s| Node::str(s.as_str(), Span::NONE))
            .collect::<List>(),
        Span::NONE,
    )
}

/// The combined model as the service returns it.
fn output(model: Model, name: Node, version: Node, readme: Map) -> Node {
    let mut sections: Vec<(String, Vec<String>)> = model.sections;
    sections.sort_by(|a, b| a.0.cmp(&b.0));
    let mut sections_map = Map::new();
    for (s, files) in &sections {
        sections_map.insert(Key::str(s), strings(files));
    }
    let mut fsm: Vec<(String, Vec<Placed>)> = model.file_section_map;
    fsm.sort_by(|a, b| a.0.cmp(&b.0));
    let mut fsm_map = Map::new();
    for (file, placed) in fsm {
        let items: List = placed.into_iter().map(placed_node).collect();
        fsm_map.insert(Key::str(&file), Node::list(items, Span::NONE));
    }
    let file_info = sorted(vec![
        ("_object_data", Node::empty_map(Span::NONE)),
        ("fileSectionMap", Node::map(fsm_map, Span::NONE)),
        ("files", strings(&model.files)),
        ("sections", Node::map(sections_map, Span::NONE)),
    ]);
    sorted(vec![
        ("errors", Node::list(List::new(), Span::NONE)),
        ("fileInfo", file_info),
        (
            "inputModel",
            iso_timestamps(Node::map(model.input, Span::NONE)),
        ),
        ("name", name),
        ("readme", sort_map(readme)),
        ("version", version),
    ])
}

/// Timestamps as the service's JSON encoder writes them (`isoformat()`: `2024-01-02`,
/// `2024-01-02T10:20:30`), whatever their spelling in the file.
fn iso_timestamps(mut node: Node) -> Node {
    match &mut node.kind {
        Kind::Timestamp(_) => {
            let mut text = crate::value::py::py_str(&node);
            if text.get(10..11) == Some(" ") {
                text.replace_range(10..11, "T");
            }
            Node::str(text, node.span)
        }
        Kind::List(items) => {
            for item in items.iter_mut() {
                *item = iso_timestamps(item.take());
            }
            node
        }
        Kind::Map(map) => {
            for (_, v) in map.iter_mut() {
                *v = iso_timestamps(v.take());
            }
            node
        }
        _ => node,
    }
}

fn placed_node(p: Placed) -> Node {
    match p {
        Placed::Section(s) => Node::str(s, Span::NONE),
        Placed::Array {
            section,
            key_field,
            ids,
        } => {
            let ids = Node::list(ids.into_iter().collect::<List>(), Span::NONE);
            let mut entries = vec![
                (section.as_str(), ids),
                ("keyField", Node::str(key_field, Span::NONE)),
                ("type", Node::str("array", Span::NONE)),
            ];
            entries.sort_by(|a, b| a.0.cmp(b.0));
            sorted(entries)
        }
        Placed::PassThrough(keys) => sorted(vec![
            ("pass-through", strings(&keys)),
            ("type", Node::str("object", Span::NONE)),
        ]),
    }
}
