// The lobby: options for a new game, an optional word-list upload, then the game or the invitation.
"use strict";

const form = document.getElementById("new-game");
const errorBox = document.getElementById("lobby-error");

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error + (data.article ? ` (art. ${data.article})` : ""));
  return data;
}

// The items of a select, keeping what was chosen (else `fallback`).
function fill(select, items, fallback = "") {
  const chosen = select.value || fallback;
  select.innerHTML = "";
  for (const item of items) select.add(new Option(item.name, item.id));
  if (chosen) select.value = chosen;
}

function modeChanged() {
  const mode = form.mode.value;
  document.getElementById("level-field").classList.toggle("hidden", mode !== "computer");
  document.getElementById("name1-field").classList.toggle("hidden", mode === "computer");
}

async function create(event) {
  event.preventDefault();
  errorBox.textContent = "";
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    let lexicon = form.lexicon.value;
    const file = form.wordlist.files[0];
    if (file) {
      const uploaded = await api(`/api/lexicos?nombre=${encodeURIComponent(file.name)}`, {
        method: "POST", body: await file.arrayBuffer(),
        headers: { "Content-Type": "application/octet-stream" } });
      lexicon = uploaded.id;
    }
    const options = {
      mode: form.mode.value, level: form.level.value, ruleset: form.ruleset.value,
      minutes: Number(form.minutes.value) || 0, clock_mode: form.clock_mode.value,
      game_minutes: Number(form.game_minutes.value) || 0,
      timer: form.timer.checked, challenge: form.challenge.value, lexicon,
      names: [form.name0.value, form.name1.value],
    };
    const game = await api("/api/partidas", { method: "POST", body: JSON.stringify(options),
      headers: { "Content-Type": "application/json" } });
    if (game.invite) {
      const invite = new URL(game.invite, location.href).href;
      localStorage.setItem(`atril-invite-${game.id}`, invite);
      const link = document.getElementById("invite-link");
      link.href = invite; link.textContent = invite;
      document.getElementById("own-link").href = game.url;
      document.getElementById("invite").classList.remove("hidden");
      form.classList.add("hidden");
    } else {
      location.href = game.url;
    }
  } catch (err) {
    errorBox.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

// The lobby's choices, named by the server in the page's language.
async function loadOptions() {
  const options = await api("/api/opciones");
  fill(form.level, options.levels, options.default_level);
  fill(form.ruleset, options.rulesets, "FISE2009");
  rulesets = Object.fromEntries(options.rulesets.map((r) => [r.id, r]));
  fill(form.lexicon, options.lexicons, rulesets[form.ruleset.value]?.lexicon);
  rulesetChanged();
  lexiconChanged();
}

// A new choice of rules brings the word list they play on this server.
function rulesetPicked() {
  const ruleset = rulesets[form.ruleset.value];
  if (ruleset) form.lexicon.value = ruleset.lexicon;
  lexiconChanged();
}

// Said plainly when the rules' text names another word list than the bundled one chosen.
function lexiconChanged() {
  const ruleset = rulesets[form.ruleset.value] || {};
  const text = form.wordlist.files.length ? "" : (ruleset.lexicon_notes || {})[form.lexicon.value];
  const note = document.getElementById("lexicon-note");
  note.textContent = text || "";
  note.classList.toggle("hidden", !text);
}

// What a player should know of the chosen rules; trying words (VOID) only in a casual game.
let rulesets = {};
function rulesetChanged() {
  const ruleset = rulesets[form.ruleset.value] || {};
  const note = document.getElementById("ruleset-note");
  note.textContent = ruleset.note || "";
  note.classList.toggle("hidden", !ruleset.note);
  const voidOption = form.challenge.querySelector("option[value=void]");
  voidOption.disabled = !ruleset.casual;
  if (!ruleset.casual) form.challenge.value = "single";
}

async function init() {
  await i18nReady;
  const lang = document.getElementById("lang");
  lang.value = LANG;
  lang.addEventListener("change", async () => { await setLang(lang.value); await loadOptions(); });
  form.addEventListener("submit", create);
  form.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", modeChanged));
  form.ruleset.addEventListener("change", rulesetChanged);
  form.ruleset.addEventListener("change", rulesetPicked);
  form.lexicon.addEventListener("change", lexiconChanged);
  form.wordlist.addEventListener("change", lexiconChanged);
  document.getElementById("copy").addEventListener("click", async () => {
    await navigator.clipboard.writeText(document.getElementById("invite-link").href).catch(() => {});
    showText(document.getElementById("copy"), "Enlace copiado");
  });
  modeChanged();
  await loadOptions();
}

init().catch((err) => { errorBox.textContent = err.message; });
