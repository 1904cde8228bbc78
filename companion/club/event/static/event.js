"use strict";
// The event page: standings, rounds and corrections read every few seconds; the arbiter's
// corrections sent with the token the hub printed. Text only (never HTML from the data).
const $ = (id) => document.getElementById(id);
// short column heads for the tie-breaks (a phone's width), each spelled out in its title
// and in the line under the table; one not listed here is shown by its own name
const SHORT = {
  "buchholz-cut-1": "BH-C1", "buchholz": "BH", "sonneborn-berger": "SB",
  "direct-encounter": "DE", "wins": "W",
};

function heading(row, text, title) {
  const th = document.createElement("th");
  th.scope = "col";
  if (title && title !== text) {
    const abbr = document.createElement("abbr");
    abbr.title = title;
    abbr.textContent = text;
    th.appendChild(abbr);
  } else {
    th.textContent = text;
  }
  if (row.children.length !== 1) th.className = "num";
  row.appendChild(th);
}

function cell(row, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  row.appendChild(td);
}

function show(standings, event) {
  $("name").textContent = standings.event;
  document.title = standings.event;
  $("where").textContent = `${standings.game}, ${standings.pairing}: round ${standings.round} of ${standings.rounds}` +
    (standings.finished ? " (finished)" : "");
  $("note").textContent = event.note || "";
  const head = $("standings-head");
  head.replaceChildren();
  heading(head, "#", "rank");
  heading(head, "name");
  heading(head, "pts", "points");
  for (const t of standings.tiebreaks) heading(head, SHORT[t] || t, t.replace(/-/g, " "));
  $("rule").textContent = standings.tiebreaks.length
    ? "Ties: " + standings.tiebreaks.map((t) => (SHORT[t] ? `${SHORT[t]} ${t.replace(/-/g, " ")}` : t)).join(", ")
    : "";
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  for (const s of standings.standings) {
    const row = body.insertRow();
    cell(row, s.rank, "num");
    cell(row, s.name, "who");
    cell(row, s.points, "num");
    for (const t of standings.tiebreaks) cell(row, s.tiebreaks[t], "num");
  }
  const games = $("games").tBodies[0];
  games.replaceChildren();
  for (const g of event.games) {
    const row = games.insertRow();
    const id = `r${g.round}-t${g.table}` + (g.attempt > 1 ? `-${g.attempt}` : "");
    cell(row, id, "id");
    cell(row, g.board || "", "id");
    cell(row, g.white, "who");
    cell(row, g.black === null ? "(bye)" : g.black, "who");
    cell(row, (g.result || "*") + (g.void ? " (replayed)" : ""), g.void ? "result void" : "result");
  }
  const list = $("corrections");
  $("corrections-panel").hidden = event.corrections.length === 0;
  list.replaceChildren();
  for (const c of event.corrections) {
    const li = document.createElement("li");
    li.textContent = `${c.at} ${c.pairing}: ${c.old || "*"} -> ${c.new} by ${c.who}: ${c.why}`;
    list.appendChild(li);
  }
}

async function refresh() {
  try {
    const [s, e] = await Promise.all([fetch("/api/standings"), fetch("/api/event")]);
    if (s.ok && e.ok) show(await s.json(), await e.json());
  } catch (err) {
    $("note").textContent = "the hub does not answer; trying again";
  }
}

async function arbiter(path, body) {
  const answer = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Authorization": `Bearer ${$("token").value}` },
    body: JSON.stringify(body),
  });
  const data = await answer.json();
  $("answer").textContent = data.ok ? (data.done || `round ${data.round} paired`) : data.reason;
  refresh();
}

$("correct").addEventListener("submit", (ev) => {
  ev.preventDefault();
  arbiter("/api/event/correct", {
    pairing: $("pairing").value, result: $("result").value, who: $("who").value, why: $("why").value,
  });
});
$("pair").addEventListener("click", () => arbiter("/api/event/pair", {}));
refresh();
setInterval(refresh, 3000);
