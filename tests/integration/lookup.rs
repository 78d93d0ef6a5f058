//! `strata lookup` and `strata merge --rules` behaviour tests.
