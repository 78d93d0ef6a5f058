//! Heat conformance (`../shared/conformance/heat`).
