//! How the registry makes an emulated board of any protocol from the options every emulated
//! board takes.

use super::board::EmulatedBoard;
use super::options::{EmulatorError, EmulatorOptions};

/// An emulated board made from the options every emulated board takes (it refuses, with
/// [`EmulatorError::Unsupported`], those its board lacks).
pub trait FromOptions: EmulatedBoard + Send + Sized + 'static {
    /// A board playing what `options` say, or why it cannot.
    fn from_options(options: &EmulatorOptions) -> Result<Self, EmulatorError>;
}

/// The registry's constructor of boards of type `B`: [`FromOptions::from_options`], boxed.
pub fn boxed<B: FromOptions>(
    options: &EmulatorOptions,
) -> Result<Box<dyn EmulatedBoard + Send>, EmulatorError> {
    Ok(Box::new(B::from_options(options)?))
}
