// The Igroteka page. It knows no game: the server relays what the referee
// engine says (query board / pieces / movepaths, info lines), and this page
// draws it and turns clicks, drags and keys into the moves movepaths lists.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let ws = null;
let hello = null; // { games, engines, referee }
let board = null; // query board of the game on the board
let rules = null; // query rules of that game, if the referee knows it
let state = null; // the live position: { moves, fen, pieces, movepaths, to_move, ... }
let settings = null; // the "new" request of the game on the board
let pending = null; // a "new" request sent, not yet started
let prefix = []; // the cells clicked so far towards a move
let lastPath = []; // the cells of the last move
let cellInfo = new Map(); // name -> { x, y, r, group }
let flipped = false;
let viewPly = null; // the ply shown while looking back; null: the game now
let positions = []; // ply -> { pieces, fen } seen so far
let paths = []; // ply -> the path of move `ply` (1-based), when known
let evals = []; // ply -> the score (player 1's view, centipawns) searched there
let clockAt = 0; // when the clocks of `state` were read
let soundOn = localStorage.getItem("igroteka-sound") === "on";
let paused = false;
let resignArmed = false;
let rovingCell = null; // the board's one cell in the Tab order
let premove = []; // the cells clicked for a move while the engine thinks: [from] or [from, to]
let shapes = new Map(); // ply -> the arrows and circles drawn on that position
let resumePly = null; // the ply looked at when the page was left, shown again
let link = null; // { id, key }: the link of the game this tab plays
let watching = null; // { id, owner }: the game this tab watches, read-only
// The analysis board: variations branch off the game at a ply and never
// change it. The position on screen is the game's after `viewPly` moves
// (the game now when null), then the moves of `variation`.
let variations = new Map(); // ply -> the variations there: [{ move, children }], first shown first
let variation = []; // the moves of the variation on screen
let explored = new Map(); // "ply|moves" -> { fen, pieces, movepaths, to_move, game_over }

function setPhase(phase) {
  document.body.dataset.phase = phase;
}

function phase() {
  return document.body.dataset.phase;
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws`);
  ws.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (e) {
      showError(`the server sent something unreadable: ${e}`, false);
      return;
    }
    const handler = handlers[message.type];
    if (handler) handler(message);
  };
  ws.onclose = (event) => {
    if (phase() !== "refused") {
      // The server says why when it closes a tab's socket itself.
      showError(
        event.reason
          ? `the server closed the connection (${event.reason}); reload the page to play`
          : "the connection to the server is closed; reload the page when it runs again",
        false,
      );
      setPhase("closed");
      prefix = [];
      hideChooser();
      if (state) render();
      $("status").textContent = "Disconnected.";
    }
  };
}

const handlers = {
  hello(message) {
    hello = message;
    fillSetup();
    $("referee").textContent = `Rules and board from the referee engine: ${message.referee}`;
    setPhase("idle");
    $("status").textContent = "Press New game.";
    const linked = linkInAddress();
    const saved = savedGame(linked);
    if (!saved && linked) watchGame(linked);
    else if (saved) {
      // A reload, Back or a reopened tab: the server replays the moves to
      // fresh engines, at the speed they were watched at.
      if ([...$("speed").options].some((o) => Number(o.value) === saved.delay_ms)) $("speed").value = String(saved.delay_ms);
      const { ply, ...request } = saved;
      resumePly = Number.isInteger(ply) ? ply : null;
      startGame(request);
    }
  },
  board(message) {
    board = message.board;
    rules = message.rules;
    settings = pending ?? settings;
    pending = null;
    // Paused or not is the game's state from now on, not a setting.
    delete settings.paused;
    state = null;
    prefix = [];
    lastPath = [];
    viewPly = null;
    positions = [];
    paths = [];
    evals = [];
    paused = false;
    resignArmed = false;
    premove = [];
    shapes = new Map();
    variations = new Map();
    variation = [];
    explored = new Map();
    asked = new Set();
    pendingLine = null;
    resetAnalysis();
    lowTimeTold = new Set();
    for (const n of [1, 2]) $(`analysis-${n}`).textContent = "";
    const people = settings.sides.filter((s) => !s.engine).length;
    // The person's view from below: flip when the person plays player 2 alone.
    flipped = !settings.sides[1].engine && settings.sides[0].engine != null;
    // Analysis is hidden by default while a person plays.
    $("analysis-box").open = people === 0;
    closeSetup();
    drawBoard();
    $("open-rules").disabled = false;
    $("title").textContent = gameTitle();
  },
  state(message) {
    const previous = state;
    if (previous && !startsWith(message.moves, previous.moves.slice(0, Math.min(previous.moves.length, message.moves.length)))) {
      positions = [];
      paths = [];
    }
    if (previous) keepVariations(commonLength(previous.moves, message.moves));
    positions.length = Math.min(positions.length, message.moves.length + 1);
    paths.length = Math.min(paths.length, message.moves.length + 1);
    evals.length = Math.min(evals.length, message.moves.length + 1);
    state = message;
    clockAt = performance.now();
    paused = message.paused;
    positions[message.moves.length] = { pieces: message.pieces, fen: message.fen };
    lastPath = lastMovePath(previous, state);
    if (lastPath.length) paths[state.moves.length] = lastPath;
    prefix = [];
    if (viewPly !== null && (viewPly > state.moves.length || (viewPly === state.moves.length && !variation.length))) {
      viewPly = null;
      variation = [];
    }
    hideError();
    hideChooser();
    $("move-text-note").textContent = "";
    const moved = previous && state.moves.length === previous.moves.length + 1;
    if (phase() !== "closed") setPhase(livePhase());
    render();
    if (moved && viewPly === null) {
      animate(lastPath);
      beep(captured(previous, state) ? "capture" : "move");
    }
    tellChange(previous, moved);
    if (phase() === "human") playPremove();
    if (resumePly !== null) {
      const ply = resumePly;
      resumePly = null;
      if (ply < state.moves.length) navigateTo(ply);
    }
    saveGame();
  },
  view(message) {
    positions[message.ply] = { pieces: message.pieces, fen: message.fen };
    if (viewPly === message.ply) render();
  },
  info(message) {
    const who = playerName(message.side);
    const parts = [`${who}:`];
    if (message.depth != null) parts.push(`depth ${message.depth}`);
    if (message.score != null) parts.push(`score ${message.score}`);
    if (message.nodes != null) parts.push(`nodes ${message.nodes}`);
    if (message.pv.length) parts.push(`pv ${message.pv.join(" ")}`);
    $(`analysis-${message.side}`).textContent = parts.join(" ");
    const value = scoreValue(message.score);
    if (value !== null && state) {
      evals[state.moves.length] = message.side === 1 ? value : -value;
      renderEval();
    }
  },
  error(message) {
    if (watching && !state) {
      // The link's game is not (or no longer) here.
      watching = null;
      delete document.body.dataset.watching;
      $("status").textContent = "Press New game.";
    }
    if (!hello) {
      setPhase("refused");
    } else if (message.new_game) {
      // The new game did not start; the one on the board goes on.
      pending = null;
      $("setup-error").textContent = message.message;
      $("setup-error").hidden = false;
      if (!$("setup-dialog").open) openSetup(true);
      setPhase(state ? livePhase() : "idle");
      if (state) render();
      else {
        $("status").textContent = "Press New game.";
        clearSavedGame();
      }
      // The form says it; the page's error bar is for the game on the board.
      return;
    } else if (message.restart) {
      setPhase("error");
      $("status").textContent = "The game stopped.";
      renderButtons();
    } else if (phase() === "sent" && state) {
      setPhase(livePhase());
      render();
    }
    showError(message.message, message.restart);
  },
};

// ----- appearance: themes, coordinates, zen mode, animation -----

const APPEARANCE_DEFAULTS = { theme: "system", board: "game", pieces: "flat", animation: 150, coordinates: true, zen: false };
let appearance = { ...APPEARANCE_DEFAULTS };
try {
  appearance = { ...APPEARANCE_DEFAULTS, ...JSON.parse(localStorage.getItem("igroteka-appearance") ?? "{}") };
} catch {
  // A damaged setting: the defaults.
}

// Board themes: the lightest of the game's colours becomes the theme's light
// one, the darkest its dark one, those between in between.
const BOARD_THEMES = { green: ["#eeeed2", "#769656"], blue: ["#dee3e6", "#7f9bb0"], contrast: ["#ffffff", "#6b6b6b"] };
function classColour(name) {
  const own = board.classes[name] ?? "#cccccc";
  const theme = BOARD_THEMES[appearance.board];
  if (!theme) return own;
  const order = Object.values(board.classes).map(luminance).sort((a, b) => b - a);
  const t = order.length > 1 ? order.indexOf(luminance(own)) / (order.length - 1) : 0;
  const [light, dark] = theme.map((c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)));
  return `#${light.map((v, i) => Math.round(v + (dark[i] - v) * t).toString(16).padStart(2, "0")).join("")}`;
}

const systemDark = matchMedia("(prefers-color-scheme: dark)");
function applyAppearance() {
  const dark = appearance.theme === "dark" || (appearance.theme === "system" && systemDark.matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  document.body.classList.toggle("zen", appearance.zen);
  $("theme").value = appearance.theme;
  $("board-theme").value = appearance.board;
  $("piece-theme").value = appearance.pieces;
  $("animation").value = String(appearance.animation);
  $("coordinates").checked = appearance.coordinates;
  $("zen").checked = appearance.zen;
  if (board) {
    drawBoard();
    if (state) render();
  }
}

function setAppearance(change) {
  appearance = { ...appearance, ...change };
  localStorage.setItem("igroteka-appearance", JSON.stringify(appearance));
  applyAppearance();
}

systemDark.addEventListener("change", applyAppearance);
$("open-appearance").onclick = () => $("appearance-dialog").showModal();
$("theme").onchange = () => setAppearance({ theme: $("theme").value });
$("board-theme").onchange = () => setAppearance({ board: $("board-theme").value });
$("piece-theme").onchange = () => setAppearance({ pieces: $("piece-theme").value });
$("animation").onchange = () => setAppearance({ animation: Number($("animation").value) });
$("coordinates").onchange = () => setAppearance({ coordinates: $("coordinates").checked });
$("zen").onchange = () => setAppearance({ zen: $("zen").checked });
$("exit-zen").onclick = () => setAppearance({ zen: false });
applyAppearance();

// A capture: the side that did not move has fewer pieces on the board.
function captured(before, after) {
  const count = (position, owner) => position.pieces.cells.reduce((n, c) => n + c.stack.filter((p) => p.owner === owner).length, 0);
  return count(after, after.to_move) < count(before, after.to_move);
}

// ----- what a screen reader is told -----

// Changes the page makes by itself go to a live region: a move, the side to
// move, the result.
function announce(text) {
  $("announce").textContent = text;
}

function tellChange(previous, moved) {
  const words = [];
  if (moved) words.push(`${playerName(previous.to_move)} played ${state.moves[state.moves.length - 1]}.`);
  if (state.game_over && !previous?.game_over) words.push(`${$("result").textContent}. ${$("why").textContent}`.trim());
  else if (!state.game_over && (moved || !previous)) {
    words.push(state.human_to_move ? `${playerName(state.to_move)} to move.` : `${playerName(state.to_move)} is thinking.`);
  }
  if (words.length) announce(words.join(" "));
}

// ----- the game in the address, for reloads -----

// The address is the game's link (?g=<id>); the tab keeps the game itself
// (with the link's key) in its session storage, so that a reload or Back
// continues it under the same link while other tabs only watch it.
const SAVED = "igroteka-game";

// Engines at full speed change the game faster than it is worth keeping (and
// the browser ignores the address's changes past 200 in 10 s), so it is
// written at most ten times a second, the last change always, and when the
// page is left.
const SAVE_EVERY_MS = 100;
let saveTimer = null;
let savedAt = -Infinity;
function saveGame() {
  if (saveTimer !== null) return;
  const wait = savedAt + SAVE_EVERY_MS - performance.now();
  if (wait <= 0) writeGame();
  else saveTimer = setTimeout(writeGame, wait);
}

function writeGame() {
  clearTimeout(saveTimer);
  saveTimer = null;
  savedAt = performance.now();
  if (!settings || !state || !link || watching) return;
  const saved = { ...settings, moves: state.moves };
  delete saved.type;
  saved.delay_ms = Number($("speed").value);
  // A paused engine game comes back paused, looked back at where it was.
  saved.paused = paused;
  if (viewPly !== null) saved.ply = viewPly;
  else delete saved.ply;
  // A game ended by resignation or time comes back ended.
  if (state.verdict) saved.verdict = { result: state.verdict.result, reason: state.verdict.reason };
  else delete saved.verdict;
  saved.sides = settings.sides.map((side, i) =>
    side.clock && state.clocks[i] != null
      ? { ...side, clock: { ...side.clock, left_ms: Math.max(0, Math.round(clockLeft(i + 1))) } }
      : side,
  );
  delete saved.link;
  sessionStorage.setItem(SAVED, JSON.stringify({ id: link.id, key: link.key, game: saved }));
  if (linkInAddress() !== link.id || location.hash) history.replaceState(null, "", `?g=${link.id}`);
}

// The game to resume: this tab's own game of the link `id`, or (an address
// of before links) the record after #game= in the address.
function savedGame(id) {
  if (id) {
    try {
      const own = JSON.parse(sessionStorage.getItem(SAVED));
      if (own?.id === id && typeof own.game?.game === "string" && Array.isArray(own.game.sides)) {
        return { ...own.game, link: { id, key: own.key } };
      }
    } catch {
      // Nothing kept: the link is watched.
    }
    return null;
  }
  const match = location.hash.match(/^#game=(.*)$/);
  if (!match) return null;
  try {
    const saved = JSON.parse(decodeURIComponent(match[1]));
    if (typeof saved.game !== "string" || !Array.isArray(saved.sides)) return null;
    return saved;
  } catch {
    return null;
  }
}

function clearSavedGame() {
  history.replaceState(null, "", location.pathname);
  sessionStorage.removeItem(SAVED);
}

function linkInAddress() {
  return new URLSearchParams(location.search).get("g");
}

// ----- watching a game by its link -----

function watchGame(id) {
  watching = { id, owner: true };
  document.body.dataset.watching = "true";
  $("status").textContent = "Looking for the game…";
  send({ type: "watch", id });
}

// The game this tab started has a link: it becomes the address.
handlers.link = (message) => {
  link = { id: message.id, key: message.key };
  watching = null;
  delete document.body.dataset.watching;
  if (settings) delete settings.link;
  $("title").textContent = gameTitle();
  renderShare();
  // At once: a reload right now must find the link in the address (the game
  // itself is kept by the next state, or when the page is left).
  if (linkInAddress() !== link.id || location.hash) history.replaceState(null, "", `?g=${link.id}`);
  saveGame();
};

// What this tab watches: the game's settings, and whether its player's tab
// is still there; its board, positions and analysis follow as they come.
handlers.watch = (message) => {
  watching = { id: message.id, owner: message.owner };
  link = null;
  settings = message.settings;
  if (board) $("title").textContent = gameTitle();
  renderShare();
  if (state) {
    if (phase() !== "closed") setPhase(livePhase());
    render();
  }
};

// A spectator's line in place of the player's.
function watchStatus() {
  if (phase() === "closed") return "Disconnected.";
  if (variation.length) return `Variation after move ${viewPly}: the game is not changed (← back, ↓ its end).`;
  if (viewPly !== null && !positions[viewPly]) return watching.owner ? `Move ${viewPly}: asking the player's tab…` : `Move ${viewPly}: not seen here; press End for the game now.`;
  if (viewPly !== null) return `Move ${viewPly} of ${state.moves.length}: press End for the game now.`;
  if (state.game_over) return "Watching: game over.";
  if (!watching.owner) return "Watching: the game stopped (its player left, or its engines failed).";
  if (state.thinking) return `Watching: ${playerName(state.to_move)} is thinking…`;
  return `Watching: ${playerName(state.to_move)} to move.`;
}

function renderShare() {
  const id = link?.id ?? watching?.id;
  $("share").hidden = !id;
  if (!id) return;
  const url = `${location.origin}${location.pathname}?g=${id}`;
  $("share-link").href = url;
  $("share-link").textContent = url;
}

$("copy-link").onclick = () => copy($("share-link").href);

// ----- setup -----

function fillSetup() {
  const game = $("game");
  game.replaceChildren(...hello.games.map((g) => new Option(g.name, g.name)));
  for (const n of [1, 2]) {
    const select = $(`p${n}-engine`);
    const options = [new Option("Human", "")];
    for (const name of hello.engines) options.push(new Option(name, name));
    select.replaceChildren(...options);
  }
  // A person against the first engine by default.
  $("p2-engine").value = hello.engines[0] ?? "";
  for (const n of [1, 2]) $(`p${n}-engine`).addEventListener("change", limits);
  limits();
  game.onchange = fillVariants;
  fillVariants();
}

function limits() {
  // A person has no limit to set.
  for (const n of [1, 2]) {
    const person = $(`p${n}-engine`).value === "";
    $(`p${n}-kind`).disabled = person;
    $(`p${n}-limit`).disabled = person;
  }
}

function fillVariants() {
  const info = hello.games.find((g) => g.name === $("game").value);
  if (!info) return;
  $("variant").replaceChildren(...info.variants.map((v) => new Option(v, v)));
  $("maxplies").value = info.max_plies;
}

// The form shows the game on the board (or the last one asked for).
function formFrom(s) {
  $("game").value = s.game;
  fillVariants();
  if (s.variant) $("variant").value = s.variant;
  s.sides.forEach((side, i) => {
    const n = i + 1;
    $(`p${n}-engine`).value = side.engine ?? "";
    if (side.limit) {
      const [kind, value] = Object.entries(side.limit)[0];
      $(`p${n}-kind`).value = kind;
      $(`p${n}-limit`).value = value;
    }
  });
  const clock = s.sides.find((side) => side.clock)?.clock;
  $("clock-base").value = clock ? clock.base_ms / 60000 : "";
  $("clock-inc").value = clock ? clock.inc_ms / 1000 : "";
  $("maxplies").value = s.max_plies;
  $("fen").value = s.fen ?? "";
  limits();
}

function readSide(n) {
  const engine = $(`p${n}-engine`).value || null;
  const value = Math.max(1, Math.floor(Number($(`p${n}-limit`).value) || 1));
  const side = { engine, limit: engine ? { [$(`p${n}-kind`).value]: value } : null };
  const minutes = Number($("clock-base").value);
  if ($("clock-base").value !== "" && minutes > 0) {
    side.clock = { base_ms: Math.round(minutes * 60000), inc_ms: Math.round((Number($("clock-inc").value) || 0) * 1000) };
  }
  return side;
}

function readForm() {
  const fen = $("fen").value.trim();
  return {
    game: $("game").value,
    variant: $("variant").value || null,
    fen: fen || null,
    moves: [],
    max_plies: Math.max(0, Math.floor(Number($("maxplies").value) || 0)),
    sides: [readSide(1), readSide(2)],
  };
}

function gameRunning() {
  // A game watched here is not abandoned by starting one.
  return !watching && state && !state.game_over && ["human", "thinking", "sent"].includes(phase());
}

function openSetup(keep = false) {
  if (!keep) {
    $("setup-error").hidden = true;
    if (settings) formFrom(settings);
  }
  $("abandon").hidden = !gameRunning();
  $("new").hidden = false;
  $("confirm-new").hidden = true;
  if (!$("setup-dialog").open) $("setup-dialog").showModal();
}

function closeSetup() {
  if ($("setup-dialog").open) $("setup-dialog").close();
}

function startGame(request) {
  pending = { type: "new", ...request, delay_ms: Number($("speed").value) };
  hideError();
  $("setup-error").hidden = true;
  // The game on the board stays in view, inert, until the new one starts.
  setPhase("starting");
  $("status").textContent = "Starting the engines…";
  send(pending);
}

$("open-setup").onclick = () => openSetup();
$("cancel-setup").onclick = () => {
  closeSetup();
  if (settings) formFrom(settings);
};
$("setup-dialog").addEventListener("close", () => {
  if (settings && !pending) formFrom(settings);
});
$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  if (phase() === "closed" || phase() === "connecting") return;
  if (gameRunning() && $("confirm-new").hidden) {
    // New game mid-game asks first.
    $("abandon").hidden = false;
    $("new").hidden = true;
    $("confirm-new").hidden = false;
    $("confirm-new").focus();
    return;
  }
  startGame(readForm());
});
$("confirm-new").onclick = () => startGame(readForm());

// ----- errors -----

function showError(text, restart) {
  $("error-text").textContent = text;
  $("restart").hidden = !restart;
  $("error").hidden = false;
}

function hideError() {
  $("error").hidden = true;
}

$("dismiss").onclick = hideError;
$("restart").onclick = () => {
  if (!settings) return;
  // Fresh engines, the same game, the moves played so far.
  const moves = state ? state.moves : settings.moves;
  // Under the same link, for those who watch.
  startGame({ ...settings, moves, link });
};

// ----- drawing -----

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// A board point as drawn: turned half round when the board is flipped.
function at(x, y) {
  return flipped ? [board.width - x, board.height - y] : [x, y];
}

// The largest circle around (x, y) inside the polygon: the distance to the
// nearest edge.
function inradius(x, y, polygon) {
  let best = Infinity;
  for (let i = 0; i < polygon.length; i++) {
    const [ax, ay] = polygon[i];
    const [bx, by] = polygon[(i + 1) % polygon.length];
    const dx = bx - ax;
    const dy = by - ay;
    const length2 = dx * dx + dy * dy;
    const t = length2 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length2)) : 0;
    best = Math.min(best, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)));
  }
  return Number.isFinite(best) ? best : 0.4;
}

function inside(x, y, polygon) {
  let within = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) within = !within;
  }
  return within;
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
  document.documentElement.style.setProperty("--aspect", String(board.width / board.height));
  document.documentElement.style.setProperty("--p1", playerColour(1));
  document.documentElement.style.setProperty("--p2", playerColour(2));
  $("board-area").classList.toggle("flipped", flipped);
  svg.classList.toggle("no-coordinates", !appearance.coordinates);
  $("flip").setAttribute("aria-pressed", String(flipped));
  cellInfo = new Map();
  const cells = el("g", { id: "cells", role: "presentation" }, svg);
  // The grid's rows as drawn, top to bottom, each left to right. The board
  // is one Tab stop: one cell at a time has tabindex 0 (roving), the arrows
  // move within it.
  const drawn = board.cells.map((cell) => ({ cell, at: at(cell.x, cell.y) }));
  drawn.sort((a, b) => a.at[1] - b.at[1] || a.at[0] - b.at[0]);
  let row = null;
  let rowY = null;
  for (const { cell, at: [x, y] } of drawn) {
    if (row === null || Math.abs(y - rowY) > 0.25) {
      row = el("g", { role: "row" }, cells);
      rowY = y;
    }
    const group = el("g", { class: "cell", "data-cell": cell.name, tabindex: "-1", role: "gridcell", "aria-selected": "false" }, row);
    const polygon = cell.polygon.map(([px, py]) => at(px, py));
    const fill = classColour(cell.class);
    el("polygon", { points: polygon.map((p) => p.join(",")).join(" "), fill }, group);
    // The marks inside the cell, in inks that stand out from its colour.
    const inset = polygon.map(([px, py]) => [x + (px - x) * 0.9, y + (py - y) * 0.9]);
    el("polygon", { points: inset.map((p) => p.join(",")).join(" "), class: "mark" }, group);
    const ink = markInk(fill);
    for (const [name, value] of Object.entries(ink)) group.style.setProperty(`--${name}`, value);
    el("title", {}, group).textContent = cell.name;
    cellInfo.set(cell.name, { x, y, r: inradius(x, y, polygon), group, polygon, zone: cell.class, ink });
  }
  if (!cellInfo.has(rovingCell)) rovingCell = drawn[0]?.cell.name ?? null;
  if (rovingCell) cellInfo.get(rovingCell).group.tabIndex = 0;
  const unit = boardUnit();
  const labels = el("g", { id: "labels" }, svg);
  // Turned, the coordinates stay where people read them: files below the
  // board, ranks beside it, in the turned order.
  const xs = board.cells.map((c) => c.x);
  const ys = board.cells.map((c) => c.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (const label of board.labels) {
    let [x, y] = at(label.x, label.y);
    if (flipped && (label.y > maxY + 0.3 || label.y < minY - 0.3)) y = label.y;
    else if (flipped && (label.x > maxX + 0.3 || label.x < minX - 0.3)) x = label.x;
    // A label inside a field (a field number) is small, off the centre.
    const field = [...cellInfo.values()].some((c) => inside(x, y, c.polygon));
    const text = el("text", { x, y, class: field ? "label field" : "label", "font-size": unit * (field ? 0.42 : 0.7) }, labels);
    text.textContent = label.text;
  }
  el("g", { id: "path" }, svg);
  el("g", { id: "pieces" }, svg);
  el("g", { id: "targets" }, svg);
  el("g", { id: "shapes" }, svg);
  el("g", { id: "best" }, svg);
  for (const n of [1, 2]) $(`side-${n}-name`).textContent = playerName(n);
  drawLegend();
}

function drawLegend() {
  const legend = $("legend");
  legend.replaceChildren();
  for (const name of Object.keys(board.classes)) {
    const item = document.createElement("span");
    item.style.setProperty("--swatch", classColour(name));
    item.textContent = name;
    legend.append(item);
  }
}

function median(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function playerName(n) {
  return board ? board.players[n - 1].name : `Player ${n}`;
}

function playerColour(n) {
  return board ? board.players[n - 1].colour : n === 1 ? "#f4f4f4" : "#222222";
}

function gameTitle() {
  if (!settings) return "";
  const who = (n) => settings.sides[n - 1].engine ?? (watching ? "person" : "you");
  const people = settings.sides.filter((s) => !s.engine).length;
  const names = people === 2 ? `${playerName(1)} v ${playerName(2)}` : `${playerName(1)} (${who(1)}) v ${playerName(2)} (${who(2)})`;
  return `${watching ? "Watching · " : ""}${settings.game} ${settings.variant ?? ""} · ${names}`;
}

// The relative luminance (WCAG) of #rgb or #rrggbb.
function luminance(colour) {
  let hex = colour.replace("#", "");
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  const channel = (i) => {
    const v = (parseInt(hex.slice(i, i + 2), 16) || 0) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

// The marks drawn on a square of colour `fill`: a dark or a light set,
// whichever stands out more. Each dark ink's luminance is under 0.04 and each
// light one's over 0.85, so one of the two has a contrast of 3.2:1 or more
// with any colour.
const DARK_MARKS = { target: "#00332e", edge: "#4d3300", focus: "#0a1f5c" };
const LIGHT_MARKS = { target: "#c8fff4", edge: "#fff3b0", focus: "#eef4ff" };
function markInk(fill) {
  const l = luminance(fill);
  return (l + 0.05) / (luminance(DARK_MARKS.edge) + 0.05) >= (luminance(LIGHT_MARKS.edge) + 0.05) / (l + 0.05) ? DARK_MARKS : LIGHT_MARKS;
}

function ink(colour) {
  // Black or white text, whichever reads on `colour` (#rgb or #rrggbb).
  let hex = colour.replace("#", "");
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) || 0);
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#111" : "#f5f5f5";
}

// The commonest kind on the board is drawn plain, others (kings) marked.
function plainKind(cells) {
  const counts = new Map();
  for (const { stack } of cells) {
    for (const piece of stack) counts.set(piece.kind, (counts.get(piece.kind) ?? 0) + 1);
  }
  let plain = null;
  for (const [kind, count] of counts) {
    if (kind !== "king" && (plain === null || count > counts.get(plain))) plain = kind;
  }
  return plain;
}

// A stack is a tower: its pieces bottom to top, each a little higher, the
// top one marked with its kind, and the height written beside it. Its
// make-up is the cell's tooltip and is told when the cell has the focus.
function drawStack(layer, name, info, stack, plain) {
  const r = info.r * 0.78;
  const shown = stack.slice(-6);
  const step = stack.length > 1 ? Math.min(r * 0.28, (info.r * 0.9) / shown.length) : 0;
  const base = info.y + (step * (shown.length - 1)) / 2;
  const tower = el("g", { class: "stack", "data-at": name }, layer);
  shown.forEach((piece, i) => {
    const y = base - i * step;
    const colour = playerColour(piece.owner);
    const group = el("g", { class: "piece", "data-owner": piece.owner, "data-kind": piece.kind }, tower);
    const disc = el("circle", { cx: info.x, cy: y, r, fill: colour, "stroke-width": r * 0.08 }, group);
    if (appearance.pieces === "outlined") {
      disc.setAttribute("stroke-width", r * 0.16);
      disc.setAttribute("stroke", ink(colour));
    }
    // Shapes tell the sides apart without their colours: a dot for player 1,
    // a square for player 2, low on the top piece.
    if (appearance.pieces === "shapes" && i === shown.length - 1) {
      const [sx, sy, size] = [info.x, y + r * 0.62, r * 0.2];
      const side = { class: "side", fill: ink(colour) };
      if (piece.owner === 1) el("circle", { ...side, cx: sx, cy: sy, r: size }, group);
      else el("rect", { ...side, x: sx - size, y: sy - size, width: size * 2, height: size * 2 }, group);
    }
    if (i === shown.length - 1 && piece.kind !== plain) {
      el("circle", { cx: info.x, cy: y, r: r * 0.62, fill: "none", stroke: ink(colour), "stroke-width": r * 0.08 }, group);
      const text = el("text", { x: info.x, y, fill: ink(colour), "font-size": r * 0.85 }, group);
      text.textContent = piece.kind.charAt(0).toUpperCase();
    }
  });
  if (stack.length > 1) {
    const top = stack[stack.length - 1];
    const x = info.x + r * 0.95;
    const y = base - (shown.length - 1) * step - r * 0.75;
    el("circle", { cx: x, cy: y, r: r * 0.42, fill: "#fff", stroke: "#333", "stroke-width": r * 0.05 }, tower);
    const count = el("text", { x, y, class: "count", "font-size": r * 0.55, fill: "#111" }, tower);
    count.textContent = String(stack.length);
    count.dataset.owner = top.owner;
  }
  info.group.querySelector("title").textContent = `${name}: ${stackWords(stack)}`;
}

function stackWords(stack) {
  if (stack.length === 1) return `${playerName(stack[0].owner)} ${stack[0].kind}`;
  const names = stack.map((p) => playerName(p.owner)).reverse();
  return `a stack of ${stack.length}, top to bottom: ${names.join(", ")}`;
}

// What is shown: the live position, or the one looked back at.
function shown() {
  if (variation.length) return explored.get(positionKey()) ?? null;
  if (viewPly === null) return positions[state.moves.length] ?? { pieces: state.pieces, fen: state.fen };
  return positions[viewPly] ?? null;
}

function render() {
  if (!board || !state) return;
  const live = viewPly === null;
  const ply = live ? state.moves.length : viewPly;
  const position = shown();
  $("board").classList.toggle("history", !live);
  const layer = $("pieces");
  layer.replaceChildren();
  for (const info of cellInfo.values()) info.group.querySelector("title").textContent = info.group.dataset.cell + zoneWords(info);
  if (position) {
    const plain = plainKind(position.pieces.cells);
    for (const { cell, stack } of position.pieces.cells) {
      const info = cellInfo.get(cell);
      if (info && stack.length) drawStack(layer, cell, info, stack, plain);
    }
  }
  const parent = variation.length ? positionAt(ply, variation.slice(0, -1)) : positions[ply - 1];
  const path = live ? lastPath : variation.length ? movePath(parent, variation[variation.length - 1]) : paths[ply] ?? [];
  drawPath(path);
  const changed = changedCells(parent, position);
  for (const [name, info] of cellInfo) info.group.classList.toggle("last", path.includes(name) || changed.has(name));
  drawBars(position ? position.pieces : state.pieces, live);
  renderMarks();
  renderPremove();
  drawShapes();
  drawBest();
  renderMoves();
  renderVariationButtons();
  renderResult();
  renderButtons();
  renderEval();
  $("position").value = position ? position.fen : "";
  $("record").value = recordText();
  $("download-record").disabled = false;
  $("replay-hint").textContent = replayHint();
  renderStatus();
  renderCellInfo();
  exploreShown();
  requestAnalysis();
  renderAnalysis();
}

function zoneWords(info) {
  return Object.keys(board.classes).length > 2 ? ` (${info.zone})` : "";
}

function livePhase() {
  if (watching && !watching.owner && !state.game_over) return "stopped";
  return state.game_over ? "over" : state.human_to_move ? "human" : "thinking";
}

function renderStatus() {
  let text;
  if (phase() === "closed") text = "Disconnected.";
  else if (phase() === "error") text = "The game stopped.";
  else if (variation.length) text = `Variation after move ${viewPly}: the game is not changed (← back, ↓ its end).`;
  else if (viewPly !== null) text = `Move ${viewPly} of ${state.moves.length}: press End for the game now.`;
  else if (state.game_over) text = "Game over.";
  else if (state.human_to_move) text = `${playerName(state.to_move)} to move: click or drag a piece.`;
  else if (paused) text = "Paused.";
  else text = `${playerName(state.to_move)} is thinking…`;
  $("status").textContent = watching ? watchStatus() : text;
}

// The cells whose stacks differ between two positions (a displaced piece
// shows where it went).
function changedCells(before, after) {
  const changed = new Set();
  if (!before || !after) return changed;
  const key = (pieces) => new Map(pieces.cells.map(({ cell, stack }) => [cell, JSON.stringify(stack)]));
  const a = key(before.pieces);
  const b = key(after.pieces);
  for (const cell of new Set([...a.keys(), ...b.keys()])) if (a.get(cell) !== b.get(cell)) changed.add(cell);
  return changed;
}

// The last move's line, under the pieces (it never hides a king's letter).
function drawPath(path) {
  const layer = $("path");
  layer.replaceChildren();
  const points = path.map((name) => cellInfo.get(name)).filter(Boolean);
  if (points.length < 2) return;
  const unit = points[0].r;
  el("polyline", { class: "path", points: points.map((p) => `${p.x},${p.y}`).join(" "), "stroke-width": unit * 0.16 }, layer);
}

function clockLeft(n) {
  const left = state.clocks[n - 1];
  if (left == null) return null;
  return state.ticking === n ? left - (performance.now() - clockAt) : left;
}

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const tenths = ms < 10000 && ms > 0 ? `.${Math.floor((ms % 1000) / 100)}` : "";
  const seconds = ms < 10000 && ms > 0 ? Math.floor(ms / 1000) : s;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}${tenths}`;
}

function drawBars(pieces, live) {
  for (const n of [1, 2]) {
    const box = $(`reserve-${n}`);
    box.replaceChildren();
    box.className = "bar";
    const parts = [];
    if (pieces.reserves) parts.push(`reserve ${pieces.reserves[n - 1]}`);
    if (pieces.captured) parts.push(`captured ${pieces.captured[n - 1]}`);
    if (pieces.score) parts.push(`score ${pieces.score[n - 1]}`);
    const disc = document.createElement("span");
    disc.className = "disc";
    disc.style.background = playerColour(n);
    const name = document.createElement("span");
    name.className = "name";
    const side = settings.sides[n - 1];
    name.textContent = `${playerName(n)} · ${side.engine ?? "person"}`;
    const extra = document.createElement("span");
    extra.className = "extra";
    extra.textContent = parts.join(", ");
    box.append(disc, name, extra);
    if (state.clocks[n - 1] != null) {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.side = n;
      box.append(clock);
    }
    box.classList.toggle("to-move", live && !state.game_over && state.to_move === n);
    // Only the mover's reserve is a place to drop from.
    const mover = (live || exploring()) && n === shownToMove();
    box.dataset.cell = mover ? "reserve" : "";
    // The person's own reserve also starts a premove while the engine thinks.
    box.onclick = mover || (live && n === onePerson()) ? () => clickCell("reserve") : null;
  }
  tickClocks();
}

function tickClocks() {
  if (!state) return;
  for (const clock of document.querySelectorAll(".bar .clock")) {
    const n = Number(clock.dataset.side);
    const left = clockLeft(n);
    clock.textContent = clockText(left);
    clock.classList.toggle("ticking", state.ticking === n);
    const low = left < lowTime(n);
    clock.classList.toggle("low", low);
    // A person's clock running low is told once a game: a tone and words.
    if (low && state.ticking === n && !settings.sides[n - 1].engine && !lowTimeTold.has(n)) {
      lowTimeTold.add(n);
      beep("lowTime");
      announce(`${playerName(n)}: ${Math.ceil(left / 1000)} seconds left.`);
    }
  }
}

// Low time: 10 s, or a quarter of a shorter clock's time.
let lowTimeTold = new Set();
function lowTime(n) {
  const base = settings?.sides[n - 1].clock?.base_ms ?? 40000;
  return Math.min(10000, base / 4);
}
setInterval(tickClocks, 100);

// ----- moves by clicks, drags and keys -----

function humanMoves() {
  if (!state) return [];
  // Looking back or at a variation: moves try variations (the board of the
  // game now, ended or not, is the game's).
  if (exploring() && viewPly !== null) return positionAt(viewPly, variation)?.movepaths?.moves ?? [];
  if (watching || !state.human_to_move || viewPly !== null || phase() !== "human") return [];
  return state.movepaths.moves;
}

function startsWith(path, start) {
  return start.length <= path.length && start.every((cell, i) => path[i] === cell);
}

function renderMarks() {
  const moves = humanMoves();
  const candidates = moves.filter((m) => m.path.length && startsWith(m.path, prefix));
  const next = new Set(candidates.filter((m) => m.path.length > prefix.length).map((m) => m.path[prefix.length]));
  for (const [name, info] of cellInfo) {
    const group = info.group;
    group.classList.toggle("selected", prefix.includes(name));
    group.classList.toggle("start", prefix.length === 0 && next.has(name));
    group.setAttribute("aria-selected", String(prefix.includes(name)));
    group.setAttribute("aria-label", cellLabel(name, moves, next));
  }
  const targets = $("targets");
  targets.replaceChildren();
  if (prefix.length) {
    // A dot on a piece (a capture) is inked to stand out from the piece.
    const tops = new Map((state ? shown()?.pieces.cells ?? [] : []).filter((c) => c.stack.length).map((c) => [c.cell, c.stack[c.stack.length - 1].owner]));
    for (const name of next) {
      const info = cellInfo.get(name);
      const fill = tops.has(name) ? markInk(playerColour(tops.get(name))).target : info?.ink.target;
      if (info) el("circle", { class: "target", cx: info.x, cy: info.y, r: info.r * 0.3, fill, "data-target": name }, targets);
    }
  }
  const mover = state && (viewPly === null || exploring()) ? $(`reserve-${shownToMove()}`) : null;
  for (const n of [1, 2]) {
    const bar = $(`reserve-${n}`);
    bar.classList.remove("clickable", "selected");
    // A reserve to drop from is a button, in the Tab order.
    for (const name of ["tabindex", "role", "aria-label", "aria-pressed"]) bar.removeAttribute(name);
  }
  if (mover) {
    const drops = prefix.length === 0 && next.has("reserve");
    mover.classList.toggle("clickable", drops);
    mover.classList.toggle("selected", prefix[0] === "reserve");
    if (drops || prefix[0] === "reserve") {
      mover.tabIndex = 0;
      mover.setAttribute("role", "button");
      mover.setAttribute("aria-pressed", String(prefix[0] === "reserve"));
      mover.setAttribute("aria-label", `Drop from ${playerName(shownToMove())}'s reserve`);
    }
  }
  // With the focus elsewhere, the board's Tab stop is a piece that can move.
  if (prefix.length === 0 && !$("board").contains(document.activeElement)) {
    const start = [...$("cells").querySelectorAll(".cell.start")][0];
    if (start) rove(start.dataset.cell);
  }
  $("legal-moves").replaceChildren(...moves.map((m) => new Option(m.move)));
  const passes = $("passes");
  passes.replaceChildren();
  for (const m of moves.filter((m) => m.path.length === 0)) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = m.move;
    button.dataset.move = m.move;
    button.onclick = () => play(m.move);
    passes.append(button);
  }
}

// A cell's name for assistive technology: its name and contents (as its
// tooltip says), and what it offers now: "can move to ..." for a piece that
// can move or is selected, "move here" for a target.
function cellLabel(name, moves, next) {
  const info = cellInfo.get(name);
  const words = [info ? info.group.querySelector("title").textContent : `${playerName(state.to_move)}'s reserve`];
  const onward = (path) => {
    const cells = new Set(moves.filter((m) => startsWith(m.path, path) && m.path.length > path.length).map((m) => m.path[path.length]));
    return cells.size ? `can move to ${[...cells].join(", ")}` : null;
  };
  if (prefix.includes(name)) words.push("selected");
  if (prefix.length === 0 && next.has(name)) words.push(onward([name]));
  else if (prefix[prefix.length - 1] === name && next.size) words.push(onward(prefix));
  else if (prefix.length && next.has(name)) words.push("move here");
  return words.filter(Boolean).join(", ");
}

// The board's one cell in the Tab order.
function rove(name) {
  if (name === rovingCell || !cellInfo.has(name)) return;
  if (cellInfo.has(rovingCell)) cellInfo.get(rovingCell).group.tabIndex = -1;
  rovingCell = name;
  cellInfo.get(name).group.tabIndex = 0;
}

function clickCell(name) {
  if (viewPly !== null && !exploring()) {
    // A spectator's board while looking back: a click returns to the game.
    goLive();
    return;
  }
  const moves = humanMoves().filter((m) => m.path.length);
  if (!moves.length) {
    clickPremove(name);
    return;
  }
  let path = [...prefix, name];
  if (!moves.some((m) => startsWith(m.path, path))) {
    // Not a continuation: start again from this cell, if a move starts here.
    path = [name];
    if (!moves.some((m) => startsWith(m.path, path))) {
      // The rules allow no move from here (a capture may be compulsory):
      // say where moves start.
      const starts = [...new Set(moves.map((m) => m.path[0]))];
      announce(`No move starts on ${name}. Moves start on ${starts.join(", ")}.`);
      prefix = [];
      hideChooser();
      renderMarks();
      return;
    }
  }
  prefix = path;
  const sharing = moves.filter((m) => startsWith(m.path, path));
  const complete = sharing.filter((m) => m.path.length === path.length);
  if (complete.length === 1 && sharing.length === 1) {
    play(complete[0].move);
    return;
  }
  renderMarks();
  // A complete path that more moves share (or continue): the person chooses
  // among all of them, below the board, or clicks on.
  if (complete.length) choose(sharing);
  else hideChooser();
  const onward = new Set(sharing.filter((m) => m.path.length > path.length).map((m) => m.path[path.length]));
  const where = cellLabel(path[path.length - 1], moves, onward);
  announce(complete.length ? `Which move? ${sharing.map((m) => m.move).join(", ")}.` : `${where}.`);
}

function choose(moves) {
  const box = $("chooser");
  box.replaceChildren();
  const note = document.createElement("p");
  note.textContent = "Which move?";
  box.append(note);
  for (const m of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = m.move;
    button.dataset.move = m.move;
    button.onclick = () => play(m.move);
    box.append(button);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.className = "cancel";
  cancel.onclick = cancelSelection;
  box.append(cancel);
  box.hidden = false;
  // Chosen from the board by keys: the choice is the next thing to press.
  if ($("board").contains(document.activeElement)) box.querySelector("button").focus();
}

function cancelSelection() {
  if (premove.length) clickPremove(null);
  prefix = [];
  hideChooser();
  if (state) renderMarks();
}

function hideChooser() {
  // The focus goes back to the board, not to the page's start.
  if ($("chooser").contains(document.activeElement)) cellInfo.get(rovingCell)?.group.focus();
  $("chooser").hidden = true;
}

// ----- premove: one move set while the engine thinks -----

// The side a person plays against an engine, while the engine is to move.
function premover() {
  if (watching) return null;
  const person = settings && state && !state.game_over && viewPly === null && phase() === "thinking" ? onePerson() : null;
  return person && person !== state.to_move ? person : null;
}

// Where a premove may start: the person's reserve or a stack the person tops.
function premoveStart(name) {
  const person = premover();
  if (!person) return false;
  const pieces = shown()?.pieces;
  if (name === "reserve") return (pieces?.reserves?.[person - 1] ?? 0) > 0;
  const stack = pieces?.cells.find((c) => c.cell === name)?.stack ?? [];
  return stack.length > 0 && stack[stack.length - 1].owner === person;
}

// A click while the engine thinks: a piece of the person's, then a cell,
// set the premove; any other click cancels it.
function clickPremove(name) {
  if (premove.length === 1 && name && name !== premove[0]) {
    premove = [premove[0], name];
    announce(`Premove ${premove.join(" to ")}: played when it is legal after the answer.`);
  } else if (premove.length === 0 && premoveStart(name)) {
    premove = [name];
  } else {
    if (premove.length) announce("Premove cancelled.");
    premove = [];
  }
  renderPremove();
}

function renderPremove() {
  for (const [name, info] of cellInfo) info.group.classList.toggle("premove", premove.includes(name));
  const mover = premover();
  if (mover) $(`reserve-${mover}`).classList.toggle("selected", premove[0] === "reserve");
}

// The person's turn has come: the premove is played if exactly one legal
// move goes from its first cell to its second, offered with the others
// sharing it if several do, dropped otherwise.
function playPremove() {
  const [from, to] = premove;
  premove = [];
  renderPremove();
  if (!to) return;
  const found = humanMoves().filter((m) => m.path[0] === from && m.path[m.path.length - 1] === to);
  if (found.length === 1) play(found[0].move);
  else if (found.length > 1) {
    prefix = found[0].path.slice(0, -1).concat(to);
    renderMarks();
    choose(found);
  } else announce(`Premove ${from} to ${to} is not legal now; it is cancelled.`);
}

// ----- arrows and circles, drawn on a position -----

// Right-drag from one cell to another draws an arrow, a right-click a circle
// (again: rubs it out); Shift, Alt and Ctrl give other colours, as on lichess.
// Each position keeps its drawings while the game is looked through.
const SHAPE_COLOURS = { green: "#15781b", red: "#b21e1e", blue: "#003088", yellow: "#e68f00" };
function shapeColour(event) {
  if (event.ctrlKey || (event.shiftKey && event.altKey)) return "yellow";
  if (event.shiftKey) return "red";
  if (event.altKey) return "blue";
  return "green";
}

// The position on screen: its ply, or the key of a variation's.
function shownPly() {
  if (variation.length) return positionKey();
  return state ? viewPly ?? state.moves.length : 0;
}

function toggleShape(shape) {
  const ply = shownPly();
  const list = shapes.get(ply) ?? [];
  const same = list.findIndex((s) => s.from === shape.from && s.to === shape.to);
  if (same >= 0 && list[same].colour === shape.colour) list.splice(same, 1);
  else if (same >= 0) list[same] = shape;
  else list.push(shape);
  shapes.set(ply, list);
  drawShapes();
}

// The size of a cell: the median of their inscribed circles' radii.
function boardUnit() {
  return median([...cellInfo.values()].map((c) => c.r)) || 0.4;
}

function drawShapes() {
  const layer = $("shapes");
  if (!layer) return;
  layer.replaceChildren();
  const unit = boardUnit();
  for (const { from, to, colour } of shapes.get(shownPly()) ?? []) {
    const a = cellInfo.get(from);
    const b = cellInfo.get(to);
    if (!a || !b) continue;
    const attributes = { class: "shape", "data-colour": colour, "data-from": from, "data-to": to, stroke: SHAPE_COLOURS[colour] };
    drawArrow(layer, a, b, attributes, unit);
  }
}

// An arrow from cell `a` to cell `b` (a ring when they are one), in the
// stroke of `attributes`.
function drawArrow(layer, a, b, attributes, unit) {
  if (a === b) {
    el("circle", { ...attributes, cx: a.x, cy: a.y, r: a.r * 0.88, fill: "none", "stroke-width": unit * 0.12 }, layer);
    return;
  }
  // The line stops short of the cell's centre, under the arrowhead.
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  const head = unit * 0.55;
  const [ux, uy] = [(b.x - a.x) / length, (b.y - a.y) / length];
  const [ex, ey] = [b.x - ux * head, b.y - uy * head];
  el("line", { ...attributes, x1: a.x, y1: a.y, x2: ex, y2: ey, "stroke-width": unit * 0.22, "stroke-linecap": "round" }, layer);
  const [px, py] = [-uy * head * 0.6, ux * head * 0.6];
  el("polygon", { ...attributes, stroke: "none", fill: attributes.stroke, points: `${b.x},${b.y} ${ex + px},${ey + py} ${ex - px},${ey - py}` }, layer);
}

// A move typed in the game's notation, as the move list writes it.
$("type-move").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (!text) return;
  const moves = humanMoves();
  const found = moves.find((m) => m.move === text) ?? moves.filter((m) => m.move.toLowerCase() === text.toLowerCase()).find((_, i, all) => all.length === 1);
  let note = "";
  if (found) {
    $("move-text").value = "";
    play(found.move);
  } else if (!moves.length) {
    note = "It is not your move.";
  } else {
    note = `${text} is not a legal move here.`;
  }
  $("move-text-note").textContent = note;
  $("move-text").setAttribute("aria-invalid", String(note !== "" && moves.length > 0));
  if (note) announce(note);
});

function play(move) {
  hideChooser();
  prefix = [];
  if (viewPly !== null) {
    playVariation(move);
    renderMarks();
    return;
  }
  setPhase("sent");
  renderMarks();
  send({ type: "move", move });
}

// Pointer input: a press and release on one cell is a click; a drag from
// one cell to another is a click on each.
let pressed = null;
let dragMark = null;
function cellAt(x, y) {
  return document.elementFromPoint(x, y)?.closest("#cells [data-cell]")?.dataset.cell ?? null;
}
let rightPressed = null;
$("board").addEventListener("pointerdown", (event) => {
  if (event.button === 2) {
    rightPressed = cellAt(event.clientX, event.clientY);
    // A right-click also cancels a premove, as on lichess.
    if (premove.length) clickPremove(null);
    return;
  }
  if (event.button !== 0) return;
  pressed = cellAt(event.clientX, event.clientY);
  // A left click rubs out the drawings on the position.
  if (shapes.get(shownPly())?.length) {
    shapes.delete(shownPly());
    drawShapes();
  }
});
$("board").addEventListener("contextmenu", (event) => event.preventDefault());
$("board").addEventListener("pointerup", (event) => {
  if (event.button !== 2 || !rightPressed) return;
  const to = cellAt(event.clientX, event.clientY);
  if (to) toggleShape({ from: rightPressed, to, colour: shapeColour(event) });
  rightPressed = null;
});
$("board").addEventListener("pointermove", (event) => {
  if (!pressed || !(event.buttons & 1)) return;
  const over = cellAt(event.clientX, event.clientY);
  if (over === pressed && !dragMark) return;
  const premoving = premover() && premove.length === 0 && premoveStart(pressed);
  if (!dragMark && (premoving || humanMoves().some((m) => m.path[0] === pressed))) {
    const info = cellInfo.get(pressed);
    dragMark = el("circle", { id: "drag", r: info.r * 0.7, fill: playerColour(premoving ? premover() : shownToMove()), stroke: "#000" }, $("board"));
    if (premoving) clickCell(pressed);
    else if (prefix[prefix.length - 1] !== pressed) clickCell(pressed);
  }
  if (dragMark) {
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform($("board").getScreenCTM().inverse());
    dragMark.setAttribute("cx", point.x);
    dragMark.setAttribute("cy", point.y);
  }
});
$("board").addEventListener("pointerup", (event) => {
  if (event.button !== 0) return;
  const from = pressed;
  pressed = null;
  const dragged = dragMark !== null;
  dragMark?.remove();
  dragMark = null;
  const to = cellAt(event.clientX, event.clientY);
  if (!to) return;
  if (dragged) {
    if (to !== from) clickCell(to);
  } else if (to === from) {
    clickCell(to);
  }
});

// Keys: arrows move between cells, Enter or Space clicks one; elsewhere the
// arrows, Home and End walk through the game.
function neighbour(name, dx, dy) {
  const here = cellInfo.get(name);
  let best = null;
  let bestScore = Infinity;
  for (const [other, info] of cellInfo) {
    const ox = info.x - here.x;
    const oy = info.y - here.y;
    const along = ox * dx + oy * dy;
    if (other === name || along <= here.r * 0.5) continue;
    const across = Math.abs(ox * dy - oy * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = other;
    }
  }
  return best;
}

const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target.closest?.("input, select, textarea, dialog")) return;
  const cell = target.closest?.("#cells [data-cell]");
  if (cell && DIRECTIONS[event.key]) {
    const next = neighbour(cell.dataset.cell, ...DIRECTIONS[event.key]);
    if (next) cellInfo.get(next).group.focus();
    event.preventDefault();
    return;
  }
  if (cell && (event.key === "Enter" || event.key === " ")) {
    clickCell(cell.dataset.cell);
    event.preventDefault();
    return;
  }
  if (target.closest?.(".bar[role=button]") && (event.key === "Enter" || event.key === " ")) {
    // A drop chosen by keys: on to the board, at its first target.
    clickCell("reserve");
    const first = $("targets").querySelector("[data-target]");
    if (first) cellInfo.get(first.dataset.target).group.focus();
    event.preventDefault();
    return;
  }
  if (event.key === "Escape") {
    cancelSelection();
    closeMoveMenu();
  } else if (event.key === "ArrowLeft") navigate(-1);
  else if (event.key === "ArrowRight") navigate(1);
  else if (event.key === "Home" || event.key === "ArrowUp") navigateTo(0);
  else if (event.key === "End" || event.key === "ArrowDown") goToEnd();
  else if (event.key === "f") flip();
  else if (event.key === "z") setAppearance({ zen: !appearance.zen });
  else return;
  event.preventDefault();
});

// What stands on the square under the pointer or with the focus: its
// stack's make-up, bottom to top, or its zone.
let infoCell = null;
function tellCell(event) {
  infoCell = event.target.closest?.("#cells [data-cell]")?.dataset.cell ?? null;
  if (event.type === "focusin" && infoCell) rove(infoCell);
  renderCellInfo();
}
function renderCellInfo() {
  const info = infoCell && cellInfo.get(infoCell);
  $("cellinfo").textContent = info ? info.group.querySelector("title").textContent : "";
}
$("board").addEventListener("focusin", tellCell);
$("board").addEventListener("pointerover", tellCell);
// A finger leaves the board at the end of every tap: what it tapped stays told.
$("board").addEventListener("pointerleave", (event) => {
  if (event.pointerType !== "mouse") return;
  infoCell = null;
  renderCellInfo();
});

function lastMovePath(previous, current) {
  if (!previous || !current) return [];
  const n = current.moves.length;
  if (n !== previous.moves.length + 1 || !startsWith(current.moves, previous.moves)) return [];
  const played = current.moves[n - 1];
  const found = previous.movepaths.moves.find((m) => m.move === played);
  return found ? found.path.filter((cell) => cell !== "reserve") : [];
}

function animate(path) {
  if (path.length < 2 || appearance.animation === 0 || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const from = cellInfo.get(path[0]);
  const to = cellInfo.get(path[path.length - 1]);
  const stack = $("pieces").querySelector(`[data-at="${CSS.escape(path[path.length - 1])}"]`);
  if (!from || !to || !stack) return;
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  stack.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { duration: appearance.animation, easing: "ease-out" });
}

// A move's tone, a capture's (lower, longer) and the low-time warning's (high).
const TONES = { move: 660, capture: 330, lowTime: 990 };
let audio = null;
function beep(kind = "move") {
  if (!soundOn) return;
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    const length = kind === "move" ? 0.08 : 0.16;
    tone.frequency.value = TONES[kind];
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + length);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + length);
  } catch {
    // No sound here.
  }
}

function renderSound() {
  $("sound").textContent = soundOn ? "Sound on" : "Sound off";
  $("sound").setAttribute("aria-pressed", String(soundOn));
}
$("sound").onclick = () => {
  soundOn = !soundOn;
  localStorage.setItem("igroteka-sound", soundOn ? "on" : "off");
  renderSound();
};
renderSound();

function flip() {
  if (!board) return;
  flipped = !flipped;
  drawBoard();
  render();
}
$("flip").onclick = flip;

// ----- buttons -----

function onePerson() {
  const people = settings.sides.map((s, i) => (s.engine ? null : i + 1)).filter(Boolean);
  return people.length === 1 ? people[0] : null;
}

function renderButtons() {
  const connected = phase() !== "closed";
  const running = connected && phase() !== "error" && state && !state.game_over;
  const people = settings ? settings.sides.filter((s) => !s.engine).length : 0;
  $("takeback").disabled = !(running || (connected && state && !state.verdict && state.game_over)) || !state || state.moves.length === 0 || people === 0 || viewPly !== null;
  $("resign").disabled = !running || people === 0;
  $("resign").textContent = resignArmed ? "Really resign?" : "Resign";
  $("engine-controls").hidden = !settings || people > 0;
  $("pause").textContent = paused ? "Resume" : "Pause";
  $("pause").disabled = !running;
  $("step").disabled = !running || !paused || state.thinking != null;
  $("open-setup").disabled = !connected;
  $("rematch").disabled = !connected;
  if (watching) for (const id of ["takeback", "resign", "pause", "step", "speed", "rematch"]) $(id).disabled = true;
}

$("takeback").onclick = () => {
  hideChooser();
  send({ type: "take_back" });
};
$("resign").onclick = () => {
  if (!resignArmed) {
    resignArmed = true;
    renderButtons();
    setTimeout(() => {
      resignArmed = false;
      if (state) renderButtons();
    }, 4000);
    return;
  }
  resignArmed = false;
  send({ type: "resign", side: onePerson() });
};
$("pause").onclick = () => send({ type: "pace", paused: !paused, delay_ms: Number($("speed").value) });
$("step").onclick = () => send({ type: "step" });
$("speed").onchange = () => send({ type: "pace", paused, delay_ms: Number($("speed").value) });
$("rematch").onclick = () => {
  if (!settings) return;
  // The same game, colours swapped, clocks full.
  const sides = [settings.sides[1], settings.sides[0]].map((side) => {
    const copy = { ...side };
    if (copy.clock) copy.clock = { base_ms: copy.clock.base_ms, inc_ms: copy.clock.inc_ms };
    return copy;
  });
  startGame({ ...settings, moves: [], sides, verdict: undefined });
};

// ----- looking back through the game -----

function navigateTo(ply) {
  if (!state) return;
  const n = state.moves.length;
  ply = Math.max(0, Math.min(n, ply));
  cancelSelection();
  viewPly = ply === n ? null : ply;
  variation = [];
  // The positions of the game and their moves, to try variations; a
  // spectator whose player has left sees the positions it has seen.
  const ask = (at) => (exploring() ? explore(at, []) : send({ type: "view", ply: at }));
  if (viewPly !== null && !(exploring() ? explored.has(lineKey(viewPly, [])) : positions[viewPly])) ask(viewPly);
  // The position before it too, to mark what the move changed.
  if (viewPly !== null && viewPly > 0 && !positions[viewPly - 1]) ask(viewPly - 1);
  render();
  saveGame();
}

function navigate(step) {
  if (!state) return;
  const ply = viewPly ?? state.moves.length;
  if (variation.length && step < 0) return goToLine(ply, variation.slice(0, -1));
  if (variation.length) {
    const next = nodeOf(ply, variation)?.children[0];
    return next ? goToLine(ply, [...variation, next.move]) : undefined;
  }
  navigateTo(ply + step);
}

function goLive() {
  if (state) navigateTo(state.moves.length);
}

$("nav-first").onclick = () => navigateTo(0);
$("nav-prev").onclick = () => navigate(-1);
$("nav-next").onclick = () => navigate(1);
$("nav-last").onclick = goLive;
$("live").onclick = goLive;

// ----- move list, result, record -----

// Player 1 or 2: who made the first move of the game.
function firstMover() {
  return state.moves.length % 2 === 0 ? state.to_move : 3 - state.to_move;
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  const moves = state.moves;
  const offset = firstMover() === 2 ? 1 : 0;
  const shownPly = viewPly ?? moves.length;
  let item = null;
  for (let j = 0; j < moves.length; j++) {
    const second = (j + offset) % 2 === 1;
    if (!item || !second) {
      item = document.createElement("li");
      const number = document.createElement("span");
      number.className = "num";
      number.textContent = `${Math.floor((j + offset) / 2) + 1}.`;
      item.append(number);
      if (second) item.append(Object.assign(document.createElement("span"), { textContent: "…" }));
      list.append(item);
    }
    const span = document.createElement("span");
    span.textContent = moves[j];
    span.dataset.move = moves[j];
    span.dataset.ply = j + 1;
    if (j === moves.length - 1) span.classList.add("last");
    if (viewPly !== null && !variation.length && j + 1 === shownPly) span.classList.add("viewed");
    span.onclick = () => navigateTo(j + 1);
    item.append(span);
    // The variations instead of this move, below it; the game goes on
    // on a row of its own.
    if (variations.get(j)?.length) {
      if (!second) item.append(document.createElement("span"));
      list.append(variationsItem(j, offset));
      item = null;
    }
  }
  if (variations.get(moves.length)?.length) list.append(variationsItem(moves.length, offset));
  $("live").hidden = viewPly === null;
  markReview(list);
  const viewed = list.querySelector(".viewed");
  if (viewed) viewed.scrollIntoView({ block: "nearest" });
  else list.scrollTop = list.scrollHeight;
}

const RESULT_TOKENS = { p1win: "1-0", p2win: "0-1", draw: "1/2-1/2" };

function outcome() {
  if (state.verdict) return { result: state.verdict.result, reason: null };
  return { result: state.pieces.result, reason: state.pieces.reason };
}

function renderResult() {
  const banner = $("banner");
  if (!state.game_over) {
    banner.hidden = true;
    return;
  }
  const p = state.pieces;
  const { result, reason } = outcome();
  const words = { p1win: `${playerName(1)} wins`, p2win: `${playerName(2)} wins`, draw: "Draw" };
  let text = words[result] ?? "Game over";
  if (p.score && !state.verdict) text += ` ${p.score[0]}–${p.score[1]}`;
  if (reason) text += ` (${reason})`;
  $("result").textContent = text;
  const v = state.verdict;
  $("why").textContent = v ? (v.reason === "time" ? `${playerName(v.loser)} ran out of time.` : `${playerName(v.loser)} resigned.`) : "";
  // Coloured by what it means to the person playing.
  const person = watching ? null : onePerson();
  const mood = !person ? "" : result === "draw" ? "drawn" : result === (person === 1 ? "p1win" : "p2win") ? "won" : "lost";
  banner.className = mood;
  banner.hidden = false;
}

// Standard PGN's White (as the arena writes it): the player whose colour is
// named White, or, in a game without one, the first player. In focus the
// first player is Black.
function whitePlayer() {
  return playerName(2) === "White" ? 2 : 1;
}

// Who played side `n`: the engine's name, or "You" for a person.
function sideName(n) {
  return settings.sides[n - 1].engine ?? (watching ? "Person" : "You");
}

// The record to copy, for `igroteka replay` and for any PGN tool: `White`,
// `Black` and `Result` as standard PGN has them (the result from White's
// side, also at the end of the moves), the game's other colour names as tags
// of their own, the ply cap, and the position it started from.
function recordText() {
  const tag = (name, value) => `[${name} "${String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`;
  const tags = [tag("Game", settings.game)];
  if (settings.variant) tags.push(tag("Variant", settings.variant));
  const white = whitePlayer();
  for (const n of [1, 2]) {
    const colour = playerName(n).charAt(0).toUpperCase() + playerName(n).slice(1);
    if (!["White", "Black"].includes(colour) && /^\w+$/.test(colour)) tags.push(tag(colour, sideName(n)));
  }
  tags.push(tag("White", sideName(white)), tag("Black", sideName(3 - white)));
  let token = "*";
  if (state.game_over) {
    const { result } = outcome();
    token = RESULT_TOKENS[result] ?? "*";
    if (white === 2) token = { "1-0": "0-1", "0-1": "1-0" }[token] ?? token;
  }
  tags.push(tag("Result", token));
  if (state.game_over) {
    const score = state.pieces.score;
    if (score && !state.verdict) tags.push(tag("Score", `${score[0]}-${score[1]}`));
    if (state.verdict) tags.push(tag("Termination", state.verdict.reason === "time" ? "time forfeit" : "resignation"));
    else if (state.pieces.reason) tags.push(tag("Termination", state.pieces.reason));
  }
  tags.push(tag("MaxPlies", settings.max_plies));
  if (settings.fen) tags.push(tag("SetUp", "1"), tag("FEN", settings.fen));
  const parts = [];
  const offset = firstMover() === 2 ? 1 : 0;
  state.moves.forEach((move, i) => {
    const k = i + offset;
    if (i === 0 && offset) parts.push("1...");
    else if (k % 2 === 0) parts.push(`${k / 2 + 1}.`);
    parts.push(move);
  });
  parts.push(token);
  return `${tags.join("\n")}\n\n${parts.join(" ")}`;
}

function replayHint() {
  return settings ? `igroteka replay --game ${settings.game} < record` : "";
}

// ----- analysis -----

// A score from the searching side's view as a number: centipawns, or
// ±(100000 - plies) for a proven result.
function scoreValue(score) {
  if (!score) return null;
  const [kind, number] = score.split(" ");
  const n = Number(number);
  if (!Number.isFinite(n)) return null;
  if (kind === "cp") return n;
  if (kind === "win") return 100000 - n;
  if (kind === "loss") return -100000 + n;
  return null;
}

function scoreWords(value) {
  if (Math.abs(value) >= 50000) {
    const plies = 100000 - Math.abs(value);
    return `${playerName(value > 0 ? 1 : 2)} wins in ${plies} ${plies === 1 ? "ply" : "plies"}`;
  }
  if (Math.abs(value) < 5) return "equal";
  return `${playerName(value > 0 ? 1 : 2)} +${(Math.abs(value) / 100).toFixed(2)}`;
}

function renderEval() {
  const open = $("analysis-box").open;
  $("evalbar").hidden = !open || !board;
  if (!state || !board) return;
  const ply = viewPly ?? state.moves.length;
  let value = null;
  // The analysis of the position on screen, else the game's last score.
  if (analysis.on && analysis.key === positionKey()) value = analysis.value ?? null;
  for (let i = ply; i >= 0 && value === null && !variation.length; i--) value = evals[i] ?? null;
  const share = value === null ? 0.5 : 0.5 + 0.5 * Math.tanh(value / 700);
  $("evalfill").style.height = `${(share * 100).toFixed(1)}%`;
  const words = value === null ? "no evaluation yet" : scoreWords(value);
  $("evalbar").title = `Evaluation: ${words}`;
  $("evaltext").textContent = value === null ? "" : words;
  drawGraph();
}

function drawGraph() {
  const graph = $("graph");
  graph.replaceChildren();
  const n = Math.max(1, state.moves.length);
  el("line", { x1: 0, y1: 40, x2: 300, y2: 40, stroke: "#8888", "stroke-width": 1 }, graph);
  const points = [];
  evals.forEach((value, ply) => {
    if (value == null) return;
    const x = (ply / n) * 300;
    const y = 40 - 38 * Math.tanh(value / 700);
    points.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  });
  if (points.length) el("polyline", { points: points.join(" "), fill: "none", stroke: "#2a9d8f", "stroke-width": 2, "vector-effect": "non-scaling-stroke" }, graph);
  if (viewPly !== null) {
    const x = (viewPly / n) * 300;
    el("line", { x1: x, y1: 0, x2: x, y2: 80, stroke: "#e76f51", "stroke-width": 1 }, graph);
  }
  drawReviewMarks(graph, n);
  $("graph-top").textContent = `↑ ${playerName(1)} better`;
  $("graph-bottom").textContent = `↓ ${playerName(2)} better`;
}

$("analysis-box").addEventListener("toggle", renderEval);

// ----- rules -----

// The rules page comes from the engine as Markdown. It is drawn here for the
// part of Markdown rules pages use: headings, paragraphs, bullet and numbered
// lists, pipe tables, fenced blocks (shown as they are; ```text,example
// blocks, the crate's tested examples, labelled), **bold**, *emphasis*,
// `code`, and links as their text. The engine is not trusted: every element
// is made here and the engine's text only ever goes in as text. A page longer
// than any rules page (MAX_MARKDOWN) is shown as it is, and quotes and inline
// marks nest only so deep, so that no text can keep the page busy.
const MAX_MARKDOWN = 1 << 17;
const MAX_NESTING = 8;

function markdown(source, depth = 0) {
  const out = document.createDocumentFragment();
  if (source.length > MAX_MARKDOWN) {
    const pre = document.createElement("pre");
    pre.textContent = source;
    out.append(pre);
    return out;
  }
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const FENCE = /^ {0,3}(`{3,}|~{3,})([^`]*)$/;
  // Each pattern matches in one pass over a line, whatever the line.
  const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*))?$/;
  const ITEM = /^( {0,3})([-*+]|(\d{1,9})[.)])(?:\s+(.*))?$/;
  const rule = (line) => /^ {0,3}[-*_]/.test(line) && /^(-{3,}|\*{3,}|_{3,})$/.test(line.replace(/\s+/g, ""));
  const QUOTE = /^ {0,3}>\s?(.*)$/;
  const blank = (line) => line.trim() === "";
  const cells = (row) =>
    row.trim().replace(/^\|/, "").replace(/(^|[^\\])\|$/, "$1").split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
  const tableAt = (i) => lines[i].includes("|") && i + 1 < lines.length && /^[\s|:-]+$/.test(lines[i + 1]) && lines[i + 1].includes("-") && cells(lines[i + 1]).every((c) => /^:?-+:?$/.test(c));
  // A heading's text, without the closing #s it may have.
  const headingText = (text) => {
    const end = text.trimEnd();
    let k = end.length;
    while (k > 0 && end[k - 1] === "#") k--;
    const bare = end.slice(0, k);
    return bare === "" || /\s$/.test(bare) ? bare.trimEnd() : end;
  };
  const startsBlock = (i) => {
    const line = lines[i];
    return FENCE.test(line) || HEADING.test(line) || ITEM.test(line) || rule(line) || (depth < MAX_NESTING && QUOTE.test(line)) || tableAt(i);
  };
  const element = (name, parent, text) => {
    const node = document.createElement(name);
    if (text !== undefined) inline(text, node);
    parent.append(node);
    return node;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let match;
    if (blank(line)) {
      i++;
    } else if ((match = line.match(FENCE))) {
      const [, fence, info] = match;
      const body = [];
      for (i++; i < lines.length; i++) {
        const close = lines[i].match(/^ {0,3}(`{3,}|~{3,})\s*$/);
        if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
        body.push(lines[i]);
      }
      i++;
      const pre = document.createElement("pre");
      pre.textContent = body.join("\n");
      if (/(^|,)\s*example\s*(,|$)/.test(info.trim())) {
        const figure = element("figure", out);
        figure.className = "example";
        element("figcaption", figure).textContent = "Example (tested)";
        figure.append(pre);
      } else {
        out.append(pre);
      }
    } else if ((match = line.match(HEADING))) {
      // The dialog's title is an h2: the page's headings come below it.
      element(`h${Math.min(6, match[1].length + 2)}`, out, headingText(match[2] ?? ""));
      i++;
    } else if (rule(line)) {
      element("hr", out);
      i++;
    } else if (depth < MAX_NESTING && QUOTE.test(line)) {
      const body = [];
      for (; i < lines.length && !blank(lines[i]); i++) body.push(lines[i].replace(QUOTE, "$1"));
      element("blockquote", out).append(markdown(body.join("\n"), depth + 1));
    } else if (tableAt(i)) {
      const aligns = cells(lines[i + 1]).map((c) => (c.endsWith(":") ? (c.startsWith(":") ? "center" : "right") : ""));
      const wrap = element("div", out);
      wrap.className = "table";
      const table = element("table", wrap);
      const head = element("tr", element("thead", table));
      const columns = cells(line);
      columns.forEach((text, k) => {
        const th = element("th", head, text);
        if (aligns[k]) th.style.textAlign = aligns[k];
      });
      const body = element("tbody", table);
      for (i += 2; i < lines.length && !blank(lines[i]) && lines[i].includes("|"); i++) {
        const row = element("tr", body);
        const values = cells(lines[i]);
        columns.forEach((_, k) => {
          const td = element("td", row, values[k] ?? "");
          if (aligns[k]) td.style.textAlign = aligns[k];
        });
      }
    } else if ((match = line.match(ITEM))) {
      const ordered = match[3] !== undefined;
      const list = element(ordered ? "ol" : "ul", out);
      if (ordered && match[3] !== "1") list.start = Number(match[3]);
      // Items, each with the lines that continue it, until a line that is no
      // item of this list after a blank line or starts another block.
      while (i < lines.length) {
        const item = lines[i].match(ITEM);
        if (!item || (item[3] !== undefined) !== ordered) break;
        const text = [item[4] ?? ""];
        for (i++; i < lines.length && !blank(lines[i]) && !ITEM.test(lines[i]) && !(startsBlock(i) && !/^\s/.test(lines[i])); i++) {
          text.push(lines[i].trim());
        }
        element("li", list, text.join(" "));
        let next = i;
        while (next < lines.length && blank(lines[next])) next++;
        if (next >= lines.length || !ITEM.test(lines[next])) break;
        i = next;
      }
    } else {
      const text = [line.trim()];
      for (i++; i < lines.length && !blank(lines[i]) && !startsBlock(i); i++) text.push(lines[i].trim());
      element("p", out, text.join(" "));
    }
  }
  return out;
}

// Inline Markdown into `parent`: code spans, **strong**, *emphasis*, links as
// their text, backslash escapes; the rest as it is. Each mark's end is the
// first one after its start (as a lazy pattern would find it), looked for
// by searches that only ever go forward, so a paragraph takes time in
// proportion to its length, whatever it holds.
function inline(text, parent, depth = 0) {
  let plain = "";
  const flush = () => {
    if (plain) parent.append(plain);
    plain = "";
  };
  const wrap = (name, inner) => {
    flush();
    const node = document.createElement(name);
    if (depth < MAX_NESTING) inline(inner, node, depth + 1);
    else node.textContent = inner;
    parent.append(node);
  };
  const space = (k) => k < 0 || k >= text.length || /\s/.test(text[k]);
  // The first position from `from` on where `test` holds, -1 for none. The
  // positions asked for of one kind only grow, so the last answer stands
  // while it is not behind.
  const found = new Map();
  const next = (kind, from, test) => {
    let k = found.get(kind);
    if (k === undefined || (k !== -1 && k < from)) {
      for (k = from; k < text.length && !test(k); k++);
      if (k >= text.length) k = -1;
      found.set(kind, k);
    }
    return k;
  };
  const strongEnd = (k) => text[k] === "*" && text[k + 1] === "*" && !space(k - 1);
  const emEnd = (k) => text[k] === "*" && text[k + 1] !== "*" && !space(k - 1) && text[k - 1] !== "*";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\" && /[!-/:-@[-`{-~]/.test(text[i + 1] ?? "")) {
      plain += text[i + 1];
      i += 2;
    } else if (c === "`") {
      let run = 1;
      while (text[i + run] === "`") run++;
      const ticks = "`".repeat(run);
      const end = next(ticks, i + run, (k) => text.startsWith(ticks, k));
      if (end < 0) {
        plain += ticks;
        i += run;
        continue;
      }
      flush();
      let code = text.slice(i + run, end);
      if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim()) code = code.slice(1, -1);
      const node = document.createElement("code");
      node.textContent = code;
      parent.append(node);
      i = end + run;
    } else if (c === "*" && text[i + 1] === "*" && !space(i + 2) && next("strong", i + 3, strongEnd) >= 0) {
      const end = next("strong", i + 3, strongEnd);
      wrap("strong", text.slice(i + 2, end));
      i = end + 2;
    } else if (c === "*" && !space(i + 1) && text[i + 1] !== "*" && (next("em", i + 2, emEnd) >= 0 || text[i + 2] === "*")) {
      const end = next("em", i + 2, emEnd);
      const close = end >= 0 ? end : i + 2;
      wrap("em", text.slice(i + 1, close));
      i = close + 1;
    } else if ((c === "[" || (c === "!" && text[i + 1] === "[")) && linkAt(i)) {
      // A link (or an image) is shown as its text: the page goes nowhere the
      // engine says.
      const [label, end] = linkAt(i);
      wrap("span", label);
      i = end + 1;
    } else {
      plain += c;
      i++;
    }
  }
  flush();

  // `[text](target)` from `at`: its text and where it ends, or null.
  function linkAt(at) {
    const open = text[at] === "!" ? at + 1 : at;
    const close = next("]", open + 1, (k) => text[k] === "]");
    if (close < 0 || text[close + 1] !== "(") return null;
    const end = next(")", close + 2, (k) => text[k] === ")");
    return end < 0 ? null : [text.slice(open + 1, close), end];
  }
}

$("open-rules").onclick = () => {
  const page = rules ? markdown(rules) : null;
  // The page's own title (its first heading, `# ...`) names the dialog.
  const first = page?.firstElementChild;
  const titled = first?.tagName === "H3";
  $("rules-title").textContent = titled ? first.textContent : `Rules: ${settings?.game ?? ""}`;
  if (titled) first.remove();
  const text = $("rules-text");
  if (page) text.replaceChildren(page);
  else text.replaceChildren(Object.assign(document.createElement("p"), { textContent: "The referee engine gives no rules text for this game." }));
  text.scrollTop = 0;
  $("rules-dialog").showModal();
};
$("close-rules").onclick = () => $("rules-dialog").close();

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

$("copy-record").onclick = () => copy($("record").value);
$("copy-position").onclick = () => copy($("position").value);

// ----- record import and download -----

// The longest record the page sends to be read (the server's messages are
// at most 1 MiB).
const MAX_IMPORT_BYTES = 512 * 1024;

function openImport() {
  $("import-error").hidden = true;
  $("import-abandon").hidden = !gameRunning();
  $("import-dialog").showModal();
  $("import-text").focus();
}

function refuseImport(text) {
  $("import-error").textContent = text;
  $("import-error").hidden = false;
  $("import-load").disabled = false;
}

// The server reads the record by the game's own rules (this page knows no
// game) and answers `imported` or `import_refused`.
function sendImport() {
  const text = $("import-text").value;
  if (!text.trim()) return refuseImport("Paste a record first.");
  if (new Blob([text]).size > MAX_IMPORT_BYTES) return refuseImport(`The record is longer than ${MAX_IMPORT_BYTES / 1024} KiB.`);
  if (!ws || ws.readyState !== WebSocket.OPEN) return refuseImport("Not connected to the server: reload the page.");
  $("import-error").hidden = true;
  $("import-load").disabled = true;
  send({ type: "import", text, game: settings?.game ?? ($("game").value || null) });
}

// A record read: loaded as a game of two people (no engines search), shown
// at its end; its moves can be browsed, analysed or played on from.
handlers.imported = (message) => {
  $("import-load").disabled = false;
  if ($("import-dialog").open) $("import-dialog").close();
  startGame({
    game: message.game,
    variant: message.variant,
    fen: message.fen,
    moves: message.moves,
    max_plies: message.max_plies,
    sides: [{ engine: null, limit: null }, { engine: null, limit: null }],
  });
};

handlers.import_refused = (message) => {
  if (!$("import-dialog").open) $("import-dialog").showModal();
  refuseImport(message.message);
};

// `igroteka-<game>-<date>.pgn`, the date of today.
function recordFileName() {
  const day = new Date().toISOString().slice(0, 10);
  return `igroteka-${settings.game}-${day}.pgn`;
}

function downloadRecord() {
  if (!settings || !state) return;
  const url = URL.createObjectURL(new Blob([`${recordText()}\n`], { type: "application/x-chess-pgn" }));
  const anchor = Object.assign(document.createElement("a"), { href: url, download: recordFileName() });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

$("open-import").onclick = openImport;
$("cancel-import").onclick = () => $("import-dialog").close();
$("import-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sendImport();
});
$("import-file").onchange = async () => {
  const file = $("import-file").files[0];
  if (!file) return;
  if (file.size > MAX_IMPORT_BYTES) return refuseImport(`${file.name} is longer than ${MAX_IMPORT_BYTES / 1024} KiB.`);
  $("import-text").value = await file.text();
  $("import-error").hidden = true;
};
$("download-record").onclick = downloadRecord;

// ----- game review -----

// One click searches every position of the game with an engine of the
// server's (the referee's kind), a bounded time each, and judges each move
// as lichess does: by the drop in the mover's winning chances,
//   chances(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1   (from -1 to 1; a
//   proven win or loss is 1 or -1),
// between the position before the move and the one after it, both searched:
// a drop of 0.1 or more is an inaccuracy (?!), 0.2 a mistake (?), 0.3 a
// blunder (??), unless the move played is the engine's best.

const JUDGEMENTS = [
  { drop: 0.3, name: "blunder", names: "blunders", glyph: "??" },
  { drop: 0.2, name: "mistake", names: "mistakes", glyph: "?" },
  { drop: 0.1, name: "inaccuracy", names: "inaccuracies", glyph: "?!" },
];
let review = null; // { moves, results: ply -> { toMove, value, best }, running, error }

function winningChances(value) {
  if (Math.abs(value) >= 50000) return Math.sign(value);
  return 2 / (1 + Math.exp(-0.00368208 * value)) - 1;
}

// Whether the review is of the game on the board (not of one since changed).
function reviewCurrent() {
  if (!review || !state) return false;
  const n = review.moves.length;
  return state.moves.length >= n && review.moves.every((m, i) => state.moves[i] === m);
}

// The judgement of move `ply` (1-based), if it is one: { name, glyph, drop, best, mover }.
function judgement(ply) {
  if (!reviewCurrent()) return null;
  const before = review.results[ply - 1];
  const after = review.results[ply];
  if (!before || !after || before.value == null || after.value == null) return null;
  if (before.best === review.moves[ply - 1]) return null;
  const sign = before.toMove === 1 ? 1 : -1;
  const drop = sign * (winningChances(before.value) - winningChances(after.value));
  const found = JUDGEMENTS.find((j) => drop >= j.drop - 1e-9);
  return found ? { ...found, drop, best: before.best, mover: before.toMove } : null;
}

function startReview() {
  if (!state || !state.moves.length) return;
  review = { moves: [...state.moves], results: [], running: true, error: null };
  $("analysis-box").open = true;
  send({ type: "review", movetime_ms: Number($("review-time").value) });
  renderReview();
  render();
}

handlers.reviewed = (message) => {
  if (!review || !review.running) return;
  const value = scoreValue(message.score);
  const p1 = value === null ? null : message.to_move === 1 ? value : -value;
  review.results[message.ply] = { toMove: message.to_move, value: p1, best: message.best };
  if (p1 !== null && reviewCurrent()) evals[message.ply] = p1;
  review.done = message.ply + 1;
  if (state) render();
};

handlers.review_done = (message) => {
  if (!review) return;
  review.running = false;
  review.error = message.error ?? null;
  review.stopped = message.stopped;
  if (state) render();
};

// The move list's marks: the glyph after the move, its words as the title.
function markReview(list) {
  renderReview();
  if (!reviewCurrent()) return;
  for (const span of list.querySelectorAll("[data-ply]")) {
    const judged = judgement(Number(span.dataset.ply));
    if (!judged) continue;
    span.classList.add(judged.name);
    span.dataset.judgement = judged.name;
    span.append(Object.assign(document.createElement("span"), { className: "glyph", textContent: judged.glyph }));
    span.title = judgementWords(judged);
  }
}

function judgementWords(judged) {
  const name = judged.name.charAt(0).toUpperCase() + judged.name.slice(1);
  const best = judged.best ? ` Best was ${judged.best}.` : "";
  return `${name} (winning chances −${judged.drop.toFixed(2)}).${best}`;
}

// The graph's marks: a dot of the judgement's colour at each judged move.
function drawReviewMarks(graph, n) {
  if (!reviewCurrent()) return;
  for (let ply = 1; ply <= review.moves.length; ply++) {
    const judged = judgement(ply);
    if (!judged) continue;
    // A dot on the curve: a line of no length with round ends, its stroke
    // unscaled, stays round in the stretched graph.
    const x = (ply / n) * 300;
    const y = 40 - 38 * Math.tanh((evals[ply] ?? 0) / 700);
    const dot = { x1: x, y1: y, x2: x, y2: y, class: `mark ${judged.name}`, "data-ply": ply };
    el("line", { ...dot, "stroke-width": 9, "stroke-linecap": "round", "vector-effect": "non-scaling-stroke" }, graph);
  }
}

// Progress, the summary per player, and the words on the move looked at.
function renderReview() {
  const has = !!state && state.moves.length > 0 && phase() !== "closed";
  const running = !!review && review.running;
  $("review-start").disabled = !has || running;
  $("review-after").hidden = !has || running || reviewCurrent();
  $("review-stop").hidden = !running;
  let progress = "";
  if (running) progress = `Reviewing… ${review.done ?? 0} of ${review.moves.length + 1} positions`;
  else if (review?.error) progress = `The review stopped: ${review.error}`;
  else if (review?.stopped) progress = "Review stopped.";
  else if (reviewCurrent()) progress = "Reviewed.";
  $("review-progress").textContent = progress;
  const summary = $("review-summary");
  summary.replaceChildren();
  const current = reviewCurrent();
  if (current && (!review.running || review.done > 1)) {
    for (const n of [1, 2]) {
      const counts = JUDGEMENTS.map((j) => {
        let count = 0;
        for (let ply = 1; ply <= review.moves.length; ply++) {
          const judged = judgement(ply);
          if (judged && judged.mover === n && judged.name === j.name) count++;
        }
        return `${count} ${count === 1 ? j.name : j.names}`;
      });
      summary.append(Object.assign(document.createElement("p"), { textContent: `${playerName(n)}: ${counts.join(", ")}` }));
    }
  }
  const ply = viewPly ?? (state ? state.moves.length : 0);
  const judged = current && ply > 0 ? judgement(ply) : null;
  $("review-note").textContent = judged ? `${ply}. ${review.moves[ply - 1]}${judged.glyph} ${judgementWords(judged)}` : "";
}

// A click on the score graph shows the position of that ply.
function clickGraph(event) {
  if (!state) return;
  const box = $("graph").getBoundingClientRect();
  const n = Math.max(1, state.moves.length);
  navigateTo(Math.round(((event.clientX - box.left) / box.width) * n));
}

// A new game on the board: the review was of another.
const showBoard = handlers.board;
handlers.board = (message) => {
  review = null;
  showBoard(message);
};

$("review-start").onclick = startReview;
$("review-after").onclick = startReview;
$("review-stop").onclick = () => send({ type: "review_stop" });
$("graph").addEventListener("click", clickGraph);
// ----- the analysis board: variations off the game -----

// From any position of the game looked back at (the board of the game now
// is the game's: a line of the analysis played from there starts one too)
// the board takes moves that try a variation: the server's referee checks them and describes the position
// they reach (this page knows no game), and the game itself is never
// changed. Variations are shown in the move list below the move they
// replace, their own alternatives inline in parentheses, as on lichess; one
// is promoted (to the first choice of its position) or deleted from a move
// on. The game's moves always stay its main line.
let asked = new Set(); // the positions asked of the server, not yet described
let pendingLine = null; // the key of a line the person played, not yet checked

function lineKey(ply, moves) {
  return `${ply}|${moves.join(" ")}`;
}

function positionKey() {
  return lineKey(viewPly ?? state.moves.length, variation);
}

function commonLength(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

// The game's moves changed from move `kept` on (a take-back): the
// variations of positions it no longer has go.
function keepVariations(kept) {
  const gone = (key) => Number(key.split("|")[0]) > kept;
  for (const ply of [...variations.keys()]) if (ply > kept) variations.delete(ply);
  for (const key of [...explored.keys()]) if (gone(key)) explored.delete(key);
  for (const key of [...asked]) if (gone(key)) asked.delete(key);
  if (variation.length && viewPly > kept) variation = [];
  if (analysis.key && gone(analysis.key)) analysis.key = null;
}

// What is known of the position after the game's first `ply` moves and
// then `moves`: { pieces, fen, movepaths, to_move }, or null.
function positionAt(ply, moves) {
  if (!state) return null;
  if (!moves.length && ply === state.moves.length) return state;
  return explored.get(lineKey(ply, moves)) ?? (moves.length ? null : positions[ply] ?? null);
}

// The cells of `move` in `position`, for its line on the board.
function movePath(position, move) {
  const found = position?.movepaths?.moves.find((m) => m.move === move);
  return found ? found.path.filter((cell) => cell !== "reserve") : [];
}

function shownToMove() {
  return positionAt(viewPly ?? state.moves.length, variation)?.to_move ?? state.to_move;
}

// Whether this tab may try variations: it plays the game, or watches it
// while its player's tab is there (whose referee checks the moves; the
// game is not changed either way).
function exploring() {
  return !!state && (!watching || watching.owner) && !["closed", "error", "starting", "connecting"].includes(phase());
}

function explore(ply, moves) {
  const key = lineKey(ply, moves);
  if (asked.has(key) || explored.has(key)) return;
  asked.add(key);
  send({ type: "explore", ply, moves });
}

// The position on screen and the one before it, when not yet described.
function exploreShown() {
  if (!exploring() || viewPly === null) return;
  explore(viewPly, variation);
  if (variation.length > 1) explore(viewPly, variation.slice(0, -1));
}

handlers.explored = (message) => {
  if (!state || message.ply > state.moves.length) return;
  const key = lineKey(message.ply, message.moves);
  asked.delete(key);
  explored.set(key, message);
  if (!message.moves.length) positions[message.ply] ??= { pieces: message.pieces, fen: message.fen };
  if (key === pendingLine) {
    pendingLine = null;
    addLine(message.ply, message.moves);
    showLine(message.ply, message.moves);
    return;
  }
  render();
};

handlers.explore_refused = (message) => {
  const key = lineKey(message.ply, message.moves);
  asked.delete(key);
  if (key !== pendingLine) return;
  pendingLine = null;
  showError(`Not played: ${message.message}`, false);
};

// A move on the board off the game's line.
function playVariation(move) {
  goToLine(viewPly ?? state.moves.length, [...variation, move]);
}

// Shows the line of `moves` after the game's first `ply` (the game's own
// moves at its start are followed on the game's line); a line not yet in
// the tree is added once the server has checked it.
function goToLine(ply, moves) {
  closeMoveMenu();
  const line = [...moves];
  while (line.length && ply < state.moves.length && line[0] === state.moves[ply]) {
    ply++;
    line.shift();
  }
  if (!line.length) return navigateTo(ply);
  if (nodeOf(ply, line)) return showLine(ply, line);
  pendingLine = lineKey(ply, line);
  explore(ply, line);
}

function showLine(ply, moves) {
  cancelSelection();
  viewPly = ply;
  variation = moves;
  render();
  announce(`Variation: ${moves[moves.length - 1]}.`);
}

// The end of the line on screen: the game now, or the variation's last move.
function goToEnd() {
  if (!state) return;
  if (!variation.length) return goLive();
  const ply = viewPly;
  const line = [...variation];
  for (let node = nodeOf(ply, line)?.children[0]; node; node = node.children[0]) line.push(node.move);
  goToLine(ply, line);
}

// The node of the variation `moves` after the game's first `ply` moves.
function nodeOf(ply, moves) {
  let list = variations.get(ply) ?? [];
  let node = null;
  for (const move of moves) {
    node = list.find((n) => n.move === move);
    if (!node) return null;
    list = node.children;
  }
  return node;
}

// The choices of the position the last of `moves` is played in.
function siblingsOf(ply, moves) {
  return moves.length === 1 ? variations.get(ply) ?? [] : nodeOf(ply, moves.slice(0, -1))?.children ?? [];
}

function addLine(ply, moves) {
  if (!variations.has(ply)) variations.set(ply, []);
  let list = variations.get(ply);
  for (const move of moves) {
    let node = list.find((n) => n.move === move);
    if (!node) {
      node = { move, children: [] };
      list.push(node);
    }
    list = node.children;
  }
}

// The row of the variations after the game's first `ply` moves: each on a
// line of its own, its alternatives inline in parentheses.
function variationsItem(ply, offset) {
  const item = document.createElement("li");
  item.className = "variations";
  for (const node of variations.get(ply)) {
    const line = document.createElement("span");
    line.className = "variation-line";
    writeLine(line, ply, [], [node], offset);
    item.append(line);
  }
  return item;
}

// `nodes[0]` and its continuation, each other node after it in parentheses.
function writeLine(parent, ply, prefix, nodes, offset) {
  let path = prefix;
  let numbered = true;
  while (nodes.length) {
    const [main, ...others] = nodes;
    if (path !== prefix) parent.append(" ");
    writeVariationMove(parent, ply, [...path, main.move], numbered, offset);
    numbered = false;
    for (const other of others) {
      parent.append(" (");
      writeLine(parent, ply, path, [other], offset);
      parent.append(")");
      numbered = true;
    }
    path = [...path, main.move];
    nodes = main.children;
  }
}

function writeVariationMove(parent, ply, path, numbered, offset) {
  const index = ply + path.length - 1 + offset;
  const second = index % 2 === 1;
  if (numbered || !second) {
    const number = document.createElement("span");
    number.className = "var-num";
    number.textContent = `${Math.floor(index / 2) + 1}.${second ? ".." : ""}`;
    parent.append(number, " ");
  }
  const span = document.createElement("span");
  const move = path[path.length - 1];
  span.textContent = move;
  span.dataset.var = move;
  span.dataset.at = lineKey(ply, path);
  if (variation.length && span.dataset.at === positionKey()) span.classList.add("viewed");
  span.onclick = () => goToLine(ply, path);
  span.oncontextmenu = (event) => {
    event.preventDefault();
    goToLine(ply, path);
    openMoveMenu(event.clientX, event.clientY);
  };
  parent.append(span);
}

// How deep the move of the line on screen is that is not the first choice
// of its position (the one promoted), or 0.
function promotable() {
  if (!state) return 0;
  const ply = viewPly ?? state.moves.length;
  for (let depth = variation.length; depth >= 1; depth--) {
    const line = variation.slice(0, depth);
    if (siblingsOf(ply, line).findIndex((n) => n.move === line[depth - 1]) > 0) return depth;
  }
  return 0;
}

function promote() {
  const depth = promotable();
  if (!depth) return;
  const line = variation.slice(0, depth);
  const list = siblingsOf(viewPly, line);
  list.unshift(...list.splice(list.findIndex((n) => n.move === line[depth - 1]), 1));
  render();
  announce("Variation promoted.");
}

function deleteFromHere() {
  if (!variation.length) return;
  const ply = viewPly;
  const list = siblingsOf(ply, variation);
  const at = list.findIndex((n) => n.move === variation[variation.length - 1]);
  if (at >= 0) list.splice(at, 1);
  if (variations.get(ply)?.length === 0) variations.delete(ply);
  goToLine(ply, variation.slice(0, -1));
  announce("Variation deleted.");
}

function renderVariationButtons() {
  $("promote").disabled = !promotable();
  $("delete-variation").disabled = !variation.length;
}

function openMoveMenu(x, y) {
  const menu = $("move-menu");
  menu.hidden = false;
  menu.style.left = `${Math.max(0, Math.min(x, innerWidth - menu.offsetWidth - 4))}px`;
  menu.style.top = `${Math.max(0, Math.min(y, innerHeight - menu.offsetHeight - 4))}px`;
  $("menu-promote").disabled = !promotable();
  menu.querySelector("button:not(:disabled)")?.focus();
}

function closeMoveMenu() {
  $("move-menu").hidden = true;
}

$("promote").onclick = promote;
$("delete-variation").onclick = deleteFromHere;
$("menu-promote").onclick = () => {
  closeMoveMenu();
  promote();
};
$("menu-delete").onclick = () => {
  closeMoveMenu();
  deleteFromHere();
};
document.addEventListener("pointerdown", (event) => {
  if (!$("move-menu").contains(event.target)) closeMoveMenu();
});

// ----- engine analysis of the position on screen -----

// On demand, an engine (the referee's kind, or one chosen) searches the
// position on screen with several lines (MultiPV), best first, each with
// its score from player 1's view and its moves, which a click plays as a
// variation; its best move is a blue arrow on the board. It follows the
// position on screen until switched off.
let analysisId = 0;
let analysis = { on: false, key: null, lines: [] };

function resetAnalysis() {
  analysis = { on: false, key: null, lines: [] };
}

function requestAnalysis() {
  if (!analysis.on || !exploring() || watching) return;
  const key = positionKey();
  if (analysis.key === key) return;
  analysisId += 1;
  const ply = viewPly ?? state.moves.length;
  analysis = { on: true, key, id: analysisId, ply, moves: [...variation], lines: [], value: null, done: false, error: null };
  const time = $("analyse-time").value;
  send({
    type: "analyse",
    id: analysisId,
    ply,
    moves: variation,
    lines: Number($("analyse-lines").value),
    movetime_ms: time ? Number(time) : null,
    engine: $("analyse-engine").value || null,
  });
}

handlers.analysis = (message) => {
  if (message.id !== analysis.id) return;
  analysis.lines[message.line - 1] = message;
  const value = scoreValue(message.score);
  if (message.line === 1 && value !== null) {
    analysis.value = message.to_move === 1 ? value : -value;
    if (!analysis.moves.length) evals[analysis.ply] = analysis.value;
  }
  renderAnalysis();
  drawBest();
  renderEval();
};

handlers.analysis_done = (message) => {
  if (message.id !== analysis.id) return;
  analysis.done = true;
  analysis.error = message.error;
  renderAnalysis();
};


function renderAnalysis() {
  const button = $("analyse");
  button.setAttribute("aria-pressed", String(analysis.on));
  button.textContent = analysis.on ? "Stop analysis" : "Analyse";
  button.disabled = !exploring() || !!watching;
  let status = "";
  if (analysis.on && analysis.error) status = `No analysis: ${analysis.error}`;
  else if (analysis.on) {
    const engine = $("analyse-engine").selectedOptions[0]?.textContent ?? "";
    const depth = analysis.lines[0]?.depth;
    status = `${engine} · ${depth != null ? `depth ${depth}` : "searching…"}${analysis.done ? " · done" : ""}`;
  }
  $("analyse-status").textContent = status;
  const list = $("analyse-list");
  list.replaceChildren();
  if (!analysis.on || !state || analysis.key !== positionKey()) return;
  analysis.lines.forEach((line, i) => {
    if (!line) return;
    const item = document.createElement("li");
    item.dataset.line = i + 1;
    const value = scoreValue(line.score);
    // From the side to move's view, as the engine told it.
    item.dataset.value = value ?? "";
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = value === null ? "?" : scoreWords(line.to_move === 1 ? value : -value);
    item.append(score);
    line.pv.forEach((move, k) => {
      const span = document.createElement("span");
      span.textContent = move;
      span.dataset.pv = k;
      span.title = "Play the line to here";
      span.onclick = () => goToLine(analysis.ply, [...analysis.moves, ...line.pv.slice(0, k + 1)]);
      item.append(span, " ");
    });
    list.append(item);
  });
}

// The best move of the analysis of the position on screen, as a blue
// arrow (a ring on the cell of a drop).
function drawBest() {
  const layer = $("best");
  if (!layer) return;
  layer.replaceChildren();
  if (!state || !analysis.on || analysis.key !== positionKey()) return;
  const best = analysis.lines[0]?.pv[0];
  const cells = best ? movePath(positionAt(analysis.ply, analysis.moves), best) : [];
  if (!cells.length) return;
  const [from, to] = [cells[0], cells[cells.length - 1]];
  const attributes = { class: "best-arrow", "data-best": best, "data-from": from, "data-to": to, stroke: SHAPE_COLOURS.blue };
  drawArrow(layer, cellInfo.get(from), cellInfo.get(to), attributes, boardUnit());
}

$("analyse").onclick = () => {
  if (analysis.on) {
    send({ type: "analyse_stop" });
    resetAnalysis();
  } else {
    analysis = { on: true, key: null, lines: [] };
    $("analysis-box").open = true;
  }
  if (state) render();
  else renderAnalysis();
};
for (const id of ["analyse-engine", "analyse-lines", "analyse-time"]) {
  $(id).onchange = () => {
    analysis.key = null;
    if (state) render();
  };
}
const greet = handlers.hello;
handlers.hello = (message) => {
  const engines = [new Option(`${message.referee} (referee)`, ""), ...message.engines.map((name) => new Option(name, name))];
  $("analyse-engine").replaceChildren(...engines);
  greet(message);
};

// Inside another page (the arena's live page): the board and its bars only.
if (new URLSearchParams(location.search).has("embed")) document.body.dataset.embed = "";

// Back to a page kept in the browser's cache: its connection is gone, so
// load it afresh (the address resumes the game).
// Leaving: the address keeps the clocks as they are now.
window.addEventListener("pagehide", writeGame);
window.addEventListener("pageshow", (event) => {
  if (event.persisted) location.reload();
});

connect();
