// The arbiter's console: every board's game with what the arbiter may do to it that no sensor
// sees (a result, time given, a note, a tag named, a position reinstated). Each action is a POST of serve's API with the operator's
// token, kept in this tab's sessionStorage; the answer, or why it was refused, is said at the
// top. A result or a reinstatement asks to be clicked again within CONFIRM_WITHIN ms.
"use strict";

const REFRESH_EVERY = 1000;
const CONFIRM_WITHIN = 4000;
const rows = new Map();
let armed = null;

function token() {
  return sessionStorage.getItem("touchmove-token") || "";
}

function say(text, good) {
  const said = document.getElementById("said");
  said.textContent = text;
  said.className = "said " + (good ? "good" : "bad");
}

function signedIn(yes) {
  document.getElementById("login").hidden = yes;
  document.getElementById("desk").hidden = !yes;
  document.getElementById("sign-out").hidden = !yes;
}

async function act(board, what, body, done) {
  let answer;
  try {
    answer = await fetch("/api/boards/" + encodeURIComponent(board) + "/" + what, {
      method: "POST",
      headers: { Authorization: "Bearer " + token(), "Content-Type": "text/plain" },
      body,
    });
  } catch (error) {
    say("board " + board + ": serve does not answer", false);
    return;
  }
  if (answer.ok) {
    // Time given or clocks set: the answer is the board's state, its clocks as the board's
    // own clock now shows them (set so by the host, or the game's clock).
    let shown = "";
    if (what === "time" || what === "clock") {
      const state = await answer.json().catch(() => null);
      if (state && state.clock) {
        shown = ": the clock shows white " + clockText(state.clock.white) + ", black " +
          clockText(state.clock.black);
      }
    }
    say("board " + board + ": " + done + shown, true);
    refresh();
  } else {
    const why = (await answer.text()).trim();
    say("board " + board + ": refused (" + answer.status + "): " + why, false);
    if (answer.status === 401 || answer.status === 403) signedIn(false);
  }
}

// A result is final: the first click arms the button, a second within CONFIRM_WITHIN sends it.
function confirmThen(button, send) {
  if (armed && armed.button === button && Date.now() < armed.until) {
    armed = null;
    button.classList.remove("armed");
    button.textContent = button.dataset.label;
    send();
    return;
  }
  if (armed) {
    armed.button.classList.remove("armed");
    armed.button.textContent = armed.button.dataset.label;
  }
  armed = { button, until: Date.now() + CONFIRM_WITHIN };
  button.classList.add("armed");
  button.textContent = "Confirm: " + button.dataset.label;
}

const RESULTS = [
  ["draw-agreed", "½ agreed", "a draw agreed"],
  ["adjudicated 1-0", "1-0", "1-0 by the arbiter"],
  ["adjudicated 0-1", "0-1", "0-1 by the arbiter"],
  ["resigned white", "White resigns", "White resigned"],
  ["resigned black", "Black resigns", "Black resigned"],
  ["claim threefold", "3-fold upheld", "a threefold claim upheld"],
];

function row(name) {
  let entry = rows.get(name);
  if (entry) return entry;
  const tr = document.createElement("tr");
  tr.dataset.board = name;
  tr.innerHTML =
    '<td class="name"></td><td class="players"></td><td class="game"></td>' +
    '<td class="linkstate"></td><td class="clocks"></td><td class="actions"></td>';
  // Three lines of actions: the results; the clocks and the position; the record.
  const actions = tr.querySelector(".actions");
  const [results, clocks, record] = ["acts-results", "acts-moves", "acts-record"].map((kind) => {
    const line = document.createElement("div");
    line.className = "line " + kind;
    actions.appendChild(line);
    return line;
  });
  // What the Syzygy tables say of the position (serve --syzygy), beside the results: the
  // arbiter decides, nothing is ruled from it.
  const table = document.createElement("span");
  table.className = "tablebase";
  table.hidden = true;
  results.appendChild(table);
  for (const [words, label, done] of RESULTS) {
    const result = button("result", label, () =>
      confirmThen(result, () => act(name, "result", words, done)));
    result.dataset.words = words;
    results.appendChild(result);
  }
  results.append(...otherResultControls(name));
  for (const side of ["white", "black"]) {
    const time = button("time", "+2 min " + side, () =>
      act(name, "time", side + " 120000", "2 minutes more for " + side));
    time.dataset.side = side;
    clocks.appendChild(time);
  }
  const note = field("note", "a note for the record", 400);
  const send = button("noted", "Note", () => {
    if (!note.value.trim()) return;
    act(name, "note", note.value, "noted");
    note.value = "";
  });
  clocks.append(...clockControls(name), ...reinstateControls(name), flipControl(name));
  record.append(...tagControls(name), note, send);
  document.querySelector("#boards tbody").appendChild(tr);
  entry = {
    tr,
    name: tr.querySelector(".name"),
    players: tr.querySelector(".players"),
    game: tr.querySelector(".game"),
    link: tr.querySelector(".linkstate"),
    tablebase: table,
    clocks: tr.querySelector(".clocks"),
    buttons: tr.querySelectorAll(
      "button.result, button.time, button.set-clock, button.reinstate"),
  };
  rows.set(name, entry);
  return entry;
}

// The results less often entered: chosen from a list, then declared (clicked twice).
const OTHER_RESULTS = [
  ["claim fifty-moves", "50-move claim upheld", "a 50-move claim upheld"],
  ["adjudicated 1/2-1/2", "½ by the arbiter", "1/2-1/2 by the arbiter"],
  ["default white", "White defaulted (6.7.1)", "White lost by default"],
  ["default black", "Black defaulted (6.7.1)", "Black lost by default"],
  ["penalty white", "White loses: penalty (12.9)", "White lost by the arbiter's penalty"],
  ["penalty black", "Black loses: penalty (12.9)", "Black lost by the arbiter's penalty"],
];

function otherResultControls(name) {
  const which = document.createElement("select");
  which.className = "other-result";
  for (const [words, label] of OTHER_RESULTS) which.add(new Option(label, words));
  const declare = button("result other", "Declare", () => {
    const chosen = OTHER_RESULTS.find(([words]) => words === which.value);
    if (!chosen) return;
    confirmThen(declare, () => act(name, "result", chosen[0], chosen[2]));
  });
  return [which, declare];
}

// A text field of a row's actions.
function field(className, placeholder, maxLength) {
  const input = document.createElement("input");
  input.className = className;
  input.placeholder = placeholder;
  input.maxLength = maxLength;
  return input;
}

// A button of a row's actions that does `click`.
function button(className, label, click) {
  const made = document.createElement("button");
  made.type = "button";
  made.className = "ask " + className;
  made.dataset.label = label;
  made.textContent = label;
  made.addEventListener("click", click);
  return made;
}

const TAGS = ["White", "Black", "Event", "Round", "Board", "Site"];

// A tag of the board's game named: which, its value, and the button that sends it.
function tagControls(name) {
  const which = document.createElement("select");
  which.className = "tag";
  for (const tag of TAGS) which.add(new Option(tag, tag));
  const value = field("tag-value", "name", 200);
  const send = button("named", "Name", () => {
    act(name, "tag", which.value + " " + value.value.trim(), which.value + " named");
    value.value = "";
  });
  return [which, value, send];
}

// A time as a clock shows it, "1:25:00" or "59:30", in ms; null for anything else.
function clockMs(text) {
  const fields = text.trim().split(":");
  if (fields.length < 2 || fields.length > 3) return null;
  let seconds = 0;
  for (const [index, field] of fields.entries()) {
    if (!/^[0-9]+$/.test(field)) return null;
    const value = Number(field);
    if (index > 0 && value >= 60) return null;
    seconds = seconds * 60 + value;
  }
  return seconds * 1000;
}

// Both clocks set (a clock set wrongly, time taken away): the times, and the button
// (confirmed) that sends them.
function clockControls(name) {
  const white = field("clock-white", "white 1:25:00", 9);
  const black = field("clock-black", "black 1:25:00", 9);
  const send = button("set-clock", "Set clocks", () => {
    const times = [clockMs(white.value), clockMs(black.value)];
    if (times.includes(null)) {
      say("board " + name + ": give each time as H:MM:SS or M:SS", false);
      return;
    }
    confirmThen(send, () =>
      act(name, "clock", times[0] + " " + times[1],
        "clocks set to " + white.value.trim() + " and " + black.value.trim()));
  });
  return [white, black, send];
}

// The position after a ply reinstated: the ply, and the button (confirmed) that sends it.
function reinstateControls(name) {
  const ply = field("ply", "ply", 6);
  ply.type = "number";
  ply.min = "0";
  const send = button("reinstate", "Reinstate", () => {
    if (ply.value === "") return;
    confirmThen(send, () =>
      act(name, "reinstate", ply.value, "the position after ply " + ply.value +
        " reinstated: put the board back"));
  });
  return [ply, send];
}

// Whether the board is read turned round: the button says how it is read and turns it.
function flipControl(name) {
  const flip = button("flip", "Read turned round", () => {
    const turned = flip.dataset.flipped !== "true";
    act(name, "flip", turned ? "turned" : "straight",
      turned ? "read turned round" : "read the right way round");
  });
  return flip;
}

// A board that has said nothing for this long (ms) is marked: unplugged, or left alone.
const QUIET_AFTER = 120000;

// How long ago, in words a glance reads: "4 s ago", "3 min ago", "never".
function ago(ms) {
  if (ms === null || ms === undefined) return "never";
  if (ms < 60000) return Math.floor(ms / 1000) + " s ago";
  if (ms < 3600000) return Math.floor(ms / 60000) + " min ago";
  return Math.floor(ms / 3600000) + " h ago";
}

function show(board) {
  const entry = row(board.name);
  entry.name.textContent = board.name;
  const players = board.players || {};
  entry.players.textContent = (players.white || "?") + " – " + (players.black || "?");
  const game = "game " + board.game + ", ply " + board.ply;
  entry.game.textContent = board.result ? game + ": " + board.result : game;
  entry.tr.classList.toggle("over", Boolean(board.result));
  entry.link.textContent = board.link;
  entry.link.className = "linkstate " + board.link;
  const health = document.createElement("div");
  health.className = "health";
  health.textContent = "report " + ago(board.since_report_ms) + " · move " + ago(board.since_move_ms);
  entry.link.appendChild(health);
  if (board.clock_battery_low) {
    const battery = document.createElement("div");
    battery.className = "battery";
    battery.textContent = "clock battery low";
    entry.link.appendChild(battery);
  }
  if (board.battery) {
    const battery = document.createElement("div");
    battery.className = board.battery.percent < 20 && !board.battery.charging ? "battery" : "health";
    battery.textContent = "board battery " + board.battery.percent + " %" +
      (board.battery.charging ? ", charging" : "");
    entry.link.appendChild(battery);
  }
  entry.link.classList.toggle("quiet", (board.since_report_ms || 0) > QUIET_AFTER);
  entry.tablebase.hidden = !board.tablebase;
  entry.tablebase.textContent = board.tablebase ? "tablebase: " + tablebaseWords(board.tablebase) : "";
  entry.clocks.textContent = board.clock
    ? "White " + clockText(board.clock.white) + "\nBlack " + clockText(board.clock.black)
    : "no clock";
  const flip = entry.tr.querySelector("button.flip");
  flip.dataset.flipped = String(Boolean(board.flipped));
  flip.textContent = board.flipped ? "Read turned round ✓" : "Read turned round";
  flip.classList.toggle("on", Boolean(board.flipped));
  for (const button of entry.buttons) {
    const inGame = board.started && !board.result;
    const timing = button.classList.contains("time") || button.classList.contains("set-clock");
    if (timing) button.disabled = !(inGame && board.clock);
    else if (button.classList.contains("reinstate")) button.disabled = !(inGame && board.ply > 0);
    else button.disabled = !inGame;
  }
}

async function refresh() {
  try {
    // With the token the boards are seen live (the public may see them late).
    const headers = token() ? { Authorization: "Bearer " + token() } : {};
    const answer = await fetch("/api/boards", { headers });
    if (!answer.ok) return;
    for (const board of await answer.json()) show(board);
  } catch (error) {
    say("serve does not answer", false);
  }
}

// Whether serve takes `given` as the operator's token: true, false, or null when serve does
// not answer.
async function operatorToken(given) {
  try {
    const answer = await fetch("/api/operator", { headers: { Authorization: "Bearer " + given } });
    return answer.ok;
  } catch (error) {
    return null;
  }
}

document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const given = document.getElementById("token").value.trim();
  if (!given) return;
  const taken = await operatorToken(given);
  if (taken === null) {
    say("serve does not answer: not signed in", false);
    return;
  }
  if (!taken) {
    say("not signed in: that is not serve's operator token (TOUCHMOVE_TOKEN or --token)", false);
    return;
  }
  sessionStorage.setItem("touchmove-token", given);
  document.getElementById("token").value = "";
  signedIn(true);
  say("signed in: every action sends the token", true);
  refresh();
});

// The next round on every board: its Round tag named on each.
document.getElementById("next-round").addEventListener("submit", (event) => {
  event.preventDefault();
  const round = document.getElementById("round").value.trim();
  if (!round) return;
  for (const name of rows.keys()) act(name, "tag", "Round " + round, "round " + round);
});

document.getElementById("sign-out").addEventListener("click", () => {
  sessionStorage.removeItem("touchmove-token");
  signedIn(false);
  say("signed out", true);
});

// A token kept from before is checked again (serve may have been started with another).
signedIn(false);
if (token()) {
  operatorToken(token()).then((taken) => {
    if (taken) {
      signedIn(true);
    } else if (taken === false) {
      sessionStorage.removeItem("touchmove-token");
      say("signed out: serve no longer takes the token this tab kept", false);
    }
  });
}
refresh();
setInterval(refresh, REFRESH_EVERY);
