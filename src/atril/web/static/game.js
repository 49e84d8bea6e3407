// The game page: draws the server's view of this seat, lets the player place tiles (drag, click,
// or typing), and sends actions. The server checks everything; this page only proposes.
// The seat's token comes from the address (?t=), from this browser's memory, or from claiming
// an invitation (?invitacion=); without one the page is a spectator's view. On one device the
// rack stays covered until the person to move says they hold the device.
"use strict";

const ROWS = "ABCDEFGHIJKLMNO";
const LETTERS = ["A", "B", "C", "CH", "D", "E", "F", "G", "H", "I", "J", "L", "LL", "M", "N", "Ñ",
  "O", "P", "Q", "R", "RR", "S", "T", "U", "V", "X", "Y", "Z"];
const GAME_ID = location.pathname.split("/").pop();
const TOKEN_KEY = `atril-token-${GAME_ID}`;
const JSON_TYPE = { "Content-Type": "application/json" };
const $ = (id) => document.getElementById(id);

let token = "";            // the seat's token ("" = a spectator)
let state = null;          // the server's view
let layout = null;         // the premium map and tile values (sent once, with the first view)
let received = 0;          // performance.now() when it arrived (clocks count from there)
let order = [];            // rack indices in the order shown (shuffle is local)
let placed = new Map();    // square → {index, letter}: tiles put on the board, not yet played
let selected = null;       // rack index chosen by a click
let cursor = null;         // {sq, across} for typing
let typed = [];            // squares filled by typing, for Backspace
let seenVerdict = null;
let challengeKey = null;   // the pending play whose words the challenge box lists
let busy = false;
let holder = null;         // one device: the player who said they hold it (null: nobody yet)

// -- talking to the server -------------------------------------------------------------------
async function send(action, extra = {}) {
  if (busy) return;
  busy = true;
  try {
    const response = await fetch(`/api/partidas/${GAME_ID}/accion`, {
      method: "POST", headers: JSON_TYPE,
      body: JSON.stringify({ t: token, version: state.version, action, ...extra }) });
    const data = await response.json();
    if (!response.ok) {
      toast(data.error + (data.article && !data.error.includes("art.") ? ` (art. ${data.article})` : ""));
      if (response.status === 409) await refresh();
      return false;
    }
    setState(data);
    return true;
  } catch (err) {
    toast(t("Sin conexión con el servidor"));
    return false;
  } finally {
    busy = false;
  }
}

function withToken(path) {
  return token ? `${path}?t=${encodeURIComponent(token)}` : path;
}

async function answer(response) {
  return response.json().catch(() => ({ error: response.statusText }));
}

// The seat's token: the address's, else this browser's, else the one an invitation gives.
async function seatToken() {
  const params = new URLSearchParams(location.search);
  if (params.get("t")) return params.get("t");
  const kept = localStorage.getItem(TOKEN_KEY) || "";
  const invite = params.get("invitacion");
  if (invite === null) return kept;
  const seat = kept || await claim(invite);
  if (seat) history.replaceState(null, "", `/partida/${GAME_ID}?t=${encodeURIComponent(seat)}`);
  return seat;
}

// An invitation is good once: its token, or "" and a notice (then the page only watches).
async function claim(invite) {
  try {
    const response = await fetch(`/api/partidas/${GAME_ID}/unirse`, {
      method: "POST", headers: JSON_TYPE, body: JSON.stringify({ invite }) });
    const data = await answer(response);
    if (response.ok) { localStorage.setItem(TOKEN_KEY, data.token); return data.token; }
    if (response.status === 409) noticeText("esta invitación ya se ha usado");
    else notice(data.error);
  } catch (err) {
    noticeText("Sin conexión con el servidor");
  }
  return "";
}

async function getState() {
  const response = await fetch(withToken(`/api/partidas/${GAME_ID}`));
  return { status: response.status, data: await answer(response) };
}

async function refresh() {
  const { status, data } = await getState();
  if (status !== 200) { $("status").textContent = data.error; return; }
  setState(data);
}

// The first view; a token the server refuses leaves its message and a spectator's view.
async function load() {
  let { status, data } = await getState();
  if (status === 403 && token) {
    notice(data.error);
    if (localStorage.getItem(TOKEN_KEY) === token) localStorage.removeItem(TOKEN_KEY);
    token = "";
    ({ status, data } = await getState());
  }
  if (status !== 200) { notice(data.error); return false; }
  if (data.seat !== null) localStorage.setItem(TOKEN_KEY, token);
  setState(data);
  return true;
}

let socket = null;         // the live connection; the server speaks to it in the language it opened with

function connect(delay = 500) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const path = withToken(`/ws/partidas/${GAME_ID}`);  // in the page's language, whatever the browser's
  const ws = new WebSocket(`${proto}://${location.host}${path}${path.includes("?") ? "&" : "?"}lang=${LANG}`);
  socket = ws;
  let ping = null;
  ws.onopen = () => { delay = 500; ping = setInterval(() => ws.send("ping"), 25000); };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") setState(message.state);
  };
  ws.onclose = (event) => {
    clearInterval(ping);
    if (ws !== socket) return;  // replaced by a connection in another language
    if (event.code >= 4400 && event.code < 4500) { notice(event.reason); return; }  // a bad link
    $("status").textContent = t("Reconectando…");
    setTimeout(() => connect(Math.min(delay * 2, 8000)), delay);
  };
}

function setState(next) {
  if (next.premiums) layout = { premiums: next.premiums, values: next.values };
  if (state && next.version < state.version) return;
  const seatChanged = !state || state.me !== next.me;   // on one device: the other player's rack
  const rackChanged = seatChanged || state.rack.join() !== next.rack.join();
  const boardChanged = !state || state.version !== next.version;
  state = next;
  received = performance.now();
  if (seatChanged) cursor = null;
  if (rackChanged) { order = next.rack.map((_, i) => i); clearPlacement(); }
  else if (boardChanged) { for (const sq of [...placed.keys()]) if (state.board[sq]) placed.delete(sq); }
  render();
}

// -- drawing ------------------------------------------------------------------------------
function tileEl(letter, { blank = false, value = null } = {}) {
  const el = document.createElement("div");
  const shown = letter === "?" ? "" : letter.toUpperCase();
  el.className = "tile" + (shown.length === 2 ? " digraph" : "") + (blank || letter === "?" ? " blank" : "");
  const v = value ?? (blank || letter === "?" ? 0 : layout.values[shown]);
  el.innerHTML = `<span class="l">${shown}</span><span class="v">${v}</span>`;
  el.dataset.letter = letter;
  return el;
}

function buildBoard() {
  const board = $("board");
  for (let sq = 0; sq < 225; sq++) {
    const cell = document.createElement("div");
    cell.className = "sq";
    cell.dataset.sq = sq;
    cell.title = ROWS[Math.floor(sq / 15)] + (sq % 15 + 1);
    board.appendChild(cell);
    cell.addEventListener("click", () => squareClicked(sq));
  }
  for (let c = 1; c <= 15; c++) $("coords-top").insertAdjacentHTML("beforeend", `<span>${c}</span>`);
  for (const r of ROWS) $("coords-side").insertAdjacentHTML("beforeend", `<span>${r}</span>`);
}

// -- who looks: a player, a spectator, or (one device) someone who has not said who they are --
function handingOver() {
  return state.mode === "local" && !state.over && state.to_move !== holder;
}

function rackShown() {
  return state.seat !== null && !handingOver();
}

function canAct() {
  return state.can.play && !handingOver();
}

function closeRackDialogs() {
  for (const id of ["exchange-dialog", "blank-dialog"]) if ($(id).open) $(id).close();
  $("exchange-picker").innerHTML = "";
}

function render() {
  if (!rackShown()) closeRackDialogs();
  renderPlayers();
  renderBoard();
  renderRack();
  renderStatus();
  renderSide();
  renderSeat();
}

// The rack and the buttons for a player; a label for a spectator; on one device, until the
// person to move says who they are, a screen asking to pass it to them.
function renderSeat() {
  const handing = handingOver();
  $("spectator").classList.toggle("hidden", state.seat !== null);
  $("handoff").classList.toggle("hidden", !handing);
  if (handing) {
    const name = state.players[state.to_move].name;
    $("handoff-text").textContent = t("Pasa el dispositivo a {name}", { name });
    $("handoff-ok").textContent = t("Soy {name}: ver mi atril", { name });
  }
  for (const id of ["rack", "controls", "hint"]) $(id).classList.toggle("hidden", !rackShown());
  const can = state.can;
  $("play").disabled = !can.play || placed.size === 0;
  $("pass").disabled = !can.play;
  $("exchange").disabled = !can.exchange;
  $("recall").disabled = placed.size === 0;
}

function renderPlayers() {
  const box = $("players");
  box.innerHTML = "";
  state.players.forEach((p, i) => {
    const el = document.createElement("div");
    el.className = "player" + (i === state.to_move && !state.over ? " to-move" : "");
    const who = p.computer ? ` (${t("ordenador")})` : (i === state.me && state.mode !== "local" ? ` (${t("tú")})` : "");
    el.innerHTML = `<span class="name"></span><span class="clock" id="clock-${i}"></span><span class="score">${p.score}</span>`;
    el.querySelector(".name").textContent = p.name + who;
    box.appendChild(el);
  });
  tick();
}

function renderBoard() {
  const last = new Set(state.last ? state.last.squares : []);
  document.querySelectorAll("#board .sq").forEach((cell) => {
    const sq = Number(cell.dataset.sq);
    const premium = layout.premiums[sq];
    cell.className = "sq" + (premium ? " " + premium.toLowerCase().replace(/(\d)(\w)/, "$2$1") : "") + (sq === 112 && !state.board[sq] && !placed.has(sq) ? " star" : "");
    cell.textContent = "";
    cell.removeAttribute("data-arrow");
    const onBoard = state.board[sq];
    const mine = placed.get(sq);
    if (onBoard) {
      const el = tileEl(onBoard, { blank: onBoard !== onBoard.toUpperCase() });
      if (last.has(sq)) el.classList.add("last");
      cell.appendChild(el);
    } else if (mine) {
      const el = tileEl(mine.letter, { blank: mine.blank });
      el.classList.add("new");
      cell.appendChild(el);
    } else if (premium && sq !== 112) {
      cell.textContent = LANG === "es" ? premium.replace("W", "P") : premium;
    }
    if (cursor && cursor.sq === sq) { cell.classList.add("cursor"); cell.dataset.arrow = cursor.across ? "→" : "↓"; }
  });
}

function renderRack() {
  const rack = $("rack");
  rack.innerHTML = "";
  if (!rackShown()) return;    // not hidden: absent
  const used = new Set([...placed.values()].map((p) => p.index));
  for (const i of order) {
    const el = tileEl(state.rack[i]);
    el.dataset.index = i;
    if (used.has(i)) el.classList.add("used");
    if (selected === i) el.classList.add("selected");
    el.addEventListener("pointerdown", (event) => startDrag(event, i));
    rack.appendChild(el);
  }
}

function renderStatus() {
  const status = $("status");
  const pending = state.pending;
  $("pending").classList.add("hidden");
  if (!pending) challengeKey = null;
  if (state.over) {
    status.textContent = t("Partida terminada");
  } else if (state.waiting_for_rival) {
    status.textContent = state.seat === null
      ? t("La partida empieza cuando el segundo jugador abra su invitación…")
      : t("Esperando a que tu rival abra la invitación…");
  } else if (state.thinking) {
    status.textContent = t("El ordenador piensa…");
  } else if (pending && pending.mine && state.mode !== "local") {
    status.textContent = t("Esperando a que el rival acepte o impugne…");
  } else if (pending && state.can.accept && !handingOver()) {
    status.textContent = "";
    $("pending-text").textContent = `${state.players[pending.player].name}: ${pending.move} (${pending.score}). ${t("El rival ha jugado. ¿Aceptas o impugnas?")}`;
    renderChallengeWords(pending);
    $("pending").classList.remove("hidden");
  } else if (state.can.play) {
    status.textContent = state.mode === "local" ? t("Turno de {name}", { name: state.players[state.to_move].name }) : t("Te toca");
  } else {
    status.textContent = t("Turno de {name}", { name: state.players[state.to_move].name });
  }
  const verdict = state.verdict;
  const box = $("verdict");
  if (verdict && seenVerdict !== null && verdict.turn !== seenVerdict) {
    box.textContent = verdict.text;  // only «jugada correcta» or «jugada no válida» (art. 40)
    box.className = "verdict " + (verdict.valid ? "ok" : "bad");
    clearTimeout(box.timer);
    box.timer = setTimeout(() => box.classList.add("hidden"), 6000);
  }
  seenVerdict = verdict ? verdict.turn : -1;
}

// The words the pending play formed, each with a box: the ones ticked are challenged, all at
// first (art. 40). Built once per pending play, so later drawings keep the player's ticks.
function renderChallengeWords(pending) {
  const key = `${state.sheet.length} ${pending.player} ${pending.move}`;
  if (key === challengeKey) return;
  challengeKey = key;
  const list = $("challenge-list");
  list.innerHTML = "";
  for (const word of pending.words) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = word;
    box.checked = true;
    box.addEventListener("change", () => { $("challenge").disabled = !challengedWords().length; });
    label.append(box, ` ${word}`);
    list.appendChild(label);
  }
  $("challenge-words").classList.toggle("hidden", pending.words.length < 2);
  $("challenge").disabled = false;
}

function challengedWords() {
  return [...$("challenge-list").querySelectorAll("input:checked")].map((box) => box.value);
}

function renderSide() {
  $("bag-count").textContent = state.bag;
  const covered = handingOver();   // what is unseen minus the bag would give the rack away
  $("unseen-box").classList.toggle("hidden", covered);
  $("unseen").innerHTML = covered ? "" : Object.entries(state.unseen).map(([l, n]) => `<span>${l === "?" ? "?" : l}×${n}</span>`).join("");
  const sheet = $("sheet");
  const names = state.players.map((p) => p.name);
  sheet.innerHTML = `<tr><th>#</th><th>${t("Jugada")}</th><th class="num">${t("Puntos")}</th><th class="num">${escapeHtml(names[0])}</th><th class="num">${escapeHtml(names[1])}</th></tr>`;
  for (const row of state.sheet) {
    const tr = document.createElement("tr");
    // P, I and C-x in the points column, as a planilla is filled in by hand
    const points = row.mark ?? (row.number ? row.points : (row.points > 0 ? "+" : "") + row.points);
    tr.innerHTML = `<td>${row.number || ""}</td><td></td><td class="num"></td><td class="num">${row.totals[0]}</td><td class="num">${row.totals[1]}</td>`;
    tr.children[1].textContent = row.text ? `${row.name}: ${row.text}` : row.name;
    tr.children[2].textContent = points;
    sheet.appendChild(tr);
  }
  for (const down of state.downtime) {  // server outages: written down, not charged to a clock
    const tr = document.createElement("tr");
    tr.className = "downtime";
    tr.innerHTML = `<td></td><td colspan="4"></td>`;
    tr.children[1].textContent = t("Servidor sin servicio de {from} a {to} ({seconds} s): no se descuenta del reloj",
      { from: clockTime(down.from), to: clockTime(down.to), seconds: down.seconds });
    sheet.appendChild(tr);
  }
  const wrap = sheet.parentElement;
  wrap.scrollTop = wrap.scrollHeight;
  const invite = localStorage.getItem(`atril-invite-${GAME_ID}`);
  $("invite-card").classList.toggle("hidden", !(invite && state.waiting_for_rival && state.seat === 0));
  if (invite) { $("invite-link").href = invite; $("invite-link").textContent = invite; }
  const over = state.over;
  $("over").classList.toggle("hidden", !over);
  if (over) {
    const winner = over.winner === null ? t("empate") : t("gana {name}", { name: over.winner_name });
    const adjustments = state.sheet.filter((r) => r.number === 0)
      .map((r) => `${r.name}: ${r.points > 0 ? "+" : ""}${r.points}, ${r.text}`);
    $("over-text").innerHTML = `<p><b>${t("Resultado")}:</b> ${escapeHtml(over.players[0])} ${over.scores[0]} – ${escapeHtml(over.players[1])} ${over.scores[1]}, ${escapeHtml(winner)}</p>`
      + `<p><b>${t("Motivo")}:</b> ${escapeHtml(over.text)} (art. ${over.article})</p>`
      + (adjustments.length ? `<p><b>${t("Ajustes")}:</b><br>${adjustments.map(escapeHtml).join("<br>")}</p>` : "")
      + `<p class="seed">${t("Semilla de la bolsa (para comprobar los sorteos)")}: <code>${escapeHtml(over.seed)}</code></p>`;
    $("gcg").href = withToken(`/api/partidas/${GAME_ID}/gcg`);
  }
}

function clockTime(epoch) {
  return new Date(epoch * 1000).toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" });
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// -- clocks: the server's reading, counted down locally from when it arrived ----------------
function mmss(seconds) {
  const neg = seconds < 0;
  const s = Math.floor(Math.abs(seconds));
  return (neg ? "-" : "") + String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
}

function tick() {
  if (!state || !state.clock) return;
  const clock = state.clock;
  const elapsed = (performance.now() - received) / 1000;
  for (const p of [0, 1]) {
    const el = $(`clock-${p}`);
    if (!el) continue;
    const running = clock.running === p && !state.over;
    let text;
    if (clock.remaining) {
      const left = clock.remaining[p] - (running ? elapsed : 0);
      text = mmss(left);
      el.classList.toggle("over", left < 0);
    } else {
      text = "";
    }
    if (running && clock.turn_left !== null) text += ` ⏱${mmss(Math.max(0, clock.turn_left - elapsed))}`;
    el.textContent = text;
    el.classList.toggle("running", running);
  }
}

// -- placing tiles -------------------------------------------------------------------------
function clearPlacement() { placed = new Map(); selected = null; typed = []; }

function placeTile(index, sq, asLetter = null) {
  if (!canAct() || state.board[sq] || placed.has(sq)) return false;
  for (const [s, p] of placed) if (p.index === index) placed.delete(s);
  const letter = state.rack[index];
  if (letter === "?") {
    if (asLetter) { placed.set(sq, { index, letter: asLetter.toLowerCase(), blank: true }); return true; }
    askBlank((chosen) => { placed.set(sq, { index, letter: chosen.toLowerCase(), blank: true }); selected = null; render(); });
    return false;
  }
  placed.set(sq, { index, letter, blank: false });
  return true;
}

function squareClicked(sq) {
  if (!canAct()) return;
  if (selected !== null) {
    placeTile(selected, sq);
    selected = null;
  } else if (placed.has(sq)) {
    placed.delete(sq);
    typed = typed.filter((s) => s !== sq);
  } else if (!state.board[sq]) {
    cursor = cursor && cursor.sq === sq ? { sq, across: !cursor.across } : { sq, across: true };
    typed = [];
  }
  render();
}

function freeIndex(letter) {
  const used = new Set([...placed.values()].map((p) => p.index));
  return order.find((i) => !used.has(i) && state.rack[i] === letter);
}

function advance(sq, across) {
  let next = sq;
  do {
    const row = Math.floor(next / 15), col = next % 15;
    if (across ? col === 14 : row === 14) return null;
    next += across ? 1 : 15;
  } while (state.board[next] || placed.has(next));
  return next;
}

function typeLetter(key) {
  if (!cursor || !canAct()) return;
  let letter = key.toUpperCase();
  if (!LETTERS.includes(letter)) return;
  // ch, ll, rr typed one after the other are the digraph tile (art. 11)
  const prev = typed.length ? placed.get(typed[typed.length - 1]) : null;
  const pair = prev ? prev.letter.toUpperCase() + letter : "";
  if (["CH", "LL", "RR"].includes(pair) && (freeIndex(pair) !== undefined || (prev.blank))) {
    const sq = typed[typed.length - 1];
    placed.delete(sq);
    const index = prev.blank ? prev.index : freeIndex(pair);
    placed.set(sq, { index, letter: prev.blank ? pair.toLowerCase() : pair, blank: prev.blank });
    render();
    return;
  }
  let index = freeIndex(letter);
  let asBlank = null;
  if (index === undefined) { index = freeIndex("?"); asBlank = letter; }
  if (index === undefined || state.board[cursor.sq] || placed.has(cursor.sq)) return;
  placeTile(index, cursor.sq, asBlank);
  typed.push(cursor.sq);
  const next = advance(cursor.sq, cursor.across);
  cursor = next === null ? null : { sq: next, across: cursor.across };
  render();
}

function backspace() {
  const sq = typed.pop();
  if (sq === undefined) return;
  placed.delete(sq);
  cursor = { sq, across: cursor ? cursor.across : true };
  render();
}

document.addEventListener("keydown", (event) => {
  if (!state || document.querySelector("dialog[open]") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Enter") { event.preventDefault(); playPlaced(); }
  else if (event.key === "Escape") { recall(); }
  else if (event.key === "Backspace") { event.preventDefault(); backspace(); }
  else if (/^[a-zñA-ZÑ]$/.test(event.key)) { typeLetter(event.key); }
});

// -- drag and drop (pointer events: mouse, touch and pen alike) -----------------------------
function startDrag(event, index) {
  if (event.button > 0) return;
  const from = { x: event.clientX, y: event.clientY };
  const tile = event.currentTarget;
  let ghost = null;
  let target = null;
  tile.setPointerCapture(event.pointerId);
  const move = (e) => {
    if (!ghost && Math.hypot(e.clientX - from.x, e.clientY - from.y) < 6) return;
    if (!ghost) { ghost = tile.cloneNode(true); ghost.classList.add("drag-ghost"); document.body.appendChild(ghost); }
    ghost.style.left = `${e.clientX - 24}px`; ghost.style.top = `${e.clientY - 24}px`;
    const under = document.elementsFromPoint(e.clientX, e.clientY).find((el) => el.classList && (el.classList.contains("sq") || el.classList.contains("tile") && el.parentElement.id === "rack"));
    if (target) target.classList.remove("drop-target");
    target = under && under.classList.contains("sq") ? under : (under || null);
    if (target && target.classList.contains("sq")) target.classList.add("drop-target");
  };
  const up = (e) => {
    tile.removeEventListener("pointermove", move);
    tile.removeEventListener("pointerup", up);
    tile.removeEventListener("pointercancel", up);
    if (target) target.classList.remove("drop-target");
    if (!ghost) {                       // a click: select, or unselect
      selected = selected === index ? null : index;
      render();
      return;
    }
    ghost.remove();
    if (target && target.classList.contains("sq")) {
      placeTile(index, Number(target.dataset.sq));
      selected = null;
    } else if (target && target.dataset.index !== undefined) {   // reorder the rack
      const to = order.indexOf(Number(target.dataset.index));
      order.splice(order.indexOf(index), 1);
      order.splice(to, 0, index);
    }
    render();
  };
  tile.addEventListener("pointermove", move);
  tile.addEventListener("pointerup", up);
  tile.addEventListener("pointercancel", up);
}

// -- dialogs -------------------------------------------------------------------------------
function askBlank(done) {
  const picker = $("blank-picker");
  picker.innerHTML = "";
  for (const letter of LETTERS) {
    const button = document.createElement("button");
    button.textContent = letter;
    button.dataset.letter = letter;
    button.addEventListener("click", () => { $("blank-dialog").close(); done(letter); });
    picker.appendChild(button);
  }
  $("blank-dialog").showModal();
}

function openExchange() {
  const picker = $("exchange-picker");
  picker.innerHTML = "";
  for (const i of order) {
    const el = tileEl(state.rack[i]);
    el.dataset.index = i;
    el.addEventListener("click", () => el.classList.toggle("chosen"));
    picker.appendChild(el);
  }
  $("exchange-dialog").showModal();
}

async function doExchange() {
  const tiles = [...$("exchange-picker").querySelectorAll(".chosen")].map((el) => state.rack[Number(el.dataset.index)]);
  if (!tiles.length) return;
  $("exchange-dialog").close();
  await send("exchange", { tiles });
}

// -- actions -------------------------------------------------------------------------------
async function playPlaced() {
  if (!placed.size || !canAct()) return;
  const tiles = [...placed.entries()].map(([sq, p]) => [sq, p.letter]);
  if (await send("play", { placed: tiles })) { clearPlacement(); cursor = null; render(); }
}

function recall() { clearPlacement(); cursor = null; render(); }

function shuffle() {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  render();
}

async function showAnalysis() {
  const response = await fetch(withToken(`/api/partidas/${GAME_ID}/analisis`));
  const data = await response.json();
  const box = $("analysis");
  box.classList.remove("hidden");
  if (!response.ok) { box.textContent = data.error; return; }
  const rows = data.turns.map((turn) => {
    const best = turn.best.map((b) => `${escapeHtml(b.move)} (${b.score}`
      + (b.equity !== b.score ? `; ${t("valor")} ${b.equity}` : "") + ")").join("<br>") || "—";
    const missed = turn.missed_scrabbles.map((b) => `${escapeHtml(b.move)} (${b.score})`).join("<br>");
    return `<tr><td>${turn.n}</td><td>${escapeHtml(data.players[turn.player])}<br><code>${escapeHtml(turn.rack)}</code></td>`
      + `<td>${escapeHtml(turn.notation)} (${turn.points})</td><td>${best}</td><td>${missed}</td></tr>`;
  }).join("");
  box.innerHTML = data.turns.length ? `<h3>${t("Análisis")}</h3><table><tr><th>${t("Turno")}</th><th>${t("Atril")}</th><th>${t("Jugada hecha")}</th><th>${t("Mejores jugadas")}</th><th>${t("Scrabbles perdidos")}</th></tr>${rows}</table>` : t("Sin datos de análisis.");
}

// A lasting message above the board: the server's (notice), or a string of ours that follows the
// language (noticeText).
function notice(text) {
  const el = $("notice");
  delete el.dataset.i18n;
  el.textContent = text;
  el.classList.remove("hidden");
}

function noticeText(msgid) {
  showText($("notice"), msgid);
  $("notice").classList.remove("hidden");
}

function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.classList.remove("hidden");
  clearTimeout(el.timer);
  el.timer = setTimeout(() => el.classList.add("hidden"), 5000);
}

// Another language: our strings at once, the server's with the next view (a new connection, as
// the server speaks to each in the language it opened with).
async function changeLang(lang) {
  await setLang(lang);
  if (state) render();
  if (socket) { const old = socket; connect(); old.close(); }
}

async function init() {
  await i18nReady;
  const lang = $("lang");
  lang.value = LANG;
  lang.addEventListener("change", () => changeLang(lang.value));
  buildBoard();
  $("play").addEventListener("click", playPlaced);
  $("recall").addEventListener("click", recall);
  $("shuffle").addEventListener("click", shuffle);
  $("pass").addEventListener("click", () => send("pass"));
  $("exchange").addEventListener("click", openExchange);
  $("exchange-do").addEventListener("click", doExchange);
  $("exchange-cancel").addEventListener("click", () => $("exchange-dialog").close());
  $("blank-cancel").addEventListener("click", () => $("blank-dialog").close());
  $("accept").addEventListener("click", () => send("accept"));
  $("challenge").addEventListener("click", () => send("challenge", { words: challengedWords() }));
  $("show-analysis").addEventListener("click", showAnalysis);
  $("handoff-ok").addEventListener("click", () => { holder = state.to_move; render(); });
  setInterval(tick, 250);
  start().catch(() => noticeText("Sin conexión con el servidor"));
}

async function start() {
  token = await seatToken();
  if (await load()) connect();
}

init();
