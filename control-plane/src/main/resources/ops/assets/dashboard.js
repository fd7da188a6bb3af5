// kvfleet dashboard: polls the coordinator's read API, follows its event stream, draws with uPlot.
(function () {
  "use strict";
  const token = new URLSearchParams(location.search).get("access_token") || "";
  const headers = { Authorization: "Bearer " + token };
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const time = (t) => (t ? new Date(t).toLocaleTimeString() : "");
  const api = (path) => fetch(path, { headers }).then((r) => r.ok ? r.json() : r.json().then((e) => Promise.reject(new Error(r.status + ": " + e.error))));

  // ---- charts ----
  const WINDOW = 120;
  const PHASES = ["request_to_decision", "decision_to_engine", "engine", "outcome_to_log", "end_to_end"];
  const COLORS = ["#58a6ff", "#d29922", "#3fb950", "#bc8cff", "#f85149"];
  const tp = [[], [], []];
  const lat = [[], ...PHASES.map(() => [])];
  function chart(el, series, data) {
    return new uPlot({ width: el.clientWidth || 500, height: 200, series: [{}, ...series],
      axes: [{ stroke: "#8a98a8", grid: { stroke: "#2a3541" } }, { stroke: "#8a98a8", grid: { stroke: "#2a3541" } }] }, data, el);
  }
  const throughput = chart($("throughput-chart"), [
    { label: "completed/s", stroke: "#3fb950", width: 2 }, { label: "failed or rejected/s", stroke: "#f85149", width: 2 }], tp);
  const latency = chart($("latency-chart"), PHASES.map((p, i) => ({ label: p, stroke: COLORS[i], width: 2 })), lat);
  let last = null;
  function sample(s) {
    const t = s.atMillis / 1000;
    if (last) {
      const dt = Math.max(0.001, t - last.t);
      const tr = s.transfers, lt = last.s.transfers;
      const ok = ((tr.completed || 0) - (lt.completed || 0)) / dt;
      const bad = ((tr.failed || 0) + (tr.rejected || 0) + (tr.timed_out || 0) - (lt.failed || 0) - (lt.rejected || 0) - (lt.timed_out || 0)) / dt;
      push(tp, [t, ok, bad]);
      push(lat, [t, ...PHASES.map((p) => {
        const a = s.phases[p], b = last.s.phases[p] || { count: 0, totalSeconds: 0 };
        if (!a || a.count === b.count) return null;
        return 1000 * (a.totalSeconds - b.totalSeconds) / (a.count - b.count);
      })]);
      throughput.setData(tp); latency.setData(lat);
    }
    last = { t, s };
    const c = s.counts;
    $("ready").textContent = s.caughtUp ? "caught up" : "catching up";
    $("ready").className = "badge " + (s.caughtUp ? "ok" : "warn");
    $("hash").textContent = "state " + s.hash.slice(0, 16);
    $("in-flight").textContent = c.inFlight + " in flight";
    $("transfer-totals").textContent = `${c.transfers} kept: ${c.completed} completed, ${c.rejected} rejected, ${c.failed} failed, ${c.timedOut} timed out · ${(s.bytesMoved / 1048576).toFixed(1)} MiB moved`;
  }
  function push(series, row) {
    row.forEach((v, i) => series[i].push(v));
    if (series[0].length > WINDOW) series.forEach((a) => a.shift());
  }

  // ---- fleet, transfers, registrations ----
  function fleet(peers) {
    $("fleet").innerHTML = peers.map((p) => {
      const status = p.status === "ALIVE" ? "ok" : "bad";
      const backends = p.capabilities.map((b) => `<div>${esc(b.backend)} ${b.available ? "" : '<span class="badge bad">unavailable</span>'} ` +
        ["DRAM", "VRAM"].map((m) => `<span class="mem ${b.available && b.memoryTypes.includes(m) ? "yes" : "no"}" title="${esc(b.detail)}">${m}</span>`).join("") + "</div>").join("");
      return `<div class="card node" data-node="${esc(p.nodeId)}"><h3>${esc(p.nodeId)} <span class="badge ${status}">${esc(p.status)}</span></h3>` +
        `<div class="muted">${esc(p.role)} · epoch ${p.epoch} · ${esc(p.host)} · heartbeat ${time(p.lastHeartbeat)}</div>${backends}</div>`;
    }).join("");
  }
  function transfers(list) {
    $("transfers").tBodies[0].innerHTML = list.map((t) => {
      const bad = ["FAILED", "REJECTED", "TIMED_OUT"].includes(t.status);
      return `<tr class="transfer ${bad ? "failed" : ""}" data-transfer="${esc(t.request.transferId)}"><td>${esc(t.request.transferId)}</td>` +
        `<td>${esc(t.request.sourceNode)} → ${esc(t.request.destinationNode)}</td><td>${esc(t.status)}</td><td>${esc(t.reason)}</td>` +
        `<td>${t.bytes}</td><td>${time(t.updatedAt)}</td></tr>`;
    }).join("");
  }
  function registrations(regions) {
    $("registrations").tBodies[0].innerHTML = regions.map((r) => {
      const failed = r.status === "FAILED";
      const backends = Object.keys(r.remoteKeys).map((b) => esc(b) + " ✓").concat(Object.entries(r.failedBackends).map(([b, why]) => esc(b) + " ✗ " + esc(why))).join(", ");
      return `<tr class="registration ${failed ? "failed" : ""}" data-node="${esc(r.nodeId)}" data-region="${esc(r.regionId)}" data-memory="${esc(r.spec.memoryType)}">` +
        `<td>${esc(r.nodeId)}</td><td>${esc(r.regionId)}</td><td>${esc(r.spec.kind)}</td><td>${esc(r.spec.memoryType)}</td><td>${esc(r.status)}</td><td>${backends}</td></tr>`;
    }).join("");
  }

  // ---- the detail panel: a diagnosis or an explanation chain ----
  function show(title, html) {
    $("detail-title").textContent = title;
    $("detail-body").innerHTML = html;
    $("detail").hidden = false;
  }
  $("detail-close").onclick = () => { $("detail").hidden = true; };
  function diagnose(node, region) {
    api("/api/v1/registrations/failures?node=" + encodeURIComponent(node)).then((f) => {
      const all = Object.values(f.groups).flatMap((byNode) => byNode[node] || []);
      const mine = all.filter((d) => d.regionId === region);
      if (!mine.length) return explain("region", node + "/" + region);
      show("Registration failed: " + node + "/" + region, mine.map((d) =>
        `<div class="diag diagnosis">${esc(d.diagnosis)}</div><div class="remedy remediation"><b>What to do:</b> ${esc(d.remediation)}</div>` +
        `<dl><dt>reason</dt><dd>${esc(d.reason)}</dd><dt>backend</dt><dd>${esc(d.backend)} ${esc(d.capability.version)}</dd>` +
        `<dt>native</dt><dd>${d.nativeCode} ${esc(d.nativeMessage)}</dd><dt>component</dt><dd>${esc(d.component)} (device ${d.device}, ${d.length} bytes)</dd>` +
        `<dt>backend says</dt><dd>${esc(d.capability.detail)}</dd></dl>`).join("") +
        `<p><a href="#" id="explain-region">Explain this region's history</a></p>`);
      $("explain-region").onclick = (e) => { e.preventDefault(); explain("region", node + "/" + region); };
    }).catch((e) => show("Error", esc(e.message)));
  }
  function explain(kind, id) {
    api(`/api/v1/explain?kind=${kind}&id=${encodeURIComponent(id)}`).then((x) => {
      show(`Explain ${kind} ${id}`, `<p class="summary explanation">${esc(x.summary)}</p>` + x.steps.map((s) =>
        `<div class="step"><span class="when">${time(s.time)} · ${esc(s.position)} · ${esc(s.type)}</span><br>${esc(s.text)}</div>`).join(""));
    }).catch((e) => show("Error", esc(e.message)));
  }
  document.addEventListener("click", (e) => {
    const el = e.target.closest("[data-transfer],[data-region],[data-node],[data-explain]");
    if (!el || el.closest("#detail")) return;
    if (el.dataset.explain) explain(el.dataset.explain, el.dataset.id);
    else if (el.dataset.transfer) explain("transfer", el.dataset.transfer);
    else if (el.dataset.region && el.classList.contains("failed")) diagnose(el.dataset.node, el.dataset.region);
    else if (el.dataset.region) explain("region", el.dataset.node + "/" + el.dataset.region);
    else explain("node", el.dataset.node);
  });

  // ---- the live timeline ----
  const KIND = (type) => type.startsWith("io.kvfleet.transfer") ? "transfer" : type.startsWith("io.kvfleet.peer") ? "node" : "region";
  function timeline(ev) {
    if (ev.type === "io.kvfleet.peer.heartbeat") return;
    const kind = KIND(ev.type);
    const id = kind === "region" ? ev.node + "/" + ev.subject : ev.subject;
    const li = document.createElement("li");
    const bad = /failed|rejected|timed_out|lost/.test(ev.type);
    li.innerHTML = `${time(ev.time)} <span class="${bad ? "type-failed" : ""}">${esc(ev.type.replace("io.kvfleet.", ""))}</span> ` +
      `<a data-explain="${kind}" data-id="${esc(id)}">${esc(id)}</a> <span class="muted">by ${esc(ev.producer)}</span>`;
    const list = $("timeline");
    list.prepend(li);
    while (list.children.length > 300) list.lastChild.remove();
  }
  function stream() {
    const es = new EventSource("/api/v1/stream?access_token=" + encodeURIComponent(token));
    es.onmessage = (m) => timeline(JSON.parse(m.data));
  }

  function refresh() {
    Promise.all([api("/api/v1/summary"), api("/api/v1/peers"), api("/api/v1/transfers?limit=25"), api("/api/v1/regions")])
      .then(([s, p, t, r]) => { sample(s); fleet(p); transfers(t); registrations(r); $("coordinator").textContent = "coordinator · " + p.length + " peers"; })
      .catch((e) => { $("coordinator").textContent = e.message; });
  }
  api("/api/v1/events?limit=200").then((page) => page.items.forEach(timeline)).catch(() => {}).finally(stream);
  refresh();
  setInterval(refresh, 2000);
})();
