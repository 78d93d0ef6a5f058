//! Datum conformance (`../shared/conformance/datum`).
