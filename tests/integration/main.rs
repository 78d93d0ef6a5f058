//! Behaviour tests: the real `strata` binary on fixture files (one test target, one module per
//! front-end or concern). Run from `fixtures/` so messages show short, stable paths.

mod ardana;
mod bad_input;
mod cloud_init;
mod cloud_init_jinja;
mod colour;
mod comments;
mod completions;
mod deckhand;
mod diff;
mod docs;
mod explain;
mod heat;
mod hiera;
mod hiera_eyaml;
mod hiera_index;
mod hiera_psych;
mod jobs;
mod layering;
mod layers;
mod lookup;
mod merge;
mod positions;
mod properties;
mod readback;
mod reliability;
mod rng;
mod roundtrip;
mod stdin;
mod trust;
mod util;
mod warnings;
