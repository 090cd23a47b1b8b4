//! `--speak en|ru`: the voice, through Debian's espeak-ng, on a thread of its own. What is said
//! comes from the library's `speech::Voice`; a new utterance stops the one being said (never a
//! queue of stale speech: a move taken back is not spoken late). With `--speak-wav DIR` each
//! utterance is rendered to `DIR/N.wav` (its text in `DIR/N.txt`) instead, one after another.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;

use anyhow::{Context, Result, bail};

use touchmove::output::speech::{Language, Utterance, Voice};
use touchmove::stream::StreamEvent;

/// The program that speaks.
const ESPEAK: &str = "espeak-ng";

/// The voice of a session.
pub struct Speaker {
    voice: Voice,
    said: mpsc::Sender<Utterance>,
    thread: std::thread::JoinHandle<()>,
}

impl Speaker {
    /// A voice in `language` (every move said with `every_move`), played, or rendered to
    /// `wav_dir`; refused, saying how to get it, when espeak-ng is missing.
    pub fn start(
        language: Language,
        every_move: bool,
        wav_dir: Option<PathBuf>,
    ) -> Result<Speaker> {
        let found = Command::new(ESPEAK)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !found {
            bail!("--speak: espeak-ng is missing (`apt-get install -y espeak-ng`)");
        }
        if let Some(dir) = &wav_dir {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("--speak-wav {}", dir.display()))?;
        }
        let (said, heard) = mpsc::channel();
        let voice = Voice {
            language,
            every_move,
        };
        let thread = std::thread::Builder::new()
            .name("voice".to_owned())
            .spawn(move || speak(language, wav_dir, &heard))
            .context("--speak: cannot start the voice")?;
        Ok(Speaker {
            voice,
            said,
            thread,
        })
    }

    /// The session ends: what is being said is said to its end.
    pub fn finish(self) {
        drop(self.said);
        let _ = self.thread.join();
    }

    /// The voice set up by the board options `args` (`--speak`, `--speak-moves`,
    /// `--speak-wav`), if any.
    pub fn of(args: &super::args::WatchArgs) -> Result<Option<Speaker>> {
        args.speak
            .map(|language| Speaker::start(language, args.speak_moves, args.speak_wav.clone()))
            .transpose()
    }

    /// Says what the voice says of `event`, if anything.
    pub fn hear(&self, event: &StreamEvent) {
        if let Some(utterance) = self.voice.utterance(event) {
            let _ = self.said.send(utterance);
        }
    }
}

/// Speaks each utterance `heard` gives until the session ends.
fn speak(language: Language, wav_dir: Option<PathBuf>, heard: &mpsc::Receiver<Utterance>) {
    let mut speaking: Option<Child> = None;
    let mut count: u32 = 0;
    let mut failed = false;
    while let Ok(utterance) = heard.recv() {
        if let Some(mut child) = speaking.take() {
            if wav_dir.is_some() {
                // A file being rendered is finished: it is no sound that could go stale.
                let _ = child.wait();
            } else {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let Utterance::Say(text) = utterance else {
            continue;
        };
        count = count.saturating_add(1);
        let mut command = Command::new(ESPEAK);
        command.args(["-v", language.voice()]);
        if let Some(dir) = &wav_dir {
            let _ = std::fs::write(dir.join(format!("{count}.txt")), &text);
            command.arg("-w").arg(dir.join(format!("{count}.wav")));
        }
        command
            .arg("--")
            .arg(&text)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        match command.spawn() {
            Ok(child) => speaking = Some(child),
            Err(error) if !failed => {
                failed = true;
                eprintln!("touchmove: --speak: cannot run espeak-ng ({error})");
            }
            Err(_) => {}
        }
    }
    if let Some(mut child) = speaking {
        let _ = child.wait();
    }
}
