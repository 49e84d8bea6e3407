// «Mis partidas»: every game in play and finished, with the link that resumes it (or its
// replay). An account's come from the server, whatever device played them; a guest's from the
// seat tokens this browser keeps (atril-token-<id>), each game asked for its view.
"use strict";

const TOKEN_PREFIX = "atril-token-";
const $ = (id) => document.getElementById(id);
let games = [];

// The account's games, then those of this browser's tokens that the account does not hold.
async function gather() {
  const me = await account();
  const listed = me.name ? (await api("/api/mis-partidas")).games : [];
  const known = new Set(listed.map((g) => g.id));
  const kept = await Promise.all(keptTokens().filter(([id]) => !known.has(id)).map(([id, token]) => fromView(id, token)));
  return [...listed, ...kept.filter(Boolean)];
}

function keptTokens() {
  return Object.keys(localStorage).filter((key) => key.startsWith(TOKEN_PREFIX))
    .map((key) => [key.slice(TOKEN_PREFIX.length), localStorage.getItem(key)]).filter(([, token]) => token);
}

// A game as the list shows it, from its seat's view; a game that no longer exists is forgotten.
async function fromView(id, token) {
  let view;
  try {
    view = await api(`/api/partidas/${id}?t=${encodeURIComponent(token)}`);
  } catch (err) {
    if (err.status === 404) localStorage.removeItem(TOKEN_PREFIX + id);
    return null;
  }
  const names = view.players.map((p) => p.name);
  const alone = typeof view.seat !== "number";   // one device: both seats
  return {
    id, url: `/partida/${id}?t=${encodeURIComponent(token)}`, ruleset: view.ruleset,
    opponent: alone ? names.join(" – ") : names[1 - view.seat],
    over: Boolean(view.over), result: view.over ? viewResult(view, alone) : null,
    your_turn: !view.over && (view.can.play || view.can.accept), updated: null,
  };
}

function viewResult(view, alone) {
  if (view.over.winner === null) return "draw";
  if (alone) return null;
  return view.over.winner === view.seat ? "win" : "loss";
}

function render() {
  fill("playing", games.filter((g) => !g.over));
  fill("finished", games.filter((g) => g.over));
}

function fill(id, list) {
  const table = $(id);
  table.innerHTML = "";
  for (const game of list) table.appendChild(row(game));
  $(`none-${id}`).classList.toggle("hidden", list.length > 0);
}

function row(game) {
  const tr = document.createElement("tr");
  tr.innerHTML = "<td></td><td></td><td></td><td class=\"act\"></td>";
  tr.children[0].textContent = game.opponent;
  tr.children[1].textContent = game.ruleset;
  tr.children[2].textContent = stateText(game);
  if (game.your_turn) tr.classList.add("your-turn");
  const links = tr.children[3];
  links.append(link(game.url, game.over ? t("Ver") : t("Seguir jugando")));
  if (game.over) links.append(" ", link(`/partida/${game.id}/repeticion`, t("Repetición")));
  return tr;
}

function stateText(game) {
  if (!game.over) return game.your_turn ? t("te toca") : t("turno del rival");
  return game.result ? resultText(game.result) : t("terminada");
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

async function init() {
  await languageSelector(() => { render(); whose(); });
  headerAccount();
  try {
    games = await gather();
  } catch (err) {
    $("error").textContent = err.message;
  }
  games.sort((a, b) => Number(b.your_turn) - Number(a.your_turn) || (b.updated ?? 0) - (a.updated ?? 0));
  whose();
  render();
}

async function whose() {
  const me = await account();
  if (me.name) showText($("whose"), "Las partidas de tu cuenta, y las que este navegador guarda.");
  else showText($("whose"), "Las partidas que este navegador guarda. Con una cuenta las verías desde cualquier dispositivo.");
}

init();
