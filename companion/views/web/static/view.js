/* Renders the companion's view model (docs/web.md) for any game, and keeps a WebSocket open.
   Shared by the table page and the player pages. Text goes in with textContent only. */
"use strict";

const BV = (() => {
  const MARKS = {
    last: { badge: "◆", words: "last move" },
    hint: { badge: "?", words: "hint" },
    refused: { badge: "✕", words: "refused" },
    differ: { badge: "≠", words: "fix this square" },
    selected: { badge: "◎", words: "selected" },
    win: { badge: "★", words: "winning line" },
  };
  const PIECES = { x: "black", o: "white" };
  /* How a message starts besides its colour: news plain, the rest with a sign. */
  const KINDS = {
    news: "",
    refused: "✕ ",
    warning: "⚠ ",
    hint: "? ",
  };
  /* A game's state as the journal names it, in words. */
  const STATUSES = { in_progress: "in progress", finished: "finished", abandoned: "abandoned", paused: "paused" };
  const COLOUR = /^#[0-9a-fA-F]{6}$/;

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function setText(node, text) {
    if (!node) return;
    node.textContent = text || "";
    node.hidden = !text;
  }

  function fillList(list, items, make) {
    if (!list) return;
    list.replaceChildren(...items.map(make));
  }

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  function statusWords(status) {
    return STATUSES[status] || String(status || "").replace(/_/g, " ");
  }

  /* A cell's text may break after "/" or "+" ("magenta/cyan" on two lines in a small cell). */
  function breakable(text) {
    const node = el("span", "text");
    String(text)
      .split(/(?<=[/+])/)
      .forEach((part, i) => {
        if (i) node.append(document.createElement("wbr"));
        node.append(part);
      });
    return node;
  }

  function playerLabel(view, id) {
    const p = (view.players || []).find((q) => q.id === id);
    return p ? p.label : id || "";
  }

  function cellLabel(cell) {
    const words = [cell.name];
    if (cell.piece) words.push(PIECES[cell.piece] || cell.piece);
    if (cell.text) words.push(cell.text);
    if (cell.height) words.push(`height ${cell.height}`);
    for (const m of cell.marks || []) words.push((MARKS[m] || { words: m }).words);
    if (words.length === 1) words.push("empty");
    return words.join(", ");
  }

  /* The board: files left to right, ranks bottom to top, labels on two sides. */
  function renderBoard(container, board, onPress) {
    if (!container) return;
    if (!board || !board.cells) {
      container.replaceChildren();
      container.hidden = true;
      return;
    }
    container.hidden = false;
    const files = board.files;
    const ranks = board.ranks;
    const key = `${files}x${ranks}`;
    if (container.dataset.shape !== key) {
      container.dataset.shape = key;
      container.style.setProperty("--files", files);
      container.style.setProperty("--ranks", ranks);
      const nodes = [];
      const byPos = {};
      for (const cell of board.cells) byPos[`${cell.file},${cell.rank}`] = cell;
      for (let r = ranks - 1; r >= 0; r--) {
        nodes.push(el("span", "rank-label", String(r + 1)));
        for (let f = 0; f < files; f++) {
          const cell = byPos[`${f},${r}`];
          const node = el(onPress ? "button" : "div", "cell");
          if (onPress) node.type = "button";
          else node.setAttribute("role", "img");
          node.dataset.file = f;
          node.dataset.rank = r;
          if (cell) node.dataset.square = cell.name;
          nodes.push(node);
        }
      }
      nodes.push(el("span", "corner-label", ""));
      for (let f = 0; f < files; f++) {
        const cell = byPos[`${f},0`];
        const name = cell ? cell.name.replace(/[0-9]+$/, "") : String(f + 1);
        nodes.push(el("span", "file-label", name));
      }
      container.replaceChildren(...nodes);
      if (onPress) {
        container.onclick = (ev) => {
          const target = ev.target.closest(".cell");
          if (target && target.dataset.square) onPress(target.dataset.square);
        };
      }
    }
    const cells = {};
    for (const cell of board.cells) cells[`${cell.file},${cell.rank}`] = cell;
    for (const node of container.querySelectorAll(".cell")) {
      const cell = cells[`${node.dataset.file},${node.dataset.rank}`];
      updateCell(node, cell);
    }
  }

  function updateCell(node, cell) {
    if (!cell) {
      node.className = "cell void";
      node.replaceChildren();
      return;
    }
    node.dataset.square = cell.name;
    const marks = (cell.marks || []).filter((m) => typeof m === "string");
    const classes = ["cell"];
    if (cell.piece) classes.push(`piece-${PIECES[cell.piece] ? cell.piece : "other"}`);
    if (cell.colour && COLOUR.test(cell.colour)) classes.push("lit");
    for (const m of marks) classes.push(`mark-${MARKS[m] ? m : "other"}`);
    node.className = classes.join(" ");
    node.style.backgroundColor = cell.colour && COLOUR.test(cell.colour) ? cell.colour : "";
    node.setAttribute("aria-label", cellLabel(cell));
    node.title = cellLabel(cell);
    const parts = [];
    if (cell.piece) parts.push(el("span", "piece", cell.piece));
    /* A stack's height in the corner from 2 up (every piece is a stack of one); a text that
       only repeats the height is not drawn twice. */
    if (cell.text && cell.text !== String(cell.height)) parts.push(breakable(cell.text));
    if (cell.height > 1) parts.push(el("span", "height", cell.height));
    if (marks.length) {
      const badges = marks.map((m) => (MARKS[m] || { badge: "•" }).badge).join("");
      parts.push(el("span", "badges", badges));
    }
    node.replaceChildren(...parts);
  }

  /* The legend explains squares: none without a board, and "black"/"white" only for a game
     whose pieces are x and o (not Latent Binaries' R, X and G). */
  function renderLegend(legend, board) {
    if (!legend) return;
    legend.hidden = !board;
    const pieces = new Set(((board && board.cells) || []).map((c) => c.piece).filter(Boolean));
    const plain = pieces.size === 0 || pieces.has("x") || pieces.has("o");
    for (const sample of legend.querySelectorAll(".sample.piece-x, .sample.piece-o")) {
      sample.parentElement.hidden = !plain;
    }
  }

  /* The game clock (docs/web.md): each time is worked out from the view's clock (the times
     at the server's ``as_of``) and the server's time now, which is the page's own time plus
     its offset from the server's (estimated from each message's ``now``). Nothing counts
     down: a page that slept, or a background tab woken up, shows the right time at once.
     Either clock may be set while the page is open (NTP at a Pi's boot, a phone's time zone):
     a server's time set back starts the estimate anew, and a page's own time set back is
     replaced by its monotonic clock from the last message on. */
  const CLOCK = { view: null, offsets: [], timer: null, said: "", anchor: null };
  const OFFSETS_KEPT = 8;
  const STEPPED = 2; /* seconds: a clock this far behind where it was going has been set back */

  function heardServer(now) {
    if (typeof now !== "number" || !isFinite(now)) return;
    CLOCK.anchor = { wall: Date.now() / 1000, mono: performance.now() / 1000 };
    const offset = now - CLOCK.anchor.wall;
    if (CLOCK.offsets.length && offset < Math.max(...CLOCK.offsets) - STEPPED) {
      CLOCK.offsets = []; /* the server's time was set back: the offsets before it are wrong */
    }
    CLOCK.offsets.push(offset);
    if (CLOCK.offsets.length > OFFSETS_KEPT) CLOCK.offsets.shift();
  }

  /* The page's time: its own wall clock, unless that was set back since the last message
     (then the monotonic clock from that message on). A wall clock ahead of the monotonic
     one is believed: the monotonic clock may stop while the device sleeps. */
  function pageNow() {
    const wall = Date.now() / 1000;
    const a = CLOCK.anchor;
    if (!a) return wall;
    const mono = a.wall + (performance.now() / 1000 - a.mono);
    return wall < mono - STEPPED ? mono : wall;
  }

  /* A message is never early, only late: the largest offset is the least delayed one. */
  function serverNow() {
    const offset = CLOCK.offsets.length ? Math.max(...CLOCK.offsets) : 0;
    return pageNow() + offset;
  }

  function ticking(c) {
    return !!(c && c.running && !c.paused && typeof c.as_of === "number");
  }

  function timeOf(c, player, now) {
    const left = Number(c[player]);
    if (!ticking(c)) return left;
    const elapsed = Math.max(0, now - c.as_of);
    if (player === c.running) return left - Math.max(0, elapsed - (Number(c.free) || 0));
    if (/h$/.test(String(c.control || ""))) return left + elapsed; /* an hourglass */
    return left;
  }

  /* As a clock shows it (companion/timing/clock.py's clock_text): 1:02:03, 4:59, and
     tenths under 10 s; seconds rounded up, so 0.0 means the time is gone. */
  function clockText(seconds) {
    if (!(seconds > 0)) return "0.0";
    if (seconds < 10) return (Math.ceil(seconds * 10) / 10).toFixed(1);
    const whole = Math.ceil(seconds - 1e-9);
    const h = Math.floor(whole / 3600);
    const m = Math.floor((whole % 3600) / 60);
    const s = String(whole % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  function clockPlayers(c) {
    return Object.keys(c || {}).filter((k) => typeof c[k] === "number" && !["free", "as_of"].includes(k));
  }

  function showClock(view) {
    const c = view.clock || null;
    CLOCK.view = view;
    const line = $("clock-line");
    if (line) {
      const words = c ? [`clock ${c.control || ""}`.trim()] : [];
      if (c && c.paused) words.push("⏸ paused");
      setText(line, words.join(" · "));
    }
    if (!ticking(c)) {
      clearInterval(CLOCK.timer);
      CLOCK.timer = null;
    } else if (!CLOCK.timer) {
      CLOCK.timer = setInterval(tickClock, 100);
    }
    tickClock();
  }

  /* Each shown time, from the server's time now; the live region speaks only of a change of
     state (paused, under 10 s, a flag down), never of a tick. */
  function tickClock() {
    const view = CLOCK.view;
    const c = view && view.clock;
    if (!c) {
      sayClock("");
      return;
    }
    const now = serverNow();
    let news = c.paused ? "clock paused" : "";
    for (const node of document.querySelectorAll("[data-clock]")) {
      const player = node.dataset.clock;
      const t = timeOf(c, player, now);
      const runs = player === c.running;
      /* down while it runs out, and once the server has ended the game on it (nothing
         runs then, and a time of 0 is a flag that fell) */
      const flag = (runs || c.running == null) && !(t > 0);
      const low = runs && !flag && t < 10;
      const text = flag ? "0.0 ⚑" : clockText(t);
      if (node.textContent !== text) node.textContent = text;
      node.classList.toggle("running", runs && !c.paused);
      node.classList.toggle("low", low);
      node.classList.toggle("flag", flag);
      const who = playerLabel(view, player);
      node.setAttribute("aria-label", `${who}'s clock${flag ? ": time is up" : ""}`);
      if (flag) news = `${who}: time is up`;
      else if (low && !news) news = `${who}: under 10 seconds`;
    }
    sayClock(news);
  }

  function sayClock(news) {
    if (news === CLOCK.said) return;
    CLOCK.said = news;
    const box = $("clock-news");
    if (box) box.textContent = news;
  }

  document.addEventListener("visibilitychange", () => tickClock());
  window.addEventListener("pageshow", () => tickClock());

  function renderPlayers(list, view) {
    const timed = new Set(clockPlayers(view.clock));
    fillList(list, view.players || [], (p) => {
      const you = view.you && view.you === p.id;
      const li = el("li", `player${p.to_move ? " to-move" : ""}${you ? " you" : ""}`);
      li.dataset.player = p.id;
      li.append(el("span", "turn-marker", p.to_move ? "▶" : ""));
      const who = el("span", "who");
      who.append(el("strong", "label", p.label));
      if (p.name) who.append(el("span", "name", p.name));
      if (you) who.append(el("span", "tag", "you"));
      if (p.to_move) who.append(el("span", "tag", "to move"));
      li.append(who);
      li.append(el("span", "score", p.score));
      if (timed.has(p.id)) {
        const clock = el("span", "clock");
        clock.dataset.clock = p.id;
        li.append(clock);
      }
      li.classList.toggle("timed", timed.has(p.id));
      return li;
    });
    showClock(view);
  }

  function renderMoves(list, view) {
    if (!list) return;
    /* Moves longer than "OFF e5" ("WHITE d4-d5", "RAINBOW setup c2"): wider columns. */
    const long = (m) => playerLabel(view, m.player).length + `${m.name}`.length > 9;
    list.classList.toggle("long-names", (view.moves || []).some(long));
    fillList(list, view.moves || [], (m) => {
      const li = el("li", "move");
      li.append(el("span", "ply", `${m.ply}.`));
      /* a name that starts with its player's ("Ann write 3a") does not name them twice */
      const mover = playerLabel(view, m.player);
      if (!`${m.name}`.toLowerCase().startsWith(`${mover} `.toLowerCase())) {
        li.append(el("span", "mover", mover));
      }
      li.append(el("span", "name", m.name));
      return li;
    });
    /* A view lists the recent moves only: say how many came before them. */
    const earlier = (view.moves_total || 0) - (view.moves || []).length;
    if (earlier > 0) list.prepend(el("li", "move earlier", `… ${plural(earlier, "earlier move")}`));
    list.scrollTop = list.scrollHeight;
  }

  function renderActions(box, actions, onAction) {
    if (!box) return;
    fillList(box, actions || [], (a) => {
      const b = el("button", "action", a.label || a.move);
      b.type = "button";
      b.dataset.move = a.move;
      b.onclick = () => onAction(a.move);
      return b;
    });
  }

  /* Everything but the private part; ``opts.onPress``/``opts.onAction`` make it playable. */
  function render(view, opts = {}) {
    document.body.dataset.ply = view.ply;
    document.body.dataset.gameId = view.game_id;
    $("title").textContent = view.title || view.game || "Game";
    const meta = [];
    if (view.game_id !== undefined && view.game_id !== null) meta.push(`game ${view.game_id}`);
    const total = view.moves_total ?? (view.moves || []).length;
    meta.push(plural(total, "move"));
    if (view.over) meta.push("game over");
    else if (view.to_act && view.to_act.length)
      meta.push(`${view.to_act.map((p) => playerLabel(view, p)).join(", ")} to move`);
    $("meta").textContent = meta.join(" · ");
    /* A lasting condition (the board disconnected) is a warning; the result is news: said
       once, here, and not again in the message line. */
    let status = view.status ? `⚠ ${view.status}` : "";
    let kind = view.status ? "warning" : "";
    if (!status && view.over && view.result && view.result.summary) {
      status = view.result.reason ? `${view.result.summary}: ${view.result.reason}` : view.result.summary;
      kind = "result";
    }
    setText($("status"), status);
    $("status").className = `status status-${kind || "none"}`;
    renderBoard($("board"), view.board, opts.onPress);
    /* No board: the explanation's first line (the step now: a roll, a postulate) stands
       large where the board would be, and the Score panel keeps the rest. */
    let explanation = view.explanation || [];
    const noBoard = $("no-board");
    if (noBoard) {
      noBoard.hidden = !!view.board;
      noBoard.textContent = view.board ? "" : explanation[0] || "This game has no board.";
    }
    if (!view.board && noBoard) explanation = explanation.slice(1);
    if (kind === "result") {
      /* the result is said once, above the board: not again among the explanation's lines */
      const said = status.toLowerCase();
      explanation = explanation.filter((line) => !said.includes(line.toLowerCase().replace(/\.$/, "")));
    }
    document.body.classList.toggle("boardless", !view.board);
    renderLegend(document.querySelector(".legend"), view.board);
    renderPlayers($("players"), view);
    fillList($("explanation"), explanation, (line) => el("li", "", line));
    renderMoves($("moves"), view);
    const messageKind = KINDS[view.message_kind] !== undefined ? view.message_kind : "news";
    /* News already on the page (the result, an answer in the explanation) is not said twice. */
    const onPage = [status, ...(view.explanation || [])];
    const repeated = messageKind === "news" && onPage.some((t) => t && t.includes(view.message));
    setText($("message"), view.message && !repeated ? `${KINDS[messageKind]}${view.message}` : "");
    $("message").className = `message message-${messageKind}`;
    if (opts.onAction) renderActions($("actions"), view.actions, opts.onAction);
  }

  /* A WebSocket that reconnects by itself, backing off from 250 ms to 5 s. */
  function connect(path, handlers) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}${path}`;
    let delay = 250;
    let stopped = false;
    let ws = null;
    let timer = null;

    function status(state, text) {
      document.body.dataset.conn = state;
      const conn = $("conn");
      if (conn) {
        conn.textContent = text;
        conn.className = `conn conn-${state}`;
      }
    }

    function open() {
      if (stopped) return;
      ws = new WebSocket(url);
      ws.onmessage = (ev) => {
        let msg;
        try {
          msg = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        if (msg.type === "state") {
          heardServer(msg.now);
          delay = 250;
          status("live", "● live");
          handlers.onView(msg.view);
        } else if (msg.type === "gone") {
          stopped = true;
          status("gone", "✕ closed");
          if (handlers.onGone) handlers.onGone(msg.reason);
        } else if (handlers.onMessage) {
          delay = 250;
          status("live", "● live");
          handlers.onMessage(msg); /* another kind of message (the club hub's pages) */
        }
      };
      ws.onclose = () => {
        ws = null;
        if (stopped) return;
        status("down", "○ reconnecting…");
        const wait = delay * (0.75 + Math.random() * 0.5);
        delay = Math.min(delay * 2, 5000);
        timer = setTimeout(async () => {
          if (handlers.beforeReconnect && !(await handlers.beforeReconnect())) {
            stopped = true;
            return;
          }
          open();
        }, wait);
      };
    }

    open();
    return {
      stop() {
        stopped = true;
        clearTimeout(timer);
        if (ws) ws.close();
      },
    };
  }

  return {
    $,
    el,
    render,
    renderBoard,
    renderActions,
    fillList,
    setText,
    connect,
    playerLabel,
    plural,
    statusWords,
    clockText,
    serverNow,
    tickClock,
  };
})();
