//! The DGT codec against the public captures and arbitrary bytes.

#![allow(clippy::unwrap_used)] // tests may unwrap

use proptest::prelude::*;
use shakmaty::{Board, Square};
use tandem::device::read_capture;
use tandem::dgt::clock::ClockReading;
use tandem::dgt::{
    BatteryStatus, ClockAck, ClockSide, ClockTimes, Decoder, Fields, Message, Orientation,
    PieceCode, detect_orientation, encode_message, field_to_square,
};

fn hex(s: &str) -> Vec<u8> {
    tandem::dgt::hex::decode(&s.split_whitespace().collect::<String>()).unwrap()
}

fn decode_all(bytes: &[u8]) -> Vec<Message> {
    let mut d = Decoder::new();
    let mut out = Vec::new();
    d.push(bytes, &mut out);
    d.finish(&mut out);
    out
}

#[test]
fn public_capture_start_and_e2e4_normal() {
    // reference §1.4, from 1.inbytes.
    let dump = hex(
        "86 00 43 08 09 0a 0c 0b 0a 09 08 07 07 07 07 07 07 07 07 00 00 00 00 00 00 00 00
         00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
         01 01 01 01 01 01 01 01 02 03 04 06 05 04 03 02",
    );
    let mut bytes = dump;
    bytes.extend(hex("8e 00 05 34 00 8e 00 05 24 01"));
    let msgs = decode_all(&bytes);
    let [Message::BoardDump(f), e2, e4] = msgs.as_slice() else {
        panic!("{msgs:?}")
    };
    assert_eq!(
        f.placement_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
    );
    assert_eq!(detect_orientation(f), Some(Orientation::Normal));
    assert_eq!(
        *e2,
        Message::FieldUpdate {
            field: 0x34,
            code: PieceCode::EMPTY
        }
    );
    assert_eq!(
        *e4,
        Message::FieldUpdate {
            field: 0x24,
            code: PieceCode(1)
        }
    );
    assert_eq!(field_to_square(0x34, Orientation::Normal), Some(Square::E2));
    assert_eq!(field_to_square(0x24, Orientation::Normal), Some(Square::E4));
}

#[test]
fn public_capture_rotated() {
    // 2.inbytes starts 02 03 04 05 06 04 03 02; White's first move is fields 11 -> 27.
    let chunks = read_capture(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/fixtures/dgt/real-2.capture"
    )))
    .unwrap();
    let mut d = Decoder::new();
    let mut msgs = Vec::new();
    for c in &chunks {
        d.push(&c.bytes, &mut msgs);
    }
    let Some(Message::BoardDump(f)) = msgs.first() else {
        panic!()
    };
    assert_eq!(f.to_bytes()[..8], [2, 3, 4, 5, 6, 4, 3, 2]);
    assert_eq!(detect_orientation(f), Some(Orientation::Rotated));
    let first: Vec<_> = msgs
        .iter()
        .filter_map(|m| match m {
            Message::FieldUpdate { field, code } => Some((*field, *code)),
            _ => None,
        })
        .take(2)
        .collect();
    assert_eq!(first, vec![(11, PieceCode::EMPTY), (27, PieceCode(1))]);
    assert_eq!(field_to_square(11, Orientation::Rotated), Some(Square::E2));
    assert_eq!(field_to_square(27, Orientation::Rotated), Some(Square::E4));
}

#[test]
fn real_captures_decode_cleanly() {
    for (name, updates, clocks) in [
        ("real-1", 131, 323),
        ("real-2", 226, 578),
        ("real-johan", 101, 854),
    ] {
        let path = format!(
            "{}/../shared/fixtures/dgt/{name}.capture",
            env!("CARGO_MANIFEST_DIR")
        );
        let chunks = read_capture(std::path::Path::new(&path)).unwrap();
        let mut d = Decoder::new();
        let mut msgs = Vec::new();
        for c in &chunks {
            d.push(&c.bytes, &mut msgs);
        }
        d.finish(&mut msgs);
        let count = |k: &str| msgs.iter().filter(|m| m.kind() == k).count();
        assert_eq!(
            count("garbage") + count("malformed") + count("unknown"),
            0,
            "{name}"
        );
        assert_eq!(count("field_update"), updates, "{name}");
        assert_eq!(count("clock"), clocks, "{name}");
        assert_eq!(count("board_dump"), 1, "{name}");
        // Every clock is a running or stopped real clock: statuses as reference §2.3.
        for m in &msgs {
            if let Message::Clock(t) = m {
                assert!(
                    [0x08, 0x09, 0x12, 0x13].contains(&t.status),
                    "{name}: {t:?}"
                );
                assert!(!t.no_clock);
            }
        }
        // Re-encoding gives the same bytes back.
        let original: Vec<u8> = chunks.iter().flat_map(|c| c.bytes.clone()).collect();
        let again: Vec<u8> = msgs.iter().flat_map(encode_message).collect();
        assert_eq!(original, again, "{name}");
    }
}

fn every_kind() -> Vec<Message> {
    let r = |s| ClockReading::new(s);
    vec![
        Message::BoardDump(Fields::from_board(&Board::new(), Orientation::Rotated)),
        Message::FieldUpdate {
            field: 63,
            code: PieceCode(12),
        },
        Message::Clock(ClockTimes::new(r(299), r(300), ClockSide::Left, true)),
        Message::Clock(ClockTimes::no_clock()),
        Message::ClockAck(ClockAck {
            ack0: 0x10,
            ack1: 0x88,
            ack2: 0,
            ack3: 0x33,
        }),
        Message::ClockEmpty,
        Message::SerialNumber("12345".into()),
        Message::LongSerialNumber("3000147740".into()),
        Message::Version { major: 1, minor: 2 },
        Message::BusAddress(0x1234),
        Message::Trademark("Digital Game Technology".into()),
        Message::Battery(BatteryStatus::from_raw(vec![80, 1, 2, 3, 4, 5, 6, 7, 1])),
        Message::EeMoves {
            bytes: vec![0x6a, 0x40, 0x01, 0x6b],
        },
        Message::Malformed {
            id: 0x8d,
            payload: vec![0, 0x6a, 0, 0, 0, 0, 0x08],
        },
        Message::Unknown { id: 0x94, len: 53 },
    ]
}

#[test]
fn every_kind_round_trips() {
    let msgs = every_kind();
    for m in &msgs {
        assert_eq!(decode_all(&encode_message(m)), vec![m.clone()], "{m:?}");
    }
    let all: Vec<u8> = msgs.iter().flat_map(encode_message).collect();
    assert_eq!(decode_all(&all), msgs);
    // Journaled as JSON and back.
    let json = serde_json::to_string(&msgs).unwrap();
    assert_eq!(serde_json::from_str::<Vec<Message>>(&json).unwrap(), msgs);
}

#[test]
fn ack_and_time_are_told_apart() {
    let ack = decode_all(&hex("8d 00 0a 0a 10 08 0a 00 35 00"));
    assert!(
        matches!(ack.as_slice(), [Message::ClockAck(a)] if a.ack1 == 0x08),
        "{ack:?}"
    );
    let time = decode_all(&hex("8d 00 0a 20 03 02 20 03 02 08"));
    assert!(matches!(time.as_slice(), [Message::Clock(_)]));
    let empty = decode_all(&hex("8d 00 0a 00 00 00 00 00 00 00"));
    assert_eq!(empty, vec![Message::ClockEmpty]);
    let bad = decode_all(&hex("8d 00 0a 00 6a 00 00 00 00 08"));
    assert!(matches!(
        bad.as_slice(),
        [Message::Malformed { id: 0x8d, .. }]
    ));
}

#[test]
fn truncation_then_a_new_message() {
    let mut bytes = hex("86 00 43 08 09 0a");
    bytes.extend(hex("8e 00 05 24 01"));
    assert_eq!(
        decode_all(&bytes),
        vec![
            Message::Garbage { bytes: 6 },
            Message::FieldUpdate {
                field: 0x24,
                code: PieceCode(1)
            }
        ]
    );
    // A field past 63 is reported, not trusted.
    assert!(matches!(
        decode_all(&hex("8e 00 05 40 01")).as_slice(),
        [Message::Malformed { .. }]
    ));
}

fn arb_message() -> impl Strategy<Value = Message> {
    let kinds = every_kind();
    prop_oneof![
        (0u8..64, 0u8..16).prop_map(|(field, c)| Message::FieldUpdate {
            field,
            code: PieceCode(c)
        }),
        (0u32..36_000, 0u32..36_000, any::<bool>(), any::<bool>()).prop_map(|(l, r, side, run)| {
            let side = if side {
                ClockSide::Right
            } else {
                ClockSide::Left
            };
            Message::Clock(ClockTimes::new(
                ClockReading::new(l),
                ClockReading::new(r),
                side,
                run,
            ))
        }),
        proptest::collection::vec(0u8..13, 64)
            .prop_map(|v| Message::BoardDump(Fields::from_bytes(&v).unwrap())),
        (0usize..kinds.len()).prop_map(move |i| kinds[i].clone()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_in_random_chunks_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..3000),
        cuts in proptest::collection::vec(1usize..200, 1..40),
    ) {
        let mut d = Decoder::new();
        let mut out = Vec::new();
        let mut rest = bytes.as_slice();
        for c in cuts.iter().cycle() {
            if rest.is_empty() { break; }
            let (a, b) = rest.split_at((*c).min(rest.len()));
            d.push(a, &mut out);
            prop_assert!(d.pending() <= tandem::dgt::MAX_MESSAGE_LEN);
            rest = b;
        }
        d.finish(&mut out);
        // Every byte is accounted for, as a message or as garbage.
        let total: usize = out.iter().map(|m| match m {
            Message::Garbage { bytes } => *bytes,
            Message::Unknown { len, .. } => *len,
            m => encode_message(m).len(),
        }).sum();
        prop_assert_eq!(total, bytes.len());
    }

    #[test]
    fn valid_messages_after_garbage_are_all_recovered(
        segments in proptest::collection::vec(
            (proptest::collection::vec(any::<u8>(), 0..40), proptest::collection::vec(arb_message(), 1..4)),
            1..6),
        chunk in 1usize..64,
    ) {
        let mut stream = Vec::new();
        let mut expected = Vec::new();
        for (garbage, msgs) in &segments {
            stream.extend(garbage);
            for m in msgs {
                stream.extend(encode_message(m));
            }
            expected.push(msgs.clone());
        }
        let mut d = Decoder::new();
        let mut out = Vec::new();
        for c in stream.chunks(chunk) {
            d.push(c, &mut out);
        }
        d.finish(&mut out);
        // Each segment's valid messages appear, in order, after its garbage.
        let mut pos = 0;
        for msgs in &expected {
            for m in msgs {
                let found = out[pos..].iter().position(|x| x == m);
                prop_assert!(found.is_some(), "missing {:?} in {:?}", m, out);
                pos += found.unwrap_or(0) + 1;
            }
        }
        // The last segment's messages are exactly the tail.
        let last = expected.last().unwrap();
        prop_assert_eq!(&out[out.len() - last.len()..], last.as_slice());
    }
}
