/* The table page: the live game for everyone, past games and their replay. */
"use strict";

(() => {
  const { $, el, render, fillList } = BV;
  let live = null; // the latest live view
  let replay = null; // {record, index} while replaying a past game
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
      b.append(el("span", "game-name", g.game));
      if (names) b.append(el("span", "game-players", names));
      b.append(el("span", "game-result", g.result || ""));
      b.onclick = () => startReplay(g.id);
      li.append(b);
      return li;
    });
  }

  async function startReplay(id) {
    let record;
    try {
      const answer = await fetch(`/api/game/${encodeURIComponent(id)}`, { cache: "no-store" });
      if (!answer.ok) return;
      record = await answer.json();
    } catch (e) {
      return;
    }
    if (!record.frames || !record.frames.length) return;
    replay = { record, index: record.frames.length - 1 };
    document.body.classList.add("replaying");
    $("replay-bar").hidden = false;
    $("replay-title").textContent = `Replay of game #${record.id}`;
    const slider = $("replay-slider");
    slider.max = String(record.frames.length - 1);
    showFrame(0);
  }

  function showFrame(index) {
    if (!replay) return;
    const frames = replay.record.frames;
    replay.index = Math.max(0, Math.min(frames.length - 1, index));
    render(frames[replay.index]);
    $("replay-slider").value = String(replay.index);
    $("replay-pos").textContent = `position ${replay.index} of ${frames.length - 1}`;
    document.body.dataset.replayIndex = String(replay.index);
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
  $("replay-last").onclick = () => replay && showFrame(replay.record.frames.length - 1);
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
