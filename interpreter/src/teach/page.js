"use strict";
// The teaching page: decodes the trace data (keyframes and diffs, see encode.rs), shows one step
// at a time and wires the controls. No libraries, no network.
(async function () {
  // the data is gzip in base64 (html.rs): inflate it with the browser's own decompressor
  const packed = atob(document.getElementById("trace-data").textContent.trim());
  const bytes = new Uint8Array(packed.length);
  for (let i = 0; i < packed.length; i++) bytes[i] = packed.charCodeAt(i);
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const D = JSON.parse(await new Response(inflated).text());
  const S = D.steps, N = S.count, str = D.strings, meta = D.meta;
  const $ = (id) => document.getElementById(id);
  const names = Object.keys(S.costs);

  // costs so far: prefix sums of the per-step costs
  const cum = {};
  for (const k of names) {
    const a = S.costs[k], c = new Float64Array(N);
    let t = 0;
    for (let i = 0; i < N; i++) { t += a[i]; c[i] = t; }
    cum[k] = c;
  }

  // a text of a keyframe/diff column at step i; moving forward by one applies one diff
  function decoder(entries) {
    let at = -1, cur = "";
    return function (i) {
      if (i === at) return cur;
      let k, t;
      if (i === at + 1 && typeof entries[i] !== "string") { k = i; t = cur; }
      else {
        k = i;
        while (typeof entries[k] !== "string") k--;
        t = entries[k]; k++;
      }
      for (let j = k; j <= i; j++) {
        const e = entries[j];
        t = t.slice(0, e[0]) + e[2] + t.slice(t.length - e[1]);
      }
      at = i; cur = t;
      return t;
    };
  }
  const termAt = decoder(S.term), storeAt = decoder(S.store);

  function ruleParts(r) {
    const sp = r.indexOf(" ");
    return sp < 0 ? [r, ""] : [r.slice(0, sp), r.slice(sp + 1)];
  }
  const statements = new Map(meta.rules.map((r) => [r[0], r[1]]));

  // header, rules table, rule picker, histogram
  $("title").textContent = meta.title + " (" + meta.lang.toUpperCase() +
    (meta.machine ? ", machine " + meta.machine[0] + "x" + meta.machine[1] : "") +
    (meta.schedule ? ", schedule " + meta.schedule : "") + ")";
  $("outcome").textContent = D.outcome;
  $("output").textContent = D.output || "(nothing printed)";
  $("count").textContent = N;
  $("jump").max = Math.max(N, 1);
  const rulesTable = $("rules");
  for (const [num, st] of meta.rules) {
    const tr = rulesTable.insertRow();
    tr.id = "rule-" + num;
    tr.insertCell().textContent = num;
    tr.insertCell().textContent = st;
  }
  const counts = new Map();
  for (let i = 0; i < N; i++) counts.set(S.rule[i], (counts.get(S.rule[i]) || 0) + 1);
  const used = [...counts.keys()].sort((a, b) => str[a].localeCompare(str[b], "en", { numeric: true }));
  const pick = $("rule-pick");
  for (const r of used) {
    const o = document.createElement("option");
    o.value = r; o.textContent = str[r] + " (" + counts.get(r) + ")";
    pick.appendChild(o);
  }
  const hist = $("hist");
  const maxCount = Math.max(1, ...counts.values());
  for (const r of [...used].sort((a, b) => counts.get(b) - counts.get(a))) {
    const row = document.createElement("div");
    row.className = "bar";
    row.dataset.rule = str[r];
    row.innerHTML = "<span class=label></span><span class=fill></span><span class=n></span>";
    row.children[0].textContent = str[r];
    row.children[1].style.width = (100 * counts.get(r) / maxCount) + "%";
    row.children[2].textContent = counts.get(r);
    row.onclick = () => { pick.value = r; };
    hist.appendChild(row);
  }

  // the cost plot: every cost summed so far, each on the scale of the largest
  const colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
  const canvas = $("plot"), ctx2 = canvas.getContext("2d");
  let top = 1;
  for (const k of names) if (N > 0) top = Math.max(top, cum[k][N - 1]);
  $("legend").innerHTML = names.map((k, j) =>
    "<span style='color:" + colors[j % 4] + "'>■ " + k + " (" +
    (N > 0 ? cum[k][N - 1] : 0) + ")</span>").join(" ");
  function plot(i) {
    const w = canvas.width, h = canvas.height;
    ctx2.clearRect(0, 0, w, h);
    if (N === 0) return;
    names.forEach((k, j) => {
      ctx2.strokeStyle = colors[j % 4];
      ctx2.beginPath();
      for (let x = 0; x < w; x++) {
        const s = Math.min(N - 1, Math.floor(x * N / w));
        const y = h - 2 - (h - 4) * cum[k][s] / top;
        if (x === 0) ctx2.moveTo(x, y); else ctx2.lineTo(x, y);
      }
      ctx2.stroke();
    });
    const cx = Math.floor(i * w / N);
    ctx2.strokeStyle = "#888";
    ctx2.beginPath(); ctx2.moveTo(cx, 0); ctx2.lineTo(cx, h); ctx2.stroke();
  }

  function showTerm(i) {
    const t = termAt(i), sp = S.spans[i], pre = $("term");
    const marks = [];
    for (let j = 0; j < sp.length; j += 2) marks.push([sp[j], sp[j + 1]]);
    marks.sort((a, b) => a[0] - b[0]);
    pre.textContent = "";
    let pos = 0;
    for (const [a, b] of marks) {
      if (a < pos) continue;
      pre.appendChild(document.createTextNode(t.slice(pos, a)));
      const m = document.createElement("mark");
      m.className = "redex";
      m.textContent = t.slice(a, b);
      pre.appendChild(m);
      pos = b;
    }
    pre.appendChild(document.createTextNode(t.slice(pos)));
    const first = pre.querySelector("mark");
    if (first && first.scrollIntoView) first.scrollIntoView({ block: "nearest" });
  }

  function showStore(i, effects) {
    const box = $("store-box");
    if (meta.lang !== "tail") { box.style.display = "none"; return; }
    const written = new Set();
    for (const e of effects) { const m = /\bl\d+\b/.exec(e); if (m) written.add(m[0]); }
    const pre = $("store");
    pre.textContent = "";
    const text = storeAt(i);
    for (const line of text ? text.split("\n") : []) {
      const div = document.createElement("div");
      div.textContent = line;
      if (written.has(line.split(" ")[0])) div.className = "written";
      pre.appendChild(div);
    }
    if (!text) pre.textContent = "(empty)";
  }

  function showMachine(i) {
    const box = $("machine-box");
    if (!meta.machine) { box.style.display = "none"; return; }
    const [B, T] = meta.machine;
    const fired = new Set(S.fired[i].map((s) => str[s]));
    const loc = S.loc[i] === null ? "" : str[S.loc[i]];
    const tbl = document.createElement("table");
    tbl.className = "grid";
    if (loc === "Grid" && S.fired[i].length === 1 && fired.has("Grid")) tbl.classList.add("fired");
    for (let b = 0; b < B; b++) {
      const tr = tbl.insertRow();
      const th = document.createElement("th");
      th.textContent = "Block(" + b + ")";
      th.dataset.loc = "Block(" + b + ")";
      if (fired.has(th.dataset.loc)) th.className = "fired";
      tr.appendChild(th);
      for (let t = 0; t < T; t++) {
        const id = b * T + t, td = tr.insertCell();
        td.textContent = id;
        td.dataset.loc = "Thread(" + id + ")";
        if (fired.has(td.dataset.loc)) td.className = "fired";
      }
    }
    const m = $("machine");
    m.textContent = "";
    const cap = document.createElement("div");
    cap.id = "fired-list";
    cap.textContent = "fired: " + ([...fired].join(", ") || "none");
    m.appendChild(cap);
    m.appendChild(tbl);
    const groups = JSON.parse(str[S.groups[i]]), g = $("groups");
    g.textContent = "";
    for (const grp of groups) {
      const div = document.createElement("div");
      div.className = "group";
      const mem = grp.level >= 2 ? "global array" : grp.level === 1 ? "shared memory" : "private";
      div.innerHTML = "<b></b>";
      div.firstChild.textContent = grp.loc + ": building a level-" + grp.level + " array (" + mem + ")";
      grp.parts.forEach((cells, k) => {
        const p = document.createElement("div");
        p.className = "part" + (grp.fresh.includes(k) ? " fresh" : "");
        const at = grp.running.indexOf(k);
        p.textContent = "part " + k + ": " + (cells ? "[" + cells.join(", ") + "]" :
          at >= 0 ? "running at sub-location " + at : "waiting");
        div.appendChild(p);
      });
      g.appendChild(div);
    }
  }

  let cur = 0;
  function show(i) {
    if (N === 0) {
      $("term").textContent = D.last;
      $("step-no").textContent = "0";
      return;
    }
    i = Math.max(0, Math.min(N - 1, i));
    cur = i;
    const [num, name] = ruleParts(str[S.rule[i]]);
    $("step-no").textContent = i + 1;
    $("jump").value = i + 1;
    $("rule-number").textContent = num;
    $("rule-name").textContent = name;
    $("rule-link").href = "#rule-" + num;
    $("statement").textContent = statements.get(num) || "";
    $("location").textContent = S.loc[i] === null ? "" : "at " + str[S.loc[i]];
    $("result").textContent = str[S.result[i]];
    const effects = S.effects[i].map((e) => str[e]);
    const ul = $("effects");
    ul.textContent = "";
    for (const e of effects) { const li = document.createElement("li"); li.textContent = e; ul.appendChild(li); }
    const costs = $("costs");
    costs.textContent = "";
    for (const k of names) {
      const tr = costs.insertRow();
      tr.insertCell().textContent = k;
      const c = tr.insertCell();
      c.id = "cost-" + k;
      c.textContent = cum[k][i];
      tr.insertCell().textContent = "(+" + S.costs[k][i] + ")";
    }
    const tr = costs.insertRow();
    tr.insertCell().textContent = "steps";
    tr.insertCell().textContent = i + 1;
    showTerm(i);
    showStore(i, effects);
    showMachine(i);
    plot(i);
    if (location.hash !== "#step=" + (i + 1) && !location.hash.startsWith("#rule-")) {
      history.replaceState(null, "", "#step=" + (i + 1));
    }
  }

  function ruleUse(dir) {
    const r = Number(pick.value);
    for (let j = cur + dir; j >= 0 && j < N; j += dir) if (S.rule[j] === r) return show(j);
  }
  let timer = null;
  function play() {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
    $("play").textContent = "pause";
    timer = setInterval(() => {
      if (cur >= N - 1) play(); else show(cur + 1);
    }, Number($("speed").value));
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(cur - 1);
  $("next").onclick = () => show(cur + 1);
  $("last").onclick = () => show(N - 1);
  $("rule-next").onclick = () => ruleUse(1);
  $("rule-prev").onclick = () => ruleUse(-1);
  $("play").onclick = play;
  $("jump").onchange = () => show(Number($("jump").value) - 1);
  $("jump").onkeydown = (e) => { if (e.key === "Enter") show(Number($("jump").value) - 1); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const k = e.key;
    if (k === "ArrowRight" || k === "n") show(cur + 1);
    else if (k === "ArrowLeft" || k === "p") show(cur - 1);
    else if (k === "Home" || k === "g") show(0);
    else if (k === "End" || k === "G") show(N - 1);
    else if (k === "r") ruleUse(1);
    else if (k === "R") ruleUse(-1);
    else if (k === " ") play();
    else return;
    e.preventDefault();
  });
  function fromHash() {
    const m = /^#step=(\d+)$/.exec(location.hash);
    if (m) show(Number(m[1]) - 1);
  }
  window.addEventListener("hashchange", fromHash);
  if (N > 0) pick.value = S.rule[0];
  // a #step=N link opens at that step (read before show() rewrites the fragment)
  const linked = /^#step=(\d+)$/.exec(location.hash);
  show(linked ? Number(linked[1]) - 1 : 0);
  window.stepperReadyMs = performance.now();
  document.body.dataset.ready = "1";
})();
