// The director's page of a duplicate room: the code and the link for the players, the rounds
// (start the next, close the open one now, end the game), the open round's master move with the
// override, the slips of players at the hall who write on paper and the corrections of any slip
// afterwards (the standings are computed again), the players and who has handed in, the record.
"use strict";

let shown = null;

async function act(body) {
  $("arbiter-error").textContent = "";
  try {
    onState(await api(`/api/duplicadas/${ROOM_ID}/arbitro`, { json: body }));
  } catch (err) {
    $("arbiter-error").textContent = err.message;
  }
}

function onState(view) {
  if (roomState && view.version < roomState.version) return;
  roomState = view;
  $("code").textContent = view.code;
  const link = `${location.origin}/duplicada/${ROOM_ID}`;
  $("join-link").textContent = link;
  $("join-link").href = link;
  $("phase").textContent = phaseText(view);
  drawRoomBoard(view, view.phase === "playing" ? [] : (view.master ? view.master.squares : []));
  drawRack($("rack"), view.rack, view.values);
  if (shown !== view.version) { shown = view.version; startClock(view); }
  $("next").disabled = view.phase === "playing" || view.phase === "over";
  $("close").disabled = view.phase !== "playing";
  $("stop").disabled = view.phase === "over";
  $("next").textContent = view.phase === "lobby" ? t("Empezar la partida") : t("Siguiente ronda");
  const master = view.master_now || view.master;
  $("master-now").textContent = master ? masterText(master) + (master.overridden ? ` (${t("elegida por el árbitro")})` : "") : "";
  $("override-form").classList.toggle("hidden", view.phase !== "playing");
  drawPlayers(view);
  drawStandings($("standings"), view.standings);
  drawRecord(view);
}

function drawPlayers(view) {
  const table = $("players");
  table.textContent = "";
  const select = $("slip-form").player;
  const chosen = select.value;
  select.textContent = "";
  for (const p of view.players) {
    const tr = document.createElement("tr");
    const kind = p.hall ? t("papel") : p.account ? t("cuenta") : t("invitado");
    const handed = view.phase === "playing" ? (p.submitted ? "✔" : "…") : "";
    tr.innerHTML = `<td>${escapeHtml(p.name)}</td><td>${escapeHtml(kind)}</td><td class="num">${handed}</td>`;
    table.appendChild(tr);
    select.add(new Option(p.name, String(p.player)));
  }
  if (chosen) select.value = chosen;
  if (!$("slip-form").round.dataset.touched) $("slip-form").round.value = String(Math.max(1, view.round));
}

function drawRecord(view) {
  const table = $("record");
  table.textContent = "";
  for (const r of view.record) {
    const tr = document.createElement("tr");
    const slips = r.slips.map((s) => `${escapeHtml(s.player)}: ${escapeHtml(s.text || "—")}${r.closed ? ` ${s.score}${s.bonus ? "+" + s.bonus : ""}` : ""}`).join(" · ");
    tr.innerHTML = `<td>${r.round}</td><td>${escapeHtml(r.rack)}</td><td>${escapeHtml(r.master.notation)} ${r.master.score}</td><td>${r.closed ? slips : escapeHtml(t("abierta"))}</td>`;
    table.appendChild(tr);
  }
}

function onOther(message) {
  if (message.type === "count" && roomState && roomState.phase === "playing" && message.round === roomState.round) {
    const handed = new Set(message.players);
    roomState.players.forEach((p) => { p.submitted = handed.has(p.player); });
    drawPlayers(roomState);
  }
}

async function start() {
  await i18nReady;
  languageSelector(() => roomState && onState(roomState));
  headerAccount();
  $("screen-link").href = `/duplicada/${ROOM_ID}/pantalla`;
  $("next").addEventListener("click", () => act({ action: "next" }));
  $("close").addEventListener("click", () => act({ action: "close" }));
  $("stop").addEventListener("click", () => { if (confirm(t("¿Terminar la partida ahora?"))) act({ action: "stop" }); });
  $("override-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act({ action: "override", move: event.target.move.value.trim() });
  });
  $("slip-form").round.addEventListener("input", (event) => { event.target.dataset.touched = "1"; });
  $("slip-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    act({ action: "slip", round: Number(form.round.value), player: Number(form.player.value),
      move: form.move.value.trim() || null, late: form.late.checked });
    form.move.value = "";
    form.late.checked = false;
  });
  $("hall-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act({ action: "add_player", name: event.target.name.value });
    event.target.name.value = "";
  });
  roomConnect({ rol: "arbitro" }, onState, onOther);
}

start();
