// A player's profile: the rating and its history (an SVG plot drawn here), the figures of their
// games, and the last games, each opening its replay.
"use strict";

const NAME = decodeURIComponent(location.pathname.split("/").pop());
const SVG = "http://www.w3.org/2000/svg";
const PLOT = { height: 240, left: 48, right: 12, top: 12, bottom: 28 };
const $ = (id) => document.getElementById(id);
let player = null;

function render() {
  $("name").textContent = player.name;
  $("rating").textContent = `${Math.round(player.rating)} Elo` + (player.provisional ? ` · ${t("provisional")}` : "");
  renderFigures();
  renderPlot();
  renderGames();
}

function renderFigures() {
  const best = player.best_play;
  const figures = [
    [t("Partidas"), player.games],
    [t("Puntuables"), player.rated_games],
    [t("Ganadas"), player.wins],
    [t("Empatadas"), player.draws],
    [t("Perdidas"), player.losses],
    [t("Puntos de media"), number(player.average_score)],
    [t("Scrabbles por partida"), number(player.scrabbles_per_game, 2)],
    [t("Mejor jugada"), best ? `${best.notation} (${best.score})` : "—"],
  ];
  const list = $("figures");
  list.innerHTML = "";
  for (const [label, value] of figures) {
    const item = document.createElement("div");
    item.innerHTML = "<dt></dt><dd></dd>";
    item.firstChild.textContent = label;
    item.lastChild.textContent = value;
    list.appendChild(item);
  }
  if (best) {
    const replay = document.createElement("a");
    replay.href = `/partida/${best.game}/repeticion`;
    replay.textContent = best.notation;
    const dd = list.lastChild.lastChild;
    dd.textContent = "";
    dd.append(replay, ` (${best.score})`);
  }
}

function number(value, digits = 0) {
  return value === null || value === undefined ? "—" : value.toLocaleString(LANG, { maximumFractionDigits: digits });
}

// -- the rating after each rated game, one point per game, left to right ---------------------
function renderPlot() {
  const svg = $("plot");
  svg.replaceChildren();
  const width = Math.round(svg.getBoundingClientRect().width) || 640;  // drawn at its size: text stays legible
  svg.setAttribute("viewBox", `0 0 ${width} ${PLOT.height}`);
  const history = player.history;
  svg.classList.toggle("hidden", history.length === 0);
  $("no-history").classList.toggle("hidden", history.length > 0);
  if (!history.length) return;
  const ratings = history.map((h) => h.rating);
  const low = Math.floor((Math.min(...ratings) - 10) / 10) * 10;
  const high = Math.ceil((Math.max(...ratings) + 10) / 10) * 10;
  const x = (i) => PLOT.left + (history.length === 1 ? 0.5 : i / (history.length - 1)) * (width - PLOT.left - PLOT.right);
  const y = (r) => PLOT.top + (high - r) / (high - low) * (PLOT.height - PLOT.top - PLOT.bottom);
  for (const r of [low, Math.round((low + high) / 2), high]) {
    svg.append(shape("line", { x1: PLOT.left, x2: width - PLOT.right, y1: y(r), y2: y(r), class: "grid" }),
      label(PLOT.left - 6, y(r) + 4, r, "axis end"));
  }
  svg.append(label(PLOT.left, PLOT.height - 8, day(history[0].at), "axis"),
    label(width - PLOT.right, PLOT.height - 8, day(history[history.length - 1].at), "axis end"));
  svg.append(shape("polyline", { points: history.map((h, i) => `${x(i)},${y(h.rating)}`).join(" "), class: "line" }));
  history.forEach((h, i) => {
    const link = shape("a", { href: `/partida/${h.game}/repeticion` });
    const dot = shape("circle", { cx: x(i), cy: y(h.rating), r: 4, class: "dot" });
    const title = shape("title", {});
    title.textContent = `${day(h.at)}: ${Math.round(h.rating)}`;
    dot.append(title);
    link.append(dot);
    svg.append(link);
  });
}

function shape(tag, attributes) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  return el;
}

function label(x, y, text, className) {
  const el = shape("text", { x, y, class: className });
  el.textContent = text;
  return el;
}

function day(at, style = {}) {
  return new Date(at * 1000).toLocaleDateString(LANG, style);
}

// -- the last games ---------------------------------------------------------------------------
function renderGames() {
  const table = $("last-games");
  table.innerHTML = "";
  for (const game of player.last_games) table.appendChild(gameRow(game));
  $("no-games").classList.toggle("hidden", player.last_games.length > 0);
}

function gameRow(game) {
  const tr = document.createElement("tr");
  tr.innerHTML = "<td></td><td></td><td class=\"num\"></td><td class=\"num\"></td><td class=\"act\"><a></a></td>";
  tr.children[0].textContent = t("contra {name}", { name: game.opponent });
  tr.children[1].textContent = resultText(game.result);
  tr.children[2].textContent = `${game.score} – ${game.opponent_score}`;
  tr.children[3].textContent = day(game.at, { day: "numeric", month: "short" });
  const replay = tr.children[4].firstChild;
  replay.href = `/partida/${game.id}/repeticion`;
  replay.textContent = t("Repetición");
  return tr;
}

async function init() {
  await languageSelector(() => { if (player) render(); });
  headerAccount();
  try {
    player = await api(`/api/jugadores/${encodeURIComponent(NAME)}`);
  } catch (err) {
    $("notice").textContent = err.message;
    $("notice").classList.remove("hidden");
    $("profile").classList.add("hidden");
    return;
  }
  document.title = `${player.name} — atril`;
  render();
  window.addEventListener("resize", renderPlot);
}

init();
