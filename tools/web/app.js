// The Igroteka page. It knows no game: the server relays what the referee
// engine says (query board / pieces / movepaths, info lines), and this page
// draws it and turns clicks into the moves movepaths lists.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

let ws = null;
let hello = null; // { games, engines, referee }
let board = null; // query board
let state = null; // { moves, fen, pieces, movepaths, to_move, human_to_move, thinking }
let settings = null; // the last "new" request
let prefix = []; // the cells clicked so far towards a move
let lastPath = []; // the cells of the last move
let cellInfo = new Map(); // name -> { x, y, r, group }

function setPhase(phase) {
  document.body.dataset.phase = phase;
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
  ws.onclose = () => {
    if (document.body.dataset.phase !== "refused") {
      showError("the connection to the server is closed; reload the page", false);
      setPhase("closed");
    }
  };
}

const handlers = {
  hello(message) {
    hello = message;
    fillSetup();
    $("referee").textContent = `Rules and board from the referee engine: ${message.referee}`;
    setPhase("idle");
    $("status").textContent = "Choose a game and press New game.";
  },
  board(message) {
    board = message.board;
    state = null;
    prefix = [];
    lastPath = [];
    for (const n of [1, 2]) $(`analysis-${n}`).textContent = "";
    drawBoard();
  },
  state(message) {
    const previous = state;
    state = message;
    lastPath = lastMovePath(previous, state);
    prefix = [];
    hideError();
    render();
  },
  info(message) {
    const who = playerName(message.side);
    const parts = [`${who}:`];
    if (message.depth != null) parts.push(`depth ${message.depth}`);
    if (message.score != null) parts.push(`score ${message.score}`);
    if (message.nodes != null) parts.push(`nodes ${message.nodes}`);
    if (message.pv.length) parts.push(`pv ${message.pv.join(" ")}`);
    $(`analysis-${message.side}`).textContent = parts.join(" ");
  },
  error(message) {
    const phase = document.body.dataset.phase;
    if (!hello) setPhase("refused");
    else if (message.restart) setPhase("error");
    else if (phase === "starting") {
      // The game did not start (the server closed the old one too).
      state = null;
      board = null;
      $("board").replaceChildren();
      setPhase("idle");
      $("status").textContent = "Choose a game and press New game.";
    } else if (phase === "sent") render();
    showError(message.message, message.restart);
  },
};

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
  for (const n of [1, 2]) {
    const select = $(`p${n}-engine`);
    const limits = () => {
      // A person has no limit to set.
      $(`p${n}-kind`).disabled = select.value === "";
      $(`p${n}-limit`).disabled = select.value === "";
    };
    select.addEventListener("change", limits);
    limits();
  }
  game.onchange = fillVariants;
  fillVariants();
}

function fillVariants() {
  const info = hello.games.find((g) => g.name === $("game").value);
  if (!info) return;
  $("variant").replaceChildren(...info.variants.map((v) => new Option(v, v)));
  $("maxplies").value = info.max_plies;
}

function readSide(n) {
  const engine = $(`p${n}-engine`).value || null;
  const value = Math.max(1, Math.floor(Number($(`p${n}-limit`).value) || 1));
  return { engine, limit: engine ? { [$(`p${n}-kind`).value]: value } : null };
}

function startGame(base) {
  settings = {
    type: "new",
    game: $("game").value,
    variant: $("variant").value || null,
    fen: base.fen,
    moves: base.moves,
    max_plies: Math.max(0, Math.floor(Number($("maxplies").value) || 0)),
    sides: [readSide(1), readSide(2)],
  };
  hideError();
  setPhase("starting");
  $("status").textContent = "Starting the engines…";
  send(settings);
}

$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  const fen = $("fen").value.trim();
  startGame({ fen: fen || null, moves: [] });
});

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
  settings.moves = moves;
  hideError();
  setPhase("starting");
  send(settings);
};

// ----- drawing -----

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
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

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
  cellInfo = new Map();
  const cells = el("g", { id: "cells" }, svg);
  for (const cell of board.cells) {
    const group = el("g", { class: "cell", "data-cell": cell.name }, cells);
    const points = cell.polygon.map((p) => p.join(",")).join(" ");
    el("polygon", { points, fill: board.classes[cell.class] ?? "#ccc" }, group);
    el("polygon", { points, class: "mark" }, group);
    el("title", {}, group).textContent = cell.name;
    group.addEventListener("click", () => clickCell(cell.name));
    cellInfo.set(cell.name, { x: cell.x, y: cell.y, r: inradius(cell.x, cell.y, cell.polygon), group });
  }
  const unit = median([...cellInfo.values()].map((c) => c.r)) || 0.4;
  const labels = el("g", { id: "labels" }, svg);
  for (const label of board.labels) {
    const text = el("text", { x: label.x, y: label.y, class: "label", "font-size": unit * 0.7 }, labels);
    text.textContent = label.text;
  }
  el("g", { id: "pieces" }, svg);
  el("g", { id: "path" }, svg);
  el("g", { id: "targets" }, svg);
  for (const n of [1, 2]) {
    $(`side-${n}-name`).textContent = playerName(n);
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
// top one marked with its kind, and the height written beside it.
function drawStack(layer, info, stack, plain) {
  const r = info.r * 0.78;
  const shown = stack.slice(-6);
  const step = stack.length > 1 ? Math.min(r * 0.28, (info.r * 0.9) / shown.length) : 0;
  const base = info.y + (step * (shown.length - 1)) / 2;
  shown.forEach((piece, i) => {
    const y = base - i * step;
    const colour = playerColour(piece.owner);
    const group = el("g", { class: "piece", "data-owner": piece.owner, "data-kind": piece.kind }, layer);
    el("circle", { cx: info.x, cy: y, r, fill: colour, "stroke-width": r * 0.08 }, group);
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
    el("circle", { cx: x, cy: y, r: r * 0.42, fill: "#fff", stroke: "#333", "stroke-width": r * 0.05 }, layer);
    const count = el("text", { x, y, class: "count", "font-size": r * 0.55, fill: "#111" }, layer);
    count.textContent = String(stack.length);
    count.dataset.owner = top.owner;
  }
}

function render() {
  if (!board || !state) return;
  const pieces = state.pieces;
  const layer = $("pieces");
  layer.replaceChildren();
  const plain = plainKind(pieces.cells);
  for (const { cell, stack } of pieces.cells) {
    const info = cellInfo.get(cell);
    if (info && stack.length) drawStack(layer, info, stack, plain);
  }
  drawPath();
  drawReserves();
  renderMarks();
  renderMoves();
  renderResult();
  $("position").value = state.fen;
  $("record").value = recordText();
  $("replay-hint").textContent = replayHint();
  $("takeback").disabled = state.moves.length === 0;
  const over = pieces.game_over;
  setPhase(over ? "over" : state.human_to_move ? "human" : "thinking");
  const mover = playerName(state.to_move);
  $("status").textContent = over
    ? "Game over."
    : state.human_to_move
      ? `${mover} to move: click a piece.`
      : `${mover} is thinking…`;
}

function drawPath() {
  const layer = $("path");
  layer.replaceChildren();
  const points = lastPath.map((name) => cellInfo.get(name)).filter(Boolean);
  if (points.length < 2) return;
  const unit = points[0].r;
  el("polyline", { class: "path", points: points.map((p) => `${p.x},${p.y}`).join(" "), "stroke-width": unit * 0.16 }, layer);
  const end = points[points.length - 1];
  el("circle", { cx: end.x, cy: end.y, r: unit * 0.18, fill: "#e76f51", "pointer-events": "none" }, layer);
}

function drawReserves() {
  const reserves = state.pieces.reserves;
  const captured = state.pieces.captured;
  const score = state.pieces.score;
  for (const n of [1, 2]) {
    const box = $(`reserve-${n}`);
    box.replaceChildren();
    box.className = "reserve";
    const parts = [];
    if (reserves) parts.push(`reserve ${reserves[n - 1]}`);
    if (captured) parts.push(`captured ${captured[n - 1]}`);
    if (score) parts.push(`score ${score[n - 1]}`);
    const disc = document.createElement("span");
    disc.className = "disc";
    disc.style.background = playerColour(n);
    const text = document.createElement("span");
    text.textContent = `${playerName(n)}${parts.length ? ": " + parts.join(", ") : ""}`;
    box.append(disc, text);
    // Only the mover's reserve is a place to drop from.
    const mover = n === state.to_move;
    box.dataset.cell = mover ? "reserve" : "";
    box.onclick = mover ? () => clickCell("reserve") : null;
  }
}

// ----- moves by clicks -----

function humanMoves() {
  if (!state || !state.human_to_move) return [];
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
    group.classList.toggle("last", lastPath.includes(name));
    group.classList.toggle("selected", prefix.includes(name));
    group.classList.toggle("start", prefix.length === 0 && next.has(name));
  }
  const targets = $("targets");
  targets.replaceChildren();
  if (prefix.length) {
    for (const name of next) {
      const info = cellInfo.get(name);
      if (info) el("circle", { class: "target", cx: info.x, cy: info.y, r: info.r * 0.3, "data-target": name }, targets);
    }
  }
  const mover = $(`reserve-${state ? state.to_move : 1}`);
  if (mover) {
    mover.classList.toggle("clickable", prefix.length === 0 && next.has("reserve"));
    mover.classList.toggle("selected", prefix[0] === "reserve");
  }
  const passes = $("passes");
  passes.replaceChildren();
  for (const m of moves.filter((m) => m.path.length === 0)) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = m.move;
    button.onclick = () => play(m.move);
    passes.append(button);
  }
}

function clickCell(name) {
  const moves = humanMoves().filter((m) => m.path.length);
  if (!moves.length) return;
  let path = [...prefix, name];
  if (!moves.some((m) => startsWith(m.path, path))) {
    // Not a continuation: start again from this cell, if a move starts here.
    path = [name];
    if (!moves.some((m) => startsWith(m.path, path))) {
      prefix = [];
      hideChooser();
      renderMarks();
      return;
    }
  }
  prefix = path;
  const complete = moves.filter((m) => m.path.length === path.length && startsWith(m.path, path));
  const longer = moves.some((m) => m.path.length > path.length && startsWith(m.path, path));
  if (complete.length === 1 && !longer) {
    play(complete[0].move);
    return;
  }
  renderMarks();
  if (complete.length) choose(complete);
  else hideChooser();
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
  cancel.onclick = () => {
    prefix = [];
    hideChooser();
    renderMarks();
  };
  box.append(cancel);
  box.hidden = false;
}

function hideChooser() {
  $("chooser").hidden = true;
}

function play(move) {
  hideChooser();
  prefix = [];
  setPhase("sent");
  send({ type: "move", move });
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  prefix = [];
  hideChooser();
  if (state) renderMarks();
});

$("takeback").onclick = () => {
  hideChooser();
  send({ type: "take_back" });
};

function lastMovePath(previous, current) {
  if (!previous || !current) return [];
  const n = current.moves.length;
  if (n !== previous.moves.length + 1 || !startsWith(current.moves, previous.moves)) return [];
  const played = current.moves[n - 1];
  const found = previous.movepaths.moves.find((m) => m.move === played);
  return found ? found.path.filter((cell) => cell !== "reserve") : [];
}

// ----- move list, result, record -----

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  const moves = state.moves;
  for (let i = 0; i < moves.length; i += 2) {
    const item = document.createElement("li");
    for (const j of [i, i + 1]) {
      if (j >= moves.length) break;
      const span = document.createElement("span");
      span.textContent = moves[j];
      span.dataset.move = moves[j];
      if (j === moves.length - 1) span.className = "last";
      item.append(span);
    }
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function renderResult() {
  const p = state.pieces;
  const box = $("result");
  if (!p.game_over) {
    box.hidden = true;
    return;
  }
  const words = { p1win: `${playerName(1)} wins`, p2win: `${playerName(2)} wins`, draw: "Draw" };
  let text = words[p.result] ?? "Game over";
  if (p.score) text += ` ${p.score[0]}–${p.score[1]}`;
  if (p.reason) text += ` (${p.reason})`;
  box.textContent = text;
  box.hidden = false;
}

function recordText() {
  const parts = [];
  state.moves.forEach((move, i) => {
    if (i % 2 === 0) parts.push(`${i / 2 + 1}.`);
    parts.push(move);
  });
  return parts.join(" ");
}

function replayHint() {
  if (!settings) return "";
  let hint = `igroteka replay --game ${settings.game}`;
  if (settings.variant) hint += ` --variant ${settings.variant}`;
  if (settings.fen) hint += ` --fen '${settings.fen}'`;
  return `${hint} < record`;
}

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

connect();
