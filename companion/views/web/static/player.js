/* A player's page: their private part, and moves by clicking squares and buttons. */
"use strict";

(() => {
  const { $, el, render, renderActions, fillList, setText } = BV;
  const token = decodeURIComponent(location.pathname.replace(/^\/p\//, "").split("/")[0]);
  let busy = false;
  let link = null;

  function authHeaders() {
    return { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  }

  function showResult(text, kind) {
    const box = $("result");
    setText(box, text);
    box.className = `result result-${kind}`;
    document.body.dataset.result = kind;
  }

  async function post(path, body) {
    if (busy) return;
    busy = true;
    document.body.classList.add("busy");
    try {
      const answer = await fetch(path, {
        method: "POST",
        headers: authHeaders(),
        body: JSON.stringify(body),
        cache: "no-store",
      });
      let data = {};
      try {
        data = await answer.json();
      } catch (e) {
        data = {};
      }
      if (answer.ok && data.ok) {
        showResult("", "ok");
      } else if (answer.status === 401 || answer.status === 403) {
        gone(data.reason);
      } else {
        showResult(`Refused: ${data.reason || answer.statusText}`, "refused");
      }
    } catch (e) {
      showResult("Not sent: no connection to the board", "error");
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  function press(square) {
    post("/api/press", { square });
  }

  function act(move) {
    post("/api/move", { move });
  }

  function undo(what) {
    post("/api/undo", { undo: what });
  }

  /* A takeback every player agrees to: asked here, accepted on the other pages. */
  function showUndo(view) {
    const u = view.undo;
    const mine = u && u.by === view.you;
    const asked = u && (u.waiting || []).includes(view.you);
    $("undo").hidden = !u && !(view.moves || []).length;
    $("undo-ask").hidden = Boolean(u);
    $("undo-accept").hidden = !asked;
    $("undo-decline").hidden = !(asked || mine);
    $("undo-decline").textContent = mine ? "Withdraw" : "Refuse";
    let text = "";
    if (u) {
      const what = (u.moves || []).join(", ");
      const waiting = (u.waiting || []).map((p) => BV.playerLabel(view, p)).join(", ");
      if (mine) text = `You asked to take back ${what}: waiting for ${waiting}.`;
      else text = `${u.by_label} asks to take back ${what}.${asked ? "" : ` Waiting for ${waiting}.`}`;
    }
    $("undo-text").textContent = text;
  }

  $("undo-ask").addEventListener("click", () => undo("ask"));
  $("undo-accept").addEventListener("click", () => undo("accept"));
  $("undo-decline").addEventListener("click", () => undo("decline"));

  function onView(view) {
    render(view, { onPress: press, onAction: act });
    showUndo(view);
    const me = (view.players || []).find((p) => p.id === view.you);
    const label = me ? `${me.label}${me.name ? ` (${me.name})` : ""}` : view.you;
    const yourTurn = (view.to_act || []).includes(view.you) && !view.over;
    $("you").textContent = `You are ${label}.${yourTurn ? " Your turn!" : ""}`;
    $("you").className = `you${yourTurn ? " your-turn" : ""}`;
    document.title = `${label}: ${view.title || view.game}`;
    const priv = view.private || { lines: [], actions: [] };
    fillList($("private"), priv.lines || [], (line) => el("li", "", line));
    renderActions($("private-actions"), priv.actions, act);
    /* a game without secrets, nothing to choose now: no empty "Only for you" box */
    $("private").closest("section").hidden = !(priv.lines || []).length && !(priv.actions || []).length;
  }

  function gone(reason) {
    if (link) link.stop();
    document.body.dataset.conn = "gone";
    $("gone").hidden = false;
    $("conn").textContent = "✕ closed";
    if (reason) $("gone").dataset.reason = reason;
  }

  /* Before reconnecting: is the token still good? A new game makes new tokens. */
  async function stillMine() {
    try {
      const answer = await fetch("/api/me", { headers: authHeaders(), cache: "no-store" });
      if (answer.status === 401 || answer.status === 403) {
        gone();
        return false;
      }
    } catch (e) {
      // the server is still down: keep trying
    }
    return true;
  }

  $("share").addEventListener("toggle", () => {
    const img = $("qr");
    if ($("share").open && !img.src) img.src = `/qr/${encodeURIComponent(token)}.svg`;
  });

  link = BV.connect(`/ws?token=${encodeURIComponent(token)}`, {
    onView,
    onGone: () => gone(),
    beforeReconnect: stillMine,
  });
})();
