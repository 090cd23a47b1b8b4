// One board large: the game as it is decided, from the board's event stream, and its clock
// and turn from its summary. When serve stops answering (the stream fails, or the summary has
// not come for OFFLINE_AFTER ms), the page says "offline" within seconds, its clocks stop
// where they stood, and it reconnects by itself when serve answers again. In an online game
// (`touchmove online --listen`, the summary's `online`), a panel: the opponent's offer to
// answer, and buttons that ask the server (`POST /api/boards/NAME/online/REQUEST`).
"use strict";

// How long without a summary before the page says it is offline, how long one request may
// take, and how often the summary is asked for.
const OFFLINE_AFTER = 2500;
const REQUEST_TIMEOUT = 2000;
const REFRESH_EVERY = 500;
// Whether the event stream is open, and since when it is not.
let streamOpen = false;
let streamDownSince = Date.now();

const name = decodeURIComponent(location.pathname.split("/").pop());
const boardElement = document.getElementById("board");
let moves = [];
// The move the board shows while it waits to be decided (a `pending` event), until decided.
let pending = null;
let rulings = [];
let marked = [];
let result = null;
// The engine's last move in a game against it (`touchmove play`): its SAN, UCI, score, and
// whether it is still to be carried out on the board, or was carried out wrongly.
let engine = null;
// The engine's latest analysis of the game (`--analyse`): an `analysis` event, for the ply it
// was made at (shown dimmed once the game has moved on, until the next one comes).
let analysis = null;
// What became of the last hint asked for from the page (asked, thinking, or why not).
let hintNote = "";
let summary = null;
// The last game's result, shown until the next game's first move: the board set up again
// starts the next game at once, and the result stays readable until play goes on.
let lastGame = null;
// The board's finished games in this session (`/api/boards/NAME/games`), oldest first, and
// the game number they were read for.
let finished = [];
let finishedFor = null;
let fetchedAt = Date.now();
// The instant the clocks were last shown, before the page went offline.
let clocksShownAt = Date.now();
// In an online game (`touchmove online --listen`): the last thing the server or the page's
// request said ({ text, bad }), and until when the resign button waits for its confirmation.
let onlineNote = null;
let resignArmedUntil = 0;
const RESIGN_CONFIRM = 4000;

document.getElementById("title").textContent = "Board " + name;
document.title = "touchmove · board " + name;

// The coach's word on the player's last move (play --coach), while the engine's reply waits.
let coach = null;

function reset() {
  coach = null;
  analysis = null;
  moves = [];
  pending = null;
  rulings = [];
  marked = [];
  result = null;
  engine = null;
  onlineNote = null;
}

// The engine's score as every GUI writes it, from White's side (the event's is from the
// engine's): +0.31, -1.50, #3 (White mates), #-2 (Black mates); "book" for a move from the
// opening book.
function scoreText(event) {
  if (event.book) return "book";
  const side = event.color === "black" ? -1 : 1;
  if (Number.isInteger(event.mate)) return "#" + side * event.mate;
  if (Number.isInteger(event.score_cp)) {
    const pawns = (side * event.score_cp) / 100;
    return (pawns > 0 ? "+" : "") + pawns.toFixed(2);
  }
  return "";
}

function take(event) {
  switch (event.kind) {
    case "pending":
      pending = event.san ? event : null;
      break;
    case "move":
      pending = null;
      lastGame = null;
      moves.length = event.ply - 1;
      moves.push(event);
      marked = [];
      if (engine && engine.hint && event.color === engine.side) {
        // The player moved: the hint is done with, followed or not.
        engine = null;
      } else if (engine && engine.pending && event.uci === engine.uci) {
        engine.pending = false;
        engine.wrong = null;
      }
      break;
    case "clock":
      // The times the clock showed after the move's press replace those of its decision.
      if (moves[event.ply - 1]) moves[event.ply - 1].clock = event.clock;
      break;
    case "takeback":
      pending = null;
      moves.length = Math.max(0, event.ply - 1);
      engine = null;
      coach = null;
      break;
    case "coach":
      coach = event;
      break;
    case "engine":
      coach = null;
      engine = { san: event.san, uci: event.uci, score: scoreText(event), book: !!event.book, pending: true, wrong: null };
      break;
    case "analysis":
      analysis = event;
      break;
    case "hint":
      engine = { san: event.san, uci: event.uci, score: scoreText(event), hint: true, side: event.color, pending: true, wrong: null };
      hintNote = "";
      break;
    case "execution":
      if (engine && engine.pending) engine.wrong = event.message;
      else onlineNote = { text: event.message, bad: true };
      break;
    case "online":
      takeOnline(event);
      break;
    case "violation":
      rulings.push({ article: event.rule, text: event.message, ply: moves.length });
      break;
    case "illegal":
      rulings.push({ article: "7.5", text: event.message, ply: moves.length });
      break;
    case "mismatch":
      marked = event.squares || [];
      break;
    // Where a piece went is asked: the square it left and those it may stand on, as the
    // board's lights show them, until a move is decided.
    case "ambiguous":
      marked = event.to && event.to.length ? [event.from].concat(event.to) : [];
      break;
    case "resync":
      marked = [];
      break;
    case "result":
      result = event.result + (event.reason ? " · " + event.reason : "");
      break;
    // What the arbiter did at the host, listed with the rulings.
    case "note":
      rulings.push({ article: "arbiter", text: event.text, ply: moves.length });
      break;
    case "time-added":
      rulings.push({
        article: "arbiter",
        text: Math.round(event.ms / 1000) + " s more for " + event.color,
        ply: moves.length,
      });
      break;
    case "clock-set":
      rulings.push({
        article: "arbiter",
        text: "clocks set: white " + clockText(event.clock.white) + ", black " +
          clockText(event.clock.black),
        ply: moves.length,
      });
      break;
    case "reinstated":
      pending = null;
      moves.length = event.ply;
      rulings.push({
        article: "arbiter",
        text: "the position after ply " + event.ply + " reinstated" +
          (event.moves.length ? " (" + event.moves.join(" ") + " taken back)" : ""),
        ply: moves.length,
      });
      break;
    case "game":
    case "setup":
      if (result) lastGame = result;
      reset();
      loadFinished();
      break;
    default:
      break;
  }
}

// What the server of an online game said: its move to carry out is shown as an engine's is.
function takeOnline(event) {
  switch (event.what) {
    case "move":
      engine = { san: event.san, uci: event.uci, score: "", pending: true, wrong: null, color: event.color };
      break;
    case "refused":
      onlineNote = { text: `the server refused ${event.uci}: ${event.message}`, bad: true };
      break;
    case "failed":
      onlineNote = { text: `${event.request}: ${event.message}`, bad: true };
      break;
    case "taken-back":
      engine = null;
      onlineNote = { text: `taken back on the server: ${event.plies} plies stand`, bad: false };
      break;
    case "opponent-gone": {
      const claim = event.claim_in_s ? `: you may claim the win in ${event.claim_in_s} s` : "";
      onlineNote = { text: event.gone ? "your opponent left the game" + claim : "your opponent is back", bad: false };
      break;
    }
    case "chat":
      onlineNote = { text: `${event.user}: ${event.text}`, bad: false };
      break;
    default:
      break;
  }
}

// How moves are written (`--notation`, the body's data-notation), as the terminal writes them
// (src/output/notation.rs): san, long (Ng1-f3), figurine (♘f3), ru (Кf3, e4:d5, 0-0), ru-long.
const notation = document.body.dataset.notation || "san";
const LETTERS = {
  long: { K: "K", Q: "Q", R: "R", B: "B", N: "N" },
  figurine: { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658" },
  ru: { K: "Кр", Q: "Ф", R: "Л", B: "С", N: "К" },
};

function written(move) {
  const san = move.san;
  if (notation === "san") return san;
  const body = san.replace(/[+#]+$/, "");
  const suffix = san.slice(body.length);
  const ru = notation === "ru" || notation === "ru-long";
  if (body === "O-O" || body === "O-O-O") return (ru ? body.replace(/O/g, "0") : body) + suffix;
  const letters = LETTERS[ru ? "ru" : notation === "figurine" ? "figurine" : "long"];
  const letter = (c) => letters[c] || c;
  if (notation === "figurine" || notation === "ru") {
    let out = body.replace(/^[KQRBN]/, letter).replace(/=([QRBN])/, (_, c) => "=" + letter(c));
    if (ru) out = out.replace("x", ":");
    return out + suffix;
  }
  // long and ru-long: from and to, from the UCI.
  const [from, to, promotion] = [move.uci.slice(0, 2), move.uci.slice(2, 4), move.uci.slice(4)];
  const piece = /^[KQRBN]/.test(body) ? letter(body[0]) : "";
  const sign = body.includes("x") ? (ru ? ":" : "x") : "-";
  const promoted = promotion ? "=" + letter(promotion.toUpperCase()) : "";
  return piece + from + sign + to + promoted + suffix;
}

function renderMoves() {
  const list = document.getElementById("moves");
  list.textContent = "";
  const shown = pending && pending.ply === moves.length + 1 ? moves.concat([pending]) : moves;
  for (let i = 0; i < shown.length; i += 2) {
    const item = document.createElement("li");
    for (const [k, move] of [shown[i], shown[i + 1]].entries()) {
      if (!move) continue;
      const span = document.createElement("span");
      span.textContent = written(move);
      span.dataset.ply = String(i + k + 1);
      if (move.reconstructed) {
        span.className = "rebuilt";
        span.title = "made while the board was not heard, reconstructed";
      }
      if (move.kind === "pending") {
        span.className = "pending";
        span.title = "on the board, deciding (the piece may still go on)";
      }
      if (item.childNodes.length > 0) item.appendChild(document.createTextNode(" "));
      item.appendChild(span);
    }
    list.appendChild(item);
  }
  // The columns fill left to right: the newest is in view.
  list.scrollLeft = list.scrollWidth;
}

function renderRulings() {
  const list = document.getElementById("rulings");
  list.textContent = "";
  if (rulings.length === 0) {
    list.innerHTML = '<li class="none">none</li>';
    return;
  }
  for (const ruling of rulings) {
    const item = document.createElement("li");
    const article = document.createElement("span");
    article.className = "article";
    article.textContent = ruling.article;
    item.appendChild(article);
    item.appendChild(document.createTextNode(ruling.text));
    list.appendChild(item);
  }
}

// The board as it physically stands, when the summary is as recent as the moves: its pieces,
// an unidentified piece shown as the game's piece on that square (or "?"). Else the game's
// position after the last move.
function standing(fen) {
  if (!summary || summary.ply !== moves.length || !summary.board) return null;
  const game = placement(fen);
  return placement(summary.board).map((piece, i) => (piece === "X" ? game[i] || "?" : piece));
}

function renderBoard() {
  const last = moves[moves.length - 1];
  const fen = last ? last.fen : summary ? summary.fen : null;
  const turn = summary && summary.turn;
  const inHand = turn ? turn.in_hand : [];
  const pieces = standing(fen);
  // Squares where the board differs from the game (a piece in hand is outlined as in hand).
  const differs = pieces ? summary.differs.filter((square) => !inHand.includes(square)) : [];
  const outlined = [...new Set([...marked, ...differs])];
  // The engine's move to carry out is lit as a last move would be.
  const lit = engine && engine.pending ? engine.uci : last ? last.uci : null;
  drawBoard(boardElement, pieces || fen, lit, outlined, inHand);
  // The result; before the next game's first move, the last game's (said so, dimmed).
  const box = document.getElementById("result");
  const lastFinished = finished[finished.length - 1];
  const previous =
    !result && moves.length === 0 ? lastGame || (lastFinished && lastFinished.result) : null;
  box.hidden = !result && !previous;
  box.textContent = result || (previous ? "last game: " + previous : "");
  box.classList.toggle("previous", !result && !!previous);
}

// The board's finished games, read again when its game number changes.
async function loadFinished() {
  try {
    const response = await fetch("/api/boards/" + encodeURIComponent(name) + "/games", { cache: "no-store" });
    if (!response.ok) return;
    finished = await response.json();
    finishedFor = summary ? summary.game : null;
    renderFinished();
    renderBoard();
  } catch (error) {
    // Asked again when the game number next changes.
  }
}

// The report of the game that has ended (its result on the page): asked once per game and
// result; none while a game goes on.
let reportFor = null;
function reportKey() {
  if (!summary) return null;
  if (summary.result) return summary.game + ":" + summary.result;
  return summary.ply === 0 && summary.game > 1 ? summary.game - 1 + ":last" : null;
}

async function loadReport() {
  const key = reportKey();
  reportFor = key;
  const box = document.getElementById("report");
  if (!key) {
    box.hidden = true;
    return;
  }
  try {
    const base = "/api/boards/" + encodeURIComponent(name) + "/report";
    const response = await fetch(base, { cache: "no-store" });
    if (!response.ok) {
      box.hidden = true;
      return;
    }
    renderReport(await response.json(), base, key);
  } catch (error) {
    reportFor = null;
  }
}

function seconds(ms) {
  return ms === null || ms === undefined ? "" : (ms / 1000).toFixed(1) + " s";
}

function evalText(evaluation) {
  if (!evaluation) return "";
  if (evaluation.cp !== undefined) return (evaluation.cp / 100).toFixed(2);
  const mate = evaluation.mate;
  if (mate.moves === 0) return "mate";
  return "#" + (mate.winner === "white" ? "" : "-") + mate.moves;
}

function renderReport(report, base, key) {
  const box = document.getElementById("report");
  const accuracy = (value) => (value === null || value === undefined ? "–" : value.toFixed(1));
  document.getElementById("report-accuracy").textContent = report.engine
    ? "accuracy: White " + accuracy(report.white_accuracy) + " · Black " + accuracy(report.black_accuracy)
    : "times and touches (no engine analysed)";
  document.getElementById("report-chart").src = base + ".svg?game=" + encodeURIComponent(key);
  document.getElementById("report-page").href = base + ".html";
  const table = document.getElementById("report-moves");
  table.textContent = "";
  const head = table.insertRow();
  for (const title of ["move", "think", "in hand", "eval", "", "best", "touched, rulings"]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.append(cell);
  }
  report.moves.forEach((move, index) => {
    const review = report.reviews[index] || {};
    const after = report.evals[index + 1];
    const glyph = { inaccuracy: "?!", mistake: "?", blunder: "??" }[review.judgement] || "";
    const notes = move.touched.map((square) => "touched " + square).concat(move.rulings);
    const row = table.insertRow();
    row.className = review.judgement || "";
    const number = Math.ceil(move.ply / 2) + (move.color === "white" ? ". " : "... ");
    for (const text of [number + written(move), seconds(move.think_ms), seconds(move.in_hand_ms),
      evalText(after && after.eval), glyph, review.best || "", notes.join("; ")]) {
      row.insertCell().textContent = text;
    }
  });
  box.hidden = false;
}

// Each finished game: its players and result, and its PGN to save.
function renderFinished() {
  const list = document.getElementById("finished");
  list.textContent = "";
  if (finished.length === 0) {
    list.innerHTML = '<li class="none">none yet</li>';
    return;
  }
  finished.forEach((game, i) => {
    const item = document.createElement("li");
    const players = document.createElement("span");
    players.textContent = (game.white || "?") + " – " + (game.black || "?");
    const outcome = document.createElement("span");
    outcome.className = "outcome";
    outcome.textContent = game.result || "*";
    const link = document.createElement("a");
    link.textContent = "PGN";
    link.href = "data:application/x-chess-pgn;charset=utf-8," + encodeURIComponent(game.pgn);
    link.download = "board-" + name + "-finished-" + (i + 1) + ".pgn";
    item.append(players, " ", outcome, " ", link);
    list.appendChild(item);
  });
}

function renderEngine() {
  const box = document.getElementById("engine");
  box.hidden = !engine;
  if (!engine) return;
  document.getElementById("engine-move").textContent = written(engine);
  const online = summary && summary.online;
  const label = engine.hint ? "Hint" : !engine.color ? "Engine" : online && engine.color === online.side ? "Yours, from " + online.server : "Opponent";
  document.getElementById("engine-label").textContent = label;
  const score = document.getElementById("engine-score");
  score.textContent = engine.score;
  score.title = engine.color ? "" : engine.book ? "from the opening book" : "the engine's evaluation, from White's side";
  const note = document.getElementById("engine-note");
  note.textContent = engine.hint
    ? "the engine's best move for you; nothing is changed"
    : engine.wrong || (engine.pending ? "carry it out on the board" : "played");
  box.classList.toggle("hint", !!engine.hint);
  box.classList.toggle("pending", engine.pending && !engine.wrong && !engine.hint);
  box.classList.toggle("wrong", !!engine.wrong);
}

function offline() {
  const now = Date.now();
  return (!streamOpen && now - streamDownSince > OFFLINE_AFTER) || now - fetchedAt > OFFLINE_AFTER;
}

// The hint button, in a game against an engine that gives hints (the summary's `hints`).
function renderHints() {
  const box = document.getElementById("hints");
  box.hidden = !(summary && summary.hints);
  document.getElementById("hint-note").textContent = hintNote;
  const said = document.getElementById("coach");
  said.hidden = !coach;
  if (coach) {
    const pawns = (cp) => (cp > 0 ? "+" : "") + (cp / 100).toFixed(2);
    document.getElementById("coach-text").textContent =
      `Coach: ${coach.san} is a ${coach.judgement} (${pawns(coach.before_cp)} → ${pawns(coach.after_cp)}). ` +
      "Take it back on the board, or play on.";
  }
}

async function playOn() {
  try {
    await fetch("/api/boards/" + encodeURIComponent(name) + "/play-on", { method: "POST" });
  } catch (error) {
    // The engine's reply comes as its move, or the coach's word stays.
  }
}
document.getElementById("ask-play-on").addEventListener("click", playOn);

async function askHint() {
  hintNote = "asked";
  renderHints();
  try {
    const response = await fetch("/api/boards/" + encodeURIComponent(name) + "/hint", { method: "POST" });
    hintNote = response.ok ? "the engine is thinking" : (await response.text()).trim();
  } catch (error) {
    hintNote = "touchmove does not answer";
  }
  renderHints();
}
document.getElementById("ask-hint").addEventListener("click", askHint);

function renderSummary() {
  renderHints();
  const off = offline();
  document.body.classList.toggle("offline", off);
  const link = document.getElementById("link");
  if (!summary || off) {
    link.textContent = off ? "offline · reconnecting" : "connecting";
    link.className = "link " + (off ? "offline" : "connecting");
  }
  if (!summary) return;
  document.getElementById("white-name").textContent = summary.players.white || "White";
  document.getElementById("black-name").textContent = summary.players.black || "Black";
  if (!off) {
    const unreachable = summary.link === "unreachable";
    link.textContent = unreachable ? "no board at " + summary.port : summary.link;
    link.className = "link " + summary.link;
    link.title = summary.link_error ||
      (summary.battery ? "board battery " + summary.battery.percent + " %" : "");
  }
  // While offline the clocks stand as they were last shown, never earlier (they ran on until
  // the page knew it was offline); once the game has a result, as last known.
  const stopped = off || !!summary.result || !!result;
  if (!off) clocksShownAt = Date.now();
  const at = off ? clocksShownAt : stopped ? fetchedAt : Date.now();
  const clock = clockNow(summary.clock, fetchedAt, at);
  for (const side of ["white", "black"]) {
    const element = document.getElementById(side + "-clock");
    element.hidden = !clock;
    element.parentElement.hidden = !clock;
    element.textContent = clock ? clockText(clock[side]) : "";
    element.classList.toggle("running", !!clock && !stopped && clock.running === side);
  }
  const turn = summary.turn;
  let text = "";
  if (turn && turn.must_move) {
    text = `touched ${turn.must_move}: it must move`;
  } else if (turn && turn.must_capture) {
    text = `touched ${turn.must_capture}: it must be captured`;
  } else if (turn && turn.promotion) {
    text = `promotion on ${turn.promotion}: choose its piece`;
  } else if (turn && turn.in_hand.length > 0) {
    text = "in hand: " + turn.in_hand.join(", ");
  } else if (!summary.started) {
    text = "waiting for the starting position";
  }
  document.getElementById("turn").textContent = text;
  renderOpening();
  renderOnline();
}

// The opening the game reached (its PGN's ECO and Opening tags), said when it changes.
let openingShown = null;
function renderOpening() {
  const opening = summary.opening;
  const element = document.getElementById("opening");
  element.hidden = !opening;
  element.textContent = opening ? opening.eco + " · " + opening.name : "";
  const name = opening ? opening.name : null;
  if (name !== openingShown) sayOpening(name);
  openingShown = name;
}

// An online game's panel: the game, the opponent's offer to answer, the player's buttons.
function renderOnline() {
  const online = summary && summary.online;
  const box = document.getElementById("online");
  box.hidden = !online;
  if (!online) return;
  document.getElementById("online-game").textContent = `${online.server} · game ${online.game}`;
  document.getElementById("online-side").textContent = "you play " + online.side;
  const opponent = online.side === "white" ? "black" : "white";
  const going = !online.over && !result && !summary.result;
  const offered = going && online.draw_offer === opponent ? "draw" : going && online.takeback_proposal === opponent ? "takeback" : null;
  const row = document.getElementById("online-offer");
  row.hidden = !offered;
  if (offered) {
    const who = summary.players[opponent] || "Your opponent";
    document.getElementById("online-offer-text").textContent =
      offered === "draw" ? `${who} offers a draw` : `${who} proposes a takeback`;
    const accept = document.getElementById("offer-accept");
    accept.textContent = offered === "draw" ? "Accept draw" : "Accept takeback";
    accept.dataset.ask = offered + "/yes";
    const decline = document.getElementById("offer-decline");
    decline.textContent = "Decline";
    decline.dataset.ask = offered + "/no";
  }
  // A promotion the board cannot identify waits for its piece.
  const promotion = going && summary.turn && summary.turn.promotion;
  document.getElementById("online-promotion").hidden = !promotion;
  if (promotion) {
    document.getElementById("online-promotion-text").textContent = `Promote on ${promotion} to`;
  }
  const button = (id, shown, disabled, text) => {
    const element = document.getElementById(id);
    element.hidden = !shown;
    element.disabled = !!disabled;
    if (text) element.textContent = text;
  };
  const mine = (color) => color === online.side;
  button("ask-draw", going && offered !== "draw", mine(online.draw_offer), mine(online.draw_offer) ? "Draw offered" : "Offer draw");
  button("ask-takeback", going && offered !== "takeback", mine(online.takeback_proposal) || summary.ply === 0,
    mine(online.takeback_proposal) ? "Takeback proposed" : "Propose takeback");
  button("ask-abort", going && summary.ply < 2, false);
  button("ask-claim", going && online.opponent_gone, false);
  const armed = Date.now() < resignArmedUntil;
  button("ask-resign", going, false, armed ? "Confirm: resign" : "Resign");
  document.getElementById("ask-resign").classList.toggle("armed", armed);
  const note = document.getElementById("online-note");
  note.textContent = onlineNote ? onlineNote.text : "";
  note.classList.toggle("bad", !!onlineNote && onlineNote.bad);
}

// Asks the server of the online game for `word` (the Board API's: draw/yes, resign...).
async function ask(word, what) {
  try {
    const response = await fetch("/api/boards/" + encodeURIComponent(name) + "/online/" + word, { method: "POST" });
    const done = word.startsWith("promote/") ? "the promotion's piece is chosen" : what + ": asked of the server";
    onlineNote = response.ok
      ? { text: done, bad: false }
      : { text: (await response.text()).trim(), bad: true };
  } catch (error) {
    onlineNote = { text: "touchmove does not answer", bad: true };
  }
  renderOnline();
}

// A button of the online panel: resigning takes a second click within RESIGN_CONFIRM ms.
document.addEventListener("click", (click) => {
  const button = click.target.closest("button.ask");
  if (!button || !button.dataset.ask || button.disabled) return;
  const word = button.dataset.ask;
  if (word === "resign" && Date.now() >= resignArmedUntil) {
    resignArmedUntil = Date.now() + RESIGN_CONFIRM;
    renderOnline();
    return;
  }
  resignArmedUntil = 0;
  ask(word, button.textContent);
});

// The analysis: the score from White's side, a bar (White's share), the best line numbered.
function renderAnalysis() {
  const box = document.getElementById("analysis");
  box.hidden = !analysis;
  if (!analysis) return;
  box.classList.toggle("stale", analysis.ply !== moves.length);
  let score;
  let share;
  if (Number.isInteger(analysis.mate)) {
    // Mate 0: the side to move is mated (White moves after an even number of plies).
    const whiteMates = analysis.mate > 0 || (analysis.mate === 0 && analysis.ply % 2 === 1);
    score = analysis.mate === 0 ? "mate" : "#" + analysis.mate;
    share = whiteMates ? 1 : 0;
  } else {
    const cp = analysis.score_cp || 0;
    score = (cp > 0 ? "+" : "") + (cp / 100).toFixed(2);
    share = 1 / (1 + Math.pow(10, -cp / 400));
  }
  document.getElementById("analysis-score").textContent = score;
  // What the Syzygy tables say of the position (--syzygy), exact where they hold it.
  const table = analysis.tablebase ? " · tablebase: " + tablebaseWords(analysis.tablebase) : "";
  document.getElementById("analysis-depth").textContent = "depth " + analysis.depth + table;
  document.getElementById("eval-white").style.width = (share * 100).toFixed(1) + "%";
  const words = [];
  // The first twelve plies of the line: enough to read at a glance.
  analysis.pv.slice(0, 12).forEach((san, i) => {
    const ply = analysis.ply + i;
    const number = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) words.push(number + ". " + san);
    else words.push(i === 0 ? number + "... " + san : san);
  });
  document.getElementById("analysis-line").textContent = words.join(" ");
}

function renderAll() {
  renderAnalysis();
  renderEngine();
  renderMoves();
  renderRulings();
  renderBoard();
  renderSummary();
}

async function refresh() {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT);
  try {
    const response = await fetch("/api/boards", { cache: "no-store", signal: controller.signal });
    if (response.ok) {
      const boards = await response.json();
      summary = boards.find((board) => board.name === name) || null;
      fetchedAt = Date.now();
      if (summary && summary.game !== finishedFor) loadFinished();
      if (summary && reportKey() !== reportFor) loadReport();
      renderBoard();
    }
  } catch (error) {
    // serve is away, or too slow: asked again shortly; the page says offline once it is old.
  } finally {
    clearTimeout(timer);
    renderSummary();
    setTimeout(refresh, REFRESH_EVERY);
  }
}

// The page's voice (off by default: the header's Voice box), through the browser's speech
// synthesis, in English: as `--speak` says them, the move to carry out (an engine's, an online
// opponent's), an illegal move, a touch-move ruling, the result and the mating move, and every
// move in a game between two players. Only what comes after the box is ticked is said, each
// event once (the stream is read again from the start on a reconnect); a new utterance stops
// the one being said, and a takeback silences it.
let voiceOn = false;
// Every event the page has seen, said or not: none is said twice, nor late.
const spoken = new Set();
document.getElementById("voice").addEventListener("change", (change) => {
  voiceOn = change.target.checked;
  if (!voiceOn && window.speechSynthesis) window.speechSynthesis.cancel();
});

function sanWords(san) {
  let body = san;
  let suffix = "";
  if (body.endsWith("#")) { body = body.slice(0, -1); suffix = ", checkmate"; }
  else if (body.endsWith("+")) { body = body.slice(0, -1); suffix = ", check"; }
  if (body === "O-O") return "castles short" + suffix;
  if (body === "O-O-O") return "castles long" + suffix;
  const names = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight" };
  let promotion = "";
  const equals = body.indexOf("=");
  if (equals >= 0) {
    promotion = ", promotes to " + (names[body[equals + 1]] || "queen");
    body = body.slice(0, equals);
  }
  const words = [];
  if (names[body[0]]) { words.push(names[body[0]]); body = body.slice(1); }
  const captures = body.includes("x");
  body = body.replace("x", "");
  const to = body.slice(-2);
  const from = body.slice(0, -2);
  if (from) words.push(from);
  if (captures) words.push("takes");
  words.push(to);
  return words.join(" ") + suffix + promotion;
}

function phrase(event) {
  const twoPlayers = !engine && !(summary && (summary.online || summary.hints));
  switch (event.kind) {
    case "engine":
      return sanWords(event.san);
    case "online":
      return event.what === "move" ? sanWords(event.san) : null;
    case "move":
      return twoPlayers || event.san.endsWith("#") ? sanWords(event.san) : null;
    case "illegal":
      return "illegal move by " + event.color;
    case "violation":
      return "touch move: " + event.color + ", article " + event.rule.split(".").join(" ");
    case "result": {
      const outcome = event.result === "1-0" ? "white wins" : event.result === "0-1" ? "black wins" : "draw";
      return event.reason ? event.reason + ". " + outcome : outcome;
    }
    default:
      return null;
  }
}

function say(event) {
  const key = JSON.stringify(event);
  const fresh = !spoken.has(key);
  spoken.add(key);
  if (!fresh || !voiceOn || !window.speechSynthesis) return;
  if (event.kind === "takeback") {
    window.speechSynthesis.cancel();
    return;
  }
  const text = phrase(event);
  if (!text) return;
  window.speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = "en";
  window.speechSynthesis.speak(utterance);
}

// A new opening's name, after what is being said (a move's words are not cut short): with the
// voice on and its Openings box ticked (off by default).
let openingsOn = false;
document.getElementById("voice-openings").addEventListener("change", (change) => {
  openingsOn = change.target.checked;
});
function sayOpening(name) {
  if (!name || !voiceOn || !openingsOn || !window.speechSynthesis) return;
  const utterance = new SpeechSynthesisUtterance(name.replace(":", ","));
  utterance.lang = "en";
  window.speechSynthesis.speak(utterance);
}

// The board's event stream, from its game's start. EventSource reconnects by itself after a
// network error; a stream it gave up on (closed) is opened again.
let stream = null;
function follow() {
  stream = new EventSource("/api/boards/" + encodeURIComponent(name) + "/events");
  stream.onopen = () => {
    streamOpen = true;
    reset();
    renderAll();
  };
  stream.onmessage = (message) => {
    const event = JSON.parse(message.data);
    take(event);
    say(event);
    renderAll();
  };
  stream.onerror = () => {
    if (streamOpen) streamDownSince = Date.now();
    streamOpen = false;
    renderSummary();
    if (stream.readyState === EventSource.CLOSED) setTimeout(follow, REFRESH_EVERY);
  };
}

follow();
refresh();
setInterval(renderSummary, 250);
