//! Consistent Overhead Byte Stuffing: rewrites a frame so that it contains no zero byte, at a
//! cost of one byte per 254.

use crate::bytes::{Full, Writer};

/// A code byte that ends a block of 254 non-zero bytes with no zero after it.
const FULL_BLOCK: u8 = 0xff;

/// The COBS encoding of `input`, written to `out`.
pub fn encode(input: &[u8], out: &mut Writer<'_>) -> Result<(), Full> {
    let mut code_at = out.len();
    let mut code = 0x01;
    out.put(code)?;
    for &byte in input {
        if byte != 0x00 {
            out.put(byte)?;
            code += 1;
        }
        if byte == 0x00 || code == FULL_BLOCK {
            out.set(code_at, code)?;
            code_at = out.len();
            code = 0x01;
            out.put(code)?;
        }
    }
    out.set(code_at, code)
}

/// Why COBS-encoded bytes could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CobsError {
    /// A zero byte, or a code byte pointing past the end.
    Malformed,
    /// The decoded frame does not fit the output.
    TooLong,
}

/// Decodes the COBS-encoded `input` (no delimiter) into `out`; returns the decoded length.
pub fn decode(input: &[u8], out: &mut [u8]) -> Result<usize, CobsError> {
    let mut writer = Writer::new(out);
    let mut rest = input;
    while let Some((&code, after)) = rest.split_first() {
        let data_length = usize::from(code)
            .checked_sub(1)
            .ok_or(CobsError::Malformed)?;
        let data = after.get(..data_length).ok_or(CobsError::Malformed)?;
        if data.contains(&0x00) {
            return Err(CobsError::Malformed);
        }
        writer.put_all(data).map_err(|Full| CobsError::TooLong)?;
        rest = after.get(data_length..).unwrap_or_default();
        if code != FULL_BLOCK && !rest.is_empty() {
            writer.put(0x00).map_err(|Full| CobsError::TooLong)?;
        }
    }
    Ok(writer.len())
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::{CobsError, decode, encode};
    use crate::bytes::Writer;
    use std::vec::Vec;

    fn encoded(input: &[u8]) -> Vec<u8> {
        let mut out = [0u8; 700];
        let mut writer = Writer::new(&mut out);
        assert_eq!(encode(input, &mut writer), Ok(()));
        writer.written().to_vec()
    }

    fn decoded(input: &[u8]) -> Result<Vec<u8>, CobsError> {
        let mut out = [0u8; 700];
        decode(input, &mut out).map(|len| out.get(..len).unwrap_or_default().to_vec())
    }

    #[test]
    fn examples_of_the_paper() {
        assert_eq!(encoded(&[]), [0x01]);
        assert_eq!(encoded(&[0x00]), [0x01, 0x01]);
        assert_eq!(
            encoded(&[0x11, 0x22, 0x00, 0x33]),
            [0x03, 0x11, 0x22, 0x02, 0x33]
        );
        assert_eq!(encoded(&[0x11, 0x00, 0x00]), [0x02, 0x11, 0x01, 0x01]);
    }

    #[test]
    fn a_block_of_254_non_zero_bytes() {
        let input = [0x42u8; 254];
        let out = encoded(&input);
        assert_eq!(out.len(), 256);
        assert_eq!(out.first(), Some(&0xff));
        assert_eq!(decoded(&out).as_deref(), Ok(&input[..]));
    }

    #[test]
    fn malformed_input_is_reported() {
        assert_eq!(decoded(&[0x00]), Err(CobsError::Malformed));
        assert_eq!(decoded(&[0x05, 0x11]), Err(CobsError::Malformed));
        assert_eq!(decoded(&[0x03, 0x11, 0x00]), Err(CobsError::Malformed));
    }

    #[test]
    fn output_too_small_is_reported() {
        let mut out = [0u8; 1];
        assert_eq!(
            decode(&[0x03, 0x11, 0x22], &mut out),
            Err(CobsError::TooLong)
        );
    }

    proptest::proptest! {
        #[test]
        fn round_trip(input in proptest::collection::vec(proptest::num::u8::ANY, 0..600)) {
            let out = encoded(&input);
            proptest::prop_assert!(!out.contains(&0x00));
            proptest::prop_assert_eq!(decoded(&out), Ok(input));
        }
    }
}
