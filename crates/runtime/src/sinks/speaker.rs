//! `--speak en|ru`: the voice, through Debian's espeak-ng, on a thread of its own. What is said
//! comes from the library's `speech::Voice`; a new utterance stops the one being said (never a
//! queue of stale speech: a move taken back is not spoken late). With `--speak-wav DIR` each
//! utterance is rendered to `DIR/N.wav` (its text in `DIR/N.txt`) instead, one after another.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;

use touchmove_core::output::speech::{Language, Utterance, Voice};
use touchmove_core::stream::StreamEvent;

/// The program that speaks.
const ESPEAK: &str = "espeak-ng";

/// The voice of a session.
pub struct Speaker {
    voice: Voice,
    said: mpsc::Sender<Utterance>,
    thread: std::thread::JoinHandle<()>,
}

/// Why the voice cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum SpeakerError {
    /// The voice's program is not installed.
    #[error("--speak: espeak-ng is missing (`apt-get install -y espeak-ng`)")]
    Missing,
    /// The folder the utterances are rendered to cannot be made.
    #[error("--speak-wav {}: {error}", dir.display())]
    WavDir {
        /// The folder.
        dir: PathBuf,
        /// Why it cannot be made.
        error: std::io::Error,
    },
    /// The voice's thread cannot be started.
    #[error("--speak: cannot start the voice: {0}")]
    Start(std::io::Error),
}

impl Speaker {
    /// A voice in `language` (every move said with `every_move`), played, or rendered to
    /// `wav_dir`; refused, saying how to get it, when espeak-ng is missing.
    pub fn start(
        language: Language,
        every_move: bool,
        wav_dir: Option<PathBuf>,
    ) -> Result<Speaker, SpeakerError> {
        let found = Command::new(ESPEAK)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !found {
            return Err(SpeakerError::Missing);
        }
        if let Some(dir) = &wav_dir {
            std::fs::create_dir_all(dir).map_err(|error| SpeakerError::WavDir {
                dir: dir.clone(),
                error,
            })?;
        }
        let (said, heard) = mpsc::channel();
        let voice = Voice {
            language,
            every_move,
        };
        let thread = std::thread::Builder::new()
            .name("voice".to_owned())
            .spawn(move || speak(language, wav_dir, &heard))
            .map_err(SpeakerError::Start)?;
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

    /// Says what the voice says of `event`, if anything.
    pub fn hear(&self, event: &StreamEvent) {
        if let Some(utterance) = self.voice.utterance(event) {
            let _ = self.said.send(utterance);
        }
    }
}

/// How often the utterance being said is looked at, to say at once that the voice failed.
const LOOK_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Speaks each utterance `heard` gives until the session ends. A failure of the voice's
/// program (it cannot be run, or it ends in failure) is said once, with the utterance, its
/// status and the first line it wrote on its standard error; the next utterances are tried all
/// the same.
fn speak(language: Language, wav_dir: Option<PathBuf>, heard: &mpsc::Receiver<Utterance>) {
    let mut speaking: Option<Speaking> = None;
    let mut count: u32 = 0;
    let mut said_failure = false;
    loop {
        let utterance = match heard.recv_timeout(LOOK_EVERY) {
            Ok(utterance) => utterance,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Some(failure) = speaking.as_mut().and_then(Speaking::ended_in_failure) {
                    speaking = None;
                    say_failure(&failure, &mut said_failure);
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if let Some(mut current) = speaking.take() {
            let failure = if wav_dir.is_some() {
                // A file being rendered is finished: it is no sound that could go stale.
                current.finish()
            } else {
                current.stop()
            };
            if let Some(failure) = failure {
                say_failure(&failure, &mut said_failure);
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
            .stderr(Stdio::piped());
        match command.spawn() {
            Ok(child) => speaking = Some(Speaking { child, text }),
            Err(error) => {
                let failure = format!("cannot run espeak-ng to say `{text}` ({error})");
                say_failure(&failure, &mut said_failure);
            }
        }
    }
    if let Some(failure) = speaking.and_then(|mut current| current.finish()) {
        say_failure(&failure, &mut said_failure);
    }
}

/// The voice failed: said the first time only.
fn say_failure(failure: &str, said: &mut bool) {
    if !std::mem::replace(said, true) {
        eprintln!("touchmove: --speak: {failure}; the game goes on (this is said once)");
    }
}

/// An utterance being said: the voice's program and what it says.
struct Speaking {
    child: Child,
    text: String,
}

impl Speaking {
    /// Why it failed, if it has ended in failure by now (`None` while it speaks, or once it
    /// has said its words).
    fn ended_in_failure(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => self.failure(status),
            Ok(None) | Err(_) => None,
        }
    }

    /// Waits for it to end: why it failed, if it did.
    fn finish(&mut self) -> Option<String> {
        let status = self.child.wait().ok()?;
        self.failure(status)
    }

    /// Stops it (a new utterance comes): why it failed, if it had ended in failure before.
    fn stop(&mut self) -> Option<String> {
        let failure = self.ended_in_failure();
        let _ = self.child.kill();
        let _ = self.child.wait();
        failure
    }

    /// The failure an ending with `status` is, if it is one: the utterance, the status and
    /// the first line the program wrote on its standard error.
    fn failure(&mut self, status: std::process::ExitStatus) -> Option<String> {
        if status.success() {
            return None;
        }
        let mut said = String::new();
        if let Some(stderr) = self.child.stderr.as_mut() {
            use std::io::Read;
            let _ = stderr.take(4096).read_to_string(&mut said);
        }
        let first = said.lines().find(|line| !line.trim().is_empty());
        Some(match first {
            Some(line) => format!(
                "espeak-ng failed saying `{}` ({status}): {}",
                self.text,
                line.trim()
            ),
            None => format!("espeak-ng failed saying `{}` ({status})", self.text),
        })
    }
}
