//! The Certabo boards over USB serial (a Silicon Labs CP210x bridge at 38400 baud): RFID boards,
//! a chip in each piece, and Sentio boards, occupancy only. The board streams its frames
//! without being asked; the host lights squares.
//!
//! - [`wire`]: the frames (chips or occupancy) and their streaming decoder, the LED bytes;
//! - [`calibration`]: the chips learnt from the start position (and the spare queens), and a
//!   chip frame read as pieces ([`calibration::Chips`]);
//! - [`session`]: the host's sans-IO session ([`CertaboSession`]): frames in, lifts and
//!   placements out, the chips learnt when none are known, the lights.
//!
//! Sources (protocol facts, no code): CERTABO/CERTABO-CHESSBOARDS-SOFTWARE `codes.py` (five
//! numbers a square from a8, a chip with more than two zeros no chip, calibration from the start
//! position by majority over frames, the LED bytes) and `usbtool.py`; JohanSjoblom/picochess
//! `eboard/certabo/parser.py` (the frames split at `:`, 320 or 8 numbers, the Sentio rank's high
//! bit file a, the spare queens on d6 and d3, a majority over at least 7 frames);
//! mono424/certabodriver (`CertaboMessage.dart`, `LEDPattern.dart`: the same frames, the LED
//! byte and bit).

pub mod calibration;
pub mod session;
pub mod wire;

pub use session::CertaboSession;

use crate::certabo::wire::Corrupt;
use touchmove_core::decode::StreamDecoder;
use wire::{FrameDecoder, Reading};

/// The Certabo protocol, over USB serial (38400 baud, 8N1). A frame takes about a quarter of a
/// second: a change is seen at a frame (the scan period), and taken at the next. The board has
/// no clock. Its promotions are the spare queen on an RFID board (its chip tells it) and chosen
/// at the host on a Sentio board, which senses occupancy only.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "certabo",
    summary: "a Certabo board (RFID or Sentio) over USB serial",
    line: Some(crate::live::SerialLine::eight_n_one(38_400)),
    ble: None,
    report_horizon_ms: 600,
    scan_ms: 250,
    new_session,
    probe: Some(crate::live::Probe {
        request: Vec::new,
        recognise,
    }),
    promotion_at_host: true,
};

/// The registry's session constructor: the chips are learnt from the start position.
fn new_session(
    _options: &crate::live::SessionOptions,
) -> Box<dyn crate::live::BoardSession + Send> {
    Box::new(CertaboSession::new(None))
}

/// What the bytes read on a port say of a Certabo board: one whole frame tells it (many
/// devices share its USB bridge's identifiers, so only its frames do).
fn recognise(bytes: &[u8]) -> Option<String> {
    let mut decoder = FrameDecoder::new();
    decoder.push(bytes);
    std::iter::from_fn(|| decoder.poll()).find_map(|decoded| match decoded {
        Ok(Reading::Chips(_)) => Some("Certabo RFID board".to_owned()),
        Ok(Reading::Occupancy(_)) => Some("Certabo Sentio board".to_owned()),
        Err(Corrupt { .. }) => None,
    })
}
