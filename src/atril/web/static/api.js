// Every page's talk with the server, in one place: JSON in and out, an error as an ApiError
// with the server's message (and article), and — when someone is logged in — the session's
// CSRF token on every state-changing request (X-CSRF-Token, from GET /api/cuenta). The session
// cookie itself is the server's business (HttpOnly). account() is who is logged in ({name: null}
// for a guest); headerAccount() shows it in the page's header, a link to their profile.
"use strict";

class ApiError extends Error {
  constructor(status, message, article = null) {
    super(article && !message.includes("art.") ? `${message} (art. ${article})` : message);
    this.status = status;
    this.article = article;
  }
}

let accountAsked = null;   // the promise of GET /api/cuenta, asked once per page (and after logging in or out)

/** Who is logged in: {name, roles, csrf, rating} or {name: null}. */
function account(again = false) {
  if (!accountAsked || again) accountAsked = api("/api/cuenta").catch(() => ({ name: null }));
  return accountAsked;
}

/** A request to the server: `json` is sent as the body of a POST (or `method`); `body` with
 * `type` sends raw bytes. Resolves to the answer's JSON (null for 204); rejects with ApiError,
 * status 0 when the server is out of reach. */
async function api(path, { method, json, body, type } = {}) {
  method = method || (json !== undefined || body !== undefined ? "POST" : "GET");
  const headers = {};
  if (method !== "GET") {
    if (body === undefined) { body = JSON.stringify(json ?? {}); type = "application/json"; }
    headers["Content-Type"] = type;
    const me = await account();
    if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body });
  } catch (err) {
    throw new ApiError(0, t("Sin conexión con el servidor"));
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(response.status, data.error || response.statusText, data.article);
  return data;
}

/** The header's account link: the player's name to their profile, or «Entrar» to the lobby. */
async function headerAccount() {
  const link = document.getElementById("account-link");
  if (!link) return;
  const me = await account();
  if (me.name) {
    delete link.dataset.i18n;
    link.textContent = me.name;
    link.href = profileUrl(me.name);
  } else {
    showText(link, "Entrar");
    link.href = "/#cuenta";
  }
}

function profileUrl(name) {
  return `/jugadores/${encodeURIComponent(name)}`;
}

/** A game's result for one player: won, lost or drawn. */
function resultText(result) {
  if (result === "win") return t("ganada");
  if (result === "loss") return t("perdida");
  return t("empate");
}

/** Text into HTML. */
function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** The language selector of the header; `changed` redraws what the page drew in the old one. */
async function languageSelector(changed = () => {}) {
  await i18nReady;
  const select = document.getElementById("lang");
  select.value = LANG;
  select.addEventListener("change", async () => { await setLang(select.value); await changed(); });
}
