//! Adding one model file to the combined model, as the service's `add_doc_to_model` does —
//! a non-empty list section is appended (its entries keyed by the key field of the first
//! entry: `name`, `id`, `region-name`, `node_name`, the first present), `pass-through` is
//! updated two levels deep with dotted keys, any other section overwrites — and `fileInfo`
//! (`files`, `sections`, `fileSectionMap`) kept beside it. Where the service silently
//! overwrites or crashes, the input-model document's rules are enforced instead (DESIGN.md
//! §1): each violation is collected with both places, and the walk goes on, so `validate`
//! can report them all at once.

use crate::error::{Error, ErrorKind, WarnKind, Warning};
use crate::value::key_text;
use crate::value::{Key, Kind, Map, Node, Span};
use rustc_hash::FxHashMap;

/// The key fields a list entry can be identified by, in the service's order.
pub(super) const KEY_FIELDS: [&str; 4] = ["name", "id", "region-name", "node_name"];

/// One item of a file's `fileSectionMap` list.
#[derive(Clone, Debug)]
pub(super) enum Placed {
    /// A dictionary or scalar section, by name.
    Section(String),
    /// A non-empty list: its key field and the key of each entry the file holds.
    Array {
        section: String,
        key_field: String,
        ids: Vec<Node>,
    },
    /// The dotted `pass-through` keys the file holds.
    PassThrough(Vec<String>),
}

/// The combined model and its index, as the walk builds them.
#[derive(Default)]
pub(super) struct Model {
    pub input: Map,
    pub files: Vec<String>,
    pub sections: Vec<(String, Vec<String>)>,
    pub file_section_map: Vec<(String, Vec<Placed>)>,
    pub violations: Vec<Error>,
    pub warnings: Vec<Warning>,
    /// The key field of each list section and the file that chose it first.
    key_fields: FxHashMap<String, (&'static str, String)>,
    /// Where each dictionary section, list key and pass-through key was first written.
    dicts: FxHashMap<String, (String, Span)>,
    list_keys: FxHashMap<(String, Key), Span>,
    pass_keys: FxHashMap<String, Span>,
}

fn violation(code: &'static str, message: String, at: Span) -> Error {
    Error::new(ErrorKind::Conflict, message).code(code).at(at)
}

impl Model {
    /// `sections[name]`, created at the end when new.
    fn section_files(&mut self, name: &str) -> &mut Vec<String> {
        let i = match self.sections.iter().position(|(n, _)| n == name) {
            Some(i) => i,
            None => {
                self.sections.push((name.to_string(), Vec::new()));
                self.sections.len() - 1
            }
        };
        &mut self.sections[i].1
    }

    fn place(&mut self, file: &str, what: Placed) {
        match self.file_section_map.iter_mut().find(|(f, _)| f == file) {
            Some((_, list)) => list.push(what),
            None => self.file_section_map.push((file.to_string(), vec![what])),
        }
    }

    /// Adds the sections of one file (its document is a mapping).
    pub(super) fn add(&mut self, file: &str, doc: Map) {
        for (k, value) in doc.into_iter() {
            let section = key_text(&k.0);
            self.section_files(&section).push(file.to_string());
            match value.kind {
                Kind::List(_) => self.add_list(file, &section, k.span(), value),
                Kind::Map(_) if section == "pass-through" => self.add_pass_through(file, value),
                _ => self.add_plain(file, section, k.span(), value),
            }
        }
    }

    /// A dictionary or scalar section: overwrites; two files defining one (but `product`) is
    /// a violation.
    fn add_plain(&mut self, file: &str, section: String, at: Span, value: Node) {
        if let Some(old) = self.input.get(&Key::str(&section)) {
            if old.as_list().is_some() {
                self.violations.push(violation("SectionTypeClash", format!("section '{section}' is a list in an earlier file and {} here", value.kind_phrase()), at)
                    .note("the list is first written", old.span)
                    .hint("a section is either a list (which may be split over files) or a dictionary (in one file)"));
                return;
            }
        }
        if section != "product" {
            match self.dicts.get(&section) {
                Some((first, span)) => {
                    self.violations.push(
                        violation(
                            "DuplicateSection",
                            format!("section '{section}' is defined in {first} and again in {file}"),
                            at,
                        )
                        .note(format!("first defined in {first}"), *span)
                        .hint("a dictionary section must be defined in exactly one file (the service keeps the last one silently); merge the two definitions"),
                    );
                }
                None => {
                    self.dicts.insert(section.clone(), (file.to_string(), at));
                }
            }
        }
        self.place(file, Placed::Section(section.clone()));
        self.input.insert(Key::str(&section), value);
    }

    /// A list section: entries appended, each identified by the key field.
    fn add_list(&mut self, file: &str, section: &str, at: Span, value: Node) {
        let span = value.span;
        let Kind::List(items) = value.kind else {
            return;
        };
        if items.is_empty() {
            return;
        }
        let Some(key_field) = key_field(&items[0]) else {
            let first = &items[0];
            let message = if first.as_map().is_some() {
                format!(
                    "the first entry of list '{section}' has none of the key fields {}",
                    KEY_FIELDS.join(", ")
                )
            } else {
                format!("list '{section}' holds {}: a list section's entries must be mappings with a key field ({})", first.kind_phrase(), KEY_FIELDS.join(", "))
            };
            self.violations.push(
                violation("MissingKeyField", message, first.span)
                    .hint("give every entry a 'name' (or 'id', 'region-name', 'node_name'); the service fails with KeyError here"),
            );
            return;
        };
        match self.key_fields.get(section) {
            Some((first, by)) if *first != key_field => self.warnings.push(Warning::new(WarnKind::KeyField,
                format!("list '{section}' is keyed by '{key_field}' in {file} but by '{first}' in {by}: each file's entries are identified by its own key field, so an entry here and one there can describe the same thing without strata (or the service) seeing a duplicate; new entries are written with '{first}'"),
                items[0].span,
            )),
            Some(_) => {}
            None => {
                self.key_fields
                    .insert(section.to_string(), (key_field, file.to_string()));
            }
        }
        let mut ids = Vec::with_capacity(items.len());
        for item in items.iter() {
            let Some(id) = item.as_map().and_then(|m| m.get(&Key::str(key_field))) else {
                self.violations.push(
                    violation(
                        "MissingKeyField",
                        format!("an entry of list '{section}' has no '{key_field}' (the key field of this file's '{section}', chosen by its first entry)"),
                        item.span,
                    )
                    .note("the first entry", items[0].span)
                    .hint(format!("give the entry its '{key_field}'; the service fails with KeyError here")),
                );
                continue;
            };
            let key = (section.to_string(), Key(id.clone()));
            match self.list_keys.get(&key) {
                Some(first) => self.violations.push(
                    violation(
                        "DuplicateListKey",
                        format!("'{section}' has two entries with {key_field} {}", crate::value::py::py_repr(id)),
                        id.span,
                    )
                    .note("the first one", *first)
                    .hint("entries of a list must have unique key fields, also when the list is split over files; rename or remove one"),
                ),
                None => {
                    self.list_keys.insert(key, id.span);
                }
            }
            ids.push(id.clone());
        }
        self.place(
            file,
            Placed::Array {
                section: section.to_string(),
                key_field: key_field.to_string(),
                ids,
            },
        );
        match self.input.get_mut(&Key::str(section)) {
            Some(old) => match &mut old.kind {
                Kind::List(list) => list.extend(items),
                _ => self.violations.push(
                    violation(
                        "SectionTypeClash",
                        format!("section '{section}' is a dictionary in an earlier file and a list here"),
                        at,
                    )
                    .note("the dictionary", old.span)
                    .hint("a section is either a list (which may be split over files) or a dictionary (in one file)"),
                ),
            },
            None => {
                self.input
                    .insert(Key::str(section), Node::list(items, span));
            }
        }
    }

    /// `pass-through`: each key's mapping updates one level deep (dotted keys `key.child`),
    /// any other value is set (the plain key).
    fn add_pass_through(&mut self, file: &str, value: Node) {
        let span = value.span;
        let Kind::Map(map) = value.kind else {
            return;
        };
        let pt_key = Key::str("pass-through");
        if !self.input.contains_key(&pt_key) {
            self.input.insert(pt_key.clone(), Node::empty_map(span));
        }
        let mut dotted = Vec::new();
        for (k, v) in map.into_iter() {
            let key = key_text(&k.0);
            let names: Vec<(String, Span)> = match v.as_map() {
                Some(children) => children
                    .keys()
                    .map(|c| (format!("{key}.{}", key_text(&c.0)), c.span()))
                    .collect(),
                None => vec![(key.clone(), k.span())],
            };
            for (name, at) in names {
                match self.pass_keys.get(&name) {
                    Some(first) => self.violations.push(
                        violation(
                            "DuplicatePassThroughKey",
                            format!("pass-through key '{name}' is defined twice"),
                            at,
                        )
                        .note("first defined", *first)
                        .hint("each dotted pass-through key must be defined in exactly one place"),
                    ),
                    None => {
                        self.pass_keys.insert(name.clone(), at);
                    }
                }
                dotted.push(name);
            }
            let Some(Kind::Map(pt)) = self.input.get_mut(&pt_key).map(|n| &mut n.kind) else {
                continue;
            };
            match (pt.get_mut(&k), v.kind) {
                (Some(old), Kind::Map(children)) => match &mut old.kind {
                    Kind::Map(m) => {
                        for (ck, cv) in children.into_iter() {
                            m.insert(ck, cv);
                        }
                    }
                    _ => self.violations.push(
                        violation(
                            "SectionTypeClash",
                            format!("pass-through key '{key}' is {} in an earlier file and a mapping here", old.kind_phrase()),
                            k.span(),
                        )
                        .note("the earlier value", old.span)
                        .hint("the service crashes here (TypeError); give the key one kind of value"),
                    ),
                },
                (_, kind) => {
                    pt.insert(k, Node::new(kind, v.span));
                }
            }
        }
        self.place(file, Placed::PassThrough(dotted));
    }

    /// After the walk: one pass-through file collapses to the plain string, and
    /// `sections["pass-through"]` always exists.
    pub(super) fn finish(&mut self) {
        let pt_files = self.section_files("pass-through").clone();
        if let [only] = pt_files.as_slice() {
            if let Some((_, list)) = self.file_section_map.iter_mut().find(|(f, _)| f == only) {
                if let Some(p) = list
                    .iter_mut()
                    .find(|p| matches!(p, Placed::PassThrough(_)))
                {
                    *p = Placed::Section("pass-through".into());
                }
            }
        }
    }
}

/// The key field of a list: the first of `KEY_FIELDS` present in its first entry.
pub(super) fn key_field(first: &Node) -> Option<&'static str> {
    let map = first.as_map()?;
    KEY_FIELDS
        .into_iter()
        .find(|f| map.contains_key(&Key::str(f)))
}
