// A player's page in a duplicate room: the board and the rack, the countdown, the play (typed,
// or tiles put on squares) sent over the WebSocket and acknowledged with what it would score,
// then the master move, the player's own score, the round's ranking and the standings. The
// server decides everything: the deadline (by its clock, on receipt) and every score.
"use strict";

let placed = new Map();    // square → tile put there by clicking (lower case: a blank)
let usedTiles = new Map(); // square → rack index it came from
let picked = null;         // the rack index chosen, waiting for a square
let sent = 0;              // the id of the last play sent
let lastAck = null;
let shownVersion = null;

function query() {
  const token = roomToken();
  return token ? { t: token } : {};
}

function onState(view) {
  const fresh = !roomState || roomState.round !== view.round || roomState.phase !== view.phase;
  roomState = view;
  if (fresh) { placed = new Map(); usedTiles = new Map(); picked = null; lastAck = null; $("play-error").textContent = ""; }
  render(view);
}

function onOther(message) {
  if (message.type === "ack" && message.id === sent) {
    lastAck = message;
    $("play-error").textContent = "";
    drawAck();
  } else if (message.type === "error") {
    if (message.id === sent && lastAck && lastAck.pending) { lastAck = null; drawAck(); }
    $("play-error").textContent = message.error;
  }
}

function render(view) {
  $("phase").textContent = phaseText(view);
  const player = view.role === "player";
  $("join-form").classList.toggle("hidden", player || view.phase === "over");
  $("play-card").classList.toggle("hidden", !player || view.phase !== "playing");
  if (player) $("me-name").textContent = view.me.name;
  drawRoomBoard(view, view.phase === "playing" ? [] : (view.master ? view.master.squares : []), squareClicked, placed);
  drawRack($("rack"), view.rack, view.values, new Set(usedTiles.values()), picked, view.phase === "playing" ? rackClicked : null);
  if (shownVersion !== view.version) {
    shownVersion = view.version;
    startClock(view, (left) => {
      const over = left !== null && left <= 0;
      $("send").disabled = $("send-placed").disabled = over || view.phase !== "playing";
    });
  }
  drawAck();
  const results = view.master && view.phase !== "playing";
  $("results-card").classList.toggle("hidden", !results);
  if (results) {
    $("master").textContent = masterText(view.master);
    const mine = player ? view.me.result : null;
    $("my-result").textContent = mine ? t("Tu jugada: {play} — {points} puntos", {
      play: (mine.text || "—") + (mine.reason_text ? ` (${mine.reason_text})` : ""), points: points(mine) }) : "";
    drawRanking($("ranking"), view.ranking, player ? view.me.player : null);
  }
  $("standings-card").classList.toggle("hidden", !view.standings.length);
  drawStandings($("standings"), view.standings, player ? view.me.player : null);
}

function drawAck() {
  const box = $("ack");
  const slip = lastAck || (roomState && roomState.me && roomState.me.slip);
  if (!slip || roomState.phase !== "playing") { box.textContent = ""; return; }
  if (slip.pending) { box.classList.remove("zero"); box.textContent = t("Enviando…"); return; }
  const shown = slip.notation || slip.text || "—";
  box.classList.toggle("zero", slip.reason !== null);
  box.textContent = slip.reason !== null
    ? t("Recibida: {play} — 0 puntos: {reason}", { play: shown, reason: slip.reason_text + (slip.detail ? ` (${slip.detail})` : "") })
    : t("Recibida: {play} — {n} puntos si sus palabras son válidas", { play: shown, n: slip.score });
}

function send(body) {
  if (!roomSocket || roomSocket.readyState !== WebSocket.OPEN) { $("play-error").textContent = t("Sin conexión con el servidor"); return; }
  sent += 1;
  lastAck = { pending: true };
  $("play-error").textContent = "";
  drawAck();
  roomSocket.send(JSON.stringify({ action: "submit", id: sent, round: roomState.round, ...body }));
}

function rackClicked(i) {
  if ([...usedTiles.values()].includes(i)) return;
  picked = picked === i ? null : i;
  render(roomState);
}

function squareClicked(sq) {
  if (!roomState || roomState.phase !== "playing") return;
  if (placed.has(sq)) { placed.delete(sq); usedTiles.delete(sq); render(roomState); return; }
  if (picked === null || roomState.board[sq]) return;
  let letter = roomState.rack[picked];
  if (letter === "?") {
    const chosen = (prompt(t("¿Qué ficha representa el comodín?")) || "").trim();
    if (!chosen) return;
    letter = chosen.toLowerCase();
  }
  placed.set(sq, letter);
  usedTiles.set(sq, picked);
  picked = null;
  render(roomState);
}

async function joinRoom(event) {
  event.preventDefault();
  try {
    const joined = await api("/api/duplicadas/unirse", { json: { code: roomState.code, name: $("join-form").name.value } });
    if (joined.token) localStorage.setItem(ROOM_TOKEN_KEY, joined.token);
    roomConnect(query(), onState, onOther);
  } catch (err) {
    roomNotice(err.message);
  }
}

async function start() {
  await i18nReady;
  languageSelector(() => roomState && render(roomState));
  headerAccount();
  const me = await account();
  if (me.name) document.querySelectorAll(".guest-only").forEach((el) => el.classList.add("hidden"));
  $("join-form").addEventListener("submit", joinRoom);
  $("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ move: $("move").value.trim() });
  });
  $("send-placed").addEventListener("click", () => {
    if (!placed.size) return;
    send({ placed: [...placed.entries()] });
  });
  $("recall").addEventListener("click", () => { placed = new Map(); usedTiles = new Map(); picked = null; render(roomState); });
  roomConnect(query(), onState, onOther);
}

start();
