// strata explorer: a page over the JSON API of strata serve. Plain
// JavaScript, no build step, no external resources. Every answer and
// explanation comes from the API; the page only lays them out. This file
// holds the helpers and the state the others (chart.js, theory.js,
// base.js, learn.js) use, and loads last to start the page.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  theory: null,       // the loaded theory (view from the API)
  theorySource: null, // the request that loaded it, to load it again
  theoryRun: null,    // the learning run it came from, if any
  base: null,         // the loaded default base
  baseSource: null,
  compare: null,      // the theory's answers to the last query, every semantics
  baseCompare: null,  // the base's
  answers: [],        // every answer asked so far
  run: null,          // the current learning run id
  events: null,       // its EventSource
  curves: null,       // its curves (see newCurves)
  table: null,        // the table to learn from: {name, text}
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
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw { error: `the server cannot be reached: ${e.message}`, status: 0 };
  }
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

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// ---- errors, each attached to the input it is about ----

// selectPosition selects, in a textarea or an input, the line and column
// an error names, so that the user sees where the input is wrong.
function selectPosition(input, line, column) {
  const lines = input.value.split("\n");
  if (!line || line > lines.length) return;
  let start = 0;
  for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
  const from = start + Math.max(0, Math.min((column || 1) - 1, lines[line - 1].length));
  input.focus();
  input.setSelectionRange(from, start + lines[line - 1].length);
}

// fail shows an API error next to the input it is about. targets maps the
// error's field to an input id (and optionally the id of the box to write
// into; by default the input's id + "-error"); "*" is the target of errors
// about no input of the map. A position selects the place in the input.
function fail(targets, err) {
  const t = targets[err.field] || targets["*"];
  const spec = typeof t === "string" ? { input: t } : t;
  const input = $(spec.input);
  const box = $(spec.box || `${spec.input}-error`);
  const typed = input && (input.tagName === "TEXTAREA" || input.tagName === "INPUT" && input.type === "text");
  let msg = err.error || String(err);
  if (err.line) {
    // The message starts with the position the page says in words.
    const pos = [err.file, err.line, err.column].filter((x) => x).join(":") + ": ";
    if (msg.startsWith(pos)) msg = msg.slice(pos.length);
  }
  if (err.line && typed) {
    msg = `line ${err.line}, column ${err.column}: ${msg}`;
  } else if (err.line && spec.lines) {
    const src = spec.lines.split("\n")[err.line - 1];
    msg = `line ${err.line}, column ${err.column}: ${msg}` + (src !== undefined ? `\n${err.line} | ${src}` : "");
  }
  box.textContent = msg;
  box.hidden = false;
  box.dataset.field = err.field || "";
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", box.id);
    if (err.line && typed) {
      selectPosition(input, err.line, err.column);
    } else if (spec.focus !== false) {
      input.focus();
    }
  }
}

// clearErrors hides the error boxes of a section and unmarks its inputs.
function clearErrors(sectionId) {
  const s = $(sectionId);
  s.querySelectorAll(".error").forEach((b) => {
    b.hidden = true;
    b.textContent = "";
  });
  s.querySelectorAll("[aria-invalid]").forEach((i) => {
    i.removeAttribute("aria-invalid");
    i.removeAttribute("aria-describedby");
  });
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

// readFileInto fills a textarea with an uploaded file; the file's name
// names the text until it is edited.
function readFileInto(inputId, textareaId, after) {
  $(inputId).addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    $(textareaId).value = await f.text();
    $(textareaId).dataset.name = f.name;
    ev.target.value = "";
    if (after) after(f.name);
  });
}

async function fetchText(path) {
  const res = await fetch(path);
  return res.text();
}

const fmt = (w) => (Math.round(w * 10000) / 10000).toString();

// nameOf is the name a typed or uploaded text goes by in error messages:
// the file it came from, until it is edited, or what it is.
const nameOf = (id, what) => $(id).dataset.name || what;

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
  state.chart = new Curves($("learn-chart"));
  window.addEventListener("resize", () => state.curves && redrawCurves());

  $("theory-load").addEventListener("click", () => loadTheory({ text: $("theory-text").value, name: nameOf("theory-text", "theory") }));
  // Edited text is no longer the file it came from, nor the theory loaded:
  // the next question loads it.
  $("theory-text").addEventListener("input", () => {
    delete $("theory-text").dataset.name;
    if (state.theory) staleTheory();
  });
  $("theory-example").addEventListener("click", async () => {
    $("theory-text").value = await fetchText("examples/wings.theory");
    $("theory-text").dataset.name = "wings.theory";
    loadTheory({ text: $("theory-text").value, name: "wings.theory" });
  });
  readFileInto("theory-file", "theory-text", (name) => loadTheory({ text: $("theory-text").value, name }));
  $("theory-path").addEventListener("change", (ev) => ev.target.value && loadTheory({ path: ev.target.value }));
  $("theory-delete").addEventListener("click", deleteTheory);
  $("levels").addEventListener("click", (ev) => {
    const b = ev.target.closest("button.formula");
    if (b) coverage(b);
  });
  $("ask").addEventListener("click", ask);
  $("query").addEventListener("keydown", (ev) => ev.key === "Enter" && ask());
  $("given").addEventListener("keydown", (ev) => ev.key === "Enter" && given("conclusions"));
  $("conclusions").addEventListener("click", () => given("conclusions"));
  $("world").addEventListener("click", () => given("world"));

  $("base-load").addEventListener("click", () => loadBase({ text: $("base-text").value, name: nameOf("base-text", "base"), format: $("base-format").value }));
  $("base-text").addEventListener("input", () => {
    delete $("base-text").dataset.name;
    if (state.base) staleBase();
  });
  $("base-example").addEventListener("click", async () => {
    $("base-text").value = await fetchText("examples/birds.rules");
    $("base-text").dataset.name = "birds.rules";
    loadBase({ text: $("base-text").value, name: "birds.rules" });
  });
  readFileInto("base-file", "base-text", (name) => loadBase({ text: $("base-text").value, name, format: $("base-format").value }));
  $("base-path").addEventListener("change", (ev) => ev.target.value && loadBase({ path: ev.target.value, format: $("base-format").value }));
  $("base-delete").addEventListener("click", deleteBase);
  $("base-ask").addEventListener("click", baseAsk);
  $("base-query").addEventListener("keydown", (ev) => ev.key === "Enter" && baseAsk());
  $("base-ranks").addEventListener("click", baseRanks);
  $("base-to-theory").addEventListener("click", async () => {
    clearErrors("base-section");
    if (!(await ensureBase())) return;
    $("theory-text").value = state.base.theory.text;
    delete $("theory-text").dataset.name;
    await loadTheory({ text: state.base.theory.text, name: `Θ_Z of ${state.base.name}` });
    $("theory-section").scrollIntoView();
    $("theory-text").focus();
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

  document.querySelectorAll('input[name="learn-from"]').forEach((r) => r.addEventListener("change", learnFrom));
  $("learn-example").addEventListener("click", () => examples("learn-pos", "learn-neg"));
  $("learn-pos").addEventListener("input", () => delete $("learn-pos").dataset.name);
  readFileInto("learn-pos-file", "learn-pos");
  readFileInto("learn-neg-file", "learn-neg");
  $("learn-table-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    setTable(f.name, await f.text());
    ev.target.value = "";
  });
  $("learn-table-example").addEventListener("click", async () => setTable("loans.csv", await fetchText("examples/loans.csv")));
  $("learn-start").addEventListener("click", startLearning);
  $("learn-cancel").addEventListener("click", cancelLearning);
  $("learn-to-theory").addEventListener("click", learnedToTheory);
  learnFrom();
  initPredict();
  listFiles();
  document.body.dataset.ready = "1";
}

init();
