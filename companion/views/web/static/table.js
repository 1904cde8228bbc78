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
      b.onclick = () => startReplay(g.id);
      li.append(b);
      return li;
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

  async function startReplay(id) {
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
    $("replay-slider").value = String(r.index);
    $("replay-pos").textContent = `position ${r.index} of ${r.plies}`;
    document.body.dataset.replayIndex = String(r.index);
  }

  function stopReplay() {
    replay = null;
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
  document.addEventListener("keydown", (ev) => {
    if (!replay || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") step(-1);
    else if (ev.key === "ArrowRight") step(1);
    else if (ev.key === "Escape") stopReplay();
  });

  BV.connect("/ws", { onView });
})();
