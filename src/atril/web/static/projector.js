// The projector of a duplicate room (/duplicada/{id}/pantalla), for a hall: the big board, the
// rack and the clock while a round is played (how many plays came in, never which), then the
// master move, the round's ranking and the standings. Read-only and public.
"use strict";

let shown = null;
let submitted = 0;

function onState(view) {
  roomState = view;
  submitted = view.submitted || 0;
  $("phase").textContent = phaseText(view);
  $("code").textContent = view.code;
  drawRoomBoard(view, view.phase === "playing" ? [] : (view.master ? view.master.squares : []));
  drawRack($("rack"), view.rack, view.values);
  if (shown !== view.version) { shown = view.version; startClock(view); }
  drawCount();
  const results = view.master && view.phase !== "playing";
  $("master-box").classList.toggle("hidden", !results);
  $("master").textContent = results ? masterText(view.master) : "";
  drawRanking($("ranking"), results ? view.ranking : []);
  $("ranking").classList.toggle("hidden", !results);
  $("standings-title").classList.toggle("hidden", !view.standings.length);
  drawStandings($("standings"), view.standings);
  $("standings").classList.toggle("hidden", !view.standings.length);
}

function drawCount() {
  const view = roomState;
  $("count").textContent = view.phase === "playing"
    ? t("{n} de {total} jugadas recibidas", { n: submitted, total: view.players_count })
    : tn("{n} jugador", "{n} jugadores", view.players_count);
}

function onOther(message) {
  if (message.type === "count" && roomState && message.round === roomState.round) {
    submitted = message.submitted;
    drawCount();
  }
}

async function start() {
  await i18nReady;
  languageSelector(() => roomState && onState(roomState));
  roomConnect({ rol: "pantalla" }, onState, onOther);
}

start();
