//! What a frame says: one message per frame type, in both directions.

use crate::piece::Piece;
use crate::snapshot::Snapshot;
use crate::square::Square;

/// The content of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Message {
    /// Board → host (0x01): who the board is and what it can do; first frame after reset.
    Hello(Hello),
    /// Board → host (0x02): the full board state.
    Snapshot(Snapshot),
    /// Board → host (0x03): a square was lifted or placed.
    Change(Change),
    /// Board → host (0x04): a button was pressed.
    Button {
        /// Which button.
        button: Button,
        /// The board's clock when it was pressed, in milliseconds (wraps).
        time_ms: u32,
    },
    /// Board → host (0x05): the board is alive.
    Heartbeat {
        /// The board's clock, in milliseconds (wraps).
        time_ms: u32,
    },
    /// Host → board (0x81): send a SNAPSHOT now.
    RequestSnapshot,
    /// Host → board (0x82): set the LEDs of some squares.
    SetLeds(SetLeds),
    /// Host → board (0x83): the board frame with this sequence number was received.
    Ack {
        /// The sequence number acknowledged.
        seq: u8,
    },
}

/// HELLO: the board introduces itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hello {
    /// The protocol version the board speaks ([`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION)).
    pub protocol_version: u8,
    /// A unique identifier of the board (e.g. the MCU's unique id).
    pub board_id: [u8; 8],
    /// The firmware's version.
    pub firmware: FirmwareVersion,
    /// What the board can do.
    pub capabilities: Capabilities,
}

/// A firmware version, major.minor.patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FirmwareVersion {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
    /// Patch version.
    pub patch: u8,
}

/// HELLO's capability bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Capabilities {
    /// Bit 0: the board identifies pieces (else occupancy only).
    pub piece_identity: bool,
    /// Bit 1: the board has square LEDs (SET_LEDS does something).
    pub leds: bool,
    /// Bit 2: the board has buttons (clock, adjust, promotion choice).
    pub buttons: bool,
}

/// Capability bit: the board identifies pieces.
const PIECE_IDENTITY: u8 = 0x01;
/// Capability bit: the board has LEDs.
const LEDS: u8 = 0x02;
/// Capability bit: the board has buttons.
const BUTTONS: u8 = 0x04;

impl Capabilities {
    /// The capability byte (reserved bits zero).
    pub fn bits(self) -> u8 {
        [
            (self.piece_identity, PIECE_IDENTITY),
            (self.leds, LEDS),
            (self.buttons, BUTTONS),
        ]
        .iter()
        .filter(|(set, _)| *set)
        .fold(0x00, |bits, (_, bit)| bits | bit)
    }

    /// The capabilities of a capability byte; reserved bits are ignored.
    pub fn from_bits(bits: u8) -> Capabilities {
        Capabilities {
            piece_identity: bits & PIECE_IDENTITY != 0,
            leds: bits & LEDS != 0,
            buttons: bits & BUTTONS != 0,
        }
    }
}

/// CHANGE: one square changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Change {
    /// The square.
    pub square: Square,
    /// Lifted or placed.
    pub action: Action,
    /// The piece lifted or placed, on boards that identify pieces.
    pub piece: Option<Piece>,
    /// The board's clock when the square first read its new state, in milliseconds (wraps).
    pub time_ms: u32,
}

/// What happened on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// A piece left the square (0x00).
    Lifted,
    /// A piece arrived on the square (0x01).
    Placed,
}

/// The buttons of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Button {
    /// White pressed the clock (0x01).
    ClockWhite,
    /// Black pressed the clock (0x02).
    ClockBlack,
    /// The player having the move declared an adjustment, "j'adoube" (0x03).
    Adjust,
    /// Promotion choice: queen (0x11).
    PromoteQueen,
    /// Promotion choice: rook (0x12).
    PromoteRook,
    /// Promotion choice: bishop (0x13).
    PromoteBishop,
    /// Promotion choice: knight (0x14).
    PromoteKnight,
}

/// SET_LEDS: what the LEDs of some squares show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SetLeds {
    /// The squares whose LEDs change (bit `n` is square `n`); the others keep their state.
    pub mask: u64,
    /// What they show.
    pub pattern: LedPattern,
}

/// What a square's LED shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LedPattern {
    /// Dark (0x00).
    Off,
    /// Lit (0x01).
    On,
    /// Blinking, about 2 Hz (0x02).
    Blink,
}

impl Action {
    /// The action's byte.
    pub fn code(self) -> u8 {
        match self {
            Action::Lifted => 0x00,
            Action::Placed => 0x01,
        }
    }

    /// The action a byte names.
    pub fn from_code(code: u8) -> Option<Action> {
        match code {
            0x00 => Some(Action::Lifted),
            0x01 => Some(Action::Placed),
            _ => None,
        }
    }
}

impl Button {
    /// Every button, in code order.
    pub const ALL: [Button; 7] = [
        Button::ClockWhite,
        Button::ClockBlack,
        Button::Adjust,
        Button::PromoteQueen,
        Button::PromoteRook,
        Button::PromoteBishop,
        Button::PromoteKnight,
    ];

    /// The button's byte.
    pub fn code(self) -> u8 {
        match self {
            Button::ClockWhite => 0x01,
            Button::ClockBlack => 0x02,
            Button::Adjust => 0x03,
            Button::PromoteQueen => 0x11,
            Button::PromoteRook => 0x12,
            Button::PromoteBishop => 0x13,
            Button::PromoteKnight => 0x14,
        }
    }

    /// The button a byte names.
    pub fn from_code(code: u8) -> Option<Button> {
        Button::ALL.into_iter().find(|button| button.code() == code)
    }
}

impl LedPattern {
    /// The pattern's byte.
    pub fn code(self) -> u8 {
        match self {
            LedPattern::Off => 0x00,
            LedPattern::On => 0x01,
            LedPattern::Blink => 0x02,
        }
    }

    /// The pattern a byte names.
    pub fn from_code(code: u8) -> Option<LedPattern> {
        match code {
            0x00 => Some(LedPattern::Off),
            0x01 => Some(LedPattern::On),
            0x02 => Some(LedPattern::Blink),
            _ => None,
        }
    }
}

impl Message {
    /// The frame type byte of this message (see [`frame_type`](crate::frame_type)).
    pub fn frame_type(&self) -> u8 {
        use crate::wire::frame_type as t;
        match self {
            Message::Hello(_) => t::HELLO,
            Message::Snapshot(_) => t::SNAPSHOT,
            Message::Change(_) => t::CHANGE,
            Message::Button { .. } => t::BUTTON,
            Message::Heartbeat { .. } => t::HEARTBEAT,
            Message::RequestSnapshot => t::REQUEST_SNAPSHOT,
            Message::SetLeds(_) => t::SET_LEDS,
            Message::Ack { .. } => t::ACK,
        }
    }
}
