use std::num::NonZeroU32;

use touchmove_firmware_protocol::{
    Action, Button, Decoded, Decoder, Frame, LedPattern, MAX_WIRE, Message, SetLeds, Snapshot,
    Square, encode,
};

use super::*;

/// The start position's occupancy: ranks 1, 2, 7 and 8.
const START: u64 = 0xffff_0000_0000_ffff;

fn square(index: u8) -> Square {
    Square::new(index).unwrap_or_else(|| unreachable!("{index} is a square"))
}

/// e2 lifted at 900 ms, e4 placed at 1500 ms, White's clock at 1600 ms.
fn script() -> Script {
    let change = |t, index, action| ScriptEvent {
        t,
        change: Change::Square {
            square: square(index),
            action,
        },
    };
    Script {
        start: START,
        events: vec![
            change(900, 0x0c, Action::Lifted),
            change(1500, 0x1c, Action::Placed),
            ScriptEvent {
                t: 1600,
                change: Change::Button(Button::ClockWhite),
            },
        ],
        lap: None,
    }
}

fn drain(emulator: &mut HallBoardEmulator) -> Vec<Vec<u8>> {
    std::iter::from_fn(|| emulator.poll_transmit()).collect()
}

/// Everything sent, decoded.
fn decoded(emulator: &mut HallBoardEmulator) -> Vec<Decoded> {
    let mut decoder = Decoder::new();
    drain(emulator)
        .concat()
        .iter()
        .filter_map(|&byte| decoder.push_byte(byte))
        .collect()
}

fn frames(emulator: &mut HallBoardEmulator) -> Vec<Frame> {
    decoded(emulator)
        .into_iter()
        .map(|item| match item {
            Decoded::Frame(frame) => frame,
            Decoded::Corrupt(corrupt) => panic!("corrupt frame sent: {corrupt:?}"),
        })
        .collect()
}

fn host(message: Message) -> Vec<u8> {
    let mut wire = [0x00; MAX_WIRE];
    let length = encode(&Frame { seq: 0x00, message }, &mut wire).expect("a host frame fits");
    wire[..length].to_vec()
}

#[test]
fn it_powers_up_then_plays_its_script_in_exact_frames() {
    let mut emulator = HallBoardEmulator::new(EmulatorConfig::new(script()));
    emulator.handle_timeout(2600);
    let sent = drain(&mut emulator);
    let expected: [&[u8]; 7] = [
        &[0x00],
        // HELLO seq 0x00: version 0x01, "TMHALL01", firmware 0.1.0, LEDs and buttons (0x06).
        &[
            0x03, 0x0d, 0x01, 0x0a, 0x01, 0x54, 0x4d, 0x48, 0x41, 0x4c, 0x4c, 0x30, 0x31, 0x02,
            0x01, 0x04, 0x06, 0xf9, 0x0a, 0x00,
        ],
        // SNAPSHOT seq 0x01: occupancy 0xffff00000000ffff.
        &[
            0x06, 0x08, 0x02, 0x01, 0xff, 0xff, 0x01, 0x01, 0x01, 0x05, 0xff, 0xff, 0x19, 0x6f,
            0x00,
        ],
        // CHANGE seq 0x02: e2 (0x0c) lifted at 900 ms.
        &[
            0x05, 0x07, 0x03, 0x02, 0x0c, 0x01, 0x03, 0x84, 0x03, 0x01, 0x03, 0xd3, 0x43, 0x00,
        ],
        // CHANGE seq 0x03: e4 (0x1c) placed at 1500 ms.
        &[
            0x06, 0x07, 0x03, 0x03, 0x1c, 0x01, 0x03, 0xdc, 0x05, 0x01, 0x03, 0x83, 0x34, 0x00,
        ],
        // BUTTON seq 0x04: White's clock at 1600 ms.
        &[
            0x07, 0x05, 0x04, 0x04, 0x01, 0x40, 0x06, 0x01, 0x03, 0x8a, 0xc8, 0x00,
        ],
        // HEARTBEAT seq 0x05: 2600 ms, 1000 ms after the last frame.
        &[
            0x06, 0x04, 0x05, 0x05, 0x28, 0x0a, 0x01, 0x03, 0x12, 0x25, 0x00,
        ],
    ];
    assert_eq!(sent, expected);
    assert!(emulator.script_done());
    assert_eq!(emulator.occupancy(), (START & !(1 << 0x0c)) | 1 << 0x1c);
    assert_eq!(emulator.poll_timeout(), Some(3600));
}

#[test]
fn a_snapshot_request_is_answered_with_the_occupancy_now() {
    let mut emulator = HallBoardEmulator::new(EmulatorConfig::new(script()));
    drain(&mut emulator);
    emulator.handle_bytes(1000, &host(Message::RequestSnapshot));
    let expected = Frame {
        seq: 0x03,
        message: Message::Snapshot(Snapshot {
            occupancy: START & !(1 << 0x0c),
            pieces: None,
        }),
    };
    // The CHANGE of 900 ms (seq 0x02) comes first, then the answer; no heartbeat at 1000 ms.
    let sent = frames(&mut emulator);
    assert_eq!(sent.iter().map(|f| f.seq).collect::<Vec<_>>(), [0x02, 0x03]);
    assert_eq!(sent.last(), Some(&expected));
}

#[test]
fn leds_are_remembered_and_acks_ignored() {
    let mut emulator = HallBoardEmulator::new(EmulatorConfig::new(script()));
    drain(&mut emulator);
    let set = |mask, pattern| host(Message::SetLeds(SetLeds { mask, pattern }));
    let mut bytes = set(0xff00, LedPattern::On);
    bytes.extend(set(0x0ff0, LedPattern::Blink));
    bytes.extend(set(0x0100, LedPattern::Off));
    bytes.extend(host(Message::Ack { seq: 0x01 }));
    emulator.handle_bytes(10, &bytes);
    let leds = emulator.leds();
    assert_eq!(
        leds,
        Leds {
            on: 0xf000,
            blinking: 0x0ef0
        }
    );
    assert_eq!(leds.pattern(square(0x0b)), LedPattern::Blink);
    assert_eq!(leds.pattern(square(0x0c)), LedPattern::On);
    assert_eq!(leds.pattern(square(0x08)), LedPattern::Off);
    assert_eq!(emulator.poll_transmit(), None);
    assert_eq!(emulator.poll_notice(), Some(Notice::ScriptStarted));
    assert_eq!(emulator.poll_notice(), None);
}

#[test]
fn every_nth_change_is_lost_leaving_a_sequence_gap() {
    let mut config = EmulatorConfig::new(script());
    config.drop_every = NonZeroU32::new(2);
    let mut emulator = HallBoardEmulator::new(config);
    emulator.handle_timeout(1600);
    let sent = frames(&mut emulator);
    let seqs: Vec<u8> = sent.iter().map(|f| f.seq).collect();
    assert_eq!(
        seqs,
        [0x00, 0x01, 0x02, 0x04],
        "seq 0x03, e4 placed, is lost"
    );
    assert!(matches!(
        sent.last().map(|f| f.message),
        Some(Message::Button { .. })
    ));
    assert_eq!(emulator.occupancy(), (START & !(1 << 0x0c)) | 1 << 0x1c);
    let notices: Vec<Notice> = std::iter::from_fn(|| emulator.poll_notice()).collect();
    assert!(notices.contains(&Notice::Dropped(0x03)), "{notices:?}");
}

#[test]
fn waiting_for_the_host_delays_the_script() {
    let mut config = EmulatorConfig::new(script());
    config.playing.start = ScriptStart::OnHost;
    let mut emulator = HallBoardEmulator::new(config);
    emulator.handle_timeout(5000);
    let idle = frames(&mut emulator);
    let types: Vec<u8> = idle.iter().map(|f| f.message.frame_type()).collect();
    assert_eq!(types, [0x01, 0x02, 0x05, 0x05, 0x05, 0x05, 0x05]);
    assert!(!emulator.script_done());
    // A lone delimiter is no frame: the script still waits.
    emulator.handle_bytes(5100, &[0x00]);
    assert_eq!(emulator.poll_timeout(), Some(6000));
    emulator.handle_bytes(5100, &host(Message::Ack { seq: 0x06 }));
    emulator.handle_timeout(6000);
    let change = frames(&mut emulator).into_iter().next().map(|f| f.message);
    let expected = ChangeFrame {
        square: square(0x0c),
        action: Action::Lifted,
        piece: None,
        time_ms: 6000,
    };
    assert_eq!(change, Some(Message::Change(expected)));
}

#[test]
fn noise_costs_no_frame() {
    let mut clean = HallBoardEmulator::new(EmulatorConfig::new(script()));
    let mut config = EmulatorConfig::new(script());
    config.playing.noise = Some(20.0);
    config.playing.seed = 5;
    let mut noisy = HallBoardEmulator::new(config);
    clean.handle_timeout(10_000);
    noisy.handle_timeout(10_000);
    let items = decoded(&mut noisy);
    let noisy_frames: Vec<Frame> = items
        .iter()
        .filter_map(|item| match item {
            Decoded::Frame(frame) => Some(*frame),
            Decoded::Corrupt(_) => None,
        })
        .collect();
    let corrupt = items.len() - noisy_frames.len();
    assert!(
        corrupt > 50,
        "{corrupt} noise bursts in 10 s at 20 a second"
    );
    assert_eq!(noisy_frames, frames(&mut clean));
}

#[test]
fn sequence_numbers_wrap() {
    let mut emulator = HallBoardEmulator::new(EmulatorConfig::new(script()));
    emulator.handle_timeout(300_000);
    let seqs: Vec<u8> = frames(&mut emulator).iter().map(|f| f.seq).collect();
    assert!(seqs.len() > 256, "{} frames", seqs.len());
    let expected: Vec<u8> = (0..seqs.len()).map(|i| (i % 256) as u8).collect();
    assert_eq!(seqs, expected);
}

#[test]
fn bad_host_bytes_are_reported() {
    let mut config = EmulatorConfig::new(script());
    config.playing.start = ScriptStart::OnHost;
    let mut emulator = HallBoardEmulator::new(config);
    drain(&mut emulator);
    let mut bytes = vec![0x13, 0x37, 0x00];
    bytes.extend(host(Message::Heartbeat { time_ms: 1 }));
    emulator.handle_bytes(10, &bytes);
    let notices: Vec<Notice> = std::iter::from_fn(|| emulator.poll_notice()).collect();
    assert_eq!(
        notices,
        [
            // 0x13 is a COBS code byte pointing past the delimiter.
            Notice::NotUnderstood("a corrupt frame (Cobs), 2 bytes dropped".to_owned()),
            Notice::ScriptStarted,
            Notice::Refused(0x05)
        ]
    );
    assert_eq!(emulator.poll_transmit(), None);
}

#[test]
fn the_protocol_s_probe_recognises_the_emulated_board_by_its_hello_and_not_before() {
    use crate::emulation::{EmulatorOptions, FromOptions, ScriptSource};
    let game = ScriptSource::Game {
        start: shakmaty::Chess::default(),
        moves: Vec::new(),
        messy: false,
    };
    let probe = touchmove_boards::hall::PROTOCOL
        .probe
        .unwrap_or_else(|| panic!("the Hall protocol has a probe"));
    let mut board = HallBoardEmulator::from_options(&EmulatorOptions::new(game))
        .unwrap_or_else(|error| panic!("{error}"));
    board.handle_bytes(0, &(probe.request)());
    let bytes: Vec<u8> = std::iter::from_fn(|| board.poll_transmit())
        .flatten()
        .collect();
    let described = (probe.recognise)(&bytes);
    assert!(
        described
            .as_deref()
            .is_some_and(|text| text.starts_with("Hall-sensor board 544d48414c4c3031")),
        "{described:?}"
    );
    // The power-up delimiter alone says nothing.
    assert_eq!((probe.recognise)(&bytes[..1]), None);
}

#[test]
fn unplugged_it_hears_and_says_nothing_and_plugged_in_again_it_powers_up_with_the_board_now() {
    let mut config = EmulatorConfig::new(script());
    config.unplug = Some(Unplug {
        at: 800,
        duration: 1000,
    });
    let mut emulator = HallBoardEmulator::new(config);
    drain(&mut emulator);
    let set = host(Message::SetLeds(SetLeds {
        mask: 0xff,
        pattern: LedPattern::On,
    }));
    emulator.handle_bytes(10, &set);
    emulator.handle_bytes(1000, &set);
    emulator.handle_bytes(1000, &host(Message::RequestSnapshot));
    // Unplugged at 800 ms: the lift at 900 and the place at 1500 go unsent, the host's frames
    // at 1000 unread, no heartbeat.
    emulator.handle_timeout(1799);
    assert_eq!(drain(&mut emulator), Vec::<Vec<u8>>::new());
    assert_eq!(emulator.leds().on, 0xff, "the LEDs of before");
    // Plugged in at 1800 ms: a delimiter, HELLO and SNAPSHOT numbered from 0x00 again, the
    // occupancy the hands left (e2 empty, e4 full); the button of 1600 ms is gone with the rest.
    emulator.handle_timeout(1800);
    let sent = drain(&mut emulator);
    assert_eq!(sent.first(), Some(&vec![0x00]));
    let frames: Vec<Frame> = sent
        .concat()
        .iter()
        .scan(Decoder::new(), |decoder, &byte| {
            Some(decoder.push_byte(byte))
        })
        .flatten()
        .map(|item| match item {
            Decoded::Frame(frame) => frame,
            Decoded::Corrupt(corrupt) => panic!("corrupt frame sent: {corrupt:?}"),
        })
        .collect();
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert!(matches!(frames[0].message, Message::Hello(_)));
    assert_eq!(frames[0].seq, 0x00);
    assert_eq!(
        frames[1],
        Frame {
            seq: 0x01,
            message: Message::Snapshot(Snapshot {
                occupancy: (START & !(1 << 0x0c)) | 1 << 0x1c,
                pieces: None,
            }),
        }
    );
    assert_eq!(emulator.leds(), Leds::default(), "dark after the power-up");
    let notices: Vec<Notice> = std::iter::from_fn(|| emulator.poll_notice()).collect();
    assert!(notices.contains(&Notice::Unplugged) && notices.contains(&Notice::Replugged));
    // Heard again: the next host frame is read.
    emulator.handle_bytes(1900, &set);
    assert_eq!(emulator.leds().on, 0xff);
}
