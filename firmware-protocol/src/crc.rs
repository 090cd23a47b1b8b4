//! CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR
//! (check value over ASCII `123456789`: 0x29B1).

/// The generator polynomial (x^16 + x^12 + x^5 + 1), most significant bit first.
const POLYNOMIAL: u16 = 0x1021;

/// The register's value before the first byte.
const INITIAL: u16 = 0xffff;

/// The CRC-16/CCITT-FALSE of `bytes`.
pub fn crc16(bytes: &[u8]) -> u16 {
    bytes.iter().fold(INITIAL, |crc, &byte| update(crc, byte))
}

/// The register after shifting in one byte, bit by bit (small tables are a firmware's choice).
fn update(crc: u16, byte: u8) -> u16 {
    (0..8).fold(crc ^ (u16::from(byte) << 8), |crc, _| {
        if crc & 0x8000 != 0 {
            (crc << 1) ^ POLYNOMIAL
        } else {
            crc << 1
        }
    })
}

#[cfg(test)]
mod tests {
    use super::crc16;

    #[test]
    fn check_value_of_the_catalogue() {
        assert_eq!(crc16(b"123456789"), 0x29b1);
    }

    #[test]
    fn empty_input_is_the_initial_value() {
        assert_eq!(crc16(&[]), 0xffff);
    }
}
