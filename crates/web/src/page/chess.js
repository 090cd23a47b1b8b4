// Drawing boards and clocks, shared by the overview and the board pages.
"use strict";

const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const FILES = "abcdefgh";

// The 64 pieces of a FEN's placement, a8 first ("" for an empty square).
function placement(fen) {
  const squares = [];
  for (const row of (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/")) {
    for (const c of row) {
      if (c >= "1" && c <= "8") {
        for (let i = 0; i < Number(c); i++) squares.push("");
      } else {
        squares.push(c);
      }
    }
  }
  return squares;
}

// The index (a8 = 0) of a square name such as "e4".
function squareIndex(name) {
  return (8 - Number(name[1])) * 8 + FILES.indexOf(name[0]);
}

// Builds the 64 squares of a board element once, with its coordinates: each rank's number on
// its a-file square, each file's letter on its first-rank square.
function makeBoard(element) {
  element.textContent = "";
  for (let i = 0; i < 64; i++) {
    const square = document.createElement("div");
    const dark = (Math.floor(i / 8) + (i % 8)) % 2 === 1;
    square.className = "sq " + (dark ? "d" : "l");
    if (i % 8 === 0) square.appendChild(coordinate("rank", String(8 - Math.floor(i / 8))));
    if (i >= 56) square.appendChild(coordinate("file", FILES[i % 8]));
    element.appendChild(square);
  }
}

// A coordinate's label on a square.
function coordinate(kind, text) {
  const label = document.createElement("span");
  label.className = "coord " + kind;
  label.textContent = text;
  return label;
}

// Shows `fen` (or the 64 pieces of a placement, "?" for an occupied square whose piece is not
// known) on a board element, with the last move's squares lit and `marked` and `inHand` squares
// outlined.
function drawBoard(element, fen, lastMove, marked, inHand) {
  if (element.children.length !== 64) makeBoard(element);
  const pieces = Array.isArray(fen) ? fen : placement(fen);
  const lit = new Set();
  if (lastMove && lastMove.length >= 4) {
    lit.add(squareIndex(lastMove.slice(0, 2)));
    lit.add(squareIndex(lastMove.slice(2, 4)));
  }
  const marks = new Set((marked || []).map(squareIndex));
  const hands = new Set((inHand || []).map(squareIndex));
  for (let i = 0; i < 64; i++) {
    const square = element.children[i];
    const piece = pieces[i] || "";
    const key = piece + (lit.has(i) ? "L" : "") + (marks.has(i) ? "M" : "") + (hands.has(i) ? "H" : "");
    if (square.dataset.key === key) continue;
    square.dataset.key = key;
    square.classList.toggle("last", lit.has(i));
    square.classList.toggle("mark", marks.has(i));
    square.classList.toggle("hand", hands.has(i));
    const shown = square.querySelector(".pc");
    if (shown) shown.remove();
    if (piece === "?") {
      const glyph = document.createElement("span");
      glyph.className = "pc u";
      glyph.textContent = "\u25CF";
      square.appendChild(glyph);
    } else if (piece) {
      const glyph = document.createElement("span");
      const white = piece === piece.toUpperCase();
      glyph.className = "pc " + (white ? "w" : "b");
      glyph.textContent = GLYPHS[piece.toLowerCase()];
      square.appendChild(glyph);
    }
  }
}

// m:ss, or h:mm:ss from an hour, of a time in ms (rounded up, as a clock shows it).
function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

// A clock's two times at `now` (ms, Date.now()'s clock; by default now): the running side
// counted down since the summary was fetched. A page that has lost serve, or a game that has
// ended, passes the time the clock stopped at.
function clockNow(clock, fetchedAt, now) {
  if (!clock) return null;
  const ran = Math.max(0, (now === undefined ? Date.now() : now) - fetchedAt);
  return {
    white: clock.white - (clock.running === "white" ? ran : 0),
    black: clock.black - (clock.running === "black" ? ran : 0),
    running: clock.running,
  };
}

// "move 12, black to move" from a ply count (plies played in the game).
function moveText(ply, fen) {
  const side = (fen || "").split(" ")[1] === "b" ? "black" : "white";
  const number = Math.floor(ply / 2) + 1;
  return `move ${number}, ${side} to move`;
}

// A tablebase's result in words, as the report writes it: "White wins (DTZ 13)", "draw".
function tablebaseWords(table) {
  const side = (color) => (color === "white" ? "White" : "Black");
  const other = table.turn === "white" ? "black" : "white";
  const dtz = Math.abs(table.dtz);
  switch (table.wdl) {
    case "win":
    case "maybe-win":
      return side(table.turn) + " wins (DTZ " + dtz + ")";
    case "loss":
    case "maybe-loss":
      return side(other) + " wins (DTZ " + dtz + ")";
    case "cursed-win":
      return "draw: " + side(table.turn) + " wins only past the 50-move rule";
    case "blessed-loss":
      return "draw: " + side(other) + " wins only past the 50-move rule";
    default:
      return "draw";
  }
}
