// What the duplicate pages share (the player's room.js, the projector's projector.js and the
// arbiter's room_arbiter.js): the room's id, its live connection, the board and rack, the
// countdown with its warnings (1 minute, 30 seconds, «¡Alcen!» 5 seconds before the end) and the
// result tables. The server sends views (rooms_views.py); the pages only draw them.
"use strict";

const ROOM_ID = location.pathname.split("/")[2];
const ROOM_TOKEN_KEY = `atril-sala-${ROOM_ID}`;
let roomState = null;
let roomCells = null;
let deadlineAt = null;       // performance.now() when the round's time is up
let clockTimer = null;
let roomSocket = null;

const $ = (id) => document.getElementById(id);

/** The player's token of this room, kept by this browser (a guest's identity). */
function roomToken() {
  return localStorage.getItem(ROOM_TOKEN_KEY) || "";
}

/** The live connection: `onState(view)`, `onOther(message)`; reconnects after a drop. */
function roomConnect(query, onState, onOther = () => {}, delay = 500) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams(query);
  params.set("lang", LANG);
  const ws = new WebSocket(`${proto}://${location.host}/ws/duplicada/${ROOM_ID}?${params}`);
  roomSocket = ws;
  let ping = null;
  ws.onopen = () => { delay = 500; ping = setInterval(() => ws.send("ping"), 25000); };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      if (roomState && message.state.version < roomState.version) return;
      onState(message.state);
    } else onOther(message);
  };
  ws.onclose = (event) => {
    clearInterval(ping);
    if (ws !== roomSocket) return;
    if (event.code >= 4400 && event.code < 4500) { roomNotice(event.reason); return; }
    setTimeout(() => roomConnect(query, onState, onOther, Math.min(delay * 2, 8000)), delay);
  };
}

function roomNotice(text) {
  const box = $("notice");
  if (!box) return;
  box.textContent = text;
  box.classList.toggle("hidden", !text);
}

/** The board of a view; `marked` squares (the master move) stand out. */
function drawRoomBoard(view, marked = [], clicked = null, extra = new Map()) {
  if (!roomCells) roomCells = buildBoard($("board-wrap"), clicked);
  const master = new Set(marked);
  roomCells.forEach((cell, sq) => {
    const letter = extra.get(sq) || view.board[sq];
    const tile = drawSquare(cell, sq, view.premiums[sq], letter, view.values);
    if (tile && master.has(sq)) tile.classList.add("master");
    if (tile && extra.has(sq)) tile.classList.add("mine");
  });
}

function drawRack(el, rack, values, used = new Set(), picked = null, clicked = null) {
  el.textContent = "";
  rack.forEach((letter, i) => {
    const tile = tileElement(letter, values);
    if (used.has(i)) tile.classList.add("used");
    if (picked === i) tile.classList.add("selected");
    if (clicked) tile.addEventListener("click", () => clicked(i));
    el.appendChild(tile);
  });
}

/** Start the countdown of a view (from the seconds left when the server sent it). */
function startClock(view, tick = () => {}) {
  clearInterval(clockTimer);
  deadlineAt = view.remaining === null || view.remaining === undefined ? null
    : performance.now() + view.remaining * 1000;
  const show = () => {
    const left = secondsLeft();
    const clock = $("clock");
    if (left === null) { clock.textContent = ""; clock.className = "room-clock"; }
    else {
      const s = Math.ceil(left);
      clock.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
      clock.className = "room-clock" + (left <= 5 ? " alcen" : left <= 60 ? " warn" : "");
    }
    $("alert").textContent = warning(left, view.seconds);
    tick(left);
  };
  show();
  if (deadlineAt !== null) clockTimer = setInterval(show, 200);
}

function secondsLeft() {
  return deadlineAt === null ? null : Math.max(0, (deadlineAt - performance.now()) / 1000);
}

/** The regulations' warnings: 1 minute and 30 seconds left (when the round is longer), and
 * «¡Alcen!» in the last five seconds. */
function warning(left, seconds) {
  if (left === null) return "";
  if (left <= 0) return t("Tiempo");
  if (left <= 5) return t("¡Alcen!");
  if (left <= 30 && seconds > 30) return t("Quedan 30 segundos");
  if (left <= 60 && seconds > 60) return t("Queda 1 minuto");
  return "";
}

function phaseText(view) {
  if (view.phase === "lobby") return t("Esperando a que el director empiece la partida");
  if (view.phase === "playing") return t("Ronda {n}", { n: view.round });
  if (view.phase === "results") return t("Resultados de la ronda {n}", { n: view.round });
  return t("Partida terminada: {reason}", { reason: view.end ? view.end.text : "" });
}

/** A play's points as a cell: the score, and its bonus. */
function points(row) {
  return row.bonus ? `${row.score} + ${row.bonus}` : String(row.score);
}

/** The round's ranking: rank, name, play, points (a zero says why). */
function drawRanking(table, ranking, me = null) {
  table.innerHTML = `<tr><th>#</th><th>${escapeHtml(t("Jugador"))}</th><th>${escapeHtml(t("Jugada"))}</th><th class="num">${escapeHtml(t("Puntos"))}</th></tr>`;
  for (const row of ranking || []) {
    const tr = document.createElement("tr");
    if (row.player === me) tr.className = "me";
    const said = row.reason_text ? ` (${row.reason_text})` : "";
    tr.innerHTML = `<td>${row.rank}</td><td>${escapeHtml(row.name)}</td><td>${escapeHtml((row.text || "—") + said)}</td><td class="num">${points(row)}</td>`;
    table.appendChild(tr);
  }
}

/** The standings: rank, name, total, percentage of the master moves' total, masters found. */
function drawStandings(table, standings, me = null) {
  table.innerHTML = `<tr><th>#</th><th>${escapeHtml(t("Jugador"))}</th><th class="num">${escapeHtml(t("Total"))}</th><th class="num">%</th><th class="num">${escapeHtml(t("Maestras"))}</th></tr>`;
  for (const s of standings || []) {
    const tr = document.createElement("tr");
    if (s.player === me) tr.className = "me";
    tr.innerHTML = `<td>${s.rank}</td><td>${escapeHtml(s.name)}</td><td class="num">${s.total}</td><td class="num">${s.percentage.toFixed(1)}</td><td class="num">${s.masters}</td>`;
    table.appendChild(tr);
  }
}

function masterText(master) {
  return master ? `${master.notation} · ${master.score}` : "";
}
