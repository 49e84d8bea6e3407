// The study page: one form for every search; results come from the JSON endpoints (api/...),
// a page at a time («más resultados» asks for the next one).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  // each search: the parameter its field fills, and (in the page's language) the field's name
  // and how to fill it
  const KINDS = {
    anagrama: {param: "atril", texts: () => [t("Atril"), t("ch, ll y rr son una ficha; 1 2 3 también; C,H son dos fichas; ? es un comodín (hasta dos).")]},
    construir: {param: "atril", texts: () => [t("Atril"), t("Todas las palabras que se forman con fichas del atril, por longitud.")]},
    patron: {param: "patron", texts: () => [t("Patrón"), t("? una ficha, * cualquier tramo, [AEIOU] una del conjunto, [^AEIOU] una que no esté. Ej.: ?ACH*  *[AEIOU]RR?")]},
    ganchos: {param: "palabras", texts: () => [t("Palabras"), t("Qué fichas pueden ir delante y detrás de cada palabra.")]},
    lista: {param: "longitud", texts: () => [t("Longitud"), t("Longitud en fichas (2, o 2-3) y/o fichas que la palabra contiene.")]},
  };
  const params = new URLSearchParams(location.search);
  if (params.get("lexico")) $("lexico").value = params.get("lexico");

  // the search on screen: its address without «desde», and its groups of words by length
  let current = null;

  function update() {
    const [label, help] = KINDS[$("tipo").value].texts();
    $("etiqueta").textContent = label;
    $("ayuda").textContent = help;
    $("campo-contiene").classList.toggle("oculto", $("tipo").value !== "lista");
    $("campo-orden").classList.toggle("oculto", $("tipo").value === "ganchos");
  }

  function wordSpan(item) {
    const span = document.createElement("span");
    span.textContent = item.word;
    if (item.rank) {
      const small = document.createElement("small");
      small.textContent = ` ${item.rank}`;
      small.title = t("probabilidad {percent} %", {percent: (item.probability * 100).toPrecision(3)});
      span.append(small);
    }
    if (item.blanks) span.title = t("comodines: {tiles}", {tiles: item.blanks.join(", ")});
    return span;
  }

  const count = (n) => n.toLocaleString(LANG);

  function showWords(data) {
    for (const item of data.results) {
      let group = current.groups.get(item.tiles);
      if (!group) {
        const section = document.createElement("section");
        section.className = "grupo";
        group = {title: document.createElement("h2"), list: document.createElement("div"), n: 0};
        group.list.className = "palabras";
        section.append(group.title, group.list);
        $("resultados").append(section);
        current.groups.set(item.tiles, group);
      }
      group.list.append(wordSpan(item));
      group.n += 1;
      group.title.textContent = t("{tiles} fichas ({count})", {tiles: item.tiles, count: group.n});
    }
    current.shown += data.results.length;
    const shown = current.shown;
    const found = data.complete
      ? tn("{count} palabra", "{count} palabras", data.total, {count: count(data.total)})
      : tn("Al menos {count} palabra", "Al menos {count} palabras", data.total, {count: count(data.total)});
    $("resumen").textContent = data.total === 0 ?
      (data.complete ? t("Ninguna palabra.") : t("Ninguna palabra encontrada.")) :
      found + (shown < data.total || !data.complete ? " " + t("(se muestran {count}).", {count: count(shown)}) : ".");
    $("nota").textContent = data.note || "";
    $("nota").classList.toggle("oculto", !data.note);
    current.next = data.siguiente;
    $("mas").classList.toggle("oculto", data.siguiente === undefined);
  }

  function showHooks(data) {
    const table = document.createElement("table");
    for (const h of data.results) {
      const row = table.insertRow();
      row.insertCell().textContent = h.front.join(" ") || "–";
      row.cells[0].className = "front";
      row.insertCell().textContent = h.word + (h.valid ? "" : " " + t("(no está en el léxico)"));
      row.cells[1].className = "word";
      row.insertCell().textContent = h.back.join(" ") || "–";
    }
    $("resumen").textContent = "";
    $("resultados").append(table);
  }

  // one page of the current search; false if it failed (the error is on screen)
  async function fetchPage(start) {
    const search = current;
    const query = new URLSearchParams(search.query);
    if (start) query.set("desde", start);
    $("error").textContent = "";
    try {
      const response = await fetch(`api/${search.type}?${query}`);
      const data = await response.json();
      if (search !== current) return true;  // a new search started meanwhile
      if (!response.ok) {
        $("error").textContent = data.error || t("No se ha podido buscar.");
        return false;
      }
      (search.type === "ganchos" ? showHooks : showWords)(data);
      return true;
    } catch (err) {
      $("error").textContent = t("Sin conexión con el servidor.");
      return false;
    }
  }

  $("tipo").addEventListener("change", update);
  $("busqueda").addEventListener("submit", async (event) => {
    event.preventDefault();
    const type = $("tipo").value;
    const query = new URLSearchParams({lexico: $("lexico").value, orden: $("orden").value});
    query.set(KINDS[type].param, $("texto").value);
    if (type === "lista") query.set("contiene", $("contiene").value);
    current = {type, query: query.toString(), groups: new Map(), shown: 0, next: undefined};
    $("resumen").textContent = t("Buscando…");
    $("resultados").replaceChildren();
    $("nota").classList.add("oculto");
    $("mas").classList.add("oculto");
    if (!await fetchPage(0)) $("resumen").textContent = "";
  });
  $("mas").addEventListener("click", async () => {
    const button = $("mas");
    button.disabled = true;
    button.textContent = t("Buscando…");
    await fetchPage(current.next);
    button.disabled = false;
    button.textContent = t("más resultados");
  });
  i18nReady.then(update);
})();
