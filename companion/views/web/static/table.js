/* The table page: the live game for everyone, past games and their replay. */
"use strict";

(() => {
  const { $, el, render, fillList } = BV;
  let live = null; // the latest live view
  let replay = null; // {id, plies, frames: Map ply -> view, index} while replaying a past game
  let historyKey = "";

  function showLive() {
    if (live && !replay) render(live);
  }

  function onView(view) {
    live = view;
    showLive();
    const key = `${view.game_id}:${view.over}`;
    if (key !== historyKey) {
      historyKey = key;
      loadHistory();
    }
  }

  async function loadHistory() {
    let games;
    try {
      const answer = await fetch("/api/history?limit=30", { cache: "no-store" });
      if (!answer.ok) return;
      games = (await answer.json()).games || [];
    } catch (e) {
      return;
    }
    fillList($("history"), games, (g) => {
      const li = el("li", "game-row");
      const b = el("button", "game-link");
      b.type = "button";
      b.dataset.game = g.id;
      const names = g.players ? Object.values(g.players).filter(Boolean).join(" v ") : "";
      b.append(el("span", "game-id", `#${g.id}`));
      b.append(el("span", "game-name", String(g.game || "").replace(/-/g, " ")));
      if (names) b.append(el("span", "game-players", names));
      /* the result by name ("Dan beat Ben (OFF wins)"), else the game's state in words */
      const result = g.said || (g.result && g.result !== g.status ? g.result : BV.statusWords(g.status || g.result));
      b.append(el("span", "game-result", result));
      b.onclick = () => startReplay(g.id, g.status);
      li.append(b);
      return li;
    });
  }

  /* The engine's review of the game replayed (docs/review.md): started with POST
     /api/review/<id>, its progress asked with GET until it is done (it runs in the
     companion's background, never in the way of a move); then a graph of the first seat's
     expected result over the game, the turning points and each move's label beside the
     board. Choosing a move or a point of the graph shows that position. */
  const EXPLAINED = new Set(["inaccuracy", "mistake", "blunder"]);
  const POLL_MS = 500;
  let reviewTimer = null;
  let reviewed = null; /* {n, now: the graph's marker} of the review shown */

  function resetReview(status) {
    clearTimeout(reviewTimer);
    reviewTimer = null;
    reviewed = null;
    $("review").hidden = true;
    $("review-figure").hidden = true;
    $("review-turns").hidden = true;
    $("review-intro").hidden = true;
    $("review-intro").replaceChildren();
    $("review-svg").replaceChildren();
    $("review-moves").replaceChildren();
    $("review-status").textContent = "";
    delete document.body.dataset.review;
    const button = $("review-button");
    button.hidden = !replay || Boolean(status && status !== "finished");
    button.disabled = false;
  }

  async function askReview(start) {
    if (!replay) return;
    const r = replay;
    let answer;
    try {
      const reply = await fetch(`/api/review/${encodeURIComponent(r.id)}`, {
        method: start ? "POST" : "GET",
        cache: "no-store",
      });
      answer = await reply.json();
    } catch (e) {
      answer = { state: "refused", reason: "the companion did not answer" };
    }
    if (replay === r) showReview(answer);
  }

  function showReview(answer) {
    $("review").hidden = false;
    const status = $("review-status");
    if (answer.state === "running") {
      status.textContent = `The engine is going through the game: ${answer.done} of ${answer.total} moves`;
      document.body.dataset.review = "running";
      reviewTimer = setTimeout(() => askReview(false), POLL_MS);
      return;
    }
    if (answer.state === "done") {
      drawReview(answer.review);
      document.body.dataset.review = "done";
      return;
    }
    status.textContent = answer.reason || "no review of this game";
    document.body.dataset.review = "refused";
    $("review-button").disabled = false;
  }

  function seat(review, player) {
    const label = (review.labels && review.labels[player]) || String(player).toUpperCase();
    const name = review.players && review.players[player];
    return name ? `${label} (${name})` : label;
  }

  function svgNode(tag, cls, attrs) {
    const node = document.createElementNS($("review-svg").namespaceURI, tag);
    if (cls) node.setAttribute("class", cls);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
    return node;
  }

  function percent(e) {
    return `${Math.round(e * 100)}%`;
  }

  function drawReview(review) {
    const moves = review.moves || [];
    const curve = review.curve || [];
    const n = Math.max(1, curve.length - 1);
    const W = 100;
    const H = 40;
    const x = (i) => (i / n) * W;
    const y = (e) => (1 - e) * H;
    const first = seat(review, review.first);
    const other = moves.find((m) => m.player !== review.first);
    const second = other ? seat(review, other.player) : "the other side";
    /* a game's own review (Binøme's claims, Latent Binaries' guesses) reviews only its
       choices: a move is found by its ply, the curve has a point for every move */
    const byPly = new Map(moves.map((m) => [m.ply, m]));
    const headings = review.headings || {};
    const turns = (review.turning_points || []).map((ply) => byPly.get(ply)).filter(Boolean);
    const turnWords = turns.map((m) => `${m.ply}. ${seat(review, m.player)} ${m.move}`);
    const svg = $("review-svg"); /* viewBox 0 0 W H in the page */
    svg.replaceChildren();
    svg.setAttribute(
      "aria-label",
      `${first}'s expected result over ${n} moves: ${percent(curve[0] ?? 0.5)} at the start, ` +
        `${percent(curve[curve.length - 1] ?? 0.5)} at the end` +
        (turnWords.length ? `; turning points: ${turnWords.join(", ")}` : "; no turning point"),
    );
    svg.append(svgNode("rect", "review-ahead", { x: 0, y: 0, width: W, height: H / 2 }));
    svg.append(svgNode("rect", "review-behind", { x: 0, y: H / 2, width: W, height: H / 2 }));
    svg.append(svgNode("line", "review-mid", { x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
    turns.forEach((m) => svg.append(svgNode("line", "review-turn", { x1: x(m.ply), y1: 0, x2: x(m.ply), y2: H })));
    const points = curve.map((e, i) => `${x(i).toFixed(2)},${y(e).toFixed(2)}`).join(" ");
    svg.append(svgNode("polyline", "review-line", { points }));
    const now = svgNode("line", "review-now", { x1: 0, y1: 0, x2: 0, y2: H });
    svg.append(now);
    svg.onclick = (ev) => {
      const box = svg.getBoundingClientRect();
      if (box.width > 0) showFrame(Math.round(((ev.clientX - box.left) / box.width) * n));
    };
    $("review-caption").textContent =
      `Above the middle line ${first} is ahead, below it ${second}; ` +
      "the red lines mark the turning points. Choose a point to see that position.";
    $("review-figure").hidden = false;
    const counts = Object.entries(review.counts || {}).map(
      ([p, c]) => `${seat(review, p)}: ${Object.entries(c).map(([label, k]) => `${k} ${label}`).join(", ")}`,
    );
    $("review-status").textContent = counts.join(" · ");
    const turnLine = $("review-turns");
    turnLine.textContent = turnWords.length
      ? `Turning points: ${turnWords.join(", ")}`
      : "No turning point: nobody handed the lead over.";
    turnLine.hidden = false;
    const intro = review.intro || [];
    fillList($("review-intro"), intro, (line) => el("li", "review-intro-line", line));
    $("review-intro").hidden = !intro.length;
    fillList($("review-moves"), moves, (m) => {
      const li = el("li", `review-move label-${m.label}`);
      li.dataset.ply = m.ply;
      if (headings[m.ply]) li.append(el("p", "review-turn-heading", headings[m.ply]));
      const b = el("button", "review-jump");
      b.type = "button";
      b.append(el("span", "review-ply", `${m.ply}. ${seat(review, m.player)} ${m.move}`));
      b.append(el("span", "review-label", m.label));
      b.onclick = () => showFrame(m.ply);
      li.append(b);
      if (EXPLAINED.has(m.label) && m.reason) li.append(el("p", "review-reason", m.reason));
      if (m.note) li.append(el("p", "review-note", m.note));
      return li;
    });
    reviewed = { n, now };
    if (replay) markReview(replay.index);
  }

  function markReview(index) {
    if (!reviewed) return;
    const at = ((index / reviewed.n) * 100).toFixed(2);
    reviewed.now.setAttribute("x1", at);
    reviewed.now.setAttribute("x2", at);
    document.querySelectorAll("#review-moves .review-move").forEach((li) => {
      if (Number(li.dataset.ply) === index) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    });
  }

  /* A replay fetches its views a page at a time (/api/game/<id>?from=&count=), as the
     viewer steps to them: however long the game, no answer holds more than one page. */
  const PAGE = 50;
  const KEEP = 20 * PAGE; /* views kept at most; the farthest from the position go first */

  async function fetchPage(id, from) {
    const url = `/api/game/${encodeURIComponent(id)}?from=${from}&count=${PAGE}`;
    const answer = await fetch(url, { cache: "no-store" });
    if (!answer.ok) return null;
    return answer.json();
  }

  function keep(page) {
    (page.frames || []).forEach((frame, i) => replay.frames.set(page.from + i, frame));
    if (replay.frames.size > KEEP) {
      const far = [...replay.frames.keys()].sort(
        (a, b) => Math.abs(b - replay.index) - Math.abs(a - replay.index),
      );
      far.slice(0, replay.frames.size - KEEP).forEach((k) => replay.frames.delete(k));
    }
  }

  async function startReplay(id, status) {
    let page;
    try {
      page = await fetchPage(id, 0);
    } catch (e) {
      return;
    }
    if (!page || !page.frames || !page.frames.length) return;
    replay = { id: page.id, plies: page.plies, frames: new Map(), index: 0 };
    keep(page);
    document.body.classList.add("replaying");
    $("replay-bar").hidden = false;
    $("replay-title").textContent = `Replay of game #${page.id}`;
    const slider = $("replay-slider");
    slider.max = String(page.plies);
    resetReview(status);
    showFrame(0);
  }

  async function showFrame(index) {
    if (!replay) return;
    const r = replay;
    r.index = Math.max(0, Math.min(r.plies, index));
    let frame = r.frames.get(r.index);
    if (!frame) {
      const wanted = r.index;
      let page;
      try {
        page = await fetchPage(r.id, wanted - (wanted % PAGE));
      } catch (e) {
        return;
      }
      if (replay !== r || !page) return;
      keep(page);
      if (r.index !== wanted) return; /* the viewer has moved on meanwhile */
      frame = r.frames.get(wanted);
      if (!frame) return;
    }
    render(frame);
    markReview(r.index);
    $("replay-slider").value = String(r.index);
    $("replay-pos").textContent = `position ${r.index} of ${r.plies}`;
    document.body.dataset.replayIndex = String(r.index);
  }

  function stopReplay() {
    replay = null;
    resetReview("");
    document.body.classList.remove("replaying");
    delete document.body.dataset.replayIndex;
    $("replay-bar").hidden = true;
    showLive();
  }

  function step(delta) {
    if (replay) showFrame(replay.index + delta);
  }

  $("replay-first").onclick = () => showFrame(0);
  $("replay-prev").onclick = () => step(-1);
  $("replay-next").onclick = () => step(1);
  $("replay-last").onclick = () => replay && showFrame(replay.plies);
  $("replay-slider").oninput = (ev) => showFrame(Number(ev.target.value));
  $("replay-close").onclick = stopReplay;
  $("review-button").onclick = () => {
    $("review-button").disabled = true;
    askReview(true);
  };
  document.addEventListener("keydown", (ev) => {
    if (!replay || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") step(-1);
    else if (ev.key === "ArrowRight") step(1);
    else if (ev.key === "Escape") stopReplay();
  });

  BV.connect("/ws", { onView });
})();
