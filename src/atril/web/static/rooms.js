// The duplicate entrance: a player joins a room with its code (a guest gives a name; the token
// the server answers with is kept in this browser), and a director opens a room.
"use strict";

const $ = (id) => document.getElementById(id);

function number(value) {
  return value === "" ? null : Number(value);
}

async function join(event) {
  event.preventDefault();
  const form = $("join-form");
  $("join-error").textContent = "";
  try {
    const joined = await api("/api/duplicadas/unirse", { json: { code: form.code.value.trim(), name: form.name.value } });
    if (joined.token) localStorage.setItem(`atril-sala-${joined.id}`, joined.token);
    location.href = joined.url;
  } catch (err) {
    $("join-error").textContent = err.message;
  }
}

async function create(event) {
  event.preventDefault();
  const form = $("create-form");
  $("create-error").textContent = "";
  try {
    const room = await api("/api/duplicadas", { json: {
      ruleset: form.ruleset.value, rounds: number(form.rounds.value), seconds: Number(form.seconds.value),
      auto_advance: number(form.auto_advance.value),
      bonuses: { master: Number(form.master.value), runner_up: Number(form.runner_up.value),
        cap: number(form.cap.value), min_players: number(form.min_players.value) } } });
    location.href = room.arbiter;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

async function start() {
  await i18nReady;
  languageSelector();
  headerAccount();
  const code = new URLSearchParams(location.search).get("codigo");
  if (code) $("join-form").code.value = code;
  $("join-form").addEventListener("submit", join);
  $("create-form").addEventListener("submit", create);
  const me = await account();
  if (me.name) document.querySelectorAll(".guest-only").forEach((el) => el.classList.add("hidden"));
  if (me.roles && me.roles.includes("director")) {
    const options = await api("/api/opciones");
    const select = $("create-form").ruleset;
    for (const r of options.rulesets) select.add(new Option(r.name, r.id, false, r.id === "FISE2009"));
    $("create-form").classList.remove("hidden");
  }
}

start();
