// A player's scorecard in a tournament: each round's opponent, who started, the scores, the
// result and the running wins and spread; kept up to date like the tournament's page.
"use strict";

const [, , TID, , NUMBER] = location.pathname.split("/");
const POLL_MS = 3000;
const $ = (id) => document.getElementById(id);
let event = null;

const signed = (x) => (x > 0 ? `+${x}` : String(x));
const number = (x) => (typeof x === "number" ? x.toLocaleString(LANG, { maximumFractionDigits: 1 }) : "—");

function kindText(entry) {
  if (entry.kind === "bye") return t("descansa (bye)");
  if (entry.kind === "absent") return t("ausente");
  if (entry.kind === "none") return t("no jugó");
  if (entry.kind === "pending") return t("en juego");
  if (entry.kind === "forfeit") return entry.result === 1 ? t("gana: no presentado el rival") : t("no presentado");
  return entry.result === 1 ? t("ganada") : entry.result === 0 ? t("perdida") : t("empate");
}

function render() {
  const player = event.players[Number(NUMBER) - 1];
  if (!player) {
    $("notice").textContent = t("No hay jugador número {n} en este torneo", { n: NUMBER });
    $("notice").classList.remove("hidden");
    return;
  }
  document.title = `${player.name} — ${event.name} — atril`;
  $("back").href = `/torneos/${TID}`;
  $("back").textContent = `← ${event.name}`;
  $("name").textContent = player.name;
  $("rating").textContent = player.rating ? `${player.rating}` : "";
  const standing = event.standings.find((s) => s.number === player.number);
  $("summary").textContent = t("Puesto {rank} · {wins} victorias · spread {spread}",
    { rank: standing.rank, wins: number(standing.wins), spread: signed(standing.spread) });
  const table = $("card");
  table.innerHTML = "";
  const labels = [t("Ronda"), t("Rival"), t("Sale"), t("Puntos"), t("Resultado"), t("Victorias"), t("Spread")];
  const tr = document.createElement("tr");
  labels.forEach((label) => { const th = document.createElement("th"); th.textContent = label; tr.appendChild(th); });
  table.appendChild(tr);
  const entries = event.cards[player.number];
  for (const entry of entries) {
    const row = document.createElement("tr");
    const add = (content, className) => {
      const td = document.createElement("td");
      if (className) td.className = className;
      if (content instanceof Node) td.appendChild(content); else td.textContent = content ?? "";
      row.appendChild(td);
    };
    add(entry.round, "num");
    if (entry.opponent) {
      const link = document.createElement("a");
      link.href = `/torneos/${TID}/jugador/${entry.opponent}`;
      link.textContent = event.players[entry.opponent - 1].name;
      add(link);
    } else {
      add("—");
    }
    add(entry.started === null ? "" : entry.started ? t("sí") : t("no"));
    add(entry.score === null ? "" : `${entry.score} – ${entry.opponent_score}`, "num");
    add(kindText(entry) + (entry.spread === null ? "" : ` (${signed(entry.spread)})`));
    add(number(entry.wins), "num");
    add(signed(entry.total_spread), "num");
    table.appendChild(row);
  }
  $("no-card").classList.toggle("hidden", entries.length > 0);
}

async function refresh() {
  try {
    const fresh = await api(`/api/torneos/${TID}`);
    if (event && fresh.version === event.version) return;
    event = fresh;
  } catch (err) {
    if (!event) {
      $("notice").textContent = err.message;
      $("notice").classList.remove("hidden");
      $("card-page").classList.add("hidden");
    }
    return;
  }
  render();
}

async function init() {
  await languageSelector(() => { if (event) render(); });
  headerAccount();
  await refresh();
  setInterval(refresh, POLL_MS);
}

init();
