// Tandem's spectator page: the match as the projector shows it, followed live by
// server-sent events. Everything it shows comes from the hall's view (no alerts, no
// flags, nothing the TD has not ruled on, the broadcast delay already applied).
"use strict";

const PING_MISSED_MS = 35000; // three pings missed: the connection is dead, reopen it
const TEAM_WA = "team-wa"; // WhiteA & BlackB
const TEAM_BA = "team-ba"; // BlackA & WhiteB

const params = new URLSearchParams(location.search);
let matchId = params.get("match") || "1";

const state = {
  seq: null,
  game: null,
  record: [],
  msg: null,
  hallBase: 0, // hall clock (match ms) at recvAt
  recvAt: 0,
  matches: [],
  standings: [],
};

let source = null;
let lastEventId = null;
let lastHeard = 0;
let reopenTimer = null;

const $ = (id) => document.getElementById(id);

function connect() {
  if (source) source.close();
  clearTimeout(reopenTimer);
  const since = lastEventId ? "?since=" + encodeURIComponent(lastEventId) : "";
  source = new EventSource("/api/matches/" + encodeURIComponent(matchId) + "/events" + since);
  lastHeard = performance.now();
  source.addEventListener("view", (e) => {
    lastHeard = performance.now();
    let m;
    try {
      m = JSON.parse(e.data);
    } catch (_) {
      return;
    }
    if (m.match !== matchId) return;
    if (m.prev !== null && m.prev !== state.seq) {
      // A step was missed: start again from a snapshot.
      lastEventId = null;
      connect();
      return;
    }
    lastEventId = e.lastEventId || lastEventId;
    apply(m);
  });
  source.addEventListener("matches", (e) => {
    lastHeard = performance.now();
    try {
      const d = JSON.parse(e.data);
      state.matches = d.matches || [];
      state.standings = d.standings || [];
    } catch (_) {
      return;
    }
    renderEvent();
  });
  source.addEventListener("ping", (e) => {
    lastHeard = performance.now();
    try {
      const p = JSON.parse(e.data);
      if (p.game === state.game && typeof p.hall_ms === "number") {
        state.hallBase = p.hall_ms;
        state.recvAt = performance.now();
      }
    } catch (_) {
      /* a ping is only a ping */
    }
  });
  source.onopen = () => setStatus(true);
  source.onerror = () => {
    setStatus(false);
    // The browser retries by itself unless the answer was an error (busy, no such
    // match): then try again in a few seconds.
    if (source.readyState === EventSource.CLOSED) {
      reopenTimer = setTimeout(connect, 3000);
    }
  };
}

// Back on the network: reopen at once rather than wait for the browser's next retry.
addEventListener("online", () => connect());
addEventListener("offline", () => setStatus(false));

// A Wi-Fi drop may leave a connection that never errors: reopen it when pings stop.
setInterval(() => {
  if (performance.now() - lastHeard > PING_MISSED_MS) {
    setStatus(false);
    connect();
  }
}, 5000);

function setStatus(live) {
  const s = $("status");
  s.textContent = live ? "live" : "reconnecting…";
  s.className = "status " + (live ? "live" : "away");
}

function apply(m) {
  state.record = state.record.slice(0, m.record.from).concat(m.record.plies);
  state.seq = m.seq;
  state.game = m.game;
  state.msg = m;
  state.hallBase = m.hall_ms;
  state.recvAt = performance.now();
  document.body.dataset.seq = String(m.seq);
  document.body.dataset.plies = String(state.record.length);
  render();
}

// ---------------------------------------------------------------------------------
// Drawing

const SEATS = {
  // [top, bottom] as the players sit: board A White at the bottom, board B Black.
  A: [
    { color: "Black", tag: "BlackA", team: TEAM_BA, index: 1 },
    { color: "White", tag: "WhiteA", team: TEAM_WA, index: 0 },
  ],
  B: [
    { color: "White", tag: "WhiteB", team: TEAM_BA, index: 2 },
    { color: "Black", tag: "BlackB", team: TEAM_WA, index: 3 },
  ],
};
const ROLES = ["q", "r", "b", "n", "p"];
const ROLE_NAMES = { q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function pieceImg(color, role) {
  const img = el("img", "piece");
  img.src = "/pieces/" + (color === "White" ? "w" : "b") + role + ".svg";
  img.alt = color.toLowerCase() + " " + ROLE_NAMES[role];
  img.draggable = false;
  return img;
}

function playerName(view, seat) {
  const n = (view.players[seat.index] || "").trim();
  return n && n !== "?" ? n : seat.color + " " + seat.tag.slice(-1);
}

// The board's squares, built once per board.
const built = {};

function column(id) {
  if (built[id]) return built[id];
  const col = el("section", "col");
  col.id = "col-" + id;
  col.dataset.board = id;
  const rows = SEATS[id].map((seat) => {
    const row = el("div", "player " + seat.team);
    row.dataset.seat = seat.tag;
    const king = pieceImg(seat.color, "k");
    king.className = "king";
    const name = el("span", "name");
    const reserve = el("span", "reserve");
    const clock = el("span", "clock", "–:––");
    row.append(king, name, reserve, clock);
    return { seat, row, name, reserve, clock };
  });
  const board = el("div", "board");
  board.setAttribute("role", "img");
  const squares = [];
  const whiteBottom = id === "A";
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      const rank = whiteBottom ? 7 - r : r;
      const file = whiteBottom ? f : 7 - f;
      const sq = el("div", "sq " + ((rank + file) % 2 === 0 ? "dark" : "light"));
      sq.dataset.square = "abcdefgh"[file] + (rank + 1);
      if (r === 7) sq.append(el("span", "coord file", "abcdefgh"[file]));
      if (f === 0) sq.append(el("span", "coord rank", String(rank + 1)));
      board.append(sq);
      squares[rank * 8 + file] = { sq, key: "" };
    }
  }
  const label = el("div", "board-label", "Board " + id);
  const moves = el("div", "moves");
  const all = el("details", "all-moves");
  all.append(el("summary", "", "All moves"), el("ol", "move-list"));
  col.append(label, rows[0].row, board, rows[1].row, moves, all);
  built[id] = { col, rows, board, squares, moves, list: all.querySelector("ol") };
  return built[id];
}

// "rnbqkbnr/pppp1ppp/..." (rank 8 first, `~` after a promoted piece) to a1-first squares.
function parseFen(fen) {
  const out = new Array(64).fill(null);
  const ranks = fen.split("/");
  for (let i = 0; i < 8 && i < ranks.length; i++) {
    const rank = 7 - i;
    let file = 0;
    const s = ranks[i];
    for (let k = 0; k < s.length; k++) {
      const c = s[k];
      if (c >= "1" && c <= "8") {
        file += Number(c);
      } else if (c === "~") {
        const prev = out[rank * 8 + file - 1];
        if (prev) prev.promoted = true;
      } else if (file < 8) {
        const white = c === c.toUpperCase();
        out[rank * 8 + file] = { color: white ? "White" : "Black", role: c.toLowerCase(), promoted: false };
        file++;
      }
    }
  }
  return out;
}

function squareIndex(name) {
  if (!name || name.length !== 2) return -1;
  return (Number(name[1]) - 1) * 8 + ("abcdefgh".indexOf(name[0]));
}

function renderBoard(b, ui) {
  const pieces = parseFen(b.pieces);
  const last = b.last_move ? [squareIndex(b.last_move.from), squareIndex(b.last_move.to)] : [];
  const check = squareIndex(b.check);
  for (let i = 0; i < 64; i++) {
    const p = pieces[i];
    const cell = ui.squares[i];
    const mark = (last.includes(i) ? "L" : "") + (i === check ? "C" : "");
    const key = p ? p.color + p.role + (p.promoted ? "~" : "") + mark : mark;
    if (cell.key === key) continue;
    cell.key = key;
    cell.sq.classList.toggle("last", last.includes(i));
    cell.sq.classList.toggle("check", i === check);
    for (const old of cell.sq.querySelectorAll(".piece, .badge")) old.remove();
    if (p) {
      cell.sq.append(pieceImg(p.color, p.role));
      if (p.promoted) {
        const badge = el("span", "badge", "P");
        badge.title = "promoted pawn";
        cell.sq.append(badge);
      }
    }
  }
}

function renderReserve(span, reserve, color) {
  const key = ROLES.map((r) => reserve[ROLE_NAMES[r]]).join(",");
  if (span.dataset.key === key) return;
  span.dataset.key = key;
  span.replaceChildren();
  for (const r of ROLES) {
    const n = reserve[ROLE_NAMES[r]] || 0;
    if (n <= 0) continue;
    const item = el("span", "held");
    item.append(pieceImg(color, r));
    if (n > 1) item.append(el("span", "count", String(n)));
    span.append(item);
  }
}

function clockText(ms) {
  const secs = Math.ceil(ms / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const s = secs % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
}

// Never a flag: a clock at zero reads 0:00 like any other reading.
function remaining(clock, color, hallNow) {
  const base = color === "White" ? clock.white_ms : clock.black_ms;
  if (base === null || base === undefined) return null;
  if (clock.running === color) return Math.max(0, base - Math.max(0, hallNow - clock.at_ms));
  return base;
}

function hallNow() {
  return state.hallBase + (performance.now() - state.recvAt);
}

function renderClocks() {
  const m = state.msg;
  if (!m) return;
  const now = hallNow();
  for (const b of m.view.boards) {
    const ui = built[b.id];
    if (!ui) continue;
    for (const r of ui.rows) {
      const ms = b.clock.present ? remaining(b.clock, r.seat.color, now) : null;
      const text = ms === null ? "–:––" : clockText(ms);
      if (r.clock.textContent !== text) r.clock.textContent = text;
      const running = !m.view.result && b.clock.running === r.seat.color;
      r.clock.classList.toggle("running", running);
    }
  }
}
setInterval(renderClocks, 200);

function numbered(p) {
  return p.color === "white" || p.color === "White" ? p.number + "." : p.number + "…";
}

function renderMoves(id, ui, started) {
  const plies = state.record.filter((p) => p.board === id);
  let text;
  if (!started) text = "waiting for the pieces to be set up";
  else if (plies.length === 0) text = "no moves yet";
  else text = plies.slice(-2).map((p) => numbered(p) + " " + p.san).join("   ");
  ui.moves.textContent = text;
  const list = ui.list;
  // Rebuilt only from the first ply that changed.
  while (list.children.length > plies.length) list.lastChild.remove();
  for (let i = 0; i < plies.length; i++) {
    const t = numbered(plies[i]) + " " + plies[i].san;
    const li = list.children[i];
    if (!li) list.append(el("li", "", t));
    else if (li.textContent !== t) li.textContent = t;
  }
}

function points(p) {
  const halves = Math.round(p * 2);
  const whole = Math.floor(halves / 2);
  const half = halves % 2 !== 0;
  if (half) return whole === 0 ? "½" : whole + "½";
  return String(whole);
}

function render() {
  const m = state.msg;
  const v = m.view;
  $("waiting").hidden = true;
  const single = v.boards.length < 2;
  document.body.classList.toggle("single", single);
  $("team-wa").textContent = m.teams[0];
  $("team-ba").textContent = m.teams[1];
  $("score").textContent = points(m.score[0]) + " : " + points(m.score[1]);
  const banner = $("banner");
  if (v.result) {
    const head = v.result.winner === "WhiteA" ? m.teams[0] + " win"
      : v.result.winner === "BlackA" ? m.teams[1] + " win" : "Draw";
    banner.textContent = head + " — " + v.result.text;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  const main = $("boards");
  const ids = v.boards.map((b) => b.id);
  for (const id of Object.keys(built)) {
    if (!ids.includes(id)) {
      built[id].col.remove();
      delete built[id];
    }
  }
  for (const b of v.boards) {
    const ui = column(b.id);
    if (ui.col.parentNode !== main) main.append(ui.col);
    renderBoard(b, ui);
    for (const r of ui.rows) {
      const name = playerName(v, r.seat);
      if (r.name.textContent !== name) r.name.textContent = name;
      renderReserve(r.reserve, r.seat.color === "White" ? b.white_reserve : b.black_reserve, r.seat.color);
    }
    renderMoves(b.id, ui, b.started);
  }
  let foot = (m.event || "") + " · " + v.rules_title;
  if (m.delay_s > 0) foot += " · " + Math.round(m.delay_s) + " s broadcast delay";
  $("event").textContent = foot;
  document.title = m.teams[0] + " " + $("score").textContent + " " + m.teams[1] + " — Tandem";
  renderClocks();
}

function renderEvent() {
  const panel = $("event-panel");
  const several = state.matches.length > 1;
  panel.hidden = !several;
  if (!several) return;
  const nav = $("matches");
  nav.replaceChildren();
  for (const m of state.matches) {
    const a = el("a", m.id === matchId ? "match current" : "match");
    a.href = "?match=" + encodeURIComponent(m.id);
    a.dataset.match = m.id;
    a.append(el("span", "match-id", "Match " + m.id));
    a.append(el("span", "match-teams", m.teams[0] + " – " + m.teams[1]));
    a.append(el("span", "match-score", m.result ? points(m.score[0]) + " : " + points(m.score[1]) : "live"));
    a.addEventListener("click", (e) => {
      e.preventDefault();
      switchTo(m.id);
    });
    nav.append(a);
  }
  const table = $("standings");
  table.hidden = state.standings.length === 0;
  const body = table.querySelector("tbody");
  body.replaceChildren();
  state.standings.forEach((s, i) => {
    const tr = el("tr");
    tr.append(el("td", "", String(i + 1)), el("td", "", s.team), el("td", "", String(s.games)), el("td", "", points(s.points)));
    body.append(tr);
  });
}

function switchTo(id) {
  if (id === matchId) return;
  matchId = id;
  history.replaceState(null, "", "?match=" + encodeURIComponent(id));
  state.seq = null;
  state.game = null;
  state.record = [];
  state.msg = null;
  for (const k of Object.keys(built)) {
    built[k].col.remove();
    delete built[k];
  }
  lastEventId = null;
  connect();
  renderEvent();
}

connect();
