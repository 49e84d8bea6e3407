// The game page: draws the server's view of this seat, lets the player place tiles (drag, click,
// or typing), and sends actions. The server checks everything; this page only proposes.
// The seat's token comes from the address (?t=), from this browser's memory, or from claiming
// an invitation (?invitacion=); a logged-in player's seat needs none (the session says who
// they are). Without either the page is a spectator's view. On one device the rack stays
// covered until the person to move says they hold the device.
"use strict";

const LETTERS = ["A", "B", "C", "CH", "D", "E", "F", "G", "H", "I", "J", "L", "LL", "M", "N", "Ñ",
  "O", "P", "Q", "R", "RR", "S", "T", "U", "V", "X", "Y", "Z"];
const GAME_ID = location.pathname.split("/").pop();
const TOKEN_KEY = `atril-token-${GAME_ID}`;
const SETTINGS = { sound: ["atril-sonido", false], title: ["atril-aviso-titulo", true] };  // key, default
const BINGO_BONUS = 50;    // art. 19
const LETTER_TIMES = { "2L": 2, "3L": 3 };
const WORD_TIMES = { "2W": 2, "3W": 3 };
const $ = (id) => document.getElementById(id);

let token = "";            // the seat's token ("" = a spectator, or a seat the session holds)
let state = null;          // the server's view
let layout = null;         // the premium map and tile values (sent once, with the first view)
let cells = [];            // the board's squares
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
let audio = null;          // the sound of the opponent's move, made once sound is switched on
let titleBefore = null;    // the tab's title while it says «te toca»

// -- talking to the server -------------------------------------------------------------------
function actionPath() {
  return `/api/partidas/${GAME_ID}/accion`;
}

// Who acts: the seat's token, or nothing when the session's account holds the seat.
function seatField() {
  return token ? { t: token } : {};
}

function actionBody(action, extra = {}) {
  return { ...seatField(), version: state.version, action, ...extra };
}

async function send(action, extra = {}) {
  if (busy) return false;
  busy = true;
  hideToast();
  try {
    setState(await api(actionPath(), { json: actionBody(action, extra) }));
    return true;
  } catch (err) {
    if (err.status === 409) await refresh();  // first: a new position clears any message
    toast(err.message);
    return false;
  } finally {
    busy = false;
  }
}

function withToken(path) {
  return token ? `${path}?t=${encodeURIComponent(token)}` : path;
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
    const data = await api(`/api/partidas/${GAME_ID}/unirse`, { json: { invite } });
    localStorage.setItem(TOKEN_KEY, data.token);
    return data.token;
  } catch (err) {
    if (err.status === 409) noticeText("esta invitación ya se ha usado");
    else notice(err.message);
  }
  return "";
}

function getState() {
  return api(withToken(`/api/partidas/${GAME_ID}`));
}

async function refresh() {
  try {
    setState(await getState());
  } catch (err) {
    $("status").textContent = err.message;
  }
}

// The first view; a token the server refuses leaves its message and a spectator's view.
async function load() {
  try {
    setState(await seatOrSpectator());
    return true;
  } catch (err) {
    notice(err.message);
    return false;
  }
}

async function seatOrSpectator() {
  try {
    const view = await getState();
    if (view.seat !== null && token) localStorage.setItem(TOKEN_KEY, token);
    return view;
  } catch (err) {
    if (err.status !== 403 || !token) throw err;
    notice(err.message);
    if (localStorage.getItem(TOKEN_KEY) === token) localStorage.removeItem(TOKEN_KEY);
    token = "";
    return getState();
  }
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
    else if (message.type === "aborted") gameAborted();
  };
  ws.onclose = (event) => {
    clearInterval(ping);
    if (ws !== socket) return;  // replaced by a connection in another language, or the game is gone
    if (event.code >= 4400 && event.code < 4500) { notice(event.reason); return; }  // a bad link
    $("status").textContent = t("Reconectando…");
    setTimeout(() => connect(Math.min(delay * 2, 8000)), delay);
  };
}

function setState(next) {
  if (next.premiums) layout = { premiums: next.premiums, values: next.values };
  if (state && next.version < state.version) return;
  const turnCame = state !== null && !yourTurn(state) && yourTurn(next);
  const seatChanged = !state || state.me !== next.me;   // on one device: the other player's rack
  const rackChanged = seatChanged || state.rack.join() !== next.rack.join();
  const boardChanged = !state || state.version !== next.version;
  state = next;
  received = performance.now();
  if (seatChanged) cursor = null;
  if (rackChanged) { order = next.rack.map((_, i) => i); clearPlacement(); }
  else if (boardChanged) { for (const sq of [...placed.keys()]) if (state.board[sq]) placed.delete(sq); }
  if (boardChanged) hideToast();   // an old error says nothing of the new position
  render();
  if (turnCame) signalTurn();
}

// A seat's own turn in a game between two (not on one device): the opponent has just moved.
function yourTurn(view) {
  return view.mode !== "local" && view.seat !== null && view.can.play;
}

// The game was aborted before its first move: nothing left to show.
function gameAborted() {
  const old = socket;
  socket = null;
  if (old) old.close();
  localStorage.removeItem(TOKEN_KEY);
  closeRackDialogs();
  $("game").classList.add("hidden");
  noticeText("La partida se ha anulado.");
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

// -- drawing ------------------------------------------------------------------------------
function render() {
  if (!rackShown()) closeRackDialogs();
  renderPlayers();
  renderBoard();
  renderRack();
  renderStatus();
  renderVerdict();
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
  $("rack").classList.toggle("hidden", !rackShown());
  for (const id of ["controls", "hint"]) $(id).classList.toggle("hidden", !rackShown() || Boolean(state.over));
  const can = state.can;
  $("play").disabled = !can.play || placed.size === 0;
  $("pass").disabled = !can.play;
  $("exchange").disabled = !can.exchange;
  $("recall").disabled = placed.size === 0;
  $("resign").classList.toggle("hidden", !can.resign || handing);
  $("abort").classList.toggle("hidden", !can.abort || handing);
  $("settings").classList.toggle("hidden", state.seat === null || state.mode === "local");
}

// Each player: name (a link to the profile of an account, with its rating), clock and score —
// the final score once the game is over, the winner marked — and, beside the score, what is not
// in it yet: a play waiting to be accepted, or the tiles this player has placed but not played.
function renderPlayers() {
  const box = $("players");
  box.innerHTML = "";
  const over = state.over;
  state.players.forEach((p, i) => {
    const el = document.createElement("div");
    el.className = "player" + (i === state.to_move && !over ? " to-move" : "") + (over && over.winner === i ? " winner" : "");
    el.innerHTML = `<span class="name"></span><span class="clock" id="clock-${i}"></span>`
      + `<span class="score" id="score-${i}">${state.final ? state.final[i] : p.score}</span><span class="extra" id="extra-${i}"></span>`;
    el.querySelector(".name").append(...playerName(p, i));
    box.appendChild(el);
  });
  const extra = notYetCounted();
  if (extra) $(`extra-${extra.player}`).textContent = extra.text;
  tick();
}

function playerName(p, i) {
  const name = p.account ? Object.assign(document.createElement("a"), { href: profileUrl(p.account) }) : document.createElement("span");
  name.textContent = p.name;
  const parts = [name];
  if (p.rating !== null) parts.push(` (${Math.round(p.rating)})`);
  if (i === state.me && state.mode !== "local" && !p.computer) parts.push(` (${t("tú")})`);
  if (state.over && state.over.winner === i) {
    const won = document.createElement("span");
    won.className = "won";
    won.textContent = `★ ${t("gana")}`;
    parts.push(" ", won);
  }
  return parts;
}

// Points not in a player's score: the pending play's, or the placed tiles' (the page's own count).
function notYetCounted() {
  if (state.over) return null;
  if (state.pending) return { player: state.pending.player, text: `+${state.pending.score} ${t("por aceptar")}` };
  const score = placed.size && canAct() ? provisionalScore() : null;
  if (score === null) return null;
  return { player: state.me, text: `+${score} ${t("provisional")}` };
}

function renderBoard() {
  const last = new Set(state.last ? state.last.squares : []);
  cells.forEach((cell, sq) => {
    const mine = placed.get(sq);
    const tile = drawSquare(cell, sq, layout.premiums[sq], state.board[sq] || (mine && mine.letter), layout.values);
    cell.removeAttribute("data-arrow");
    if (tile && mine && !state.board[sq]) tile.classList.add("new");
    else if (tile && last.has(sq)) tile.classList.add("last");
    if (cursor && cursor.sq === sq) { cell.classList.add("cursor"); cell.dataset.arrow = cursor.across ? "→" : "↓"; }
  });
}

function renderRack() {
  const rack = $("rack");
  rack.innerHTML = "";
  if (!rackShown()) return;    // not hidden: absent
  const used = new Set([...placed.values()].map((p) => p.index));
  for (const i of order) {
    const el = tileElement(state.rack[i], layout.values);
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
}

// A new verdict, for a few seconds: whose play was judged and by whom, then only «jugada
// correcta» or «jugada no válida» (art. 40) — never which word.
function renderVerdict() {
  const verdict = state.verdict;
  const box = $("verdict");
  if (verdict && seenVerdict !== null && verdict.turn !== seenVerdict) {
    $("verdict-who").textContent = `${verdictWho(verdict)}:`;
    $("verdict-text").textContent = verdict.text;
    box.className = "verdict " + (verdict.valid ? "ok" : "bad");
    clearTimeout(box.timer);
    box.timer = setTimeout(() => box.classList.add("hidden"), 8000);
  }
  seenVerdict = verdict ? verdict.turn : -1;
}

function verdictWho(verdict) {
  const play = state.sheet[verdict.turn].text.split(",")[0];  // the play, without the words named
  const author = state.players[verdict.player];
  const challenger = state.players[1 - verdict.player];
  if (state.seat === null || state.mode === "local") {
    return t("{challenger} ha impugnado la jugada {play} de {name}", { challenger: challenger.name, play, name: author.name });
  }
  if (verdict.player !== state.me) return t("Has impugnado la jugada {play} de {name}", { play, name: author.name });
  if (challenger.computer) return t("El ordenador ha impugnado tu jugada {play}", { play });
  return t("{name} ha impugnado tu jugada {play}", { name: challenger.name, play });
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
  $("unseen").innerHTML = covered ? "" : Object.entries(state.unseen).map(([l, n]) => `<span>${escapeHtml(l)}×${n}</span>`).join("");
  renderSheet();
  const invite = localStorage.getItem(`atril-invite-${GAME_ID}`);
  $("invite-card").classList.toggle("hidden", !(invite && state.waiting_for_rival && state.seat === 0));
  if (invite) { $("invite-link").href = invite; $("invite-link").textContent = invite; }
  renderOver();
  $("rated").textContent = state.rated ? t("Puntuable") : t("No puntuable");
  $("ruleset").textContent = state.ruleset;
}

// The planilla: P, I and C-x in the points column, as it is filled in by hand; scrabbles marked.
function renderSheet() {
  const sheet = $("sheet");
  const names = state.players.map((p) => p.name);
  sheet.innerHTML = `<tr><th>#</th><th>${t("Jugada")}</th><th class="num">${t("Puntos")}</th><th class="num">${escapeHtml(names[0])}</th><th class="num">${escapeHtml(names[1])}</th></tr>`;
  for (const row of state.sheet) sheet.appendChild(sheetRow(row));
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
}

function sheetRow(row) {
  const tr = document.createElement("tr");
  const points = row.mark ?? (row.number ? row.points : (row.points > 0 ? "+" : "") + row.points);
  tr.innerHTML = `<td>${row.number || ""}</td><td></td><td class="num"></td><td class="num">${row.totals[0]}</td><td class="num">${row.totals[1]}</td>`;
  tr.children[1].textContent = row.text ? `${row.name}: ${row.text}` : row.name;
  tr.children[2].textContent = points;
  if (row.number && row.mark === null && isScrabble(row.text)) {
    tr.classList.add("scrabble");
    tr.children[1].insertAdjacentHTML("beforeend", ` <span class="badge">${t("scrabble")}</span>`);
  }
  return tr;
}

// The end: the one final score (after the rack adjustments) with the winner, why, and what
// comes next — the record, the replay, the analysis, a rematch.
function renderOver() {
  const over = state.over;
  $("over").classList.toggle("hidden", !over);
  $("rematch-card").classList.toggle("hidden", !(over && state.rematch));
  if (!over) return;
  const final = state.final || over.scores;
  const winner = over.winner === null ? t("empate") : t("gana {name}", { name: over.winner_name });
  const adjustments = state.sheet.filter((r) => r.number === 0)
    .map((r) => `${r.name}: ${r.points > 0 ? "+" : ""}${r.points}, ${r.text}`);
  $("over-text").innerHTML = `<p><b>${t("Resultado")}:</b> ${escapeHtml(over.players[0])} ${final[0]} – ${escapeHtml(over.players[1])} ${final[1]}, ${escapeHtml(winner)}</p>`
    + `<p><b>${t("Motivo")}:</b> ${escapeHtml(over.text)}${over.article ? ` (art. ${over.article})` : ""}</p>`
    + (adjustments.length ? `<p><b>${t("Ajustes")}:</b><br>${adjustments.map(escapeHtml).join("<br>")}</p>` : "")
    + `<p class="seed">${t("Semilla de la bolsa (para comprobar los sorteos)")}: <code>${escapeHtml(over.seed)}</code></p>`;
  $("gcg").href = withToken(`/api/partidas/${GAME_ID}/gcg`);
  $("replay").href = `/partida/${GAME_ID}/repeticion`;
  $("rematch").classList.toggle("hidden", !state.can.rematch);
  if (state.rematch) $("rematch-link").href = state.rematch;
}

function clockTime(epoch) {
  return new Date(epoch * 1000).toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" });
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

// -- the running score of the tiles placed (art. 13–19), before the server counts them ------
// What the placed tiles would score if every word they make is good; null when they are not in
// one line without gaps. The server's count, once played, is the one that stands.
function provisionalScore() {
  const squares = [...placed.keys()].sort((a, b) => a - b);
  const across = squares.length > 1 ? sameRow(squares) : lineThrough(squares[0], 1).length > 1;
  if (squares.length > 1 && !across && !squares.every((sq) => sq % 15 === squares[0] % 15)) return null;
  const main = lineThrough(squares[0], across ? 1 : 15);
  if (!squares.every((sq) => main.includes(sq))) return null;
  let total = main.length > 1 ? wordScore(main) : 0;
  for (const sq of squares) {
    const cross = lineThrough(sq, across ? 15 : 1);
    if (cross.length > 1) total += wordScore(cross);
  }
  return total + (squares.length === RACK_SIZE ? BINGO_BONUS : 0);
}

function sameRow(squares) {
  return squares.every((sq) => Math.floor(sq / 15) === Math.floor(squares[0] / 15));
}

function occupied(sq) {
  return Boolean(state.board[sq]) || placed.has(sq);
}

// The squares of the word through `sq` along `step` (1 across, 15 down), `sq` alone if none.
function lineThrough(sq, step) {
  const inLine = (a, b) => step === 15 || Math.floor(a / 15) === Math.floor(b / 15);
  let start = sq;
  while (start - step >= 0 && inLine(start - step, sq) && occupied(start - step)) start -= step;
  const line = [];
  for (let s = start; s < 225 && inLine(s, sq) && occupied(s); s += step) line.push(s);
  return line;
}

// Letter premiums, then word premiums, only under the new tiles (art. 13–17); a blank is 0.
function wordScore(line) {
  let sum = 0;
  let times = 1;
  for (const sq of line) {
    const tile = placed.get(sq);
    const letter = tile ? tile.letter : state.board[sq];
    const premium = tile ? layout.premiums[sq] : "";
    const value = letter === letter.toUpperCase() ? layout.values[letter] : 0;
    sum += value * (LETTER_TIMES[premium] || 1);
    times *= WORD_TIMES[premium] || 1;
  }
  return sum * times;
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

// Typing places tiles; Enter plays, Escape takes them back; Space shuffles, Shift+C exchanges,
// Shift+P passes (after asking).
function keyPressed(event) {
  if (!state || document.querySelector("dialog[open]") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  const shortcut = SHORTCUTS[(event.shiftKey ? "Shift+" : "") + event.key.toUpperCase()];
  if (shortcut) { event.preventDefault(); shortcut(); }
  else if (event.key === "Enter") { event.preventDefault(); playPlaced(); }
  else if (event.key === "Escape") { recall(); }
  else if (event.key === "Backspace") { event.preventDefault(); backspace(); }
  else if (/^[a-zñA-ZÑ]$/.test(event.key)) { typeLetter(event.key); }
}

const SHORTCUTS = {
  " ": () => rackShown() && shuffle(),
  "Shift+C": () => state.can.exchange && canAct() && openExchange(),
  "Shift+P": () => canAct() && passAsked(),
};

async function passAsked() {
  if (await confirmAction(t("¿Pasas el turno?"), t("Pasar"))) await send("pass");
}

// -- drag and drop (pointer events: mouse, touch and pen alike) -----------------------------
function startDrag(event, index) {
  if (event.button > 0) return;
  const from = { x: event.clientX, y: event.clientY };
  const tile = event.currentTarget;
  let ghost = null;
  let target = null;
  tile.setPointerCapture(event.pointerId);
  document.body.classList.add("dragging");   // no page text is selected on the way
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
    document.body.classList.remove("dragging");
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
    const el = tileElement(state.rack[i], layout.values);
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

async function resign() {
  if (await confirmAction(t("¿Abandonas la partida? Cuenta como derrota."), t("Abandonar"))) await send("resign");
}

// Before the first move a game can be called off: it is deleted, and counts for nothing.
async function abortGame() {
  if (!await confirmAction(t("¿Anulas la partida? Se borra y no cuenta."), t("Anular la partida"))) return;
  try {
    await api(actionPath(), { json: actionBody("abort") });
    gameAborted();
  } catch (err) {
    toast(err.message);
  }
}

// A new game with the same players and options, the other one starting (art. 4).
async function rematch() {
  try {
    location.href = (await api(`/api/partidas/${GAME_ID}/revancha`, { json: seatField() })).url;
  } catch (err) {
    toast(err.message);
  }
}

async function showAnalysis() {
  const box = $("analysis");
  box.classList.remove("hidden");
  let data, deep;
  try {
    [data, deep] = await Promise.all([api(withToken(`/api/partidas/${GAME_ID}/analisis`)),
      api(withToken(`/api/partidas/${GAME_ID}/analisis/fondo`))]);
  } catch (err) {
    box.textContent = err.message;
    return;
  }
  renderAnalysis(data, deep);
  if (deep.state === "queued" || deep.state === "running") followDeepAnalysis(data);
}

// The analysis box: the graph (from the analysis by simulation once there is one, else the
// static verdicts), the simulation's progress or the button that asks for it, and the table.
function renderAnalysis(data, deep) {
  const box = $("analysis");
  if (!data.turns.length) {
    box.textContent = t("Sin datos de análisis.");
    return;
  }
  const done = deep.state === "done";
  if (done) {   // the simulation's verdicts replace the static ones, turn by turn
    deep.analysis.turns.forEach((turn, i) => {
      data.turns[i].verdict = { win_before: turn.win_before, played: turn.played, best: turn.best,
        equity_lost: turn.equity_lost, win_lost: turn.win_lost };
    });
  }
  const rows = data.turns.map((turn) => {
    const best = turn.best.map((b) => `${escapeHtml(b.move)} (${b.score}`
      + (b.equity !== b.score ? `; ${t("valor")} ${b.equity}` : "") + ")").join("<br>") || "—";
    const missed = turn.missed_scrabbles.map((b) => `${escapeHtml(b.move)} (${b.score})`).join("<br>");
    const v = turn.verdict;
    const lost = v ? t("−{lost} % de ganar", { lost: (100 * v.win_lost).toFixed(1) }) : "";
    const verdict = !v ? "" : v.best.notation === v.played.notation ? "✓"
      : `${escapeHtml(v.best.notation)} (${escapeHtml(lost)})`;
    return `<tr><td>${turn.n}</td><td>${escapeHtml(data.players[turn.player])}<br><code>${escapeHtml(turn.rack)}</code></td>`
      + `<td>${escapeHtml(turn.notation)} (${turn.points})</td><td>${best}</td><td>${missed}</td><td>${verdict}</td></tr>`;
  }).join("");
  let deepPart;
  if (done) {
    const note = t("Análisis a fondo: {seconds} s de simulación por turno.", { seconds: deep.analysis.seconds });
    deepPart = `<p class="deep-note">${escapeHtml(note)}</p>`;
  } else if (deep.state === "queued" || deep.state === "running") {
    const label = deep.state === "queued" ? t("En cola: {ahead} análisis antes.", { ahead: deep.ahead })
      : t("Analizando a fondo: {done} de {total} turnos…", { done: deep.done, total: deep.total });
    deepPart = `<p class="deep-progress"><progress max="${deep.total}" value="${deep.done}"></progress> ${escapeHtml(label)}</p>`;
  } else {
    deepPart = `<p>${deep.state === "failed" ? escapeHtml(t("El análisis a fondo falló.")) + " " : ""}`
      + `<button type="button" id="deep-analysis">${t("Análisis a fondo (simulación)")}</button></p>`;
  }
  box.innerHTML = `<h3>${t("Análisis")}</h3>${winGraph(data)}${deepPart}<table><tr><th>${t("Turno")}</th><th>${t("Atril")}</th><th>${t("Jugada hecha")}</th><th>${t("Mejores jugadas")}</th><th>${t("Scrabbles perdidos")}</th><th>${done ? t("Mejor según la simulación") : t("Mejor por equidad")}</th></tr>${rows}</table>`;
  const button = $("deep-analysis");
  if (button) button.addEventListener("click", () => startDeepAnalysis(data));
}

async function startDeepAnalysis(data) {
  try {
    renderAnalysis(data, await api(withToken(`/api/partidas/${GAME_ID}/analisis/fondo`), { json: {} }));
  } catch (err) {
    toast(err.message);
    return;
  }
  followDeepAnalysis(data);
}

// Asks for the progress every second until the analysis is done (or failed).
async function followDeepAnalysis(data) {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let deep;
    try {
      deep = await api(withToken(`/api/partidas/${GAME_ID}/analisis/fondo`));
    } catch (err) {
      continue;   // the server is out of reach for a moment: ask again
    }
    renderAnalysis(data, deep);
    if (deep.state !== "queued" && deep.state !== "running") return;
  }
}

// The first player's win probability before each turn (atril.winprob, from the analysis's
// verdicts) as a line, the end as won, drawn or lost, and the three costliest choices (at least
// two points of win probability lost) marked with their turn number.
function winGraph(data) {
  const turns = data.turns.filter((turn) => turn.verdict);
  if (!turns.length) return "";
  const W = 600, H = 150, PAD = 18, LEFT = 40;
  const first = (turn) => (turn.player === 0 ? turn.verdict.win_before : 1 - turn.verdict.win_before);
  const points = turns.map(first);
  if (data.final) points.push(data.final[0] > data.final[1] ? 1 : data.final[0] < data.final[1] ? 0 : 0.5);
  const x = (i) => LEFT + ((W - LEFT - PAD) * i) / Math.max(1, points.length - 1);
  const y = (p) => PAD / 2 + (H - PAD) * (1 - p);
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
  const worst = turns.map((turn, i) => ({ turn, i }))
    .filter(({ turn }) => turn.verdict.win_lost >= 0.02)
    .sort((a, b) => b.turn.verdict.win_lost - a.turn.verdict.win_lost).slice(0, 3);
  const marks = worst.map(({ turn, i }) => {
    const tip = t("{n}. {name}: {played}; mejor {best} ({lost} % menos de ganar)", {
      n: turn.n, name: data.players[turn.player], played: turn.verdict.played.notation,
      best: turn.verdict.best.notation, lost: (100 * turn.verdict.win_lost).toFixed(1) });
    return `<g class="mistake"><circle cx="${x(i).toFixed(1)}" cy="${y(points[i]).toFixed(1)}" r="4"><title>${escapeHtml(tip)}</title></circle>`
      + `<text x="${x(i).toFixed(1)}" y="${(y(points[i]) - 7).toFixed(1)}" text-anchor="middle">${turn.n}</text></g>`;
  }).join("");
  const caption = t("Probabilidad de ganar de {name} antes de cada turno; en rojo, las jugadas que más costaron",
    { name: data.players[0] });
  return `<figure class="win-graph"><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(caption)}">`
    + [0, 0.5, 1].map((p) => `<text x="${LEFT - 6}" y="${y(p) + 4}" text-anchor="end" class="axis">${100 * p} %</text>`).join("")
    + `<line x1="${LEFT}" x2="${W - PAD}" y1="${y(0.5)}" y2="${y(0.5)}" class="even"></line>`
    + `<path d="${line}"></path>${marks}</svg><figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

// -- the opponent has moved: a sound (if chosen) and the tab's title (if the tab is not seen) --
function setting(name) {
  const [key, fallback] = SETTINGS[name];
  const kept = localStorage.getItem(key);
  return kept === null ? fallback : kept === "1";
}

function settingBox(name, box) {
  box.checked = setting(name);
  box.addEventListener("change", () => {
    localStorage.setItem(SETTINGS[name][0], box.checked ? "1" : "0");
    if (name === "sound" && box.checked) beep();   // made by a click: the browser lets it play
  });
}

function signalTurn() {
  if (setting("sound")) beep();
  if (setting("title") && document.hidden && titleBefore === null) {
    titleBefore = document.title;
    document.title = `● ${t("Te toca")} · ${titleBefore}`;
  }
}

function titleSeen() {
  if (document.hidden || titleBefore === null) return;
  document.title = titleBefore;
  titleBefore = null;
}

function beep() {
  audio = audio || new AudioContext();
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.2, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.35);
}

// -- messages ------------------------------------------------------------------------------
// A lasting message above the game: the server's (notice), or a string of ours that follows the
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
  el.timer = setTimeout(hideToast, 5000);
}

function hideToast() {
  $("toast").classList.add("hidden");
}

// A question before what cannot be undone: resolves true if the player says yes.
function confirmAction(question, yes) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

// Another language: our strings at once, the server's with the next view (a new connection, as
// the server speaks to each in the language it opened with).
async function languageChanged() {
  if (state) render();
  if (socket) { const old = socket; connect(); old.close(); }
}

function listen() {
  $("play").addEventListener("click", playPlaced);
  $("recall").addEventListener("click", recall);
  $("shuffle").addEventListener("click", shuffle);
  $("pass").addEventListener("click", () => send("pass"));
  $("exchange").addEventListener("click", openExchange);
  $("exchange-do").addEventListener("click", doExchange);
  $("exchange-cancel").addEventListener("click", () => $("exchange-dialog").close());
  $("blank-cancel").addEventListener("click", () => $("blank-dialog").close());
  $("confirm-yes").addEventListener("click", () => $("confirm-dialog").close("yes"));
  $("confirm-no").addEventListener("click", () => $("confirm-dialog").close("no"));
  $("accept").addEventListener("click", () => send("accept"));
  $("challenge").addEventListener("click", () => send("challenge", { words: challengedWords() }));
  $("show-analysis").addEventListener("click", showAnalysis);
  $("resign").addEventListener("click", resign);
  $("abort").addEventListener("click", abortGame);
  $("rematch").addEventListener("click", rematch);
  $("toast").addEventListener("click", hideToast);
  $("handoff-ok").addEventListener("click", () => { holder = state.to_move; render(); });
  settingBox("sound", $("sound-setting"));
  settingBox("title", $("title-setting"));
  document.addEventListener("visibilitychange", titleSeen);
  document.addEventListener("keydown", keyPressed);
}

async function init() {
  await languageSelector(languageChanged);
  headerAccount();
  cells = buildBoard($("board-wrap"), squareClicked);
  listen();
  setInterval(tick, 250);
  start().catch(() => noticeText("Sin conexión con el servidor"));
}

async function start() {
  token = await seatToken();
  if (await load()) connect();
}

init();
