// The pages' strings. Spanish is written in the code and the HTML: those are the msgids, and
// other languages come from the server (/i18n/<lang>.json), made from the gettext catalog of the
// server's own messages. t("…", {name}) translates and fills {name}; tn(one, many, n) picks the
// plural form; showText(element, "…") shows a string that follows later changes of language.
// An element marked data-i18n shows its Spanish text in the current language, and
// data-i18n-attr="aria-label placeholder" does the same for those attributes. The language is the
// cookie atril-lang (the selector sets it; the server reads it too), else the browser's, else
// Spanish. Pages wait for i18nReady before their first drawing.
"use strict";
const LANGUAGES = ["es", "en"];
const LANG_COOKIE = "atril-lang";
let LANG = "es";
let CATALOG = {};              // msgid → text, or → [singular, plural]
const ATTRIBUTES = new WeakMap();  // element → {attribute: its Spanish text}

function supportedLang(tag) {
  const base = String(tag || "").split(/[-_]/)[0].toLowerCase();
  return LANGUAGES.includes(base) ? base : null;
}

function chosenLang() {
  const cookie = document.cookie.split("; ").find((c) => c.startsWith(`${LANG_COOKIE}=`));
  return supportedLang(cookie && cookie.slice(LANG_COOKIE.length + 1))
    || (navigator.languages || [navigator.language]).map(supportedLang).find(Boolean) || "es";
}

function fillPlaceholders(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all)) : text;
}

function t(msgid, values) {
  const text = CATALOG[msgid];
  return fillPlaceholders(typeof text === "string" && text ? text : msgid, values);
}

function tn(one, many, n, values) {
  const forms = CATALOG[one];
  const index = n === 1 ? 0 : 1;  // Spanish and English alike: one, and every other number
  const text = Array.isArray(forms) && forms[index] ? forms[index] : (index ? many : one);
  return fillPlaceholders(text, { n, ...values });
}

const squashSpaces = (text) => text.replace(/\s+/g, " ").trim();

/** Put a string of ours in an element, kept in the language when the language changes. */
function showText(el, msgid) {
  el.dataset.i18n = msgid;
  el.textContent = t(msgid);
}

/** Show every marked element (and attribute) in the current language. */
function translate(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => {
    if (!el.dataset.i18n) el.dataset.i18n = squashSpaces(el.textContent);
    el.textContent = t(el.dataset.i18n);
  });
  root.querySelectorAll("[data-i18n-attr]").forEach((el) => {
    if (!ATTRIBUTES.has(el)) {
      ATTRIBUTES.set(el, Object.fromEntries(el.dataset.i18nAttr.split(/\s+/)
        .map((name) => [name, squashSpaces(el.getAttribute(name) || "")])));
    }
    for (const [name, msgid] of Object.entries(ATTRIBUTES.get(el))) el.setAttribute(name, t(msgid));
  });
}

async function loadLang(lang) {
  let catalog = {};
  if (lang !== "es") {
    const response = await fetch(`/i18n/${lang}.json`);
    if (response.ok) catalog = await response.json();
  }
  LANG = lang;
  CATALOG = catalog;
  document.documentElement.lang = lang;
  translate();
}

/** The selector's choice: remembered in the cookie, so the server answers in it too. */
async function setLang(lang) {
  lang = supportedLang(lang) || "es";
  document.cookie = `${LANG_COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
  await loadLang(lang);
}

// no catalog (the server out of reach): the page stays in Spanish, as it is written
const i18nReady = loadLang(chosenLang()).catch(() => {});
