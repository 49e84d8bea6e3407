// UI strings: Spanish first, English available. t("key") reads the current language.
"use strict";
const STRINGS = {
  es: {
    title: "atril — Scrabble en español", lobby: "Nueva partida", opponent: "Rival",
    vs_computer: "Contra el ordenador", vs_person: "Contra otra persona (invitación)",
    vs_local: "Dos personas en este dispositivo", level: "Nivel", ruleset: "Reglamento",
    clock: "Reloj (minutos por jugador, 0 = sin reloj)", clock_mode: "Tiempo",
    corrido: "corrido", no_corrido: "no corrido", timer: "Temporizador de 2 minutos por turno",
    challenge: "Impugnación", challenge_fise: "FISE (el rival acepta o impugna)",
    challenge_void: "VOID (solo se admiten palabras válidas)", lexicon: "Léxico",
    upload: "o sube una lista de palabras (.txt, una por línea)", your_name: "Tu nombre",
    other_name: "Nombre del rival", create: "Crear partida", invite: "Envía este enlace a tu rival:",
    open_game: "Ir a mi partida", copy: "Copiar", language: "Idioma",
    play: "Jugar", recall: "Recoger", shuffle: "Mezclar", exchange: "Cambiar", pass: "Pasar",
    accept: "Aceptar", challenge_btn: "Impugnar", bag: "Bolsa", unseen: "Fichas por ver",
    sheet: "Planilla", your_turn: "Te toca", their_turn: "Turno del rival", turn_of: "Turno de",
    waiting_rival: "Esperando a que el rival acepte o impugne…",
    waiting_join: "Esperando a que tu rival abra la invitación…",
    rival_played: "El rival ha jugado. ¿Aceptas o impugnas?",
    choose_blank: "¿Qué ficha representa el comodín?", cancel: "Cancelar",
    exchange_title: "Elige las fichas que cambias", exchange_do: "Cambiar fichas",
    game_over: "Partida terminada", result: "Resultado", reason: "Motivo",
    adjustments: "Ajustes", download_gcg: "Descargar GCG", analysis: "Análisis",
    best_plays: "Mejores jugadas", played: "Jugada hecha", missed_scrabbles: "Scrabbles perdidos",
    turn: "Turno", move: "Jugada", points: "Puntos", total: "Total", thinking: "El ordenador piensa…",
    verdict_ok: "jugada correcta", verdict_bad: "jugada no válida", you: "tú", computer: "ordenador",
    reconnecting: "Reconectando…", last_play: "Última jugada", none: "ninguna",
    type_hint: "Pulsa una casilla vacía y escribe; pulsa otra vez para cambiar la dirección.",
    copied: "Enlace copiado", new_game: "Nueva partida", no_analysis: "Sin datos de análisis.",
    equity: "valor", score: "puntos", rack: "Atril", draw: "empate", wins: "gana",
    invite_seat: "Enlace para tu rival", offline: "Sin conexión con el servidor",
    downtime: "Servidor sin servicio de {from} a {to} ({seconds} s): no se descuenta del reloj",
    seed: "Semilla de la bolsa (para comprobar los sorteos)",
    game_clock: "Tiempo total de la partida (minutos, 0 = sin límite)",
    spectator: "Estás viendo la partida como espectador",
    invite_used: "esta invitación ya se ha usado",
    waiting_join_watch: "La partida empieza cuando el segundo jugador abra su invitación…",
    pass_device: "Pasa el dispositivo a {name}", i_am: "Soy {name}: ver mi atril",
  },
  en: {
    title: "atril — Spanish Scrabble", lobby: "New game", opponent: "Opponent",
    vs_computer: "Against the computer", vs_person: "Against another person (invitation)",
    vs_local: "Two people on this device", level: "Level", ruleset: "Ruleset",
    clock: "Clock (minutes per player, 0 = none)", clock_mode: "Timing",
    corrido: "running", no_corrido: "stopped while counting", timer: "2-minute timer per turn",
    challenge: "Challenge", challenge_fise: "FISE (opponent accepts or challenges)",
    challenge_void: "VOID (only valid words accepted)", lexicon: "Lexicon",
    upload: "or upload a word list (.txt, one per line)", your_name: "Your name",
    other_name: "Opponent's name", create: "Create game", invite: "Send this link to your opponent:",
    open_game: "Go to my game", copy: "Copy", language: "Language",
    play: "Play", recall: "Recall", shuffle: "Shuffle", exchange: "Exchange", pass: "Pass",
    accept: "Accept", challenge_btn: "Challenge", bag: "Bag", unseen: "Unseen tiles",
    sheet: "Scoresheet", your_turn: "Your turn", their_turn: "Opponent's turn", turn_of: "Turn of",
    waiting_rival: "Waiting for the opponent to accept or challenge…",
    waiting_join: "Waiting for your opponent to open the invitation…",
    rival_played: "Your opponent played. Accept or challenge?",
    choose_blank: "Which tile does the blank stand for?", cancel: "Cancel",
    exchange_title: "Choose the tiles to exchange", exchange_do: "Exchange tiles",
    game_over: "Game over", result: "Result", reason: "Reason",
    adjustments: "Adjustments", download_gcg: "Download GCG", analysis: "Analysis",
    best_plays: "Best plays", played: "Play made", missed_scrabbles: "Missed scrabbles",
    turn: "Turn", move: "Move", points: "Points", total: "Total", thinking: "The computer is thinking…",
    verdict_ok: "jugada correcta (valid play)", verdict_bad: "jugada no válida (invalid play)",
    you: "you", computer: "computer",
    reconnecting: "Reconnecting…", last_play: "Last play", none: "none",
    type_hint: "Click an empty square and type; click again to change direction.",
    copied: "Link copied", new_game: "New game", no_analysis: "No analysis data.",
    equity: "equity", score: "score", rack: "Rack", draw: "draw", wins: "wins",
    invite_seat: "Link for your opponent", offline: "No connection to the server",
    downtime: "Server down from {from} to {to} ({seconds} s): not charged to the clocks",
    seed: "Bag seed (to check the draws)",
    game_clock: "Total game time (minutes, 0 = no limit)",
    spectator: "You are watching this game as a spectator",
    invite_used: "this invitation has already been used",
    waiting_join_watch: "The game starts when the second player opens their invitation…",
    pass_device: "Pass the device to {name}", i_am: "I am {name}: show my rack",
  },
};

let LANG = localStorage.getItem("atril-lang") || "es";

function t(key) {
  return (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.es[key] || key;
}

function setLang(lang) {
  LANG = STRINGS[lang] ? lang : "es";
  localStorage.setItem("atril-lang", LANG);
  document.documentElement.lang = LANG;
  translate();
}

/** Fill every element carrying data-i18n with its string. */
function translate(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.title = t("title");
}
