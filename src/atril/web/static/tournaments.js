// The tournaments: the list (anyone), and the form a director creates one with. A venue event
// has its results typed in by the director; an online one creates each round's games on the
// server, with the rules and clock chosen here.
"use strict";

const $ = (id) => document.getElementById(id);
let listed = [];

function modeText(mode) {
  return mode === "online" ? t("en línea") : t("en la sala");
}

function render() {
  const table = $("tournaments");
  table.innerHTML = "";
  for (const item of listed) {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td><a></a></td><td></td><td></td><td class=\"num\"></td>";
    const link = tr.querySelector("a");
    link.href = `/torneos/${item.id}`;
    link.textContent = item.name;
    tr.children[1].textContent = modeText(item.mode);
    tr.children[2].textContent = t("dirige {name}", { name: item.director });
    tr.children[3].textContent = t("{players} jugadores · ronda {round} de {planned}",
      { players: item.players, round: item.rounds, planned: item.planned ?? "—" });
    table.appendChild(tr);
  }
  $("no-tournaments").classList.toggle("hidden", listed.length > 0);
}

async function load() {
  listed = (await api("/api/torneos")).tournaments;
  render();
}

async function setUpForm() {
  const me = await account();
  const form = $("create-form");
  if (!me.name || !me.roles.includes("director")) return;
  form.classList.remove("hidden");
  const options = await api("/api/opciones");
  for (const ruleset of options.rulesets) form.ruleset.add(new Option(ruleset.name, ruleset.id));
  for (const lexicon of options.lexicons) form.lexicon.add(new Option(lexicon.name, lexicon.id));
  form.ruleset.addEventListener("change", () => {
    const chosen = options.rulesets.find((r) => r.id === form.ruleset.value);
    if (chosen) form.lexicon.value = chosen.lexicon;
  });
  form.ruleset.dispatchEvent(new Event("change"));
  const online = () => form.querySelector(".online-only").classList.toggle("hidden", form.mode.value !== "online");
  form.querySelectorAll("input[name=mode]").forEach((radio) => radio.addEventListener("change", online));
  online();
  form.addEventListener("submit", create);
}

async function create(event) {
  event.preventDefault();
  const form = $("create-form");
  const number = (name) => Number(form[name].value);
  const body = {
    name: form.name.value, mode: form.mode.value, rounds: number("rounds"), system: form.system.value,
    king_rounds: number("king_rounds"), prizes: number("prizes"), bye_spread: number("bye_spread"),
  };
  if (body.mode === "online") {
    body.rated = form.rated.checked;
    body.game = { ruleset: form.ruleset.value, lexicon: form.lexicon.value, minutes: number("minutes"),
      clock_mode: form.clock_mode.value };
  }
  $("create-error").textContent = "";
  $("create").disabled = true;
  try {
    const made = await api("/api/torneos", { json: body });
    location.href = made.url;
  } catch (err) {
    $("create-error").textContent = err.message;
  } finally {
    $("create").disabled = false;
  }
}

async function init() {
  await languageSelector(render);
  headerAccount();
  await Promise.all([load(), setUpForm()]);
}

init();
