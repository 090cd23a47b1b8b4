//! The pages a demonstration screen shows, at 1920×1080 in a real headless Chromium: the hall
//! with 8 boards, one board, and the arbiter's console with 8 boards. Everything important is
//! inside the screen (no scrolling needed): every board of the hall with its players and both
//! clocks, the board page's clocks, moves, rulings and finished games, every row of the
//! console. Every board has its coordinates (a to h, 1 to 8) and every clock says whose it is.
//! Screenshots are written to $TOUCHMOVE_SCREENSHOTS when set (else a temporary directory), to
//! be looked at.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use common::browser::Browser;
use common::serving::{serve_command, start};

const TOKEN: &str = "operator-1080p-token";
const WIDTH: u32 = 1920;
const HEIGHT: u32 = 1080;

/// Where the screenshots go.
fn shots() -> PathBuf {
    let dir = std::env::var("TOUCHMOVE_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| std::env::temp_dir().join("touchmove-1080p"));
    std::fs::create_dir_all(&dir).expect("the screenshots' directory");
    dir
}

/// The elements of `css` that are not wholly inside the window: their rectangles.
fn outside(browser: &Browser, css: &str) -> Value {
    browser.eval(&format!(
        "return [...document.querySelectorAll('{css}')].map(e => e.getBoundingClientRect()) \
         .filter(r => r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || \
                      r.right > window.innerWidth) \
         .map(r => [r.left, r.top, r.right, r.bottom])"
    ))
}

/// How many elements `css` selects.
fn count(browser: &Browser, css: &str) -> u64 {
    browser
        .eval(&format!("return document.querySelectorAll('{css}').length"))
        .as_u64()
        .unwrap_or(0)
}

#[test]
fn the_hall_a_board_and_the_console_show_everything_within_1920_by_1080() {
    let mut command = serve_command(&[
        "--demo",
        "8",
        "--demo-first",
        "1",
        "--demo-speed",
        "4",
        "--demo-thinking",
        "600-1200",
        "--time-control",
        "300+2",
        "--console",
        "--event",
        "Club championship",
        "--round",
        "4",
    ]);
    command.env("TOUCHMOVE_TOKEN", TOKEN);
    let served = start(command);
    let address = served.address.as_str();
    let within = Duration::from_secs(60);
    let browser = Browser::with_viewport(WIDTH, HEIGHT);
    let size = browser.eval("return [window.innerWidth, window.innerHeight]");
    assert_eq!(
        size,
        serde_json::json!([WIDTH, HEIGHT]),
        "the window's inside"
    );

    // The hall: eight cards, each board with its coordinates, each clock named.
    browser.open(&format!("http://{address}/"));
    browser.text_when("#count", within, |text| text == "8 boards");
    browser.text_when(".card:nth-child(8) .move", within, |text| {
        text.starts_with("move")
    });
    assert_eq!(count(&browser, ".card"), 8);
    assert_eq!(count(&browser, ".card .coord.rank"), 8 * 8);
    assert_eq!(count(&browser, ".card .coord.file"), 8 * 8);
    let sides = browser.eval(
        "return [...document.querySelectorAll('.card .clock .side')].map(e => e.textContent)",
    );
    let expected: Vec<&str> = (0..8).flat_map(|_| ["White", "Black"]).collect();
    assert_eq!(sides, serde_json::json!(expected));
    assert_eq!(
        outside(&browser, ".card"),
        serde_json::json!([]),
        "a card off the screen"
    );
    browser.screenshot(&shots().join("hall-8-boards.png"));

    // One board: its clocks, its moves, its rulings and its finished games on the screen.
    browser.open(&format!("http://{address}/board/1"));
    browser.text_when("#moves", within, |text| !text.is_empty());
    browser.screenshot(&shots().join("board.png"));
    assert_eq!(count(&browser, "#board .coord"), 16);
    for css in [
        "#white-clock",
        "#black-clock",
        "#moves",
        "#rulings",
        "#finished",
        "#turn",
        "#board",
    ] {
        assert_eq!(
            outside(&browser, css),
            serde_json::json!([]),
            "{css} off the screen"
        );
    }
    let names = browser.eval(
        "return [document.getElementById('white-name').textContent, \
                 document.getElementById('black-name').textContent]",
    );
    assert_ne!(
        names,
        serde_json::json!(["White", "Black"]),
        "no players named"
    );

    // The console, signed in: a row per board, all eight on the screen, clocks named.
    browser.open(&format!("http://{address}/console"));
    browser.type_into("#token", TOKEN);
    browser.click("#sign-in");
    browser.text_when("#said", within, |text| text.starts_with("signed in"));
    browser.text_when("#boards tbody", within, |text| text.contains("White "));
    assert_eq!(count(&browser, "#boards tbody tr"), 8);
    let clocks = browser
        .eval("return [...document.querySelectorAll('#boards td.clocks')].map(e => e.textContent)");
    for clock in clocks.as_array().into_iter().flatten() {
        let clock = clock.as_str().unwrap_or_default();
        assert!(
            clock.starts_with("White ") && clock.contains("\nBlack "),
            "{clock}"
        );
    }
    browser.screenshot(&shots().join("console-8-boards.png"));
    assert_eq!(
        outside(&browser, "#boards tbody tr"),
        serde_json::json!([]),
        "a console row off the screen"
    );
    drop(served);
}
