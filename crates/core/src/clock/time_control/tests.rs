//! Tests of the `TimeControl` tag form: parsing, errors and the round trip.

use std::num::NonZeroU32;

use proptest::prelude::*;

use super::{Bonus, Period, Schedule, TimeControl, TimeControlError};

fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
    text.parse()
}

fn periods(text: &str) -> Vec<Period> {
    match parse(text) {
        Ok(TimeControl::Timed(schedule)) => schedule.periods().copied().collect(),
        other => panic!("{text:?} should be timed, got {other:?}"),
    }
}

fn period(moves: u32, seconds: u32, bonus: Bonus) -> Period {
    Period {
        moves: NonZeroU32::new(moves),
        seconds,
        bonus,
    }
}

#[test]
fn unknown_and_untimed_are_question_mark_and_dash() {
    assert_eq!(parse("?"), Ok(TimeControl::Unknown));
    assert_eq!(parse("-"), Ok(TimeControl::Untimed));
    assert_eq!(TimeControl::Unknown.to_string(), "?");
    assert_eq!(TimeControl::Untimed.to_string(), "-");
}

#[test]
fn two_periods_with_increment() {
    assert_eq!(
        periods("40/5400+30:1800+30"),
        [
            period(40, 5400, Bonus::Increment(30)),
            period(0, 1800, Bonus::Increment(30)),
        ]
    );
}

#[test]
fn sudden_death_with_and_without_increment() {
    assert_eq!(periods("300+2"), [period(0, 300, Bonus::Increment(2))]);
    assert_eq!(periods("5400"), [period(0, 5400, Bonus::None)]);
}

#[test]
fn moves_then_sudden_death_without_increment() {
    assert_eq!(
        periods("40/7200:3600"),
        [period(40, 7200, Bonus::None), period(0, 3600, Bonus::None)]
    );
}

#[test]
fn delay_is_written_with_d() {
    assert_eq!(periods("300d5"), [period(0, 300, Bonus::Delay(5))]);
    assert_eq!(periods("40/5400d30"), [period(40, 5400, Bonus::Delay(30))]);
}

#[test]
fn the_examples_are_written_back_as_read() {
    for text in [
        "40/5400+30:1800+30",
        "300+2",
        "5400",
        "40/7200:3600",
        "300d5",
        "?",
        "-",
    ] {
        assert_eq!(parse(text).map(|tc| tc.to_string()).as_deref(), Ok(text));
    }
}

#[test]
fn a_repeating_last_period_is_returned_past_the_end() {
    let Ok(TimeControl::Timed(schedule)) = parse("40/7200:20/3600") else {
        panic!("timed");
    };
    assert_eq!(schedule.period(0).seconds, 7200);
    assert_eq!(schedule.period(1).seconds, 3600);
    assert_eq!(schedule.period(7).seconds, 3600);
}

#[test]
fn a_bad_number_is_named_with_its_period() {
    let error = parse("40/90x:30").expect_err("bad");
    assert_eq!(
        error,
        TimeControlError::BadNumber {
            number: "90x".to_owned(),
            period: "40/90x".to_owned(),
        }
    );
    assert!(error.to_string().contains("\"90x\""));
}

#[test]
fn signs_spaces_and_missing_numbers_are_bad_numbers() {
    for text in [
        "+300", "300++2", " 300", "300 ", "/300", "40/", "300+", "300d", "300+2d5",
    ] {
        assert!(
            matches!(parse(text), Err(TimeControlError::BadNumber { .. })),
            "{text:?}"
        );
    }
}

#[test]
fn a_number_too_large_is_a_bad_number() {
    assert!(matches!(
        parse("4294967296"),
        Err(TimeControlError::BadNumber { .. })
    ));
}

#[test]
fn empty_periods_are_refused() {
    for text in ["", ":300", "300:", "40/300::300"] {
        assert_eq!(
            parse(text),
            Err(TimeControlError::EmptyPeriod {
                text: text.to_owned()
            })
        );
    }
}

#[test]
fn zero_moves_are_refused() {
    assert_eq!(
        parse("0/300"),
        Err(TimeControlError::ZeroMoves {
            period: "0/300".to_owned()
        })
    );
}

#[test]
fn a_sudden_death_period_must_be_last() {
    assert_eq!(
        parse("300:40/300"),
        Err(TimeControlError::SuddenDeathNotLast {
            period: "300".to_owned()
        })
    );
}

#[test]
fn a_schedule_needs_a_period() {
    assert!(Schedule::new(Vec::new()).is_err());
}

fn arb_bonus() -> impl Strategy<Value = Bonus> {
    prop_oneof![
        Just(Bonus::None),
        any::<u32>().prop_map(Bonus::Increment),
        any::<u32>().prop_map(Bonus::Delay),
    ]
}

fn arb_period(moves: impl Strategy<Value = Option<NonZeroU32>>) -> impl Strategy<Value = Period> {
    (moves, any::<u32>(), arb_bonus()).prop_map(|(moves, seconds, bonus)| Period {
        moves,
        seconds,
        bonus,
    })
}

fn arb_time_control() -> impl Strategy<Value = TimeControl> {
    let counted = arb_period(any::<NonZeroU32>().prop_map(Some));
    let schedule = (
        prop::collection::vec(counted, 0..4),
        arb_period(any::<Option<NonZeroU32>>()),
    )
        .prop_filter_map("a valid schedule", |(mut periods, last)| {
            periods.push(last);
            Schedule::new(periods).ok()
        });
    prop_oneof![
        Just(TimeControl::Unknown),
        Just(TimeControl::Untimed),
        schedule.prop_map(TimeControl::Timed),
    ]
}

proptest! {
    #[test]
    fn display_then_parse_gives_the_same_time_control(tc in arb_time_control()) {
        prop_assert_eq!(parse(&tc.to_string()), Ok(tc));
    }

    #[test]
    fn whatever_parses_round_trips_through_display(text in "[0-9/+d:?-]{0,16}") {
        if let Ok(tc) = parse(&text) {
            prop_assert_eq!(parse(&tc.to_string()), Ok(tc));
        }
    }
}
