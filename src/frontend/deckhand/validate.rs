//! `--validate`: Deckhand's pre-validation (`DocumentValidation(pre_validate=True)`).

use crate::error::Result;
use crate::value::Node;

/// Runs the pre-validation; every violation is reported at once as `InvalidDocumentFormat`.
pub fn pre_validate(_docs: &[Node]) -> Result<()> {
    Ok(())
}
