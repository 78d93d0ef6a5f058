//! `strata cloud-init` behaviour tests.
