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
