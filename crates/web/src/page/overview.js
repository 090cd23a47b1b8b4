// The overview: every board at a glance, in board order, refreshed twice a second. When serve
// stops answering, the page says so within OFFLINE_AFTER ms ("offline", for the page and on
// every card), its clocks stop where they stood, and it goes on asking: it comes back by
// itself when serve answers again.
"use strict";

const cards = new Map();
let latest = [];
let fetchedAt = Date.now();
// The instant the clocks were last shown running, before the page went offline.
let clocksShownAt = Date.now();
// How long without an answer before the page says it is offline, and how long one request may
// take.
const OFFLINE_AFTER = 2500;
const REQUEST_TIMEOUT = 2000;
const REFRESH_EVERY = 500;

function offline() {
  return Date.now() - fetchedAt > OFFLINE_AFTER;
}

function card(name) {
  let entry = cards.get(name);
  if (entry) return entry;
  const root = document.createElement("a");
  root.className = "card";
  root.href = "/board/" + encodeURIComponent(name);
  root.innerHTML =
    '<div class="head"><span class="boardname"></span><span class="tags">' +
    '<span class="push" hidden></span><span class="link"></span></span></div>' +
    '<div class="players"></div><div class="diagram"><div class="board"></div>' +
    '<div class="notice" hidden></div></div>' +
    '<div class="foot"><span class="move"></span><span class="clocks">' +
    '<span class="clock w"><span class="side">White</span><span class="t"></span></span>' +
    '<span class="clock b"><span class="side">Black</span><span class="t"></span></span></span></div>';
  document.getElementById("boards").appendChild(root);
  entry = {
    root,
    name: root.querySelector(".boardname"),
    link: root.querySelector(".link"),
    push: root.querySelector(".push"),
    players: root.querySelector(".players"),
    board: root.querySelector(".board"),
    notice: root.querySelector(".notice"),
    move: root.querySelector(".move"),
    white: root.querySelector(".clock.w"),
    black: root.querySelector(".clock.b"),
    whiteTime: root.querySelector(".clock.w .t"),
    blackTime: root.querySelector(".clock.b .t"),
  };
  cards.set(name, entry);
  return entry;
}

function render() {
  const off = offline();
  document.body.classList.toggle("offline", off);
  const status = document.getElementById("status");
  status.textContent = off ? "offline · reconnecting" : "live";
  status.className = "status " + (off ? "offline" : "live");
  document.getElementById("empty").hidden = latest.length > 0;
  document.getElementById("count").textContent =
    latest.length + (latest.length === 1 ? " board" : " boards");
  // While offline, nothing runs on: the clocks stand as they were last shown, never earlier
  // (they ran on until the page knew it was offline).
  if (!off) clocksShownAt = Date.now();
  const now = off ? clocksShownAt : Date.now();
  for (const board of latest) {
    const entry = card(board.name);
    entry.name.textContent = "Board " + board.name;
    const link = off ? "offline" : board.link;
    entry.link.textContent = link;
    entry.link.className = "link " + link;
    entry.link.title = board.link_error || "";
    entry.root.classList.toggle("lost", link === "lost" || link === "unreachable" || off);
    renderPush(entry.push, board.push);
    const white = board.players.white || "White";
    const black = board.players.black || "Black";
    entry.players.textContent = white + " – " + black;
    const unheard = board.link === "connecting" || board.link === "unreachable";
    renderNotice(entry.notice, board, unheard);
    // A board not heard yet is drawn empty: the game's position is not what stands there.
    drawBoard(entry.board, unheard ? "8/8/8/8/8/8/8/8" : board.fen, unheard ? null : board.last_move,
      [], board.turn ? board.turn.in_hand : []);
    entry.board.classList.toggle("unheard", unheard);
    if (board.result) {
      entry.move.innerHTML = "";
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = board.result;
      entry.move.appendChild(badge);
    } else {
      entry.move.textContent = board.started ? moveText(board.ply, board.fen) : "waiting for the start";
    }
    // After a result the clocks stand too.
    const clock = clockNow(board.clock, fetchedAt, board.result ? fetchedAt : now);
    entry.whiteTime.textContent = clock ? clockText(clock.white) : "";
    entry.blackTime.textContent = clock ? clockText(clock.black) : "";
    entry.white.hidden = entry.black.hidden = !clock;
    // With both clocks beside it, the move's number says enough: the running clock is the
    // side to move.
    if (clock && board.started && !board.result) {
      entry.move.textContent = moveText(board.ply, board.fen).split(",")[0];
    }
    const running = !!clock && !off && !board.result;
    entry.white.classList.toggle("running", running && clock.running === "white");
    entry.black.classList.toggle("running", running && clock.running === "black");
  }
}

// What a card says over its diagram when its board is not heard: no board at the port, or
// connecting to it.
function renderNotice(element, board, unheard) {
  element.hidden = !unheard;
  if (!unheard) return;
  element.textContent =
    board.link === "unreachable" ? "no board at " + board.port : "connecting to " + board.port + "…";
  element.title = board.link_error || "";
}

// The board's pushes to a Lichess broadcast (serve --lichess-round), if any: taken, being
// retried, stopped, or the board's game refused; the reason in the tooltip.
function renderPush(element, push) {
  element.hidden = !push;
  if (!push) return;
  let text = "Lichess";
  let state = push.state;
  if (push.error && (state === "pushed" || state === "pushing")) state = "refused";
  if (state === "pushed" || state === "pushing") text += push.moves != null ? " ✓ " + push.moves : " ✓";
  else if (state === "waiting") text += " …";
  else text += " " + state;
  element.textContent = text;
  element.className = "push " + state;
  element.title = push.error || "pushed to the broadcast";
}

async function refresh() {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT);
  try {
    const response = await fetch("/api/boards", { cache: "no-store", signal: controller.signal });
    if (response.ok) {
      latest = await response.json();
      fetchedAt = Date.now();
    }
  } catch (error) {
    // serve is away, or too slow: the last view stays, marked offline once it is old.
  } finally {
    clearTimeout(timer);
    render();
    setTimeout(refresh, REFRESH_EVERY);
  }
}

refresh();
setInterval(render, 250);
