/* The hub's live page and projector view: every board as a small board, drawn by the
   companion's own renderer (BV.renderBoard, /static/view.js). Text goes in with textContent
   only: board and player names come from the network. */
"use strict";

(() => {
  const { $, el, renderBoard, fillList, plural } = BV;
  const cards = new Map(); // board name -> its card's parts
  const summaries = new Map(); // board name -> its latest summary
  const projector = document.body.classList.contains("projector");
  const params = new URLSearchParams(location.search);
  const cycle = projector ? Math.max(0, Number(params.get("cycle")) || 0) : 0;
  const per = Math.max(1, Math.min(64, Number(params.get("per")) || 4));
  let hub = {};
  const byName = new Intl.Collator(undefined, { numeric: true }).compare; // table-2 before table-10
  let page = 0;

  function boardLink(name) {
    return `/board/${encodeURIComponent(name)}`;
  }

  function card(name) {
    let c = cards.get(name);
    if (c) return c;
    const node = el("article", "club-card");
    node.dataset.board = name;
    const head = el("h2", "card-head");
    const link = el("a", "card-name", name);
    link.href = boardLink(name);
    const online = el("span", "online");
    head.append(link, online);
    const game = el("p", "card-game");
    const mini = el("div", "board mini");
    mini.setAttribute("role", "group");
    mini.setAttribute("aria-label", `board ${name}`);
    const players = el("ol", "players");
    const status = el("p", "card-status");
    node.append(head, game, mini, players, status);
    if (!projector) {
      node.onclick = (ev) => {
        if (!ev.target.closest("a")) location.href = link.href;
      };
    }
    c = { node, online, game, mini, players, status };
    cards.set(name, c);
    const names = [...cards.keys()].sort(byName);
    const next = names[names.indexOf(name) + 1];
    $("boards").insertBefore(node, next ? cards.get(next).node : null);
    return c;
  }

  function turnWords(b) {
    if (b.status === "waiting") return "no game yet";
    if (b.status === "over") return b.result || "game over";
    const labels = b.players.filter((p) => p.to_move).map((p) => p.label || p.seat);
    return labels.length ? `${labels.join(", ")} to move` : "playing";
  }

  function show(b, cells) {
    summaries.set(b.name, b);
    const c = card(b.name);
    c.node.classList.toggle("offline", !b.online);
    c.node.dataset.online = b.online ? "yes" : "no";
    c.node.dataset.ply = b.ply;
    c.online.textContent = b.online ? "● online" : "○ offline";
    c.online.className = `online ${b.online ? "is-online" : "is-offline"}`;
    const title = b.title || String(b.game || "").replace(/-/g, " ");
    c.game.textContent = title ? `${title} · ${plural(b.ply || 0, "move")}` : "";
    if (cells !== undefined) renderBoard(c.mini, cells);
    fillList(c.players, b.players || [], (p) => {
      const li = el("li", `player${p.to_move ? " to-move" : ""}`);
      li.append(el("span", "turn-marker", p.to_move ? "▶" : ""));
      const who = el("span", "who");
      who.append(el("strong", "label", p.label || p.seat));
      if (p.name) who.append(el("span", "name", p.name));
      li.append(who, el("span", "score", p.score));
      return li;
    });
    c.status.textContent = turnWords(b);
    c.status.className = `card-status status-${b.status}`;
    meta();
    paginate();
    refit();
  }

  /* A board the hub forgot (offline and silent for long): its card goes. */
  function forget(name) {
    const c = cards.get(name);
    if (c) c.node.remove();
    cards.delete(name);
    summaries.delete(name);
    meta();
    paginate();
  }

  function meta() {
    const all = [...summaries.values()];
    const online = all.filter((b) => b.online).length;
    const parts = [plural(all.length, "board"), `${online} online`];
    if (hub.results !== undefined) parts.push(plural(hub.results, "result"));
    $("meta").textContent = parts.join(" · ");
    $("empty").hidden = all.length > 0;
  }

  function showHub(h) {
    hub = h;
    const node = $("broker");
    node.textContent = h.broker === "connected" ? "broker connected" : `⚠ broker down: ${h.note || "reconnecting…"}`;
    node.className = `broker broker-${h.broker === "connected" ? "up" : "down"}`;
    document.body.dataset.broker = h.broker;
    meta();
  }

  /* The projector: all boards tiled, or with ?cycle=SECONDS a page of ?per=N at a time. */
  function paginate() {
    if (!cycle) return;
    const names = [...cards.keys()].sort(byName);
    const pages = Math.max(1, Math.ceil(names.length / per));
    page %= pages;
    names.forEach((n, i) => {
      cards.get(n).node.hidden = Math.floor(i / per) !== page;
    });
  }

  /* The projector's tiles fill the screen and no more: for the boards shown, the number of
     columns that gives the largest board, each tile the board beside its text when tiles
     are wide, above it otherwise (--cols, --rows, and --bw x --bh the board's box). */
  function fit() {
    const box = $("boards");
    const shown = [...cards.values()].filter((c) => !c.node.hidden);
    if (!projector || !shown.length) return;
    const css = getComputedStyle(box);
    const gap = parseFloat(css.columnGap) || 0;
    const width = box.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
    const height = box.clientHeight - parseFloat(css.paddingTop) - parseFloat(css.paddingBottom);
    const one = getComputedStyle(shown[0].node);
    const padX = parseFloat(one.paddingLeft) + parseFloat(one.paddingRight) + 4;
    const padY = parseFloat(one.paddingTop) + parseFloat(one.paddingBottom) + 4;
    const rowGap = parseFloat(one.rowGap) || 0;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    let text = 0; // the tallest tile's text above and below the board
    for (const c of shown) {
      const parts = [c.node.querySelector(".card-head"), c.game, c.players, c.status];
      text = Math.max(text, parts.reduce((sum, p) => sum + p.offsetHeight, 0) + 4 * rowGap);
    }
    let best = { size: -1 };
    for (let cols = 1; cols <= shown.length; cols += 1) {
      const rows = Math.ceil(shown.length / cols);
      const w = (width - gap * (cols - 1)) / cols - padX;
      const h = (height - gap * (rows - 1)) / rows - padY;
      const stacked = { cols, rows, side: false, bw: w, bh: h - text };
      const side = { cols, rows, side: true, bw: w - 11 * rem, bh: h };
      for (const t of [stacked, side]) {
        t.size = Math.min(t.bw, t.bh);
        if (t.size > best.size) best = t;
      }
    }
    box.style.setProperty("--cols", String(best.cols));
    box.style.setProperty("--rows", String(best.rows));
    box.dataset.layout = best.side ? "side" : "stacked";
    let { bw, bh } = best;
    for (let tries = 0; tries < 8; tries += 1) {
      box.style.setProperty("--bw", `${Math.max(24, Math.floor(bw))}px`);
      box.style.setProperty("--bh", `${Math.max(24, Math.floor(bh))}px`);
      // a tile whose text came out taller than measured (it wraps): a smaller board
      const over = Math.max(...shown.map((c) => c.node.scrollHeight - c.node.clientHeight));
      if (over <= 1) break;
      if (best.side) bw = Math.min(bw, bh) * 0.9;
      else bh -= over;
    }
  }

  let fitting = 0;
  function refit() {
    if (!projector || fitting) return;
    fitting = requestAnimationFrame(() => {
      fitting = 0;
      fit();
    });
  }

  if (projector) {
    window.addEventListener("resize", refit);
  }
  if (cycle) {
    setInterval(() => {
      page += 1;
      paginate();
      refit();
    }, cycle * 1000);
  }

  /* The live page's results: the newest first, fetched again when a board's result is in. */
  async function loadResults() {
    const list = $("results");
    if (!list) return;
    let games;
    try {
      const answer = await fetch("/api/results?limit=50&records=0", { cache: "no-store" });
      if (!answer.ok) return;
      games = (await answer.json()).games || [];
    } catch (e) {
      return;
    }
    $("no-results").hidden = games.length > 0;
    fillList(list, games, (g) => {
      const li = el("li", "result-row");
      li.dataset.gameUid = g.game_uid;
      li.append(el("strong", "result-board", g.board));
      const names = Object.values(g.players || {}).filter(Boolean).join(" v ");
      if (names) li.append(el("span", "result-players", names));
      /* by name ("Dan beat Ben"), the board's own words after it */
      li.append(el("span", "result-line", g.said ? `${g.said}${g.result ? ` (${g.result})` : ""}` : g.result));
      return li;
    });
  }

  loadResults();

  /* The hub runs an event (--event): its page is linked from the bar. */
  async function linkEvent() {
    const link = $("event-link");
    if (!link) return;
    try {
      const answer = await fetch("/api/event", { cache: "no-store" });
      if (!answer.ok) return;
      const event = await answer.json();
      link.textContent = `event: ${event.event}`;
      link.hidden = false;
    } catch (e) {
      /* no event on this hub */
    }
  }

  linkEvent();

  BV.connect("/ws", {
    onView() {},
    onMessage(msg) {
      if (msg.type === "board" && msg.board) show(msg.board, msg.cells);
      else if (msg.type === "boards") (msg.boards || []).forEach((b) => show(b));
      else if (msg.type === "hub") showHub(msg);
      else if (msg.type === "gone") forget(msg.board);
      else if (msg.type === "result") loadResults();
    },
  });
})();
