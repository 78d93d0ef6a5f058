//! `strata heat` behaviour tests.
