// The lobby: a new game (against the computer, a person invited by a link, two on one device,
// or a seek that anyone in the lobby may accept), the account box, the open seeks — this
// browser's own followed until someone accepts it — and the games being played now, to watch.
"use strict";

const form = document.getElementById("new-game");
const errorBox = document.getElementById("lobby-error");
const SEEK_KEY = "atril-busqueda";  // this browser's open seek: {id, key, seek}
const LISTS_EVERY = 5000;           // ms between readings of the seeks and the games in play
const FOLLOW_EVERY = 2000;          // ms between looks at this browser's own seek
const $ = (id) => document.getElementById(id);

let rulesets = {};
let me = { name: null };
let following = null;               // the timer that looks at this browser's seek again

// -- a new game or a seek ------------------------------------------------------------------
// The items of a select, keeping what was chosen (else `fallback`).
function fill(select, items, fallback = "") {
  const chosen = select.value || fallback;
  select.innerHTML = "";
  for (const item of items) select.add(new Option(item.name, item.id));
  if (chosen) select.value = chosen;
}

// Only the fields that apply to the kind of game chosen (data-modes names the kinds).
function modeChanged() {
  const mode = form.mode.value;
  form.querySelectorAll("[data-modes]").forEach((el) =>
    el.classList.toggle("hidden", !el.dataset.modes.split(" ").includes(mode)));
  if (mode === "seek") showText($("create"), "Buscar rival");
  else showText($("create"), "Crear partida");
}

async function create(event) {
  event.preventDefault();
  errorBox.textContent = "";
  const button = $("create");
  button.disabled = true;
  try {
    const lexicon = await chosenLexicon();
    if (form.mode.value === "seek") await seek(lexicon);
    else await newGame(lexicon);
  } catch (err) {
    errorBox.textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

// The lexicon chosen, or the word list chosen to upload (then its new id).
async function chosenLexicon() {
  const file = form.wordlist.files[0];
  if (!file) return form.lexicon.value;
  const uploaded = await api(`/api/lexicos?nombre=${encodeURIComponent(file.name)}`,
    { body: await file.arrayBuffer(), type: "application/octet-stream" });
  return uploaded.id;
}

function rated() {
  return Boolean(me.name) && form.rated.checked;
}

async function newGame(lexicon) {
  const mode = form.mode.value;
  const options = {
    mode, level: form.level.value, ruleset: form.ruleset.value,
    minutes: Number(form.minutes.value) || 0, clock_mode: form.clock_mode.value,
    game_minutes: Number(form.game_minutes.value) || 0,
    timer: form.timer.checked, challenge: form.challenge.value, lexicon,
    names: [form.name0.value, form.name1.value],
    ...(mode === "remote" && rated() ? { rated: true } : {}),
  };
  const game = await api("/api/partidas", { json: options });
  if (!game.invite) { location.href = game.url; return; }
  const invite = new URL(game.invite, location.href).href;
  localStorage.setItem(`atril-invite-${game.id}`, invite);
  const link = $("invite-link");
  link.href = invite; link.textContent = invite;
  $("own-link").href = game.url;
  $("invite").classList.remove("hidden");
  form.classList.add("hidden");
}

async function seek(lexicon) {
  const wanted = {
    minutes: Number(form.minutes.value) || 0, clock_mode: form.clock_mode.value,
    ruleset: form.ruleset.value, rated: rated(), lexicon,
  };
  const made = await api("/api/busquedas", { json: { ...wanted, name: form.name0.value } });
  localStorage.setItem(SEEK_KEY, JSON.stringify({ id: made.id, key: made.key, seek: wanted }));
  followSeek();
  listSeeks();
}

// «15 min corrido · FISE2009 · puntuable»
function seekText(seek) {
  const clock = seek.minutes ? `${seek.minutes} min${seek.clock_mode ? ` ${t(seek.clock_mode)}` : ""}` : t("sin reloj");
  return [clock, seek.ruleset, seek.rated ? t("puntuable") : t("no puntuable")].join(" · ");
}

// -- this browser's seek: looked at until someone accepts it (then its game opens) ----------
function ownSeek() {
  return JSON.parse(localStorage.getItem(SEEK_KEY) || "null");
}

async function followSeek() {
  clearTimeout(following);
  const mine = ownSeek();
  $("my-seek").classList.toggle("hidden", !mine);
  if (!mine) return;
  $("my-seek-text").textContent = seekText(mine.seek);
  try {
    const found = await api(`/api/busquedas/${mine.id}?key=${encodeURIComponent(mine.key)}`);
    if (found.status === "accepted") {
      localStorage.removeItem(SEEK_KEY);
      location.href = found.url;
      return;
    }
  } catch (err) {
    if (err.status === 404) { forgetSeek(); return; }  // expired, or cancelled elsewhere
  }
  following = setTimeout(followSeek, FOLLOW_EVERY);
}

function forgetSeek() {
  clearTimeout(following);
  localStorage.removeItem(SEEK_KEY);
  $("my-seek").classList.add("hidden");
}

async function cancelSeek() {
  const mine = ownSeek();
  forgetSeek();
  if (mine) await api(`/api/busquedas/${mine.id}?key=${encodeURIComponent(mine.key)}`, { method: "DELETE" }).catch(() => {});
  listSeeks();
}

// -- the lists: open seeks, and the games between people being played now ---------------------
async function listSeeks() {
  const mine = ownSeek();   // a guest's own seek is known by its key
  const { seeks } = await api(mine ? `/api/busquedas?key=${encodeURIComponent(mine.key)}` : "/api/busquedas");
  const others = seeks.filter((open) => !mine || open.id !== mine.id);  // this one is shown above
  const table = $("seeks");
  table.innerHTML = "";
  for (const open of others) table.appendChild(seekRow(open));
  $("no-seeks").classList.toggle("hidden", others.length > 0 || Boolean(mine));
}

function seekRow(open) {
  const tr = document.createElement("tr");
  tr.innerHTML = "<td></td><td></td><td class=\"act\"></td>";
  tr.children[0].textContent = open.rating === null ? open.name : `${open.name} (${Math.round(open.rating)})`;
  tr.children[1].textContent = seekText(open);
  if (open.mine) {
    tr.children[2].textContent = t("tu búsqueda");
    return tr;
  }
  const button = document.createElement("button");
  button.textContent = t("Aceptar");
  button.className = "primary accept-seek";
  if (open.rated && !me.name) {
    button.disabled = true;
    button.title = t("Entra con tu cuenta para jugar una partida puntuable");
  }
  button.addEventListener("click", () => acceptSeek(open.id));
  tr.children[2].appendChild(button);
  return tr;
}

async function acceptSeek(id) {
  $("seek-error").textContent = "";
  try {
    location.href = (await api(`/api/busquedas/${id}/aceptar`, { json: { name: form.name0.value } })).url;
  } catch (err) {
    $("seek-error").textContent = err.message;
    listSeeks();
  }
}

async function listLive() {
  const { games } = await api("/api/en-juego");
  const table = $("live");
  table.innerHTML = "";
  for (const game of games) {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td><td class=\"act\"><a></a></td>";
    tr.children[0].textContent = `${game.players[0]} ${game.scores[0]} – ${game.players[1]} ${game.scores[1]}`;
    tr.children[1].textContent = `${game.ruleset} · ${tn("{n} turno", "{n} turnos", game.turns)}`;
    const watch = tr.querySelector("a");
    watch.href = `/partida/${game.id}`;
    watch.textContent = t("Mirar");
    table.appendChild(tr);
  }
  $("no-live").classList.toggle("hidden", games.length > 0);
}

async function refreshLists() {
  try {
    await Promise.all([listSeeks(), listLive()]);
  } catch (err) {
    $("seek-error").textContent = err.message;
  }
}

// -- the account box -------------------------------------------------------------------------
async function showAccount() {
  me = await account();
  document.body.classList.toggle("member", Boolean(me.name));
  $("guest-box").classList.toggle("hidden", Boolean(me.name));
  $("member-box").classList.toggle("hidden", !me.name);
  headerAccount();
  if (!me.name) {
    $("login-details").open = $("login-details").open || location.hash === "#cuenta";
    return;
  }
  $("me-link").textContent = me.name;
  $("me-link").href = $("profile-link").href = profileUrl(me.name);
  $("me-rating").textContent = ratingText(me.rating);
  if (!form.name0.value) form.name0.value = me.name;
}

// «1812 Elo · 12 partidas puntuables · provisional»
function ratingText(rating) {
  return [`${Math.round(rating.rating)} Elo`, tn("{n} partida puntuable", "{n} partidas puntuables", rating.games),
    ...(rating.provisional ? [t("provisional")] : [])].join(" · ");
}

// Log in (or sign up): the server sets the session cookie; the page asks again who is here.
async function enter(path) {
  const fields = $("login-form");
  if (!fields.reportValidity()) return;
  $("login-error").textContent = "";
  try {
    await api(path, { json: { name: fields.user.value, password: fields.password.value } });
    fields.reset();
    await account(true);
    await showAccount();
    await refreshLists();
  } catch (err) {
    $("login-error").textContent = err.message;
  }
}

async function logout() {
  await api("/api/cuenta/salir", { json: {} }).catch(() => {});
  await account(true);
  form.name0.value = "";
  await showAccount();
  await refreshLists();
}

async function changePassword(event) {
  event.preventDefault();
  const fields = $("password-form");
  const said = $("password-said");
  try {
    await api("/api/cuenta/clave", { json: { old: fields.old.value, new: fields.new.value } });
    fields.reset();
    said.classList.remove("error");
    showText(said, "Contraseña cambiada");
  } catch (err) {
    said.classList.add("error");
    delete said.dataset.i18n;
    said.textContent = err.message;
  }
}

// -- the lobby's choices, named by the server in the page's language ------------------------
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
  const note = $("lexicon-note");
  note.textContent = text || "";
  note.classList.toggle("hidden", !text);
}

// What a player should know of the chosen rules; trying words (VOID) only in a casual game.
function rulesetChanged() {
  const ruleset = rulesets[form.ruleset.value] || {};
  const note = $("ruleset-note");
  note.textContent = ruleset.note || "";
  note.classList.toggle("hidden", !ruleset.note);
  const voidOption = form.challenge.querySelector("option[value=void]");
  voidOption.disabled = !ruleset.casual;
  if (!ruleset.casual) form.challenge.value = "single";
}

function listen() {
  form.addEventListener("submit", create);
  form.querySelectorAll("input[name=mode]").forEach((r) => r.addEventListener("change", modeChanged));
  form.ruleset.addEventListener("change", rulesetChanged);
  form.ruleset.addEventListener("change", rulesetPicked);
  form.lexicon.addEventListener("change", lexiconChanged);
  form.wordlist.addEventListener("change", lexiconChanged);
  $("copy").addEventListener("click", async () => {
    await navigator.clipboard.writeText($("invite-link").href).catch(() => {});
    showText($("copy"), "Enlace copiado");
  });
  $("login-form").addEventListener("submit", (event) => { event.preventDefault(); enter("/api/cuenta/entrar"); });
  $("signup").addEventListener("click", () => enter("/api/cuenta/alta"));
  $("logout").addEventListener("click", logout);
  $("password-form").addEventListener("submit", changePassword);
  $("cancel-seek").addEventListener("click", cancelSeek);
}

async function init() {
  await languageSelector(async () => { await loadOptions(); await showAccount(); await refreshLists(); });
  listen();
  modeChanged();
  await showAccount();
  await loadOptions();
  followSeek();
  await refreshLists();
  setInterval(refreshLists, LISTS_EVERY);
}

init().catch((err) => { errorBox.textContent = err.message; });
