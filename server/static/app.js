// strata explorer: a page over the JSON API of strata serve. Plain
// JavaScript, no build step, no external resources.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  theory: null,   // the loaded theory (view from the API)
  base: null,     // the loaded default base
  answers: [],    // every answer asked so far
  run: null,      // the current learning run id
  events: null,   // its EventSource
};

// api calls the JSON API and throws the API's error object on failure.
// Every POST says it is JSON, even without a body: the server refuses
// other POSTs, which a page of another site could send.
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (method === "POST") {
    opts.headers["Content-Type"] = "application/json";
  }
  if (body !== undefined) {
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const text = await res.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    data = { error: text || res.statusText, status: res.status };
  }
  if (!res.ok) {
    throw data;
  }
  return data;
}

// selectPosition selects, in a textarea, the line and column an error
// names, so that the user sees where the input is wrong.
function selectPosition(textareaId, line, column) {
  const ta = $(textareaId);
  const lines = ta.value.split("\n");
  if (!line || line > lines.length) return;
  let start = 0;
  for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
  const from = start + Math.max(0, Math.min(column - 1, lines[line - 1].length));
  ta.focus();
  ta.setSelectionRange(from, start + lines[line - 1].length);
}

// showError writes an API error with its position, or hides the box.
function showError(box, err) {
  const el = $(box);
  if (!err) {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  let msg = err.error || String(err);
  if (err.line) {
    msg = `${err.field || "input"}: line ${err.line}, column ${err.column}\n${msg}`;
  }
  el.textContent = msg;
  el.hidden = false;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// saveLink makes a link download the given content.
function saveLink(id, name, type, content) {
  const a = $(id);
  if (a.dataset.url) URL.revokeObjectURL(a.dataset.url);
  const url = URL.createObjectURL(new Blob([content], { type }));
  a.href = url;
  a.dataset.url = url;
  a.download = name;
}

function readFileInto(inputId, textareaId, after) {
  $(inputId).addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    $(textareaId).value = await f.text();
    $(textareaId).dataset.name = f.name;
    if (after) after(f.name);
  });
}

async function fetchText(path) {
  const res = await fetch(path);
  return res.text();
}

const fmt = (w) => (Math.round(w * 10000) / 10000).toString();

// ---- 1. theory ----

async function loadTheory(body) {
  showError("theory-error", null);
  try {
    state.theory = await api("POST", "/api/theories", body);
  } catch (err) {
    showError("theory-error", err);
    if (err.field === "theory" && body.text !== undefined) selectPosition("theory-text", err.line, err.column);
    return;
  }
  renderTheory();
}

function renderTheory() {
  const t = state.theory;
  const box = $("levels");
  box.replaceChildren();
  t.levels.forEach((l, i) => {
    const ul = el("ul");
    l.formulas.forEach((f, j) => ul.append(el("li", { class: "formula", dataset: { level: i, index: j } }, f)));
    box.append(el("div", { class: "level", id: `level-${i}`, dataset: { level: i } }, el("div", { class: "weight" }, fmt(l.weight)), ul));
  });
  $("theory-summary").textContent =
    `${t.name}: ${t.formulas} formulas in ${t.levels.length} levels over ${t.atoms.length} atoms; ` +
    `inconsistency level ${fmt(t.inconsistency)} · id ${t.id}`;
  $("theory-downloads").hidden = false;
  $("theory-download").href = `/api/theories/${t.id}/text`;
  saveLink("theory-json", "theory.json", "application/json", JSON.stringify(t, null, 2));
  $("answer-box").hidden = true;
}

function clearHighlight() {
  document.querySelectorAll("#levels .level").forEach((e) => e.classList.remove("drowned", "deciding", "partly"));
  document.querySelectorAll("#levels li").forEach((e) => e.classList.remove("entailing", "set-aside"));
}

// highlight marks, in the levels view, what the explanation names.
function highlight(a) {
  clearHighlight();
  const x = a.explanation || {};
  for (const i of x.drowned || []) $(`level-${i}`)?.classList.add("drowned");
  for (const i of x.partly_set_aside || []) $(`level-${i}`)?.classList.add("partly");
  if (a.deciding_level !== null && a.deciding_level !== undefined) $(`level-${a.deciding_level}`)?.classList.add("deciding");
  for (const f of x.entailing || []) {
    document.querySelector(`#levels li[data-level="${f.level}"][data-index="${f.index}"]`)?.classList.add("entailing");
  }
  for (const f of x.set_aside || []) {
    document.querySelector(`#levels li[data-level="${f.level}"][data-index="${f.index}"]`)?.classList.add("set-aside");
  }
}

async function ask() {
  showError("query-error", null);
  if (!state.theory) {
    await loadTheory({ text: $("theory-text").value, name: $("theory-text").dataset.name || "theory" });
    if (!state.theory) return;
  }
  let a;
  try {
    a = await api("POST", "/api/query", { theory_id: state.theory.id, query: $("query").value, semantics: $("semantics").value });
  } catch (err) {
    showError("query-error", err);
    if (err.field === "query" && err.column) {
      $("query").focus();
      $("query").setSelectionRange(err.column - 1, $("query").value.length);
    }
    return;
  }
  const box = $("answer");
  box.textContent = a.answer;
  box.className = `answer ${a.answer}`;
  $("deciding").textContent = a.entailed
    ? `deciding level: weight ${fmt(a.deciding_weight)} (necessity of β given α); inconsistency level ${fmt(a.inconsistency)}`
    : `not entailed; inconsistency level ${fmt(a.inconsistency)}`;
  $("explanation-text").textContent = a.explanation ? a.explanation.text : "";
  $("answer-box").hidden = false;
  highlight(a);
  state.answers.push(a);
  const tr = el("tr", {}, el("td", { class: "formula" }, a.query), el("td", {}, a.semantics),
    el("td", { class: a.answer }, a.answer), el("td", {}, a.entailed ? fmt(a.deciding_weight) : "–"), el("td", {}, fmt(a.inconsistency)));
  $("answers").tBodies[0].prepend(tr);
  saveLink("answers-download", "answers.json", "application/json", JSON.stringify(state.answers, null, 2));
}

async function given(kind) {
  showError("given-error", null);
  if (!state.theory) return;
  const out = $("given-result");
  try {
    const r = await api("POST", `/api/${kind}`, { theory_id: state.theory.id, given: $("given").value, semantics: $("semantics").value });
    state.answers.push({ [kind]: r });
    saveLink("answers-download", "answers.json", "application/json", JSON.stringify(state.answers, null, 2));
    if (kind === "conclusions") {
      const rows = r.conclusions.map((c) => el("tr", {}, el("td", { class: "formula" }, c.literal), el("td", {}, fmt(c.necessity))));
      out.replaceChildren(
        el("div", { class: "summary" }, `given ${r.given} (inconsistency level ${fmt(r.inconsistency)}):`),
        el("table", { class: "table", id: "conclusions-table" }, el("thead", {}, el("tr", {}, el("th", {}, "literal"), el("th", {}, "necessity"))), el("tbody", {}, ...rows)));
    } else {
      out.replaceChildren(el("div", { class: "summary" }, r.possible
        ? `a most plausible world given ${r.given} (possibility ${fmt(r.possibility)}): ${r.world.join(", ")}`
        : `${r.given} has no world of positive possibility`));
    }
  } catch (err) {
    showError("given-error", err);
  }
}

// ---- 3. default base ----

async function loadBase(body) {
  showError("base-error", null);
  try {
    state.base = await api("POST", "/api/bases", body);
  } catch (err) {
    showError("base-error", err);
    if (err.field === "base" && body.text !== undefined) selectPosition("base-text", err.line, err.column);
    if (err.conflict) {
      $("zordering").replaceChildren(el("div", { class: "summary" }, "defaults that clash:"),
        el("table", { class: "table" }, el("tbody", {}, ...err.conflict.map((d) =>
          el("tr", { class: "clash" }, el("td", { class: "line" }, `line ${d.line}`), el("td", { class: "formula" }, d.text))))));
    }
    return;
  }
  renderBase();
}

function renderBase() {
  const b = state.base;
  const rows = [];
  for (const z of b.z_ordering.slice().reverse()) {
    z.defaults.forEach((i, k) => {
      const d = b.defaults[i];
      rows.push(el("tr", { class: "zlevel", dataset: { z: z.level, index: i } },
        el("td", {}, k === 0 ? `Δ${z.level} (${fmt(z.weight)})` : ""),
        el("td", { class: "line" }, d.line ? `line ${d.line}` : ""),
        el("td", { class: "formula" }, d.text)));
    });
  }
  $("zordering").replaceChildren(
    el("div", { class: "summary" }, `${b.name}: ${b.defaults.length} defaults in ${b.z_ordering.length} Z-levels (${b.solver_calls} solver calls) · id ${b.id}`),
    el("table", { class: "table", id: "z-table" }, el("thead", {}, el("tr", {}, el("th", {}, "level"), el("th", {}, "line"), el("th", {}, "default"))), el("tbody", {}, ...rows)),
    el("h3", {}, "Θ_Z"),
    el("pre", { id: "base-theory" }, b.theory.text));
  $("base-query-row").hidden = false;
  $("base-downloads").hidden = false;
  $("base-theory-download").href = `/api/bases/${b.id}/text`;
  saveLink("base-json", "z-ordering.json", "application/json", JSON.stringify(b, null, 2));
}

async function baseAsk() {
  if (!state.base) return;
  showError("base-error", null);
  let a;
  try {
    a = await api("POST", "/api/query", { theory_id: state.base.id, query: $("base-query").value, semantics: $("base-semantics").value });
  } catch (err) {
    showError("base-error", err);
    return;
  }
  const x = a.explanation || {};
  document.querySelectorAll("#z-table tr.zlevel").forEach((tr) => {
    const z = Number(tr.dataset.z);
    tr.classList.toggle("drowned", (x.drowned_z_levels || []).includes(z));
    tr.classList.toggle("highlight", x.deciding_z_level !== undefined && z >= x.deciding_z_level && !(x.drowned_z_levels || []).includes(z) && a.entailed && a.semantics === "rational");
    tr.classList.toggle("clash", (x.clash || []).some((d) => d.index === Number(tr.dataset.index)));
  });
  $("base-answer").replaceChildren(el("span", { class: `answer ${a.answer}` }, a.answer), " ", x.text || "");
  state.answers.push(a);
  saveLink("answers-download", "answers.json", "application/json", JSON.stringify(state.answers, null, 2));
}

// ---- 4. eval ----

async function evaluate() {
  showError("eval-error", null);
  if (!state.theory) {
    showError("eval-error", { error: "load a theory first (section 1)" });
    return;
  }
  let r;
  try {
    r = await api("POST", "/api/eval", { theory_id: state.theory.id, pos: $("eval-pos").value, neg: $("eval-neg").value, semantics: $("semantics").value });
  } catch (err) {
    showError("eval-error", err);
    return;
  }
  const rows = r.levels.map((l) => el("tr", {}, el("td", {}, fmt(l.weight)), el("td", {}, l.formulas), el("td", {}, l.decides_pos), el("td", {}, l.decides_neg), el("td", {}, l.set_aside)));
  const a = el("a", { href: "#" }, "Download evaluation (JSON)");
  a.id = "eval-download";
  $("eval-result").replaceChildren(
    el("div", { class: "summary", id: "eval-accuracy" }, `accuracy ${r.accuracy.toFixed(4)} on ${r.examples} examples (${r.semantics}); ` +
      `TP ${r.true_positives}, FN ${r.false_negatives}, FP ${r.false_positives}, TN ${r.true_negatives}; precision ${r.precision.toFixed(4)}, recall ${r.recall.toFixed(4)}`),
    el("table", { class: "table" }, el("thead", {}, el("tr", {}, ...["weight", "formulas", "decides +", "decides −", "set aside"].map((h) => el("th", {}, h)))), el("tbody", {}, ...rows)),
    el("div", { class: "row downloads" }, a));
  saveLink("eval-download", "eval.json", "application/json", JSON.stringify(r, null, 2));
}

// ---- 5. learning ----

function setRun(id) {
  state.run = id;
  const base = `/api/learn/${id}`;
  $("learn-dl-theory").href = `${base}/theory`;
  $("learn-dl-history").href = `${base}/history.csv`;
  $("learn-dl-curve").href = `${base}/curve.svg`;
  $("learn-dl-checkpoint").href = `${base}/checkpoint`;
  $("learn-downloads").hidden = false;
}

function showIteration(n, it) {
  const status = $("learn-status");
  status.dataset.iterations = n;
  let s = `iteration ${it.iteration}: training accuracy ${it.train_accuracy.toFixed(4)}`;
  if (it.test_accuracy !== null) s += `, test ${it.test_accuracy.toFixed(4)}`;
  s += `; ${it.rules} rules in ${it.levels} levels`;
  status.textContent = s;
  const img = $("learn-curve");
  img.src = `/api/learn/${state.run}/curve.svg?n=${n}`;
  img.dataset.iterations = n;
  img.dataset.updates = Number(img.dataset.updates || 0) + 1;
  img.hidden = false;
}

async function startLearning() {
  showError("learn-error", null);
  if (state.events) state.events.close();
  // An empty field is left out: the server takes strata learn's default.
  const num = (id) => ($(id).value === "" ? undefined : Number($(id).value));
  const body = {
    pos: $("learn-pos").value, neg: $("learn-neg").value, name: $("learn-pos").dataset.name || "explorer",
    iterations: num("learn-iterations"), candidates: num("learn-candidates"), patience: num("learn-patience"), seed: num("learn-seed"),
    semantics: $("learn-semantics").value,
  };
  const validation = $("learn-validation").value;
  if (validation === "holdout") body.validation = 0.3;
  if (validation === "folds") body.folds = 5;
  if (validation && $("learn-prune").checked) body.prune = true;
  let r;
  try {
    r = await api("POST", "/api/learn", body);
  } catch (err) {
    showError("learn-error", err);
    return;
  }
  setRun(r.id);
  $("learn-status").textContent = "learning…";
  $("learn-status").dataset.state = "running";
  $("learn-status").dataset.iterations = 0;
  $("learn-curve").dataset.updates = 0;
  $("learn-cancel").disabled = false;
  $("learn-start").disabled = true;
  const es = new EventSource(`/api/learn/${r.id}/events`);
  state.events = es;
  let n = 0;
  let choice = "";
  $("learn-status").dataset.validations = 0;
  es.addEventListener("validation", (ev) => {
    const it = JSON.parse(ev.data);
    const status = $("learn-status");
    status.dataset.validations = Number(status.dataset.validations) + 1;
    const fold = it.folds ? ` (fold ${it.fold} of ${it.folds})` : "";
    status.textContent = `choosing the iterations${fold}: iteration ${it.iteration}, held-out accuracy ${(it.test_accuracy || 0).toFixed(4)}`;
  });
  es.addEventListener("chosen", (ev) => {
    const v = JSON.parse(ev.data);
    choice = `chose ${v.chosen} iterations (held-out accuracy ${(v.chosen_accuracy || 0).toFixed(4)}; best ${(v.best_accuracy || 0).toFixed(4)} at ${v.best})`;
    $("learn-status").textContent = `${choice}; learning on all the examples…`;
  });
  es.addEventListener("iteration", (ev) => {
    n++;
    showIteration(n, JSON.parse(ev.data));
  });
  es.addEventListener("end", async (ev) => {
    es.close();
    const v = JSON.parse(ev.data);
    if (choice) {
      const pruned = v.validation && v.validation.prune_threshold != null ? `, pruned of the clauses at most ${v.validation.prune_threshold} examples need` : "";
      $("learn-status").textContent += ` · ${choice}${pruned}`;
    }
    $("learn-status").textContent += ` · ${v.state}: ${v.stop || v.error || ""}`;
    $("learn-status").dataset.state = v.state;
    $("learn-theory").textContent = v.theory;
    $("learn-cancel").disabled = true;
    $("learn-start").disabled = false;
  });
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) $("learn-start").disabled = false;
  };
}

async function cancelLearning() {
  if (!state.run) return;
  try {
    await api("POST", `/api/learn/${state.run}/cancel`);
  } catch (err) {
    showError("learn-error", err);
  }
}

async function learnedToTheory() {
  if (!state.run) return;
  $("theory-text").value = await fetchText(`/api/learn/${state.run}/theory`);
  $("theory-text").dataset.name = `${state.run}.theory`;
  await loadTheory({ text: $("theory-text").value, name: `${state.run}.theory` });
  $("theory-section").scrollIntoView();
}

// ---- files under --dir ----

async function listFiles() {
  let r;
  try {
    r = await api("GET", "/api/files");
  } catch (err) {
    return;
  }
  for (const sel of document.querySelectorAll(".dir-files")) {
    if (!r.dir) {
      sel.hidden = true;
      continue;
    }
    for (const f of r.files) sel.append(el("option", { value: f.path }, f.path));
  }
}

function init() {
  $("theory-load").addEventListener("click", () => loadTheory({ text: $("theory-text").value, name: $("theory-text").dataset.name || "theory" }));
  $("theory-text").addEventListener("input", () => { state.theory = null; });
  $("theory-example").addEventListener("click", async () => {
    $("theory-text").value = await fetchText("examples/penguin.theory");
    $("theory-text").dataset.name = "penguin.theory";
    loadTheory({ text: $("theory-text").value, name: "penguin.theory" });
  });
  readFileInto("theory-file", "theory-text", (name) => loadTheory({ text: $("theory-text").value, name }));
  $("theory-path").addEventListener("change", (ev) => ev.target.value && loadTheory({ path: ev.target.value }));
  $("ask").addEventListener("click", ask);
  $("query").addEventListener("keydown", (ev) => ev.key === "Enter" && ask());
  $("conclusions").addEventListener("click", () => given("conclusions"));
  $("world").addEventListener("click", () => given("world"));

  $("base-load").addEventListener("click", () => loadBase({ text: $("base-text").value, name: $("base-text").dataset.name || "base", format: $("base-format").value }));
  $("base-example").addEventListener("click", async () => {
    $("base-text").value = await fetchText("examples/birds.rules");
    $("base-text").dataset.name = "birds.rules";
    loadBase({ text: $("base-text").value, name: "birds.rules" });
  });
  readFileInto("base-file", "base-text", (name) => loadBase({ text: $("base-text").value, name, format: $("base-format").value }));
  $("base-path").addEventListener("change", (ev) => ev.target.value && loadBase({ path: ev.target.value, format: $("base-format").value }));
  $("base-ask").addEventListener("click", baseAsk);
  $("base-to-theory").addEventListener("click", async () => {
    $("theory-text").value = state.base.theory.text;
    await loadTheory({ text: state.base.theory.text, name: `Θ_Z of ${state.base.name}` });
    $("theory-section").scrollIntoView();
  });

  const examples = async (pos, neg) => {
    $(pos).value = await fetchText("examples/birds.pos");
    $(neg).value = await fetchText("examples/birds.neg");
    $(pos).dataset.name = "birds";
  };
  $("eval-example").addEventListener("click", () => examples("eval-pos", "eval-neg"));
  readFileInto("eval-pos-file", "eval-pos");
  readFileInto("eval-neg-file", "eval-neg");
  $("eval-run").addEventListener("click", evaluate);

  $("learn-example").addEventListener("click", () => examples("learn-pos", "learn-neg"));
  readFileInto("learn-pos-file", "learn-pos");
  readFileInto("learn-neg-file", "learn-neg");
  $("learn-start").addEventListener("click", startLearning);
  $("learn-cancel").addEventListener("click", cancelLearning);
  $("learn-to-theory").addEventListener("click", learnedToTheory);
  listFiles();
  document.body.dataset.ready = "1";
}

init();
