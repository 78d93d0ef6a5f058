//! What a front-end produced: the rendered document (or stream of documents), its warnings and
//! its trace. Plain data shared by the front-ends that build it, the renderers that write it and
//! the CLI that passes one to the other, so the renderers never import the front-end layer.

#![warn(missing_docs)]

use crate::error::Warning;
use crate::merge::Trace;
use crate::value::{Node, Span};

/// What a front-end produced.
#[derive(Debug)]
pub struct Rendered {
    /// The result; for a stream (`stream` is set), a list with one item per document.
    pub doc: Node,
    /// First line of YAML output (e.g. `#cloud-config`).
    pub header: Option<&'static str>,
    /// Warnings of the run, in the order they arose.
    pub warnings: Vec<Warning>,
    /// What `--explain` says about a value besides where it came from: facts a reader of the
    /// value needs that are not warnings (not on stderr, not failed by `--strict`), e.g. a
    /// Heat `parameter_defaults` entry the stack's `parameters` override.
    pub notes: Vec<Warning>,
    /// Every merge decision, under `--explain`.
    pub trace: Option<Trace>,
    /// Set when the result is a stream of documents (Deckhand): YAML writes each item of
    /// `doc` as a document of its own, JSON the list as an array, `--explain` explains each
    /// document and `--explain=/N/...` addresses document N.
    pub stream: Option<Stream>,
    /// Whether the output is read with Ruby's Psych (Hiera data, read by Puppet): the YAML
    /// writer then also quotes the strings Psych alone would type (`yEs`, `1,000`, `:x`).
    pub psych: bool,
}

impl Rendered {
    /// A front-end's result: the document, its warnings and (with `--explain`) its trace.
    /// Everything else is set by the `with_*` methods of the front-ends that have it.
    pub fn new(doc: Node, warnings: Vec<Warning>, trace: Option<Trace>) -> Rendered {
        Rendered {
            doc,
            header: None,
            warnings,
            notes: Vec::new(),
            trace,
            stream: None,
            psych: false,
        }
    }
    /// The output is read with Ruby's Psych (Hiera data).
    pub fn with_psych(mut self) -> Rendered {
        self.psych = true;
        self
    }
    /// The first line of YAML output (`#cloud-config`).
    pub fn with_header(mut self, header: &'static str) -> Rendered {
        self.header = Some(header);
        self
    }
    /// Facts `--explain` says about values (not warnings).
    pub fn with_notes(mut self, notes: Vec<Warning>) -> Rendered {
        self.notes = notes;
        self
    }
    /// The result is a stream of documents (`doc` is their list).
    pub fn with_stream(mut self, stream: Stream) -> Rendered {
        self.stream = Some(stream);
        self
    }
}

/// What the explanation says about the documents of a stream, one entry per item of `doc`.
#[derive(Debug, Default)]
pub struct Stream {
    /// One entry per document of the stream, in order.
    pub docs: Vec<StreamDoc>,
    /// Trace layer and name of every document that was rendered (also those not in the
    /// result, such as abstract ones), to name the document of a step.
    pub names: Vec<(u32, String)>,
}

/// One document of a stream as a whole.
#[derive(Clone, Debug)]
pub struct StreamDoc {
    /// The trace layer (`Step::layer`) of the steps that rendered this document; their paths
    /// are relative to the document (`/data/a`).
    pub layer: u32,
    /// Trace layers of the documents it inherited from, nearest first: their steps are part
    /// of a value's history.
    pub chain: Vec<u32>,
    /// How the system names the document (Deckhand: `[schema, layer] name`).
    pub title: String,
    /// Where the document is written.
    pub at: Span,
    /// The documents it inherited from, nearest first: title and position.
    pub parents: Vec<(String, Span)>,
}
