//! The command line, as `clap` parses it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use touchmove::clock::ClockSide;
use touchmove::interpreter::Config;
use touchmove::output::notation::Notation;
use touchmove::sensor::Millis;
use touchmove::sensor_log::LogHeader;
use touchmove::timing::{Timing, resolve};

/// A touch-move controller for sensor chessboards.
#[derive(Debug, Parser)]
#[command(name = "touchmove", version, about)]
pub struct Cli {
    /// More diagnostics on standard error (-v, -vv, -vvv).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay a recorded sensor log and print the game it records.
    Replay(ReplayArgs),
    /// Simulate hands playing games of a PGN file and write their sensor logs.
    Simulate(SimulateArgs),
    /// List the serial ports and say which board answers on each.
    Ports(PortsArgs),
    /// Learn what a board must know of its pieces and keep it for the board: a Certabo RFID
    /// board's chips, from the pieces set up for a game and the spare queens on d6 and d3.
    Calibrate(CalibrateArgs),
    /// Watch a live board (any protocol of `--protocol`): each move and ruling as it is
    /// decided.
    Watch(WatchCommand),
    /// Emulate a sensor board on a pseudo-terminal, for testing hosts.
    Emulate(EmulateArgs),
    /// Every board of a hall in one process: a live page in the browser, its API, live PGN.
    Serve(Box<ServeArgs>),
    /// Play a UCI engine on the board: you play one side, the engine the other; its moves are
    /// shown and must be carried out on the board.
    Play(PlayArgs),
    /// See the whole path with no hardware: an emulated board (DGT unless --board) plays a real
    /// game and is watched live.
    Demo(DemoArgs),
    /// Play your Lichess games on the board (the Board API): your moves are sent as the board
    /// shows them, your opponent's are shown on the board to be carried out.
    Online(OnlineArgs),
    /// A game's report: each move's thinking time, time in hand, touches and rulings; with an
    /// engine its evaluation and judgement (?! ? ??), each player's accuracy; the annotated
    /// PGN, a chart of the evaluation and the clocks, a page.
    Report(ReportArgs),
    /// Check this machine for what the commands need: ports and the right to open them,
    /// boards, engines, espeak-ng, free addresses, the Lichess token, a hall file; each thing
    /// missing with its fix.
    Doctor(DoctorArgs),
    /// Write the man pages (touchmove.1 and one per subcommand) into DIR.
    #[command(hide = true)]
    Manpages(ManpagesArgs),
}

/// `touchmove report`.
#[derive(Debug, Args)]
#[command(after_long_help = REPORT_HELP)]
pub struct ReportArgs {
    /// The game: a sensor log (`touchmove-log 1` on its first line; every game it records)
    /// or a PGN file (its games, their `[%clk]` comments read as the clocks).
    #[arg(value_name = "LOG|PGN")]
    pub input: PathBuf,
    /// Judge every move with this UCI engine (`stockfish`, or a command with its arguments):
    /// each position searched to `--depth`, one thread, in order, so that the same game gives
    /// the same report.
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// How deep the engine searches each position.
    #[arg(long, value_name = "N", default_value_t = 14, value_parser = clap::value_parser!(u8).range(1..=40))]
    pub depth: u8,
    /// Syzygy tablebases (a folder of *.rtbw and *.rtbz files): a position they hold is
    /// judged by them, exactly (its result and distance to zeroing in the comment).
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<PathBuf>,
    /// Write the annotated PGN to this file (standard output then gets the per-move table).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write the chart of the evaluation and the clocks (of the last game) as SVG to this
    /// file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the report as one HTML page (every game: its chart, its table, its PGN) to this
    /// file.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// What `report --help` says after the options.
const REPORT_HELP: &str = "The report is computed from the recording alone: a sensor log is \
replayed as `replay` replays it (its header's settings), and what the board showed (lifts, \
placements, presses, the touches the interpreter counted) gives each move's times and touches. \
With --engine, a move that lost 0.1, 0.2 or 0.3 of the mover's winning chances (Lichess's \
measure) is an inaccuracy ($6 ?!), a mistake ($2 ?) or a blunder ($4 ??), with the engine's \
best move; a player's accuracy is the mean of their moves' (docs/report.md).";

/// `touchmove manpages`.
#[derive(Debug, Args)]
pub struct ManpagesArgs {
    /// Where the pages are written.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// `touchmove doctor`.
#[derive(Debug, Args)]
#[command(after_long_help = DOCTOR_HELP)]
pub struct DoctorArgs {
    /// The commands to check for: the exit status is not zero when something one of them
    /// needs is missing (default: every command).
    #[arg(value_enum, value_name = "COMMAND")]
    pub commands: Vec<Need>,
    /// Also ask this port (one the system does not list); repeatable.
    #[arg(long = "port", value_name = "PATH")]
    pub ports: Vec<PathBuf>,
    /// The engine to look for (as `play --engine` takes it), instead of Debian's engines.
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// A hall file to read back as `serve --config` reads it (its boards, addresses, engine
    /// and tokens are checked too).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read the Lichess token from this file instead of LICHESS_TOKEN.
    #[arg(long, value_name = "FILE")]
    pub lichess_token_file: Option<PathBuf>,
    /// The Lichess server asked about the token (default: https://lichess.org).
    #[arg(long, value_name = "URL")]
    pub lichess_url: Option<String>,
}

/// A command `doctor` checks the machine for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ValueEnum)]
pub enum Need {
    /// `touchmove watch`: a board.
    Watch,
    /// `touchmove play`: a board and a UCI engine.
    Play,
    /// `touchmove online`: a board and a Lichess token with `board:play`.
    Online,
    /// `touchmove serve`: its hall file, its address, its push's token.
    Serve,
    /// `touchmove calibrate`: a board.
    Calibrate,
}

impl Need {
    /// The command's name.
    pub fn name(self) -> &'static str {
        match self {
            Need::Watch => "watch",
            Need::Play => "play",
            Need::Online => "online",
            Need::Serve => "serve",
            Need::Calibrate => "calibrate",
        }
    }
}

/// What `touchmove doctor` does, for `--help`.
const DOCTOR_HELP: &str = "\
Each thing checked is `ok`, a `note` (worth knowing; needed by no command asked about) or
`MISSING` (a command asked about cannot do without it), with its fix. The token is sent to the
Lichess server (POST /api/token/test) and never printed. Examples: `touchmove doctor play
--engine stockfish`, `touchmove doctor serve --config /etc/touchmove/hall.toml`.";

/// `touchmove online`. The game's start and clock are the server's: `watch`'s `--start`,
/// `--chess960` and `--time-control` are not offered (and refused if given).
#[derive(Debug, Args)]
#[command(
    after_long_help = ONLINE_HELP,
    mut_arg("start", |arg| arg.hide(true)),
    mut_arg("chess960", |arg| arg.hide(true)),
    mut_arg("time_control", |arg| arg.hide(true))
)]
pub struct OnlineArgs {
    /// The Lichess server.
    #[arg(
        long,
        value_name = "URL",
        default_value = "https://lichess.org",
        help_heading = "Lichess"
    )]
    pub lichess_url: String,
    /// Read the token (scope board:play) from this file instead of LICHESS_TOKEN.
    #[arg(
        long,
        value_name = "FILE",
        visible_alias = "lichess-token-file",
        help_heading = "Lichess"
    )]
    pub token_file: Option<PathBuf>,
    /// Stop after this many games (default: game after game until stopped with Ctrl-C).
    #[arg(long, value_name = "N", help_heading = "Lichess")]
    pub games: Option<u32>,
    /// Seek a game of MIN minutes and INC seconds a move whenever none is going on (the seek
    /// stays open until a game starts, as the API requires).
    #[arg(long, value_name = "MIN+INC", value_parser = parse_seek, help_heading = "Lichess")]
    pub seek: Option<Seek>,
    /// The sought game is rated.
    #[arg(long, requires = "seek", help_heading = "Lichess")]
    pub rated: bool,
    /// The colour sought.
    #[arg(
        long,
        value_enum,
        requires = "seek",
        default_value = "random",
        help_heading = "Lichess"
    )]
    pub color: SeekColor,
    /// Accept the challenges of this user (`any`: of anyone); others are left alone.
    #[arg(long, value_name = "USER|any", help_heading = "Lichess")]
    pub accept: Option<String>,
    /// The variant sought, and the one whose challenges are accepted: `chess960` for Chess960
    /// (the server draws the starting position; set it up on the board, which the game waits
    /// for).
    #[arg(long, value_enum, default_value = "standard", help_heading = "Lichess")]
    pub variant: OnlineVariant,
    /// Also show the game on a live page served at ADDR (the page `serve` shows a board on,
    /// with the opponent's move to carry out, the server's clock, and buttons for draws,
    /// takebacks, resigning, aborting and claiming the win; a free port if that one is taken).
    /// Its address is the first line on standard output (on standard error with --json).
    #[arg(long, value_name = "ADDR", help_heading = "Output and records")]
    pub listen: Option<std::net::SocketAddr>,
    /// The board, its outputs and the game's options, as for `watch`.
    #[command(flatten)]
    pub board: WatchArgs,
}

/// A seek's time control: minutes and seconds of increment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seek {
    /// The minutes each side starts with.
    pub minutes: u32,
    /// The seconds added at each move.
    pub increment: u32,
}

/// `MIN+INC`, such as `10+5`.
fn parse_seek(text: &str) -> Result<Seek, String> {
    let (minutes, increment) = text
        .split_once('+')
        .ok_or_else(|| format!("`{text}`: give MIN+INC, such as 10+5"))?;
    let number = |part: &str, what: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{text}`: {what} `{part}` is not a whole number"))
    };
    Ok(Seek {
        minutes: number(minutes, "the minutes")?,
        increment: number(increment, "the increment")?,
    })
}

/// The colour a seek asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeekColor {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, as the server draws it.
    Random,
}

impl SeekColor {
    /// The name the API takes.
    pub fn as_str(self) -> &'static str {
        match self {
            SeekColor::White => "white",
            SeekColor::Black => "black",
            SeekColor::Random => "random",
        }
    }
}

/// The variant of chess an online game is sought or accepted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnlineVariant {
    /// Standard chess.
    Standard,
    /// Chess960 (Fischer random chess).
    Chess960,
}

impl OnlineVariant {
    /// Its key in the API.
    pub fn key(self) -> &'static str {
        match self {
            OnlineVariant::Standard => touchmove::online::lichess::wire::STANDARD,
            OnlineVariant::Chess960 => touchmove::online::lichess::wire::CHESS960,
        }
    }
}

/// What `touchmove online` does, for `--help`.
const ONLINE_HELP: &str = "\
The token is read from LICHESS_TOKEN (or --token-file) and never printed. The account's games
are played one after another, games already going on first: open a game on lichess.org (a
challenge, a seek), or let --accept and --seek find one, and it comes to the board (with
--variant chess960, Chess960 games: the server draws the position, said when the game begins,
and the game starts once the board shows it). Type
`draw`, `takeback`, `resign`, `abort` or `claim` (and Enter) to ask them of the server, or use
the buttons of the page --listen serves. Your moves are the board's: each is sent as soon as it
is decided, and only then; a move the server refuses is said and taken back on the board.
Your opponent's move is printed and shown on the board (a DGT 3000 clock's display, a Hall or
ChessLink board's lights) and must be carried out there: another move is reported and the game
waits. The server's clock is the game's. The result is the server's; Article 4 rulings are
reported for the record and bind no one. --record keeps what the server said in the log
(`@online`, `#server-line`, `#server-answer`): `replay` decides what the session decided.";

/// `touchmove watch`: the board, and its game's analysis.
#[derive(Debug, Args)]
pub struct WatchCommand {
    /// The board, its outputs and the game's options.
    #[command(flatten)]
    pub board: WatchArgs,
    /// The game's analysis.
    #[command(flatten)]
    pub analyse: AnalyseArgs,
}

/// `--analyse`: an engine analyses a game between two people as it goes (`watch`, `serve`).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Analysis")]
pub struct AnalyseArgs {
    /// A UCI engine (its program and arguments, separated by spaces) analyses each position
    /// of the game as it goes: its evaluation from White's side and its best line, as
    /// `analysis` events (serve: on the board pages, a bar and a line). Never shown on the
    /// board. Off unless given.
    #[arg(long, value_name = "CMD")]
    pub analyse: Option<String>,
    /// How long the engine searches each position, in ms.
    #[arg(long, value_name = "MS", default_value = "3000", requires = "analyse")]
    pub analyse_ms: u64,
    /// Syzygy tablebases (a folder of *.rtbw and *.rtbz files): the analysis of a position
    /// they hold says their result and distance to zeroing, exactly; serve's console shows it
    /// beside each board's result buttons (the arbiter decides; nothing is ruled from a
    /// table), and a finished game's report is judged by them.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<PathBuf>,
}

/// How bad a move must be for the coach to speak (`play --coach`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CoachLevel {
    /// Inaccuracies (0.1 of the winning chances lost), mistakes and blunders.
    Inaccuracy,
    /// Mistakes (0.2) and blunders.
    Mistake,
    /// Blunders (0.3) alone.
    Blunder,
}

/// `touchmove play`.
#[derive(Debug, Args)]
#[command(after_long_help = PLAY_HELP)]
pub struct PlayArgs {
    /// The engine: its program and arguments, separated by spaces (a UCI engine such as
    /// `stockfish`).
    #[arg(long, value_name = "CMD", help_heading = "Engine")]
    pub engine: String,
    /// An engine option to set (`setoption`), NAME=VALUE; repeatable.
    #[arg(long = "engine-option", value_name = "NAME=VALUE", value_parser = parse_engine_option, help_heading = "Engine")]
    pub engine_options: Vec<(String, String)>,
    /// The side you play; the engine plays the other.
    #[arg(
        long,
        value_name = "SIDE",
        default_value = "white",
        help_heading = "Engine"
    )]
    pub color: PlaySide,
    /// The engine thinks this long per move, in ms (default 1000 without --depth; with
    /// --time-control and neither, it is given the clock's times).
    #[arg(
        long,
        value_name = "MS",
        conflicts_with = "depth",
        help_heading = "Engine"
    )]
    pub movetime: Option<u64>,
    /// The engine searches to this depth per move.
    #[arg(long, value_name = "N", help_heading = "Engine")]
    pub depth: Option<u8>,
    /// The engine plays at this strength (UCI_LimitStrength, UCI_Elo); refused when the engine
    /// has no UCI_Elo option.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "skill",
        help_heading = "Engine"
    )]
    pub elo: Option<u32>,
    /// The engine plays at this skill level (its `Skill Level` option: Stockfish 0–20); refused
    /// when the engine has no such option.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        help_heading = "Engine"
    )]
    pub skill: Option<i64>,
    /// A Polyglot opening book (`.bin`): while the game's position is in it, the engine's move
    /// is one of the book's, chosen by weight, and the engine is not asked.
    #[arg(long, value_name = "FILE", help_heading = "Engine")]
    pub book: Option<std::path::PathBuf>,
    /// Coach: before the engine replies, a move of yours that is at least this bad
    /// (`inaccuracy`, `mistake`, `blunder`; default `mistake`: by Lichess's measure of the
    /// winning chances lost, the engine's evaluations before and after it) is said, and the
    /// engine waits: take the move back on the board, or type `go` (the page: Play on). The
    /// PGN says it. Not in `online` or `serve`.
    #[arg(long, value_name = "LEVEL", num_args = 0..=1, default_missing_value = "mistake", help_heading = "Engine")]
    pub coach: Option<CoachLevel>,
    /// Syzygy tablebases (a folder of *.rtbw and *.rtbz files): a hint in a position they
    /// hold is their move, with their result and distance to zeroing.
    #[arg(long, value_name = "DIR", help_heading = "Engine")]
    pub syzygy: Option<std::path::PathBuf>,
    /// The book's choices are drawn from this seed (the same seed, the same choices), else from
    /// a random one.
    #[arg(long, value_name = "N", requires = "book", help_heading = "Engine")]
    pub book_seed: Option<u64>,
    /// Also show the game on a live page served at ADDR (the page `serve` shows a board on,
    /// with the engine's move and score; a free port if that one is taken). Its address is
    /// the first line on standard output (on standard error with --json).
    #[arg(long, value_name = "ADDR", help_heading = "Output and records")]
    pub listen: Option<std::net::SocketAddr>,
    /// The board, its outputs and the game's options, as for `watch`.
    #[command(flatten)]
    pub board: WatchArgs,
}

/// The side the human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PlaySide {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, drawn by lot.
    Random,
}

/// What `touchmove play` does, for `--help`.
const PLAY_HELP: &str = "\
The engine is started first (its `id name` goes into the PGN's White or Black tag, with its
settings). The board is watched as `watch` watches it. After each of your moves the engine is
asked; its move is printed, shown on the board (a DGT 3000 clock's display, a Hall or ChessLink
board's lights) and must be carried out there: another move is reported (`carry out Nf3, not
Nc3`) and the game waits until the board shows the engine's. The engine's side earns no
Article 4 rulings. Taking back your move (the engine's reply first) asks the engine again when it
is its turn. An engine that dies or stops answering is started again and asked again (three
times at most; then the game goes on without it, both sides earning rulings, and that is said).
--elo or --skill sets the engine's strength, refused when the engine lacks the option (UCI_Elo,
Skill Level). --book FILE takes the engine's moves from a Polyglot book while the game is in it.
Type `resign` and Enter to resign, `hint` for the engine's best move for you (the page has a Hint
button too). --record keeps the engine's choices and a resignation in the
log (`@engine`, `#engine-move`, `#resign`): `replay` decides what the session decided, and
--resume goes on from it. --listen ADDR shows the game on serve's live board page.";

/// `en` or `ru`.
fn parse_language(text: &str) -> Result<touchmove::output::speech::Language, String> {
    text.parse()
}

/// `NAME=VALUE`.
fn parse_engine_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("`{text}`: give NAME=VALUE, such as Hash=64")),
    }
}

/// `touchmove serve`.
#[derive(Debug, Args)]
#[command(after_long_help = SERVE_HELP)]
pub struct ServeArgs {
    /// Read the hall from this TOML file: its keys are these options' long names
    /// (`lichess-round = "abc"`, `console = true`, `[[board]]` tables with `port`, `name`,
    /// `protocol`, `white`, `black`); an option on the command line overrides its key
    /// (docs/hall.md).
    #[arg(long, value_name = "FILE", help_heading = "Hall and pages")]
    pub config: Option<PathBuf>,
    /// The players the hall file's `[[board]]` tables seat, by board name (not an option).
    #[arg(skip)]
    pub seated: std::collections::HashMap<String, touchmove::watched::Players>,
    /// Where the pages and the API are served (default: 127.0.0.1:8080, or a free port if that
    /// one is taken; an address given is taken or refused).
    #[arg(long, value_name = "ADDR", help_heading = "Hall and pages")]
    pub listen: Option<std::net::SocketAddr>,
    /// Each board's game analysed by an engine (off unless given).
    #[command(flatten)]
    pub analyse: AnalyseArgs,
    /// How the board pages write moves: `san` (default), `long`, `figurine`, `ru`, `ru-long`
    /// (as for `watch`; the streams, the API and the PGN stay standard SAN).
    #[arg(long, value_name = "NOTATION", default_value = "san", value_parser = parse_notation, help_heading = "Hall and pages")]
    pub notation: Notation,
    /// A board to watch: its serial port or `ble:NAME`, with its protocol (by default a
    /// Bluetooth LE board's family, told by the board, or `dgt`) and its name (1, 2, ... in the
    /// order given by default).
    #[arg(long = "board", value_name = "[NAME=][PROTOCOL:]PORT", value_parser = parse_board_spec, help_heading = "Boards and games")]
    pub boards: Vec<BoardSpec>,
    /// Look for boards in DIR too, besides the serial ports, when no --board is given (every
    /// entry a port, such as /dev/serial/by-id).
    #[arg(
        long = "scan-dir",
        value_name = "DIR",
        help_heading = "Boards and games"
    )]
    pub scan_dirs: Vec<PathBuf>,
    /// Answer DGT LiveChess's local API too, at ADDR (`127.0.0.1:1982`, LiveChess's own, when
    /// no ADDR is given): `GET /api/v1.0/eboards` and the WebSocket at `/api/v1.0`, for the
    /// tools that read e-boards through LiveChess (docs/livechess.md).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:1982", help_heading = "Hall and pages")]
    pub livechess: Option<std::net::SocketAddr>,
    /// Also let pages from ORIGIN (`https://example.org`) open the LiveChess WebSocket and ask
    /// for changes (besides the server's own pages, https://lichess.org and
    /// https://www.chess.com); repeatable.
    #[arg(
        long = "allow-origin",
        value_name = "ORIGIN",
        help_heading = "Hall and pages"
    )]
    pub allow_origins: Vec<String>,
    /// Also answer requests that call this server NAME (`Host: NAME`), besides loopback names
    /// and the listening address; repeatable.
    #[arg(
        long = "allow-host",
        value_name = "NAME",
        help_heading = "Hall and pages"
    )]
    pub allow_hosts: Vec<String>,
    /// The operator's token: on an address other machines reach, a change (LiveChess's
    /// `setup` and `flip`, the stats reset) needs it (`Authorization: Bearer TOKEN`). Better
    /// given in the environment variable TOUCHMOVE_TOKEN (a command line is visible to every
    /// user of the machine). Never printed.
    #[arg(long, value_name = "TOKEN", value_parser = parse_token, help_heading = "Hall and pages")]
    pub token: Option<touchmove_web::token::Token>,
    /// Read the operator's token from this file (for a service: the file readable by its user
    /// only).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "token",
        help_heading = "Hall and pages"
    )]
    pub token_file: Option<PathBuf>,
    /// Serve the arbiter's console at /console: per board, a result (a draw agreed, a claim
    /// upheld, a resignation, the arbiter's decision), two minutes more for a player, a note.
    /// Its actions need the operator's token (--token or TOUCHMOVE_TOKEN) on every address.
    #[arg(long, help_heading = "Hall and pages")]
    pub console: bool,
    /// Show the public every board this late (`15m`, `30s`, `1h`): the pages, the streams,
    /// /games.pgn and the Lichess push. A request with the operator's token (the console) sees
    /// them live. Not with --livechess.
    #[arg(long, value_name = "DELAY", value_parser = parse_delay, help_heading = "Hall and pages")]
    pub public_delay: Option<std::time::Duration>,
    /// Keep one sensor log per board and game in DIR (`NAME-gameN.log`).
    #[arg(long, value_name = "DIR", help_heading = "Records and PGN")]
    pub record_dir: Option<PathBuf>,
    /// Push every board's current game to this Lichess broadcast round after each change (the
    /// token, with the study:write scope, from the environment variable LICHESS_TOKEN).
    #[arg(long, value_name = "ROUND_ID", help_heading = "Lichess broadcast")]
    pub lichess_round: Option<String>,
    /// Read the Lichess token (scope study:write) from this file instead of LICHESS_TOKEN.
    #[arg(
        long,
        value_name = "FILE",
        requires = "lichess_round",
        help_heading = "Lichess broadcast"
    )]
    pub lichess_token_file: Option<PathBuf>,
    /// The Lichess site the pushes go to.
    #[arg(
        help_heading = "Lichess broadcast",
        long,
        value_name = "URL",
        default_value = "https://lichess.org",
        requires = "lichess_round"
    )]
    pub lichess_url: String,
    /// Go on with each --board's last game recorded in --record-dir (after a crash or a
    /// restart): its log is read back and the game goes on where it was.
    #[arg(long, requires = "record_dir", help_heading = "Records and PGN")]
    pub resume: bool,
    /// Run N emulated DGT boards in the process, each playing real games that end in mate, one
    /// after another, by simulated hands (board N plays games N to N + 7 of 24, round and round).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20_000), help_heading = "Demonstration boards")]
    pub demo: Option<u32>,
    /// Which of the demo's 24 games the first demo board starts with (the next boards with the
    /// games after it); by default one drawn from --host-id, so that two hosts' demos play other
    /// pairings.
    #[arg(long, value_name = "N", requires = "demo", help_heading = "Demonstration boards",
          value_parser = clap::value_parser!(u16).range(1..=24))]
    pub demo_first: Option<u16>,
    /// How many times faster than human hands the demo boards play (as `demo --speed`).
    #[arg(long, value_name = "X", default_value_t = DEMO_SPEED, value_parser = positive_number, help_heading = "Demonstration boards")]
    pub demo_speed: f64,
    /// How long the demo boards' players think before a move: a random time in this range of
    /// ms (`2000-5000` is a blitz pace).
    #[arg(long, value_name = "MIN-MAX", default_value = "1000-8000", value_parser = parse_ms_range, help_heading = "Demonstration boards")]
    pub demo_thinking: (Millis, Millis),
    /// The `Event` tag of every game's PGN.
    #[arg(long, value_name = "NAME", help_heading = "Records and PGN")]
    pub event: Option<String>,
    /// The `Round` tag of every game's PGN.
    #[arg(long, value_name = "N", help_heading = "Records and PGN")]
    pub round: Option<String>,
    /// The `Site` tag of every game's PGN (where the hall is: `Oslo NOR`).
    #[arg(long, value_name = "PLACE", help_heading = "Records and PGN")]
    pub site: Option<String>,
    /// This host's name in every game's `GameId` (default: the machine's hostname): each host
    /// pushing to one broadcast round needs a name of its own (docs/hall.md).
    #[arg(long, value_name = "NAME", help_heading = "Records and PGN")]
    pub host_id: Option<String>,
    /// Who plays on which board: one line per board, `BOARD | WHITE | BLACK`, for the PGN's
    /// `White` and `Black` tags, the pages and the pushes.
    #[arg(long, value_name = "FILE", help_heading = "Boards and games")]
    pub players: Option<PathBuf>,
    /// The position the games start from (default: the standard starting position).
    #[arg(long, value_name = "FEN", help_heading = "Boards and games")]
    pub start: Option<String>,
    /// The games are Chess960 from starting position N (0–959; 518 is the standard one).
    #[arg(long, value_name = "N", conflicts_with = "start", value_parser = clap::value_parser!(u16).range(0..960), help_heading = "Boards and games")]
    pub chess960: Option<u16>,
    /// The interpreter's options.
    #[command(flatten)]
    pub interpreter: InterpreterArgs,
}

/// What `touchmove serve` does, for `--help`.
const SERVE_HELP: &str = "\
The first line on standard output is `serve: http://ADDR/`. `/` is the hall (every board at a
glance), `/board/NAME` one board large; the API the pages use is documented in docs/serve.md
(`/api/boards`, `/api/boards/NAME/events`, `/games.pgn`, `/boards/NAME.pgn`). Each board is
watched as `watch` watches it: reconnected, resynchronised, recorded with --record-dir. With no
--board and no --demo, every port on which a protocol's probe finds a board is watched (the
serial ports and each --scan-dir's entries, listed every 2 s): boards plugged in later join the
hall, named 1, 2, ... in the order found.";

/// The operator's token: not empty.
fn parse_token(text: &str) -> Result<touchmove_web::token::Token, String> {
    touchmove_web::token::Token::new(text)
        .ok_or_else(|| "the operator's token may not be empty".to_owned())
}

/// A delay: a whole number of seconds, minutes or hours (`30s`, `15m`, `1h`), above 0.
fn parse_delay(text: &str) -> Result<std::time::Duration, String> {
    let unit = |suffix: char, seconds: u64| {
        let number = text.trim().strip_suffix(suffix)?;
        number.parse::<u64>().ok()?.checked_mul(seconds)
    };
    unit('s', 1)
        .or_else(|| unit('m', 60))
        .or_else(|| unit('h', 3_600))
        .filter(|seconds| *seconds > 0)
        .map(std::time::Duration::from_secs)
        .ok_or_else(|| format!("`{text}`: give the delay as 30s, 15m or 1h"))
}

/// `MIN-MAX`, two times in ms, the first not above the second.
fn parse_ms_range(text: &str) -> Result<(Millis, Millis), String> {
    let parsed = text
        .split_once('-')
        .and_then(|(lo, hi)| Some((lo.trim().parse().ok()?, hi.trim().parse().ok()?)));
    match parsed {
        Some((lo, hi)) if lo <= hi => Ok((lo, hi)),
        _ => Err(format!("`{text}`: give MIN-MAX in ms, such as 2000-5000")),
    }
}

/// A board `serve` watches: `[NAME=][PROTOCOL:]PORT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardSpec {
    /// Its name, if given.
    pub name: Option<String>,
    /// Its protocol's name, if given (else a Bluetooth LE board's family, or `dgt`).
    pub protocol: Option<String>,
    /// Its port.
    pub port: PathBuf,
}

/// `[NAME=][PROTOCOL:]PORT`, the protocol one of the registry's (when not given: a Bluetooth
/// LE board's family, or `dgt`).
fn parse_board_spec(text: &str) -> Result<BoardSpec, String> {
    let (name, rest) = match text.split_once('=') {
        Some((name, rest)) if !name.is_empty() => (Some(name.to_owned()), rest),
        Some(_) => return Err(format!("`{text}`: the name before `=` is empty")),
        None => (None, text),
    };
    let (protocol, port) = match rest.split_once(':') {
        Some((protocol, port)) if touchmove::registry::find(protocol).is_some() => {
            (Some(protocol.to_owned()), port)
        }
        _ => (None, rest),
    };
    if port.is_empty() {
        return Err(format!("`{text}`: no port"));
    }
    Ok(BoardSpec {
        name,
        protocol,
        port: PathBuf::from(port),
    })
}

/// How the text output is shown (not with `--json`): moves, rulings and results always; the
/// board after each move when asked or on a terminal; the details with `-v`.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct TextArgs {
    /// Show the board after each move (shown anyway when standard output is a terminal).
    #[arg(long, help_heading = "Output and records")]
    pub diagram: bool,
    /// Whether the text output says the details (the global `-v`: the moves pending, the
    /// clock after each press). Not an option of its own.
    #[arg(skip)]
    pub details: bool,
}

impl TextArgs {
    /// Whether the board is shown after each move: asked, or standard output a terminal.
    pub fn diagram(&self) -> bool {
        use std::io::IsTerminal;
        self.diagram || std::io::stdout().is_terminal()
    }
}

/// How many times faster than human hands a demonstration plays by default (`demo --speed`,
/// `serve --demo-speed`): at the pace of people, as a hall would see it.
pub const DEMO_SPEED: f64 = 1.0;

/// `touchmove demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// How many times faster than human hands the game is played.
    #[arg(long, value_name = "X", default_value_t = DEMO_SPEED, value_parser = positive_number)]
    pub speed: f64,
    /// Which of the demo's games to play first (1 to 24: The Week in Chess 1599, games that
    /// end in mate); the games after it follow, one after another.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub game: u64,
    /// The seed of the simulated hands.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Print the decisions as JSON lines instead of the board and move list.
    #[arg(long)]
    pub json: bool,
    /// The text output as for `watch`: the board after each move and the details.
    #[command(flatten)]
    pub text: TextArgs,
    /// Where the board's page is served (a free port if that one is taken).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// The board to emulate: a protocol's name.
    #[arg(long, value_name = "NAME", default_value = "dgt", value_parser = protocol_name())]
    pub board: String,
}

/// `touchmove watch`.
#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The board's serial port, or `ble:NAME` or `ble:ADDRESS` for a Bluetooth LE board
    /// (default: the first serial port on which a board of --protocol answers).
    #[arg(long, value_name = "PATH", help_heading = "Board")]
    pub port: Option<PathBuf>,
    /// The protocol the board speaks (default: a Bluetooth LE board's family, told by its
    /// advertisement or its services; `dgt` on a serial port).
    #[arg(long, value_name = "NAME", value_parser = protocol_name(), help_heading = "Board")]
    pub protocol: Option<String>,
    /// Print the decisions as JSON lines (the events-json contract).
    #[arg(long, help_heading = "Output and records")]
    pub json: bool,
    /// The text output: the board after each move, the details.
    #[command(flatten)]
    pub text: TextArgs,
    /// How moves are written in the text output and on the page: `san` (default), `long`
    /// (`Ng1-f3`), `figurine` (`♘f3`), `ru` (the Russian edition's letters: `Кf3`, `e4:d5`),
    /// `ru-long` (`Кg1-f3`). The PGN and the JSON stay standard SAN.
    #[arg(long, value_name = "NOTATION", default_value = "san", value_parser = parse_notation, help_heading = "Output and records")]
    pub notation: Notation,
    /// A voice says, through espeak-ng, the moves to carry out (an engine's, an online
    /// opponent's), illegal moves, touch-move rulings, the mating move and the result: `en` or
    /// `ru`.
    #[arg(long, value_name = "LANG", value_parser = parse_language, help_heading = "Output and records")]
    pub speak: Option<touchmove::output::speech::Language>,
    /// With --speak, every move is said (a game between two players).
    #[arg(long, requires = "speak", help_heading = "Output and records")]
    pub speak_moves: bool,
    /// With --speak, each utterance is written to DIR as N.wav (and its text as N.txt) instead
    /// of being played.
    #[arg(
        long,
        value_name = "DIR",
        requires = "speak",
        help_heading = "Output and records"
    )]
    pub speak_wav: Option<PathBuf>,
    /// Record the sensor log here, line by line as reports arrive (a new or empty file: a
    /// record already there is never overwritten).
    #[arg(long, value_name = "LOG", help_heading = "Output and records")]
    pub record: Option<PathBuf>,
    /// Go on with the game recorded in --record LOG (after a crash or a restart): the game and
    /// its clock are rebuilt from it, and the recording goes on at its end.
    #[arg(long, requires = "record", help_heading = "Output and records")]
    pub resume: bool,
    /// Keep the game's PGN here, rewritten after every move.
    #[arg(long, value_name = "FILE", help_heading = "Output and records")]
    pub pgn: Option<PathBuf>,
    /// The position the game starts from (default: the standard starting position).
    #[arg(long, value_name = "FEN", help_heading = "Game")]
    pub start: Option<String>,
    /// The game is Chess960 from starting position N (0–959; 518 is the standard one).
    #[arg(long, value_name = "N", conflicts_with = "start", value_parser = clap::value_parser!(u16).range(0..960), help_heading = "Game")]
    pub chess960: Option<u16>,
    /// Stop when the board has been unreachable this many seconds (default: keep trying; a
    /// number of seconds from 0 to 31536000).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, help_heading = "Board")]
    pub give_up_after: Option<f64>,
    /// The side of a DGT clock White sits on (default: learnt from the first press of the game
    /// on a running clock).
    #[arg(long, value_name = "SIDE", value_parser = parse_clock_side(), help_heading = "Board")]
    pub white_on_clock: Option<ClockSide>,
    /// The interpreter's options.
    #[command(flatten)]
    pub interpreter: InterpreterArgs,
}

/// The names of the registry's protocols, for `--protocol` and `emulate NAME`.
fn protocol_name() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        touchmove::registry::PROTOCOLS.iter().map(|protocol| {
            clap::builder::PossibleValue::new(protocol.name).help(protocol.summary)
        }),
    )
}

/// `touchmove ports`.
#[derive(Debug, Args)]
pub struct PortsArgs {
    /// Ports to ask besides those the system lists (a pseudo-terminal, say).
    pub paths: Vec<PathBuf>,
}

/// `touchmove calibrate`.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// The board's serial port (default: the first on which a board of --protocol answers).
    #[arg(long, value_name = "PATH")]
    pub port: Option<PathBuf>,
    /// The protocol the board speaks.
    #[arg(long, value_name = "NAME", default_value = "certabo", value_parser = protocol_name())]
    pub protocol: String,
    /// Give up when the pieces have not read steadily for this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub timeout: u64,
}

/// `touchmove emulate`.
#[derive(Debug, Args)]
#[command(after_long_help = emulate_help())]
pub struct EmulateArgs {
    /// The board to emulate: a protocol's name.
    #[arg(value_name = "BOARD", value_parser = protocol_name())]
    pub board: String,
    /// The script and how it is played.
    #[command(flatten)]
    pub script: EmulatedScriptArgs,
    /// The board's faults and how it stands (boards lacking one refuse it).
    #[command(flatten)]
    pub board_options: EmulatedBoardArgs,
}

/// What every emulated board does, and then each protocol's board, for `--help`.
fn emulate_help() -> String {
    let mut help = String::from(
        "The first line on standard output is the port a host should open (`port: /dev/pts/N`; \
`port: ble:NAME` for a Bluetooth LE board, served behind a BlueZ stand-in on the private D-Bus bus \
DBUS_SYSTEM_BUS_ADDRESS names). Script times are divided by --speed. The command ends --grace-ms after the script, or on Ctrl-C.",
    );
    for protocol in touchmove::registry::PROTOCOLS {
        if let Some(emulator) = touchmove_simulation::emulators::find(protocol.name) {
            help.push_str(&format!(
                "\n\n{} ({}):\n{}",
                protocol.name, protocol.summary, emulator.help
            ));
        }
    }
    help
}

/// The options only some emulated boards have.
#[derive(Debug, Args)]
pub struct EmulatedBoardArgs {
    /// The board stands turned round (Black on the connector side).
    #[arg(long)]
    pub rotated: bool,
    /// The side of the board's clock White's time is on (default: left).
    #[arg(long, value_name = "SIDE", default_value = "left", value_parser = parse_clock_side())]
    pub white_on_clock: ClockSide,
    /// Unplug the board MS ms after the start...
    #[arg(long, value_name = "MS", requires = "unplug_for")]
    pub unplug_at: Option<u64>,
    /// ...for MS ms.
    #[arg(long, value_name = "MS", requires = "unplug_at")]
    pub unplug_for: Option<u64>,
    /// Set the board's clock to this time control's first period (e.g. `300+2`: 5 minutes
    /// each and 2 s a move; delays and later periods are not emulated). A side out of time
    /// shows the final flag.
    #[arg(long, value_name = "TC")]
    pub time_control: Option<touchmove::clock::TimeControl>,
    /// Lose every Nth change report on the line (a sequence gap the host must notice).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub drop_every: Option<u32>,
    /// The serial number the DGT board says (SERIALNR, up to five digits; its own: 31415).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..100_000))]
    pub serial: Option<u32>,
    /// The clock plugged into the DGT board: `xl` (its lever bit where the lever stands) or
    /// `3000` (a host's set-and-run moves the lever bit too, high on the side set running).
    #[arg(long, value_name = "MODEL", default_value = "xl")]
    pub clock: ClockModelArg,
    /// A Certabo Sentio board (occupancy only) rather than an RFID board.
    #[arg(long)]
    pub sentio: bool,
    /// A Sentio board's hands answer its lights asking where a piece went once lit this long,
    /// in ms: the piece lifted where they set it and set back (unset: they never look).
    #[arg(long, value_name = "MS", requires = "sentio")]
    pub answer_after: Option<u64>,
}

/// The clock plugged into an emulated DGT board (`emulate --clock`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClockModelArg {
    /// A DGT XL: the lever bit is where the lever stands.
    Xl,
    /// A DGT 3000: a host's set-and-run moves the lever bit too.
    #[value(name = "3000")]
    Dgt3000,
}

/// When an emulated board's hands press the clock (`emulate --presses`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PressesArg {
    /// After every move, the ones carried out for the host (--follow) too.
    Every,
    /// After the hands' own moves only, never for a move carried out for the host.
    Own,
    /// Never.
    Never,
}

/// What an emulated board plays and how: the options every `touchmove emulate` board shares.
#[derive(Debug, Args)]
pub struct EmulatedScriptArgs {
    /// What happens on the board: a sensor log (a DGT board applies its scan model; a Hall
    /// board, which cannot identify pieces, ignores the piece letters).
    #[arg(
        long,
        value_name = "LOG",
        conflicts_with = "pgn",
        required_unless_present = "pgn"
    )]
    pub log: Option<PathBuf>,
    /// What happens on the board: a PGN game played by simulated hands.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Play game N of the PGN file (from 1; default 1).
    #[arg(long, value_name = "N", conflicts_with = "log", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// With --pgn: messy hands (slides, knocks, bounces, every capture and promotion order,
    /// rook-first castling...) instead of clean ones.
    #[arg(long, requires = "pgn")]
    pub messy: bool,
    /// With --pgn: the hands carry out SIDE's moves as the host shows them (an engine's, in
    /// `touchmove play`: the text on a DGT clock, the squares a Hall or ChessLink board
    /// lights) and play the other side's moves of the game, read again as SAN in the game as
    /// played; they stop when the next one is not legal there.
    #[arg(long, value_name = "SIDE", requires = "pgn")]
    pub follow: Option<Side>,
    /// Play the script X times as fast.
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = positive_number)]
    pub speed: f64,
    /// Bursts of garbage bytes on the line, RATE per second on average.
    #[arg(long, value_name = "RATE", value_parser = positive_number)]
    pub noise: Option<f64>,
    /// The seed of the dice (hands, scans, noise).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// With --pgn: how long the hands think before each move, a random time in this range of
    /// ms (default: 300-20000).
    #[arg(long, value_name = "MIN-MAX", requires = "pgn", value_parser = parse_ms_range)]
    pub thinking: Option<(Millis, Millis)>,
    /// When the hands press the clock: after every move (`every`), after their own moves only,
    /// not those carried out for the host with --follow (`own`), or `never`.
    #[arg(long, value_name = "HABIT", default_value = "every")]
    pub presses: PressesArg,
    /// Start the script at once instead of when a host first talks to the board.
    #[arg(long)]
    pub no_wait: bool,
    /// How long to keep answering once the script is done, in ms.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub grace_ms: u64,
}

/// A notation's name (`--notation`).
fn parse_notation(text: &str) -> Result<Notation, String> {
    Notation::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Notation::ALL.iter().map(|n| n.name()).collect();
        format!("`{text}`: expected one of {}", names.join(", "))
    })
}

/// A number above zero (for speeds and rates).
fn positive_number(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(value),
        _ => Err(format!("`{text}` is not a number above zero")),
    }
}

/// `touchmove simulate`.
#[derive(Debug, Args)]
#[command(after_long_help = SIMULATE_HELP)]
pub struct SimulateArgs {
    /// The PGN file the games come from.
    pub pgn: PathBuf,
    /// Simulate game N of the file (from 1; default 1).
    #[arg(long, value_name = "N", conflicts_with = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// Simulate every game of the file, one log each, into the directory given by -o.
    #[arg(long, requires = "output")]
    pub all: bool,
    /// The seed of the dice; game N is simulated with seed S + N.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Where to write the log (default: standard output); with --all, a directory.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// How the hands play.
    #[command(flatten)]
    pub style: StyleArgs,
}

/// What `touchmove simulate` writes, for `--help`.
const SIMULATE_HELP: &str = "\
Output: a sensor log (touchmove-log 1). Its first lines are comments naming the source game and
the rulings the log must produce, one per line:
  # expect <ply> <white|black> <article|illegal> <square>
(for example `# expect 14 white 4.3.1 d2`; `illegal` is a completed illegal move, its square the
illegal destination). With --all, game N of the file goes to <DIR>/game-NNNN.log; games that
cannot be read are skipped with a warning.";

/// The board the simulated log comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BoardArg {
    /// A Hall-sensor board: lifts and places without piece letters.
    Occupancy,
    /// A DGT-like board: every lift and place names the piece.
    Identifying,
}

/// A preset of handling styles, to which the switches add.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StylePreset {
    /// Thinking time and clock presses only.
    Clean,
    /// Every handling style and noise, no breach except rook-first castling.
    Messy,
    /// Everything, injected breaches included.
    Everything,
}

/// The board, the preset and the switches that make a hand style.
#[derive(Debug, Args)]
pub struct StyleArgs {
    /// The board the log comes from.
    #[arg(long, value_enum, default_value_t = BoardArg::Occupancy)]
    pub board: BoardArg,
    /// The preset the switches below add to.
    #[arg(long, value_enum, default_value_t = StylePreset::Clean)]
    pub style: StylePreset,
    /// A fixed 400 ms pause before each move instead of a random thinking time.
    #[arg(long)]
    pub no_thinking: bool,
    /// No clock presses.
    #[arg(long)]
    pub no_clock: bool,
    /// Blitz presses: 0–200 ms after the move, reported by a scanning board before the scan
    /// that reports the move (the log states the report horizon its replay needs).
    #[arg(long)]
    pub blitz_presses: bool,
    /// Captures may remove the victim first.
    #[arg(long)]
    pub victim_first: bool,
    /// Pieces may slide across the squares they cross.
    #[arg(long)]
    pub slides: bool,
    /// Castling may move the rook first (a 4.4.2 ruling is expected).
    #[arg(long)]
    pub rook_first: bool,
    /// En passant may remove the victim after the capturing pawn is placed.
    #[arg(long)]
    pub ep_after: bool,
    /// Promotions use every order FIDE 4.6 allows.
    #[arg(long)]
    pub promotion_orders: bool,
    /// On an occupancy board, a queen promotion may omit its `promote` entry.
    #[arg(long)]
    pub omit_queen: bool,
    /// Uninvolved squares flicker (sensor bounce).
    #[arg(long)]
    pub bounces: bool,
    /// A neighbouring piece may be knocked and put back while a piece is in hand.
    #[arg(long)]
    pub knocks: bool,
    /// DGT-style scans (identifying boards only).
    #[arg(long)]
    pub scans: bool,
    /// Breach: touch another own piece and put it back (4.3.1 expected).
    #[arg(long)]
    pub touch_put_back: bool,
    /// Breach: rest the piece on an illegal square, then make the move (no ruling).
    #[arg(long)]
    pub illegal_placement: bool,
    /// Breach: an illegal move completed by a clock press (an illegal move expected).
    #[arg(long)]
    pub illegal_move: bool,
}

/// `touchmove replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The sensor logs to replay (`-` for standard input), one after another, each its own
    /// session (a whole round at once: with more than one, every JSON object says its `log`).
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// Print the decisions as JSON lines (the events-json contract).
    #[arg(long)]
    pub json: bool,
    /// Whether the text output says the details (the global `-v`: the moves pending, the
    /// clock after each press). Not an option of its own.
    #[arg(skip)]
    pub details: bool,
    /// How moves are written in the text output and on the page: `san` (default), `long`
    /// (`Ng1-f3`), `figurine` (`♘f3`), `ru` (the Russian edition's letters: `Кf3`, `e4:d5`),
    /// `ru-long` (`Кg1-f3`). The PGN and the JSON stay standard SAN.
    #[arg(long, value_name = "NOTATION", default_value = "san", value_parser = parse_notation)]
    pub notation: Notation,
    /// Also write the game record as PGN to this file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Ignore the `#clock-reading` comments in which `watch --record` keeps the reports of a
    /// clock plugged into the board (the clock is then run from the presses and
    /// `--time-control` alone, as any reader of the format would).
    #[arg(long)]
    pub ignore_clock_readings: bool,
    /// How many logs of a round are replayed at once, on as many threads (default: one per
    /// core). The output is the same whatever the number: each log's, in the order given.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// A log without `@start` starts from Chess960 starting position N (0–959; a log's own
    /// `@start` stands).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..960))]
    pub chess960: Option<u16>,
    /// The interpreter's options.
    #[command(flatten)]
    pub interpreter: InterpreterArgs,
}

/// A side of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

/// A side of the clock: `left` or `right`, offered as such in `--help`.
fn parse_clock_side() -> impl clap::builder::TypedValueParser<Value = ClockSide> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(ClockSide::ALL.map(ClockSide::as_str))
        .try_map(|text| text.parse::<ClockSide>())
}

/// A number of seconds for `--give-up-after`: finite, from 0 to a year.
fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds.is_finite() && (0.0..=31_536_000.0).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "`{text}`: expected a number of seconds from 0 to 31536000"
        ))
    }
}

/// The interpreter's options, shared by every command that runs one.
#[derive(Debug, Args)]
#[command(next_help_heading = "Rulings and timing")]
pub struct InterpreterArgs {
    /// Turn the Article 4 rulings off (legality, illegal moves and game end still apply).
    #[arg(long)]
    pub casual: bool,
    /// The completed illegal move that loses the game (2: FIDE 2023; 3: the 2005 Laws).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub illegal_limit: u32,
    /// The slide window in ms (at most 60000; default 250): a shorter rest on a square is a
    /// slide, not a release. `replay` and `--resume` take the recording's `@slide-ms` when
    /// it states one and this is not given.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub slide_ms: Option<u64>,
    /// The bounce window in ms (at most 60000; default 50): a shorter lift and replace on one
    /// square is sensor noise. `replay` and `--resume` take the recording's `@bounce-ms` as
    /// for the slide window.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub bounce_ms: Option<u64>,
    /// The board's scan period in ms (at most 60000): a rest is a release only once it lasted
    /// the slide window and one scan, since a scanning board cannot show a shorter rest.
    /// Default: the protocol's (DGT 250; Hall 0, every change reported as it happens);
    /// `replay` takes the log's `@scan-ms`, else the scan of the protocol its `@board` names,
    /// else 0.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub scan_ms: Option<u64>,
    /// The report horizon in ms (at most 60000): a clock press is weighed only once the
    /// board's reports of what happened before it can have arrived. Default: `replay` uses the
    /// log's `@report-horizon-ms` (none: 0), `watch` the protocol's (DGT 300, one scan and a
    /// margin; Hall 0).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub report_horizon_ms: Option<u64>,
    /// Run a clock for this time control (PGN form: `300+2`, `40/5400+30:1800+30`, `300d5`
    /// for a delay): flag falls, two minutes for an illegal move, clock times in the output.
    #[arg(long, value_name = "TC")]
    pub time_control: Option<touchmove::clock::TimeControl>,
}

impl InterpreterArgs {
    /// The timing settings given on the command line (see [`touchmove::timing`]).
    pub fn given(&self) -> Timing {
        Timing {
            report_horizon_ms: self.report_horizon_ms,
            slide_ms: self.slide_ms,
            bounce_ms: self.bounce_ms,
            scan_ms: self.scan_ms,
        }
    }

    /// The interpreter configuration these options give, with the timing given (else the
    /// interpreter's defaults; a replay then takes the log's where none is given).
    pub fn config(&self) -> Config {
        self.given().applied_to(
            Config::default()
                .with_strict(!self.casual)
                .with_illegal_limit(self.illegal_limit),
        )
    }

    /// The configuration of a live game on a `protocol` board, resumed from a recording with
    /// `recorded` or not: the timing these options give, else the recording's (a resumed game
    /// is weighed as it was recorded), else the protocol's; a promotion's piece awaited where
    /// the protocol or the recording says so.
    pub fn live_config(
        &self,
        recorded: Option<&LogHeader>,
        protocol: &touchmove::live::Protocol,
    ) -> Config {
        let awaited = recorded.is_some_and(|header| header.promotion_choice);
        let recorded = recorded.map(LogHeader::timing).unwrap_or_default();
        let config = protocol.deciding(resolve(
            self.config(),
            self.given(),
            recorded,
            protocol.timing(),
        ));
        if awaited {
            config.awaiting_promotion_choice()
        } else {
            config
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delay_is_given_in_seconds_minutes_or_hours() {
        let secs = |s: u64| Ok(std::time::Duration::from_secs(s));
        assert_eq!(parse_delay("30s"), secs(30));
        assert_eq!(parse_delay("15m"), secs(900));
        assert_eq!(parse_delay("1h"), secs(3_600));
        for text in ["", "15", "0m", "-5m", "1.5m", "15 min", "m"] {
            assert!(parse_delay(text).is_err(), "{text}");
        }
    }

    #[test]
    fn a_served_board_names_its_protocol_or_leaves_it_to_the_board() {
        let spec = |name: Option<&str>, protocol: Option<&str>, port: &str| {
            Ok(BoardSpec {
                name: name.map(str::to_owned),
                protocol: protocol.map(str::to_owned),
                port: PathBuf::from(port),
            })
        };
        assert_eq!(
            parse_board_spec("hall=chessnut:ble:Chessnut Air"),
            spec(Some("hall"), Some("chessnut"), "ble:Chessnut Air")
        );
        assert_eq!(
            parse_board_spec("ble:C0:FF:EE:00:00:01"),
            spec(None, None, "ble:C0:FF:EE:00:00:01")
        );
        assert_eq!(
            parse_board_spec("1=/dev/ttyACM0"),
            spec(Some("1"), None, "/dev/ttyACM0")
        );
        assert_eq!(
            parse_board_spec("dgt:/dev/ttyUSB0"),
            spec(None, Some("dgt"), "/dev/ttyUSB0")
        );
        assert!(parse_board_spec("=ble:x").is_err());
        assert!(parse_board_spec("pegasus:").is_err());
    }
}
