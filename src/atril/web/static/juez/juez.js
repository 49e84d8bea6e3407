// The judge page: send the words of one play, show only the verdict (art. 40), then clear
// everything after a few seconds so the next challenge starts from a blank screen.
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  const lexicon = params.get("lexico") || "ES09";
  const seconds = Math.max(1, Number(params.get("segundos")) || 6);
  const form = document.getElementById("jugada");
  const input = document.getElementById("palabras");
  const notice = document.getElementById("aviso");
  const verdict = document.getElementById("veredicto");
  let timer = null;
  document.getElementById("lexico").textContent = lexicon;

  function clear() {
    clearTimeout(timer);
    verdict.className = "oculto";
    verdict.textContent = "";
    delete verdict.dataset.valid;
    input.value = "";
    input.focus();
  }

  function show(result) {
    verdict.textContent = result.verdict;
    verdict.dataset.valid = String(result.valid);
    verdict.className = result.valid ? "correcta" : "no-valida";
    timer = setTimeout(clear, seconds * 1000);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    notice.textContent = "";
    const words = input.value.trim();
    if (!words) {
      notice.textContent = t("Escribe al menos una palabra.");
      return;
    }
    try {
      show(await api("api/juzgar", { json: { palabras: words, lexico: lexicon } }));
    } catch (err) {
      notice.textContent = err.message;
    }
  });
  verdict.addEventListener("click", clear);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !verdict.classList.contains("oculto")) clear();
  });
})();
