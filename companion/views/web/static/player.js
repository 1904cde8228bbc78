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

  let refusal = ""; // this page's last refused move, said in the result box

  function showResult(text, kind, reason = "") {
    const box = $("result");
    setText(box, text);
    box.className = `result result-${kind}`;
    document.body.dataset.result = kind;
    refusal = reason;
    sayOnce();
  }

  /* The refusal this page was answered is said once: in its result box, not again below. */
  function sayOnce() {
    const message = $("message");
    if (refusal && message.textContent.endsWith(refusal)) message.hidden = true;
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
        const reason = data.reason || answer.statusText;
        showResult(`Refused: ${reason}`, "refused", reason);
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

  /* The tutor for this seat alone (docs/review.md): the switch asks the board, the next
     view says what it is (a refusal, with a remote opponent or in a club event's game, is
     said in the result box and the switch goes back). */
  function showTutor(view) {
    const t = view.tutor;
    $("tutor").hidden = !t;
    if (t) $("tutor-on").checked = Boolean(t.on);
    document.body.dataset.tutor = t ? (t.on ? "on" : "off") : "none";
  }

  $("tutor-on").addEventListener("change", async () => {
    const on = $("tutor-on").checked;
    await post("/api/tutor", { tutor: on ? "on" : "off" });
    if (document.body.dataset.result !== "ok") $("tutor-on").checked = !on;
  });

  $("undo-ask").addEventListener("click", () => undo("ask"));
  $("undo-accept").addEventListener("click", () => undo("accept"));
  $("undo-decline").addEventListener("click", () => undo("decline"));

  function onView(view) {
    render(view, { onPress: press, onAction: act });
    sayOnce();
    showUndo(view);
    showTutor(view);
    const me = (view.players || []).find((p) => p.id === view.you);
    const label = me ? `${me.label}${me.name ? ` (${me.name})` : ""}` : view.you;
    const yourTurn = (view.to_act || []).includes(view.you) && !view.over;
    $("you").textContent = `You are ${label}.${yourTurn ? " Your turn!" : ""}`;
    $("you").className = `you${yourTurn ? " your-turn" : ""}`;
    document.title = `${label}: ${view.title || view.game}`;
    const priv = view.private || { lines: [], actions: [] };
    let actions = priv.actions || [];
    /* Writing a digit: the sheet's own cells are the buttons (tap the cell for the digit). */
    const writes = {};
    const write = new RegExp(`^${escape(view.you)} write (\\d+)([ab])$`);
    for (const a of actions) {
      const m = write.exec(a.move);
      if (m) writes[`${m[1]}${m[2]}`] = a;
    }
    const onSheet = new Set();
    fillList($("private"), priv.lines || [], (line) => {
      const writing = Object.keys(writes).length > 0;
      if (writing && /^your digit to write: /.test(line)) return el("li", "sheet-prompt", line);
      const m = /^(your number (\d+): )(\S)(\S)$/.exec(line);
      if (!m || !writing) return el("li", "", line);
      const li = el("li", "sheet-row", m[1]);
      ["a", "b"].forEach((half, k) => {
        const a = writes[`${m[2]}${half}`];
        if (!a) {
          li.append(el("span", "sheet-digit", m[3 + k]));
          return;
        }
        onSheet.add(a.move);
        const b = el("button", "action sheet-digit", m[3 + k]);
        b.type = "button";
        b.dataset.move = a.move;
        b.setAttribute("aria-label", a.label || a.move);
        b.title = a.label || a.move;
        b.onclick = () => act(a.move);
        li.append(b);
      });
      return li;
    });
    actions = actions.filter((a) => !onSheet.has(a.move));
    renderPicks($("private-picks"), actions, act);
    renderActions($("private-actions"), actions.filter((a) => !SETUP.test(a.move)), act);
    /* a game without secrets, nothing to choose now: no empty "Only for you" box */
    $("private").closest("section").hidden = !(priv.lines || []).length && !(priv.actions || []).length;
  }

  function escape(text) {
    return String(text || "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  /* Setting up a nest: choose the nest, then its top colour, then the one under it, from
     the game's "setup <nest> <top>/<under>" moves (three taps, not a wall of buttons). */
  const SETUP = /^setup (\S+) (\S+)\/(\S+)$/;
  const picked = { nest: "", top: "" };

  function renderPicks(box, actions, onAction) {
    const setups = actions.map((a) => [a, SETUP.exec(a.move)]).filter(([, m]) => m);
    box.hidden = !setups.length;
    if (!setups.length) {
      box.replaceChildren();
      return;
    }
    const nests = [...new Set(setups.map(([, m]) => m[1]))];
    if (!nests.includes(picked.nest)) picked.nest = nests.length === 1 ? nests[0] : "";
    const tops = [...new Set(setups.filter(([, m]) => m[1] === picked.nest).map(([, m]) => m[2]))];
    if (!tops.includes(picked.top)) picked.top = "";
    const rows = [];
    const row = (title, items) => {
      const group = el("div", "pick-row");
      group.setAttribute("role", "group");
      const id = `pick-${rows.length}`;
      const heading = el("span", "pick-title", title);
      heading.id = id;
      group.setAttribute("aria-labelledby", id);
      group.append(heading, ...items);
      rows.push(group);
    };
    const choice = (text, pick, chosen, then) => {
      const b = el("button", `pick${chosen ? " chosen" : ""}`, `${chosen ? "✓ " : ""}${text}`);
      b.type = "button";
      b.dataset.pick = pick;
      b.setAttribute("aria-pressed", String(chosen));
      b.onclick = then;
      return b;
    };
    /* drawn again with the next step; the keyboard's focus goes on to that step */
    const again = (next) => {
      renderPicks(box, actions, onAction);
      const step = box.querySelectorAll(".pick-row")[next];
      if (step) step.querySelector("button").focus();
    };
    row(
      "1. Choose a nest",
      nests.map((n) => choice(n, `setup ${n}`, n === picked.nest, () => {
        picked.nest = n;
        picked.top = "";
        again(1);
      })),
    );
    if (picked.nest) {
      row(
        `2. ${picked.nest}: the colour on top`,
        tops.map((c) => choice(c, `setup ${picked.nest} ${c}/`, c === picked.top, () => {
          picked.top = c;
          again(2);
        })),
      );
    }
    if (picked.top) {
      const unders = setups.filter(([, m]) => m[1] === picked.nest && m[2] === picked.top);
      row(
        `3. ${picked.nest}: ${picked.top} over…`,
        unders.map(([a, m]) => {
          const b = el("button", "action", m[3]);
          b.type = "button";
          b.dataset.move = a.move;
          b.setAttribute("aria-label", a.label || a.move);
          b.onclick = () => onAction(a.move);
          return b;
        }),
      );
    }
    box.replaceChildren(...rows);
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
