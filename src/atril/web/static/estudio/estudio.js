// The study page: one form for every search; results come from the JSON endpoints (api/...).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const KINDS = {
    anagrama: {label: "Atril", param: "atril", help: "ch, ll y rr son una ficha; 1 2 3 también; C,H son dos fichas; ? es un comodín (hasta dos)."},
    construir: {label: "Atril", param: "atril", help: "Todas las palabras que se forman con fichas del atril, por longitud."},
    patron: {label: "Patrón", param: "patron", help: "? una ficha, * cualquier tramo, [AEIOU] una del conjunto, [^AEIOU] una que no esté. Ej.: ?ACH*  *[AEIOU]RR?"},
    ganchos: {label: "Palabras", param: "palabras", help: "Qué fichas pueden ir delante y detrás de cada palabra."},
    lista: {label: "Longitud", param: "longitud", help: "Longitud en fichas (2, o 2-3) y/o fichas que la palabra contiene."},
  };
  const params = new URLSearchParams(location.search);
  if (params.get("lexico")) $("lexico").value = params.get("lexico");

  function update() {
    const kind = KINDS[$("tipo").value];
    $("etiqueta").textContent = kind.label;
    $("ayuda").textContent = kind.help;
    $("campo-contiene").classList.toggle("oculto", $("tipo").value !== "lista");
    $("campo-orden").classList.toggle("oculto", $("tipo").value === "ganchos");
  }

  function wordSpan(item) {
    const span = document.createElement("span");
    span.textContent = item.word;
    if (item.rank) {
      const small = document.createElement("small");
      small.textContent = ` ${item.rank}`;
      small.title = `probabilidad ${(item.probability * 100).toPrecision(3)} %`;
      span.append(small);
    }
    if (item.blanks) span.title = `comodines: ${item.blanks.join(", ")}`;
    return span;
  }

  function showWords(data) {
    const box = $("resultados");
    const shown = data.results.length;
    $("resumen").textContent = data.total === 0 ? "Ninguna palabra." :
      (data.complete ? `${data.total} palabras` : `Más de ${shown} palabras`) +
      (shown < data.total ? ` (se muestran ${shown}).` : ".");
    const groups = new Map();
    for (const item of data.results) {
      if (!groups.has(item.tiles)) groups.set(item.tiles, []);
      groups.get(item.tiles).push(item);
    }
    for (const [tiles, items] of groups) {
      const group = document.createElement("section");
      group.className = "grupo";
      const title = document.createElement("h2");
      title.textContent = `${tiles} fichas (${items.length})`;
      const list = document.createElement("div");
      list.className = "palabras";
      items.forEach((item) => list.append(wordSpan(item)));
      group.append(title, list);
      box.append(group);
    }
  }

  function showHooks(data) {
    const table = document.createElement("table");
    for (const h of data.results) {
      const row = table.insertRow();
      row.insertCell().textContent = h.front.join(" ") || "–";
      row.cells[0].className = "front";
      row.insertCell().textContent = h.word + (h.valid ? "" : " (no está en el léxico)");
      row.cells[1].className = "word";
      row.insertCell().textContent = h.back.join(" ") || "–";
    }
    $("resumen").textContent = "";
    $("resultados").append(table);
  }

  $("tipo").addEventListener("change", update);
  $("busqueda").addEventListener("submit", async (event) => {
    event.preventDefault();
    const type = $("tipo").value;
    const query = new URLSearchParams({lexico: $("lexico").value, orden: $("orden").value});
    query.set(KINDS[type].param, $("texto").value);
    if (type === "lista") query.set("contiene", $("contiene").value);
    $("error").textContent = "";
    $("resumen").textContent = "Buscando…";
    $("resultados").replaceChildren();
    try {
      const response = await fetch(`api/${type}?${query}`);
      const data = await response.json();
      if (!response.ok) {
        $("resumen").textContent = "";
        $("error").textContent = data.error || "No se ha podido buscar.";
        return;
      }
      (type === "ganchos" ? showHooks : showWords)(data);
    } catch (err) {
      $("resumen").textContent = "";
      $("error").textContent = "Sin conexión con el servidor.";
    }
  });
  update();
})();
