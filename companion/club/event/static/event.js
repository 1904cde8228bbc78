"use strict";
// The event page: standings, rounds and corrections read every few seconds; the arbiter's
// corrections sent with the token the hub printed. Text only (never HTML from the data).
const $ = (id) => document.getElementById(id);

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
  for (const h of ["#", "name", "points", ...standings.tiebreaks]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  for (const s of standings.standings) {
    const row = body.insertRow();
    cell(row, s.rank, "num");
    cell(row, s.name);
    cell(row, s.points, "num");
    for (const t of standings.tiebreaks) cell(row, s.tiebreaks[t], "num");
  }
  const games = $("games").tBodies[0];
  games.replaceChildren();
  for (const g of event.games) {
    const row = games.insertRow();
    const id = `r${g.round}-t${g.table}` + (g.attempt > 1 ? `-${g.attempt}` : "");
    cell(row, id);
    cell(row, g.board || "");
    cell(row, g.white);
    cell(row, g.black === null ? "(bye)" : g.black);
    cell(row, (g.result || "*") + (g.void ? " (replayed)" : ""));
  }
  const list = $("corrections");
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
