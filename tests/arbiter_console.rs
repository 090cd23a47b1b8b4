//! The arbiter's console (`serve --console`) in headless Chromium, as issue 28 asks: on three
//! demo boards with a clock, pushing to a stand-in for a Lichess broadcast and recording each
//! game, the operator signs in with the token, renames a player, gives two minutes and sets
//! both clocks on the first board, reinstates a position and enters a resignation on the second, declares the
//! third lost by default, agrees a draw on the first, and reads the first board turned round
//! and back. The board pages, `/games.pgn` and the push show each; the first two boards'
//! recordings replay to their streams; without the token every action is refused.

use crate::common;

use std::time::{Duration, Instant};

use serde_json::Value;

use common::browser::Browser;
use common::http::{get, request_with_body, sse_data, sse_until};
use common::push_stand_in::StandIn;
use common::serving::{serve_command, start};
use common::watching::replay_with;

const TOKEN: &str = "console-s3cret-0123456789";

/// Every board's summary, once `done` holds for them (or the deadline passes: `done` is then
/// asserted by the caller).
fn boards_when(address: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let (status, body) = get(address, "/api/boards");
        assert_eq!(status, 200, "{body}");
        let boards: Vec<Value> = serde_json::from_str(&body).expect("JSON");
        if done(&boards) || Instant::now() > deadline {
            return boards;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Board `name`'s summary among `boards`.
fn board<'a>(boards: &'a [Value], name: &str) -> &'a Value {
    boards
        .iter()
        .find(|board| board["name"] == name)
        .unwrap_or_else(|| panic!("no board {name}: {boards:?}"))
}

/// Each of the operator's actions, posted to board `name` without the token: all refused (401)
/// and nothing changed.
fn refused_without_the_token(address: &str, name: &str) {
    let host = format!("Host: {address}\r\n");
    for (action, body) in [
        ("result", "draw-agreed"),
        ("time", "white 120000"),
        ("clock", "60000 60000"),
        ("note", "a note"),
        ("tag", "White Somebody Else"),
        ("reinstate", "1"),
        ("flip", "turned"),
    ] {
        let line = format!("POST /api/boards/{name}/{action}");
        let (status, answer) = request_with_body(address, &line, &host, body);
        assert_eq!(status, 401, "{action} without the token: {answer}");
        let wrong = format!("{host}Authorization: Bearer not-{TOKEN}\r\n");
        let (status, answer) = request_with_body(address, &line, &wrong, body);
        assert_eq!(status, 401, "{action} with another token: {answer}");
    }
}

/// Clicks `css` twice, as a final action asks to be confirmed, and waits for the console to say
/// `done`.
fn confirm(browser: &Browser, css: &str, done: &str) -> String {
    let within = Duration::from_secs(15);
    browser.click(css);
    browser.text_when(css, within, |text| text.starts_with("Confirm"));
    browser.click(css);
    browser.text_when("#said", within, |text| text.contains(done))
}

#[test]
fn the_console_ends_games_gives_time_reinstates_and_renames_with_the_token_only() {
    let stand_in = StandIn::start(|_| (200, vec![], r#"{"games":[]}"#.to_owned()));
    let record = tempfile::tempdir().expect("a directory for the records");
    let record_arg = record.path().display().to_string();
    let url = format!("http://{}", stand_in.address);
    let mut command = serve_command(&[
        "--demo",
        "3",
        "--demo-thinking",
        "1500-2500",
        "--time-control",
        "600+5",
        "--console",
        "--record-dir",
        record_arg.as_str(),
        "--lichess-round",
        "r0und1d",
        "--lichess-url",
        url.as_str(),
    ]);
    command
        .env("TOUCHMOVE_TOKEN", TOKEN)
        .env("LICHESS_TOKEN", "lip_consoleTestToken0123456789");
    let served = start(command);
    let address = served.address.as_str();
    let started = boards_when(address, |boards| {
        boards.len() == 3 && boards.iter().all(|board| board["ply"].as_u64() >= Some(3))
    });
    assert_eq!(started.len(), 3, "{started:?}");
    for name in ["1", "2", "3"] {
        refused_without_the_token(address, name);
    }
    let untouched = get(address, "/games.pgn").1;
    assert!(!untouched.contains("Somebody Else") && !untouched.contains("arbiter"));

    let within = Duration::from_secs(15);
    let browser = Browser::start(1600, 900);
    browser.open(&format!("http://{address}/console"));
    // A wrong token is refused at the sign-in, not at the first action.
    browser.type_into("#token", &format!("not-{TOKEN}"));
    browser.click("#sign-in");
    let refused = browser.text_when("#said", within, |text| text.starts_with("not signed in"));
    assert!(refused.contains("not serve's operator token"), "{refused}");
    assert_eq!(
        browser.eval("return document.getElementById('desk').hidden"),
        Value::Bool(true),
        "the desk stays hidden"
    );
    assert_eq!(get(address, "/api/operator").0, 401);
    browser.type_into("#token", TOKEN);
    browser.click("#sign-in");
    browser.text_when("#said", within, |text| text.starts_with("signed in"));
    browser.text_when("#boards tbody", within, |text| text.contains("ply"));
    // Each board's health: when it last reported and when its last move was made.
    let heard = browser.text_when("#boards tr[data-board='1'] td.linkstate", within, |text| {
        text.contains("report ") && text.contains(" s ago · move ")
    });
    assert!(heard.starts_with("connected"), "{heard}");

    // Board 1: White renamed, two minutes more for White.
    let one = "#boards tr[data-board='1']";
    browser.type_into(&format!("{one} input.tag-value"), "Ushenina, Anna");
    browser.click(&format!("{one} button.named"));
    let said = browser.text_when("#said", within, |text| text.contains("White named"));
    assert!(said.starts_with("board 1:"), "{said}");
    browser.text_when(one, within, |text| text.contains("Ushenina, Anna"));
    browser.click(&format!("{one} button.time[data-side=white]"));
    browser.text_when("#said", within, |text| {
        text.contains("2 minutes more for white")
    });
    // Both clocks corrected: 9:00 for White, 8:30 for Black.
    browser.type_into(&format!("{one} input.clock-white"), "9:00");
    browser.type_into(&format!("{one} input.clock-black"), "0:08:30");
    confirm(
        &browser,
        &format!("{one} button.set-clock"),
        "clocks set to 9:00 and 0:08:30",
    );

    // Board 2: the position of a ply before the last reinstated, then White resigns.
    let two = "#boards tr[data-board='2']";
    let ply = board(&boards_when(address, |_| true), "2")["ply"]
        .as_u64()
        .expect("board 2's ply")
        - 1;
    browser.type_into(&format!("{two} input.ply"), &ply.to_string());
    let said = confirm(&browser, &format!("{two} button.reinstate"), "reinstated");
    assert!(
        said.contains(&format!("the position after ply {ply} reinstated")),
        "{said}"
    );
    let resign = format!("{two} button.result[data-words='resigned white']");
    confirm(&browser, &resign, "White resigned");

    // Board 3: Black defaulted, chosen among the other results.
    let three = "#boards tr[data-board='3']";
    browser.eval(&format!(
        "document.querySelector(\"{three} select.other-result\").value = 'default black'; return true;"
    ));
    confirm(
        &browser,
        &format!("{three} button.other"),
        "Black lost by default",
    );

    // Board 1: a draw agreed.
    let draw = format!("{one} button.result[data-words=draw-agreed]");
    confirm(&browser, &draw, "a draw agreed");
    let table = browser.text_when("#boards tbody", within, |text| {
        text.contains("1/2-1/2") && text.contains("0-1") && text.contains("1-0")
    });
    assert!(table.contains("Ushenina, Anna"), "{table}");
    browser.screenshot(&std::env::temp_dir().join("touchmove-console.png"));

    // The stream of each board says what was done, and its recording replays to it.
    let ended = |event: &Value| event["kind"] == "result";
    sse_until(address, "/api/boards/1/events", within, ended);
    sse_until(address, "/api/boards/2/events", within, ended);
    // Whole, with what the result said after it at the same instant (nothing pending).
    let whole = |path: &str| -> Vec<Value> {
        sse_data(address, path, Duration::from_secs(1))
            .iter()
            .map(|line| serde_json::from_str(line).expect("a JSON event"))
            .collect()
    };
    let first = whole("/api/boards/1/events");
    let second = whole("/api/boards/2/events");
    let kinds = |events: &[Value]| -> Vec<String> {
        events
            .iter()
            .filter_map(|event| event["kind"].as_str())
            .filter(|kind| {
                ["tag", "time-added", "clock-set", "reinstated", "result"].contains(kind)
            })
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(kinds(&first), ["tag", "time-added", "clock-set", "result"]);
    let set = first
        .iter()
        .find(|event| event["kind"] == "clock-set")
        .expect("the clocks set");
    assert_eq!(
        set["clock"],
        serde_json::json!({"white": 540_000, "black": 510_000})
    );
    assert_eq!(kinds(&second), ["reinstated", "result"]);
    let third = sse_until(address, "/api/boards/3/events", within, ended);
    let defaulted = third.last().expect("board 3's result");
    assert_eq!(
        (
            &defaulted["result"],
            &defaulted["rule"],
            &defaulted["termination"]
        ),
        (&"1-0".into(), &"6.7.1".into(), &"rules infraction".into())
    );
    let reinstated = second
        .iter()
        .find(|event| event["kind"] == "reinstated")
        .expect("the reinstatement");
    assert_eq!(reinstated["ply"], ply);
    let taken = second
        .iter()
        .filter(|event| event["kind"] == "takeback")
        .count();
    assert!(taken >= 1, "{second:?}");
    for (name, events) in [("1", &first), ("2", &second)] {
        let log = record.path().join(format!("{name}-game1.log"));
        let live: Vec<Value> = events
            .iter()
            .filter(|event| !crate::common::live_only(event))
            .cloned()
            .collect();
        assert_eq!(
            live,
            replay_with(&log, &["--time-control", "600+5"]),
            "board {name}'s recording"
        );
    }

    // The board pages show each.
    browser.open(&format!("http://{address}/board/1"));
    let white = browser.text_when("#white-name", within, |text| text.contains("Ushenina"));
    assert_eq!(white, "Ushenina, Anna");
    browser.text_when("#rulings", within, |text| {
        text.contains("120 s more for white") && text.contains("clocks set: white 9:00")
    });
    browser.text_when("#result", within, |text| text.contains("1/2-1/2"));
    browser.open(&format!("http://{address}/board/2"));
    let rulings = browser.text_when("#rulings", within, |text| text.contains("reinstated"));
    assert!(
        rulings.contains(&format!("the position after ply {ply} reinstated")),
        "{rulings}"
    );
    browser.text_when("#result", within, |text| text.contains("0-1"));

    // The PGN served and the push say each.
    let reinstated = format!("the arbiter reinstated the position after ply {ply}");
    let said_everywhere = [
        "[White \"Ushenina, Anna\"]",
        "the arbiter gave white 120 s more",
        "the arbiter set the clock: white 0:09:00, black 0:08:30",
        "[Result \"1/2-1/2\"]",
        reinstated.as_str(),
        "[Result \"0-1\"]",
        "[Termination \"normal\"]",
    ];
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let pgn = words(&get(address, "/games.pgn").1);
    for said in said_everywhere {
        assert!(pgn.contains(said), "/games.pgn lacks {said}:\n{pgn}");
    }
    let pushed = stand_in.until(Duration::from_secs(60), |received| {
        received.last().is_some_and(|last| {
            let body = words(&last.body);
            said_everywhere.iter().all(|said| body.contains(said))
        })
    });
    assert!(!pushed.is_empty());

    // Board 1 read turned round from the console, and back.
    browser.open(&format!("http://{address}/console"));
    let flip = format!("{one} button.flip");
    browser.text_when(&flip, within, |text| text == "Read turned round");
    browser.click(&flip);
    browser.text_when("#said", within, |text| text.contains("read turned round"));
    assert_eq!(board(&boards_when(address, |_| true), "1")["flipped"], true);
    browser.text_when(&flip, within, |text| text.ends_with('✓'));
    browser.click(&flip);
    browser.text_when("#said", within, |text| text.contains("the right way round"));
    assert_eq!(
        board(&boards_when(address, |_| true), "1")["flipped"],
        false
    );
    drop(served);
}
