/* A board's full table page on the hub: the board's public view as it published it, drawn by
   the companion's own table renderer (BV.render, /static/view.js). */
"use strict";

(() => {
  const { $, render } = BV;
  const name = decodeURIComponent(location.pathname.split("/").pop() || "");
  $("board-name").textContent = name;
  document.title = `Club night: ${name}`;

  function onView(view) {
    if (!view) return;
    $("waiting").hidden = true;
    render(view);
  }

  function onMessage(msg) {
    if (msg.type !== "board" || !msg.board) return;
    const online = $("online");
    online.textContent = msg.board.online ? "● online" : "○ offline";
    online.className = `online ${msg.board.online ? "is-online" : "is-offline"}`;
    document.body.dataset.online = msg.board.online ? "yes" : "no";
  }

  BV.connect(`/ws/board/${encodeURIComponent(name)}`, { onView, onMessage });
})();
