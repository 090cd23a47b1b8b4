// The hall: every board at a glance, in board order, refreshed twice a second.
"use strict";

const cards = new Map();
let latest = [];
let fetchedAt = Date.now();

function card(name) {
  let entry = cards.get(name);
  if (entry) return entry;
  const root = document.createElement("a");
  root.className = "card";
  root.href = "/board/" + encodeURIComponent(name);
  root.innerHTML =
    '<div class="head"><span class="boardname"></span><span class="tags">' +
    '<span class="push" hidden></span><span class="link"></span></span></div>' +
    '<div class="players"></div><div class="board"></div>' +
    '<div class="foot"><span class="move"></span><span class="clocks">' +
    '<span class="clock w"></span><span class="clock b"></span></span></div>';
  document.getElementById("boards").appendChild(root);
  entry = {
    root,
    name: root.querySelector(".boardname"),
    link: root.querySelector(".link"),
    push: root.querySelector(".push"),
    players: root.querySelector(".players"),
    board: root.querySelector(".board"),
    move: root.querySelector(".move"),
    white: root.querySelector(".clock.w"),
    black: root.querySelector(".clock.b"),
  };
  cards.set(name, entry);
  return entry;
}

function render() {
  document.getElementById("empty").hidden = latest.length > 0;
  document.getElementById("count").textContent =
    latest.length + (latest.length === 1 ? " board" : " boards");
  for (const board of latest) {
    const entry = card(board.name);
    entry.name.textContent = "Board " + board.name;
    entry.link.textContent = board.link;
    entry.link.className = "link " + board.link;
    entry.root.classList.toggle("lost", board.link === "lost");
    renderPush(entry.push, board.push);
    const white = board.players.white || "White";
    const black = board.players.black || "Black";
    entry.players.textContent = white + " – " + black;
    drawBoard(entry.board, board.fen, board.last_move, [], board.turn ? board.turn.in_hand : []);
    if (board.result) {
      entry.move.innerHTML = "";
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = board.result;
      entry.move.appendChild(badge);
    } else {
      entry.move.textContent = board.started ? moveText(board.ply, board.fen) : "waiting for the start";
    }
    const clock = clockNow(board.clock, fetchedAt);
    entry.white.textContent = clock ? clockText(clock.white) : "";
    entry.black.textContent = clock ? clockText(clock.black) : "";
    entry.white.hidden = entry.black.hidden = !clock;
    entry.white.classList.toggle("running", !!clock && clock.running === "white");
    entry.black.classList.toggle("running", !!clock && clock.running === "black");
  }
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
  try {
    const response = await fetch("/api/boards", { cache: "no-store" });
    if (response.ok) {
      latest = await response.json();
      fetchedAt = Date.now();
      render();
    }
  } catch (error) {
    // The server is away: the last view stays; the next refresh tries again.
  }
}

refresh();
setInterval(refresh, 500);
setInterval(render, 250);
