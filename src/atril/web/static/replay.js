// The replay of a finished game, read-only and shareable: the board after each turn (the
// position is the address's #N), moved with the arrow keys or the buttons; beside it the
// mover's rack and play, the analysis of that turn, and the planilla (a row opens its turn).
"use strict";

const GAME_ID = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);

let game = null;       // the replay: {players, ruleset, lexicon, result, turns, final}
let names = [];        // the players' names
let layout = null;     // premiums and tile values, from the game's view
let analysis = null;   // the analysis's turns, once it comes (null: not yet; an Error: none)
let cells = [];
let position = 0;      // turns made: 0 is the empty board, turns.length the end

function go(to) {
  position = Math.max(0, Math.min(game.turns.length, to));
  history.replaceState(null, "", `#${position}`);
  render();
}

function render() {
  const turn = game.turns[position - 1] || null;
  renderBoard(turn);
  renderPlayers(turn);
  renderTurn(turn);
  renderAnalysis(turn);
  renderSheet();
  $("position").textContent = t("Turno {n} de {total}", { n: position, total: game.turns.length });
  $("back").disabled = $("first").disabled = position === 0;
  $("forward").disabled = $("last").disabled = position === game.turns.length;
}

function renderBoard(turn) {
  const board = turn ? turn.board : [];
  const placed = new Set(turn ? turn.placed.map(([name]) => squareIndex(name)) : []);
  cells.forEach((cell, sq) => {
    const tile = drawSquare(cell, sq, layout.premiums[sq], board[sq], layout.values);
    if (tile && placed.has(sq)) tile.classList.add("last");
  });
}

// The scores after this turn; at the end, the final ones (after the adjustments), the winner marked.
function renderPlayers(turn) {
  const atEnd = position === game.turns.length;
  const scores = atEnd ? game.final : (turn ? turn.scores : [0, 0]);
  const box = $("players");
  box.innerHTML = "";
  names.forEach((name, i) => {
    const el = document.createElement("div");
    el.className = "player" + (turn && turn.player === i ? " to-move" : "") + (atEnd && game.result.winner === i ? " winner" : "");
    el.innerHTML = `<span class="name"></span><span class="score">${scores[i]}</span>`;
    el.querySelector(".name").textContent = name;
    box.appendChild(el);
  });
}

// Who moved, with what rack (digraphs as one tile each), and what they did.
function renderTurn(turn) {
  const rack = $("rack");
  rack.innerHTML = "";
  if (!turn) {
    $("turn-text").textContent = t("Posición inicial: pulsa → para ver el primer turno.");
    return;
  }
  for (const letter of turn.rack) rack.appendChild(tileElement(letter, layout.values));
  $("turn-text").textContent = `${turn.n}. ${names[turn.player]}: ${turnText(turn)}`;
}

function turnText(turn) {
  if (turn.type === "pass") return t("pasa");
  if (turn.type === "exchange") return t("cambia {tiles}", { tiles: exchanged(turn) });
  if (turn.type === "withdrawn") return `${turn.notation} — ${t("impugnada: jugada no válida")}`;
  if (turn.pending) return `${turn.notation} (${turn.score}) — ${t("sin aceptar: la partida terminó antes")}`;
  return `${turn.notation} (${turn.points})` + (isScrabble(turn.notation) ? ` — ${t("scrabble")}` : "")
    + (turn.challenged ? ` — ${t("impugnada: jugada correcta")}` : "");
}

// The tiles of an exchange as the record writes them: `AE[LL]` (a digraph tile in brackets).
function exchanged(turn) {
  return turn.notation.split(" ")[1];
}

function renderAnalysis(turn) {
  const box = $("analysis");
  if (!turn) { box.textContent = ""; return; }
  if (analysis === null) { showText(box, "Analizando la partida…"); return; }
  if (analysis instanceof Error) { box.textContent = analysis.message; return; }
  const found = analysis.find((entry) => entry.n === turn.n);
  const best = found ? found.best.map((b) => `<li>${escapeHtml(b.move)} (${b.score}`
    + (b.equity !== b.score ? `; ${t("valor")} ${b.equity}` : "") + ")</li>").join("") : "";
  const missed = found ? found.missed_scrabbles.map((b) => `<li>${escapeHtml(b.move)} (${b.score})</li>`).join("") : "";
  box.innerHTML = `<p><b>${t("Mejores jugadas")}:</b></p>` + (best ? `<ol>${best}</ol>` : "<p>—</p>")
    + (missed ? `<p><b>${t("Scrabbles perdidos")}:</b></p><ul>${missed}</ul>` : "");
}

// The planilla: every turn, its points (P, I, C-x as written by hand) and both totals.
function renderSheet() {
  const sheet = $("sheet");
  sheet.innerHTML = `<tr><th>#</th><th>${t("Jugada")}</th><th class="num">${t("Puntos")}</th>`
    + `<th class="num">${escapeHtml(names[0])}</th><th class="num">${escapeHtml(names[1])}</th></tr>`;
  for (const turn of game.turns) sheet.appendChild(sheetRow(turn));
  const current = sheet.querySelector("tr.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

const MARKS = { pass: () => "P", withdrawn: () => "I",
  exchange: (turn) => `C-${exchanged(turn).replace(/\[[^\]]*\]/g, "1").length}` };

function sheetRow(turn) {
  const tr = document.createElement("tr");
  tr.className = turn.n === position ? "current" : "";
  tr.innerHTML = `<td>${turn.n}</td><td></td><td class="num"></td><td class="num">${turn.scores[0]}</td><td class="num">${turn.scores[1]}</td>`;
  tr.children[1].textContent = turn.type === "pass" ? names[turn.player] : `${names[turn.player]}: ${turn.notation}`;
  tr.children[2].textContent = MARKS[turn.type] ? MARKS[turn.type](turn) : turn.points;
  if (turn.type === "play" && isScrabble(turn.notation)) {
    tr.classList.add("scrabble");
    tr.children[1].insertAdjacentHTML("beforeend", ` <span class="badge">${t("scrabble")}</span>`);
  }
  tr.addEventListener("click", () => go(turn.n));
  return tr;
}

function renderResult() {
  const result = game.result;
  const winner = result.winner === null ? t("empate") : t("gana {name}", { name: names[result.winner] });
  $("result").innerHTML = `<b>${t("Resultado")}:</b> ${escapeHtml(names[0])} ${game.final[0]} – `
    + `${escapeHtml(names[1])} ${game.final[1]}, ${escapeHtml(winner)} (${escapeHtml(result.text)})`;
}

function keyPressed(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const to = { ArrowLeft: position - 1, ArrowRight: position + 1, Home: 0, End: game.turns.length }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  go(to);
}

function listen() {
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(position - 1));
  $("forward").addEventListener("click", () => go(position + 1));
  $("last").addEventListener("click", () => go(game.turns.length));
  $("share").addEventListener("click", async () => {
    await navigator.clipboard.writeText(location.href).catch(() => {});
    showText($("share"), "Enlace copiado");
  });
  document.addEventListener("keydown", keyPressed);
}

async function loadAnalysis() {
  try {
    analysis = (await api(`/api/partidas/${GAME_ID}/analisis`)).turns;
  } catch (err) {
    analysis = err;
  }
  render();
}

async function init() {
  await languageSelector(() => { if (game) { renderResult(); render(); } });
  headerAccount();
  cells = buildBoard($("board-wrap"));
  try {
    const [replay, view] = await Promise.all([api(`/api/partidas/${GAME_ID}/repeticion`), api(`/api/partidas/${GAME_ID}`)]);
    game = replay;
    names = replay.players.map((p) => p.name);
    layout = { premiums: view.premiums, values: view.values };
  } catch (err) {
    $("notice").textContent = err.message;
    $("notice").classList.remove("hidden");
    $("replay").classList.add("hidden");
    return;
  }
  $("to-game").href = `/partida/${GAME_ID}`;
  listen();
  renderResult();
  go(Number(location.hash.slice(1)) || 0);
  loadAnalysis();
}

init();
