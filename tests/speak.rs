//! `--speak`: a voice through Debian's espeak-ng. A game with a touch-move ruling, an illegal
//! move and a mate is played on an emulated Hall board (a real pseudo-terminal) and watched with
//! `--speak en` and `--speak ru`, each utterance rendered to a WAV file (`--speak-wav`, which
//! uses espeak-ng's `-w`): the texts spoken are the expected phrases, in order, and each file
//! holds sound of a plausible length.

use crate::common;

use std::process::Stdio;

use common::emulator::emulate_with;

/// The game: 1. f3 e5 2. g4 (the h-pawn touched first: 4.3.1), then Black's Qd8-d6 (illegal,
/// completed by Black's press; taken back), and 2... Qh4#.
const GAME: &str = include_str!("data/voice-game.log");

/// Panics, saying how to get it, unless espeak-ng runs.
fn require_espeak() {
    let found = std::process::Command::new("espeak-ng")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(
        found,
        "espeak-ng is missing: `apt-get install -y espeak-ng`, or run `.ci/run` (as root), which \
         installs everything the tests need"
    );
}

/// The length in seconds of the sound a WAV file holds (its `data` chunk over its byte rate).
fn seconds(wav: &[u8]) -> f64 {
    assert_eq!(wav.get(..4), Some(&b"RIFF"[..]), "not a WAV file");
    assert_eq!(wav.get(8..12), Some(&b"WAVE"[..]), "not a WAV file");
    let u32_at = |at: usize| -> u32 {
        let bytes: [u8; 4] = wav
            .get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .expect("a field");
        u32::from_le_bytes(bytes)
    };
    let byte_rate = u32_at(28);
    let mut at = 12;
    while at + 8 <= wav.len() {
        let size = u32_at(at + 4) as usize;
        if wav.get(at..at + 4) == Some(&b"data"[..]) {
            // espeak-ng writing to a file may leave the size unset: the rest of the file.
            let size = if size == 0 || at + 8 + size > wav.len() {
                wav.len() - at - 8
            } else {
                size
            };
            return size as f64 / f64::from(byte_rate);
        }
        at += 8 + size;
    }
    panic!("no data chunk")
}

/// An emulated Hall board whose hands play the sensor log `script` (written in `dir`).
fn hall_board_playing(dir: &std::path::Path, script: &str) -> common::emulator::Emulator {
    let log = dir.join("game.log");
    std::fs::write(&log, script).expect("written");
    emulate_with(
        "hall",
        &["--log", log.to_str().expect("a path")],
        Stdio::null(),
    )
}

/// `watch` of `board` (JSON lines, given up a second after the board is gone), its voice
/// speaking `language` rendered to WAV files in `wav`.
fn watch_speaking(
    board: &common::emulator::Emulator,
    language: &str,
    wav: &std::path::Path,
) -> std::process::Command {
    let mut command = common::bin();
    command
        .args([
            "watch",
            "--protocol",
            "hall",
            "--port",
            &board.port,
            "--json",
        ])
        .args(["--give-up-after", "1", "--speak", language])
        .arg("--speak-wav")
        .arg(wav);
    command
}

/// The texts spoken (in order) when the game is watched with `--speak LANGUAGE`, each checked
/// to have been rendered to a WAV file of plausible length.
fn spoken(language: &str) -> Vec<String> {
    require_espeak();
    let dir =
        std::env::temp_dir().join(format!("touchmove-speak-{language}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let board = hall_board_playing(&dir, GAME);
    let wav = dir.join("voice");
    let output = watch_speaking(&board, language, &wav)
        .output()
        .expect("watch runs");
    drop(board);
    common::assert_gave_up(&output);
    let mut texts = Vec::new();
    for n in 1.. {
        let text = wav.join(format!("{n}.txt"));
        if !text.exists() {
            break;
        }
        let sound = std::fs::read(wav.join(format!("{n}.wav"))).expect("its WAV");
        let length = seconds(&sound);
        let said = std::fs::read_to_string(&text).expect("its text");
        // A phrase of a few words: more than a fifth of a second, less than ten seconds.
        assert!((0.2..10.0).contains(&length), "{said}: {length} s");
        texts.push(said);
    }
    let _ = std::fs::remove_dir_all(&dir);
    texts
}

#[test]
fn the_voice_says_the_ruling_the_illegal_move_the_mating_move_and_the_result_in_english() {
    assert_eq!(
        spoken("en"),
        [
            "touch move: white, article 4 3 1",
            "illegal move by black",
            "queen h4, checkmate",
            "checkmate. black wins",
        ]
    );
}

#[test]
fn the_voice_speaks_russian_with_the_russian_names_of_pieces_and_files() {
    assert_eq!(
        spoken("ru"),
        [
            "тронул, ходи: белые, статья 4 3 1",
            "невозможный ход, чёрные",
            "ферзь аш4, мат",
            "мат. чёрные выиграли",
        ]
    );
}

/// The texts rendered in `dir` (`1.txt`, `2.txt`...), in order.
fn texts_in(dir: &std::path::Path) -> Vec<String> {
    (1..)
        .map(|n| dir.join(format!("{n}.txt")))
        .take_while(|text| text.exists())
        .map(|text| std::fs::read_to_string(text).expect("its text"))
        .collect()
}

#[test]
fn a_resumed_watch_does_not_say_again_what_was_said_before_the_crash() {
    require_espeak();
    let dir = tempfile::Builder::new()
        .prefix("touchmove-speak-resume-")
        .tempdir()
        .expect("a folder");
    // The game, its mating move two seconds later than in the others: the first watch is killed
    // once the illegal move is decided, and the second is under way before Black mates.
    let script: String = GAME
        .lines()
        .map(|line| match line.split_once(' ') {
            Some((t, rest)) if t.parse::<u64>().is_ok_and(|t| t >= 11_000) => {
                format!("{} {rest}\n", t.parse::<u64>().unwrap_or(0) + 2_000)
            }
            _ => format!("{line}\n"),
        })
        .collect();
    assert!(script.contains("13300 place h4"), "{script}");
    let board = hall_board_playing(dir.path(), &script);
    let record = dir.path().join("record.log");
    let watch = |voice: &std::path::Path, extra: &[&str]| {
        watch_speaking(&board, "en", voice)
            .arg("--record")
            .arg(&record)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("watch runs")
    };
    // The first watch says the ruling and the illegal move, and is killed (SIGKILL).
    let before = dir.path().join("before");
    let mut first = watch(&before, &[]);
    let illegal = common::child::await_lines(&mut first, r#""kind":"illegal""#, 1);
    assert_eq!(illegal, 1, "the first watch never decided the illegal move");
    // Its voice has said the ruling and the illegal move (rendered once they are decided:
    // waited for, as a person would listen, for up to ten seconds).
    let said_before = ["touch move: white, article 4 3 1", "illegal move by black"];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while texts_in(&before) != said_before && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    first.kill().expect("killed");
    first.wait().expect("reaped");
    assert_eq!(texts_in(&before), said_before);
    // The resumed watch reads the recording back in silence and says only what comes after.
    let after = dir.path().join("after");
    let resumed = watch(&after, &["--resume"])
        .wait_with_output()
        .expect("watch runs");
    common::assert_gave_up(&resumed);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("resumed:"), "{stderr}");
    drop(board);
    assert_eq!(
        texts_in(&after),
        ["queen h4, checkmate", "checkmate. black wins"],
        "{stderr}"
    );
}

#[test]
fn a_missing_language_is_refused_saying_which_there_are() {
    let output = common::touchmove(&["watch", "--speak", "de", "--port", "/nonexistent"], None);
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("`de`: the voice speaks `en` or `ru`"),
        "{said}"
    );
}

#[test]
fn the_page_s_voice_is_off_until_ticked_then_says_each_move_of_a_two_player_game() {
    use std::time::Duration;
    use touchmove::output::speech::{Language, Voice};
    let served = common::serving::serve(&common::serving::FAST_DEMO);
    let browser = common::browser::Browser::start(1280, 800);
    browser.open(&format!("http://{}/board/1", served.address));
    let within = Duration::from_secs(60);
    // What the browser would say is written into the page instead (headless: no sound).
    browser.eval(
        "window.speechSynthesis.speak = (u) => { \
           const p = document.createElement('p'); p.className = 'said-test'; \
           p.textContent = u.text; document.getElementById('said').append(p); }; \
         const box = document.createElement('div'); box.id = 'said'; \
         document.body.append(box); return true;",
    );
    // Some moves go by with the voice off: nothing said.
    let shown = browser.text_when("#moves", within, |text| {
        text.split_whitespace().count() >= 3
    });
    let before = shown
        .split_whitespace()
        .filter(|token| !token.ends_with('.'))
        .count();
    assert_eq!(
        browser.eval("return document.querySelectorAll('.said-test').length"),
        0
    );
    browser.click("#voice");
    let said = browser.text_when("#said", within, |text| text.lines().count() >= 4);
    drop(browser);
    // Each is a move of the game in the words `--speak en` uses (the library's own, written
    // apart from the page's script), in the order played, none said before the box was ticked.
    let (_, pgn) = common::http::get(&served.address, "/boards/1.pgn");
    let moves = common::pgn_games(&pgn)
        .into_iter()
        .next()
        .unwrap_or_default();
    let voice = Voice {
        language: Language::English,
        every_move: true,
    };
    let words: Vec<String> = moves.iter().map(|san| voice.san(san)).collect();
    let said: Vec<&str> = said.lines().collect();
    let first = words
        .iter()
        .position(|w| w == said[0])
        .unwrap_or_else(|| panic!("{said:?} not among {words:?}"));
    assert!(first >= before, "said before the box was ticked: {said:?}");
    assert_eq!(said, words[first..first + said.len()].to_vec());
}

#[test]
fn a_voice_that_fails_is_said_once_with_its_words_status_and_reason_and_the_game_goes_on() {
    // An espeak-ng that answers --version and fails every utterance, as one without a sound
    // device does.
    let dir = tempfile::tempdir().expect("a folder");
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).expect("a folder");
    let fake = bin.join("espeak-ng");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\n\
         echo 'ALSA lib pcm.c:2664: Unknown PCM default' >&2\necho 'more' >&2\nexit 3\n",
    )
    .expect("written");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("executable");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let board = hall_board_playing(dir.path(), GAME);
    let output = common::bin()
        .env("PATH", path)
        .args([
            "watch",
            "--protocol",
            "hall",
            "--port",
            &board.port,
            "--json",
        ])
        .args(["--give-up-after", "1", "--speak", "en", "--speak-moves"])
        .output()
        .expect("watch runs");
    drop(board);
    common::assert_gave_up(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let failures: Vec<&str> = stderr.lines().filter(|l| l.contains("--speak:")).collect();
    assert_eq!(failures.len(), 1, "{stderr}");
    let said = failures[0];
    assert!(said.contains("espeak-ng failed saying `"), "{said}");
    assert!(said.contains("exit status: 3"), "{said}");
    assert!(
        said.contains("ALSA lib pcm.c:2664: Unknown PCM default"),
        "{said}"
    );
    assert!(!said.contains("more"), "the first line only: {said}");
    // The game went on to its end.
    let events = common::json_lines(&output.stdout);
    assert!(events.iter().any(|e| e["kind"] == "result"), "{events:?}");
}
