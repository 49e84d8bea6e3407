// A tournament, for everyone: the pairings of each round, the standings with the tie-breaks
// and the crosstable, asked for again every few seconds (a finished online game posts its
// result on the server). The director sees the controls to enter players, pair the next round
// and enter or correct any result; a player sees their own game and signs its result (art. 44).
"use strict";

const TID = location.pathname.split("/")[2];
const POLL_MS = 3000;
const $ = (id) => document.getElementById(id);
let event = null;       // the server's view of the tournament
let shownRound = null;  // the round whose pairings are shown (null: the last)
const drafts = {};      // the director's scores typed and not yet saved, by "round:table"

const playerName = (n) => (event.players[n - 1] || { name: "?" }).name;
const cardUrl = (n) => `/torneos/${TID}/jugador/${n}`;

function cell(tr, text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (text instanceof Node) td.appendChild(text); else td.textContent = text ?? "";
  tr.appendChild(td);
  return td;
}

function head(table, labels, numeric = []) {
  const tr = document.createElement("tr");
  labels.forEach((label, i) => {
    const th = document.createElement("th");
    th.textContent = label;
    if (numeric.includes(i)) th.className = "num";
    tr.appendChild(th);
  });
  table.appendChild(tr);
}

function playerLink(n) {
  const a = document.createElement("a");
  a.href = cardUrl(n);
  a.textContent = playerName(n);
  return a;
}

function number(x) {
  return typeof x === "number" ? x.toLocaleString(LANG, { maximumFractionDigits: 1 }) : "—";
}

function signed(x) {
  return x > 0 ? `+${x}` : String(x);
}

function systemText(system) {
  return { suizo: t("suizo"), todos: t("todos contra todos"), rey: t("rey de la pista"),
    gibson: t("rey de la pista con la regla Gibson") }[system] || system;
}

function render() {
  document.title = `${event.name} — atril`;
  $("name").textContent = event.name;
  const planned = event.settings.rounds;
  $("subtitle").textContent = [
    t("dirige {name}", { name: event.director }),
    event.mode === "online" ? t("en línea") : t("en la sala"),
    systemText(event.settings.system),
    t("{n} rondas", { n: planned ?? "—" }),
  ].join(" · ");
  renderDirector();
  renderMine();
  renderPairings();
  renderStandings();
  renderCrosstable();
}

// -- the director ------------------------------------------------------------------------------
function renderDirector() {
  const box = $("director");
  box.classList.toggle("hidden", !event.you.director);
  if (!event.you.director) return;
  const planned = event.settings.rounds;
  const pair = $("pair");
  pair.disabled = planned !== null && event.next_round > planned;
  pair.textContent = pair.disabled ? t("Todas las rondas están emparejadas")
    : t("Emparejar la ronda {n}", { n: event.next_round });
  $("backup").href = `/api/torneos/${TID}/json`;
}

async function directorAction(path, body, said) {
  $("director-error").textContent = "";
  $("director-said").textContent = "";
  try {
    await api(`/api/torneos/${TID}/${path}`, { json: { ...body, version: event.version } });
    $("director-said").textContent = said;
  } catch (err) {
    $("director-error").textContent = err.message;
    await refresh(true);
    return false;
  }
  await refresh(true);
  return true;
}

async function addPlayer(e) {
  e.preventDefault();
  const form = $("add-form");
  const body = { name: form.name.value, account: form.account.value };
  if (form.rating.value !== "") body.rating = Number(form.rating.value);
  const name = form.name.value || form.account.value;
  if (await directorAction("jugadores", body, t("Inscrito: {name}", { name }))) {
    form.reset();
    form.name.focus();
  }
}

async function pairRound(e) {
  e.preventDefault();
  const n = event.next_round;
  const system = $("pair-form").system.value;
  if (await directorAction("rondas", system ? { system } : {}, t("Ronda {n} emparejada", { n }))) {
    shownRound = null;
    render();
  }
}

async function saveResult(round, game, row) {
  const forfeit = row.querySelector("select.forfeit").value;
  const [a, b] = row.querySelectorAll("input.score");
  let body;
  if (forfeit) {
    body = { round, forfeit: Number(forfeit) };
  } else {
    if (a.value === "" || b.value === "") {
      $("director-error").textContent = t("Escribe los puntos de los dos jugadores");
      return;
    }
    body = { round, a: game.players[0], score_a: Number(a.value), b: game.players[1], score_b: Number(b.value) };
  }
  const ok = await directorAction("resultado", body, t("Resultado anotado: ronda {round}, mesa {table}",
    { round, table: game.table }));
  if (ok) delete drafts[`${round}:${game.table}`];
  render();
}

// -- a player's own games ------------------------------------------------------------------------
function renderMine() {
  const me = event.you.player;
  $("mine").classList.toggle("hidden", !me);
  if (!me) return;
  const list = $("mine-list");
  list.innerHTML = "";
  for (const round of [...event.rounds].reverse()) {
    const game = round.games.find((g) => g.players.includes(me));
    if (!game) continue;
    const p = document.createElement("p");
    const other = game.players[0] === me ? game.players[1] : game.players[0];
    p.append(t("Ronda {round}, mesa {table}: contra {name}. ", { round: round.number, table: game.table, name: playerName(other) }));
    if (game.game && !game.done) {
      const link = document.createElement("a");
      link.href = `/partida/${game.game}`;
      link.className = "button primary play-link";
      link.textContent = t("Ir a la partida");
      p.append(link);
    } else if (game.done && !game.confirmed.includes(me)) {
      p.append(boardResult(round.number, game), " ");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "primary confirm";
      button.textContent = t("Confirmar el resultado");
      button.addEventListener("click", () => confirmResult(round.number));
      p.append(button);
    } else if (game.done) {
      p.append(boardResult(round.number, game), " ", t("(confirmado por ti)"));
    } else {
      p.append(t("Sin resultado aún."));
    }
    list.appendChild(p);
  }
}

async function confirmResult(round) {
  $("mine-error").textContent = "";
  try {
    await api(`/api/torneos/${TID}/confirmar`, { json: { round } });
  } catch (err) {
    $("mine-error").textContent = err.message;
  }
  await refresh(true);
}

// -- the pairings of a round -------------------------------------------------------------------
function boardResult(round, game) {
  if (game.forfeits.length) {
    return game.forfeits.map((n) => t("no presentado: {name}", { name: playerName(n) })).join(", ");
  }
  if (game.scores) return `${game.scores[0]} – ${game.scores[1]}`;
  return "";
}

function renderPairings() {
  const rounds = event.rounds;
  $("no-rounds").classList.toggle("hidden", rounds.length > 0);
  const nav = $("rounds-nav");
  nav.innerHTML = "";
  const current = shownRound ?? rounds.length;
  for (const round of rounds) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = t("Ronda {n}", { n: round.number });
    button.dataset.round = round.number;
    button.classList.toggle("current", round.number === current);
    button.addEventListener("click", () => { shownRound = round.number; renderPairings(); });
    nav.appendChild(button);
  }
  const table = $("pairings");
  table.innerHTML = "";
  const round = rounds[current - 1];
  if (!round) return;
  const director = event.you.director;
  head(table, [t("Mesa"), t("Sale"), t("Responde"), t("Resultado"), t("Firmas"), ""], [0]);
  for (const game of round.games) {
    const tr = document.createElement("tr");
    tr.dataset.table = game.table;
    cell(tr, game.table, "num");
    const first = cell(tr, playerLink(game.players[0]));
    if (game.starts === game.players[0]) first.classList.add("starts");
    cell(tr, playerLink(game.players[1]));
    cell(tr, game.done ? boardResult(round.number, game) : "—", "num result");
    cell(tr, signatures(game));
    const act = cell(tr, "", "act");
    if (game.game) {
      const link = document.createElement("a");
      link.href = `/partida/${game.game}`;
      link.textContent = game.done ? t("ver la partida") : t("mirar");
      act.appendChild(link);
    }
    table.appendChild(tr);
    if (director) table.appendChild(editor(round.number, game));
  }
  for (const bye of round.byes) {
    const tr = document.createElement("tr");
    cell(tr, "");
    cell(tr, playerLink(bye.player));
    cell(tr, bye.spread > 0 ? t("descansa (bye)") : t("ausente"));
    cell(tr, signed(bye.spread), "num");
    cell(tr, "");
    cell(tr, "");
    table.appendChild(tr);
  }
}

function signatures(game) {
  const span = document.createElement("span");
  if (!game.done) return span;
  if (game.confirmed.length === 2) {
    span.className = "signed";
    span.textContent = t("✔ firmado por los dos");
  } else if (game.confirmed.length === 1) {
    span.className = "unsigned";
    span.textContent = t("firmado por {name}", { name: playerName(game.confirmed[0]) });
  } else {
    span.className = "unsigned";
    span.textContent = t("sin firmar");
  }
  return span;
}

// The director's row under each game: the two scores, or who did not come, and «Anotar».
function editor(round, game) {
  const key = `${round}:${game.table}`;
  const draft = drafts[key] || {};
  const tr = document.createElement("tr");
  tr.className = "editor";
  tr.dataset.table = game.table;
  const td = document.createElement("td");
  td.colSpan = 6;
  const inputs = game.players.map((n, i) => {
    const input = document.createElement("input");
    input.type = "number";
    input.className = "score";
    input.setAttribute("aria-label", t("Puntos de {name}", { name: playerName(n) }));
    input.value = draft[i] ?? (game.scores ? game.scores[i] : "");
    input.addEventListener("input", () => { drafts[key] = { ...(drafts[key] || {}), [i]: input.value }; });
    return input;
  });
  const forfeit = document.createElement("select");
  forfeit.className = "forfeit";
  forfeit.add(new Option(t("los dos jugaron"), ""));
  for (const n of game.players) forfeit.add(new Option(t("no presentado: {name}", { name: playerName(n) }), n));
  const save = document.createElement("button");
  save.type = "button";
  save.className = "save";
  save.textContent = game.done ? t("Corregir") : t("Anotar");
  save.addEventListener("click", () => saveResult(round, game, tr));
  td.append(inputs[0], " – ", inputs[1], " ", forfeit, " ", save);
  tr.appendChild(td);
  return tr;
}

// -- standings and the crosstable ----------------------------------------------------------------
function renderStandings() {
  const table = $("standings");
  table.innerHTML = "";
  head(table, [t("Pos."), t("Jugador"), t("Victorias"), t("Derrotas"), t("Spread"), t("Mediana"),
    t("Buchholz"), t("S-B")], [0, 2, 3, 4, 5, 6, 7]);
  for (const row of event.standings) {
    const tr = document.createElement("tr");
    tr.dataset.player = row.number;
    cell(tr, row.rank, "num");
    cell(tr, playerLink(row.number), "name");
    cell(tr, number(row.wins), "num wins");
    cell(tr, number(row.losses), "num losses");
    cell(tr, signed(row.spread), "num spread");
    cell(tr, number(row.median_buchholz), "num");
    cell(tr, number(row.buchholz), "num");
    cell(tr, number(row.sonneborn_berger), "num");
    table.appendChild(tr);
  }
}

function renderCrosstable() {
  const table = $("crosstable");
  table.innerHTML = "";
  head(table, ["#", t("Jugador"), ...event.rounds.map((r) => t("R{n}", { n: r.number })), t("Victorias")]);
  for (const row of event.standings) {
    const tr = document.createElement("tr");
    cell(tr, row.number);
    cell(tr, playerLink(row.number));
    for (const entry of event.cards[row.number]) {
      const td = cell(tr, crossText(entry));
      if (entry.result === 1) td.className = "win";
      else if (entry.result === 0) td.className = "loss";
    }
    cell(tr, number(row.wins));
    table.appendChild(tr);
  }
}

/** A crosstable cell: the result letter, the spread and the opponent's number. */
function crossText(entry) {
  const letter = entry.result === 1 ? t("V") : entry.result === 0 ? t("D") : entry.result === 0.5 ? t("E") : "";
  if (entry.kind === "bye") return `${t("bye")} ${signed(entry.spread)}`;
  if (entry.kind === "absent") return `${t("ausente")} ${signed(entry.spread)}`;
  if (entry.kind === "none") return "·";
  const against = `#${entry.opponent}`;
  if (entry.kind === "pending") return `… ${against}`;
  if (entry.kind === "forfeit") return `${letter} ${t("NP")} ${against}`;
  return `${letter} ${signed(entry.spread)} ${against}`;
}

// -- keeping up ----------------------------------------------------------------------------------
async function refresh(force = false) {
  let fresh;
  try {
    fresh = await api(`/api/torneos/${TID}`);
  } catch (err) {
    if (!event) {
      $("notice").textContent = err.message;
      $("notice").classList.remove("hidden");
      $("event").classList.add("hidden");
    }
    return;
  }
  const typing = document.activeElement && document.activeElement.closest("#pairings, #add-form");
  if (event && fresh.version === event.version && !force) return;
  if (typing && !force) return;  // redrawn on the next poll, not under the director's fingers
  event = fresh;
  render();
}

async function init() {
  await languageSelector(() => { if (event) render(); });
  headerAccount();
  $("add-form").addEventListener("submit", addPlayer);
  $("pair-form").addEventListener("submit", pairRound);
  await refresh(true);
  setInterval(refresh, POLL_MS);
}

init();
