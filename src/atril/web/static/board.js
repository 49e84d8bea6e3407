// The board and its tiles as the game and the replay draw them. A board is 225 squares of what
// the server shows (`A`, `CH`, `ch` for a blank, null = empty); premiums are `2L 3L 2W 3W`
// (or "") and values map a letter to its points — both come with a game's first view.
"use strict";

const ROWS = "ABCDEFGHIJKLMNO";
const CENTER = 112;
const RACK_SIZE = 7;
const DIGRAPH = /CH|LL|RR/gi;

/** `H8` → 112. */
function squareIndex(name) {
  return ROWS.indexOf(name[0]) * 15 + Number(name.slice(1)) - 1;
}

/** A tile: `letter` as the server shows it ("?" a blank on a rack, lower case a blank on the
 * board); a digraph tile is one tile with both letters (never two tiles). */
function tileElement(letter, values) {
  const el = document.createElement("div");
  const blank = letter === "?" || letter !== letter.toUpperCase();
  const shown = letter === "?" ? "" : letter.toUpperCase();
  el.className = "tile" + (shown.length === 2 ? " digraph" : "") + (blank ? " blank" : "");
  el.innerHTML = `<span class="l">${shown}</span><span class="v">${blank ? 0 : values[shown]}</span>`;
  el.dataset.letter = letter;
  return el;
}

/** The 225 squares and the coordinates inside a `.board-wrap`; `clicked(sq)` on a click. */
function buildBoard(wrap, clicked = null) {
  const board = wrap.querySelector(".board");
  for (let sq = 0; sq < 225; sq++) {
    const cell = document.createElement("div");
    cell.className = "sq";
    cell.dataset.sq = sq;
    cell.title = ROWS[Math.floor(sq / 15)] + (sq % 15 + 1);
    if (clicked) cell.addEventListener("click", () => clicked(sq));
    board.appendChild(cell);
  }
  for (let c = 1; c <= 15; c++) wrap.querySelector(".coords-top").insertAdjacentHTML("beforeend", `<span>${c}</span>`);
  for (const r of ROWS) wrap.querySelector(".coords-side").insertAdjacentHTML("beforeend", `<span>${r}</span>`);
  return [...board.children];
}

/** One square, empty of anything drawn before: its premium colour and name, or `letter`'s
 * tile (returned, for the caller to mark). */
function drawSquare(cell, sq, premium, letter, values) {
  cell.className = "sq" + (premium ? " " + premium.toLowerCase().replace(/(\d)(\w)/, "$2$1") : "")
    + (sq === CENTER && !letter ? " star" : "");
  cell.textContent = "";
  if (letter) {
    const tile = tileElement(letter, values);
    cell.appendChild(tile);
    return tile;
  }
  if (premium && sq !== CENTER) cell.textContent = LANG === "es" ? premium.replace("W", "P") : premium;
  return null;
}

/** How many tiles a play in Spanish notation put down (`H8 CA(S)A`: 3; a digraph is one); the
 * planilla's text may follow the play with a comma (the words challenged). */
function tilesIn(notation) {
  const word = notation.split(/[ ,]/)[1] || "";
  return word.replace(/\([^)]*\)/g, "").replace(DIGRAPH, "1").length;
}

/** A scrabble: a play of all seven tiles (art. 19). */
function isScrabble(notation) {
  return tilesIn(notation) === RACK_SIZE;
}
