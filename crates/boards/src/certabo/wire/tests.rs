//! The frames against vectors worked out by hand from the public descriptions (Certabo's own
//! software, PicoChess, mono424/certabodriver): the squares from a8, five numbers a square; a
//! Sentio rank's high bit file a; the LEDs byte `8 - rank`, bit `1 << file`.

use super::*;

fn decoded(bytes: &[u8]) -> Vec<Decoded> {
    let mut decoder = FrameDecoder::new();
    decoder.push(bytes);
    std::iter::from_fn(|| decoder.poll()).collect()
}

fn squares(names: &[Square]) -> Bitboard {
    names.iter().copied().collect()
}

#[test]
fn a_sentio_frame_is_a_rank_a_number_from_the_eighth_its_high_bit_file_a() {
    assert_eq!(
        decoded(b":255 255 0 0 0 0 255 255 \r\n"),
        [Ok(Reading::Occupancy(shakmaty::Board::new().occupied()))]
    );
    // 128 on the eighth rank: a8 alone; 1 on the first: h1 alone.
    assert_eq!(
        decoded(b":128 0 0 0 0 0 0 1 \r\n"),
        [Ok(Reading::Occupancy(squares(&[Square::A8, Square::H1])))]
    );
}

#[test]
fn an_rfid_frame_is_five_numbers_a_square_from_a8_to_h1() {
    let mut numbers = vec!["0"; RFID_NUMBERS];
    // a8 is the first square, b8 the second, h1 the last.
    numbers.splice(0..5, ["1", "2", "3", "4", "5"]);
    numbers.splice(5..10, ["6", "7", "8", "9", "10"]);
    numbers.splice(315..320, ["9", "8", "7", "6", "255"]);
    let text = format!(":{} \r\n", numbers.join(" "));
    let found = decoded(text.as_bytes());
    let [Ok(Reading::Chips(chips))] = found.as_slice() else {
        panic!("not one RFID frame");
    };
    assert_eq!(chips.first(), Some(&Chip([1, 2, 3, 4, 5])));
    assert_eq!(
        chips.get(index_of(Square::B8)),
        Some(&Chip([6, 7, 8, 9, 10]))
    );
    assert_eq!(
        chips.get(index_of(Square::H1)),
        Some(&Chip([9, 8, 7, 6, 255]))
    );
    assert_eq!(chips.iter().filter(|chip| !chip.is_none()).count(), 3);
}

#[test]
fn a_frame_encoded_reads_back_and_split_anywhere_is_the_same() {
    let mut chips = [Chip::NONE; 64];
    for (index, chip) in chips.iter_mut().enumerate().take(16) {
        *chip = Chip([index as u8 + 1, 17, 33, 49, 65]);
    }
    let reading = Reading::Chips(Box::new(chips));
    let bytes = encode_reading(&reading);
    for cut in [1, 10, bytes.len() / 2, bytes.len() - 1] {
        let (a, b) = bytes.split_at(cut);
        let mut decoder = FrameDecoder::new();
        decoder.push(a);
        assert_eq!(decoder.poll(), None, "cut at {cut}");
        decoder.push(b);
        assert_eq!(decoder.poll(), Some(Ok(reading.clone())));
    }
    let sentio = Reading::Occupancy(squares(&[Square::A8, Square::E4, Square::H1]));
    assert_eq!(decoded(&encode_reading(&sentio)), [Ok(sentio)]);
}

#[test]
fn a_square_with_more_than_two_zero_bytes_holds_no_chip() {
    assert!(Chip([0, 0, 0, 1, 2]).is_none(), "three zeros: stray values");
    assert!(!Chip([0, 0, 1, 2, 3]).is_none(), "two zeros: a chip");
    assert!(Chip::NONE.is_none());
}

#[test]
fn the_lights_are_byte_8_minus_rank_bit_file() {
    assert_eq!(
        encode_leds(squares(&[Square::A1])),
        [0, 0, 0, 0, 0, 0, 0, 1]
    );
    assert_eq!(
        encode_leds(squares(&[Square::H8])),
        [0x80, 0, 0, 0, 0, 0, 0, 0]
    );
    let e2_e4 = squares(&[Square::E2, Square::E4]);
    assert_eq!(encode_leds(e2_e4), [0, 0, 0, 0, 0x10, 0, 0x10, 0]);
    assert_eq!(decode_leds(&encode_leds(e2_e4)), e2_e4);
}

#[test]
fn what_makes_no_frame_is_said_and_the_next_frame_read() {
    let found = decoded(b"5 6 7 \r\n:1 2 3 \r\n:x 0 0 0 0 0 0 0 \r\n:0 0 0 0 0 0 0 1 \r\n");
    assert!(
        matches!(&found[..], [
            Err(Corrupt { why: a, .. }),
            Err(Corrupt { why: b, .. }),
            Err(Corrupt { why: c, .. }),
            Ok(Reading::Occupancy(_)),
        ] if a.contains("no `:`") && b.contains("3 numbers") && c.contains("`x`")),
        "{found:?}"
    );
}

#[test]
fn the_letters_some_boards_add_are_passed_over_and_a_frame_from_the_last_colon() {
    assert_eq!(
        decoded(b"0 0:L128 0 0 0 0 0 0 0 D\r\n"),
        [Ok(Reading::Occupancy(squares(&[Square::A8])))]
    );
}

#[test]
fn a_line_longer_than_any_frame_is_dropped_and_the_next_read() {
    let mut bytes = vec![b'7'; LINE_MAX + 1];
    bytes.extend_from_slice(b"\r\n:0 0 0 0 0 0 0 1 \r\n");
    let found = decoded(&bytes);
    assert!(
        matches!(found.first(), Some(Err(Corrupt { .. }))),
        "{found:?}"
    );
    assert_eq!(
        found.last(),
        Some(&Ok(Reading::Occupancy(squares(&[Square::H1]))))
    );
}
