//! Why a message's data bytes do not decode: an error both the board's messages and the
//! clock's reports give.

/// Why the data bytes of a well-framed message do not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    /// The data bytes are not as many as the message needs.
    #[error("{length} data bytes, not as many as the message needs")]
    WrongLength {
        /// How many data bytes there were.
        length: usize,
    },
    /// A square number above 63.
    #[error("square number {index} is off the board")]
    BadSquare {
        /// The square number.
        index: u8,
    },
    /// A piece code above 15.
    #[error("piece code {code:#04x} is unknown")]
    BadPieceCode {
        /// The piece code.
        code: u8,
    },
    /// A clock byte that is not two BCD digits.
    #[error("clock byte {byte:#04x} is not BCD")]
    BadBcd {
        /// The byte.
        byte: u8,
    },
}
