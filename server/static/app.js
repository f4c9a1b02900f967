// strata explorer: a page over the JSON API of strata serve. Plain
// JavaScript, no build step, no external resources. Every answer and
// explanation comes from the API; the page only lays them out.
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

// ---- 1. theory ----

const theoryTargets = { theory: "theory-text", body: "theory-text", "*": "theory-text" };

// loadTheory loads a theory; on failure the page shows none (the old one
// is gone from the server's point of view too) and the error under the
// input that caused it.
async function loadTheory(body, run) {
  clearErrors("theory-section");
  let t;
  try {
    t = await api("POST", "/api/theories", body);
  } catch (err) {
    clearTheory();
    fail(body.path ? { "*": "theory-path" } : theoryTargets, err);
    return false;
  }
  state.theory = t;
  state.theorySource = body;
  state.theoryRun = run || null;
  renderTheory();
  return true;
}

function clearTheory() {
  state.theory = null;
  state.theorySource = null;
  state.theoryRun = null;
  $("levels").replaceChildren();
  $("theory-summary").textContent = "";
  $("theory-downloads").hidden = true;
  $("theory-delete").hidden = true;
  $("levels-hint").hidden = true;
  $("coverage").hidden = true;
  $("answer-box").hidden = true;
  $("compare").replaceChildren();
}

// ensureTheory makes sure a theory is loaded, loading the text of section
// 1 if none is; it reports false (with the error under the theory) when
// there is none to load or it does not load.
async function ensureTheory() {
  if (state.theory) return true;
  if ($("theory-text").value.trim() === "") {
    fail(theoryTargets, { field: "theory", error: "load a theory first: paste one here, or take an example" });
    return false;
  }
  return loadTheory({ text: $("theory-text").value, name: nameOf("theory-text", "theory") });
}

// withTheory calls fn with the loaded theory's id, loading it again when
// the server has forgotten it to make room for others.
async function withTheory(fn) {
  try {
    return await fn(state.theory.id);
  } catch (err) {
    if (err.status === 404 && err.field === "theory_id" && state.theorySource) {
      const run = state.theoryRun;
      if (await loadTheory(state.theorySource, run)) return fn(state.theory.id);
    }
    throw err;
  }
}

function renderTheory() {
  const t = state.theory;
  const box = $("levels");
  box.replaceChildren();
  t.levels.forEach((l, i) => {
    const ul = el("ul");
    l.formulas.forEach((f, j) => ul.append(el("li", { dataset: { level: i, index: j } },
      el("button", { class: "formula", type: "button", "aria-pressed": "false", dataset: { level: i, index: j },
        title: "which examples does this formula decide?" }, f))));
    box.append(el("div", { class: "level", id: `level-${i}`, dataset: { level: i } }, el("div", { class: "weight" }, fmt(l.weight)), ul));
  });
  $("theory-summary").textContent =
    `${t.name}: ${t.formulas} formulas in ${t.levels.length} levels over ${t.atoms.length} atoms; ` +
    `inconsistency level ${fmt(t.inconsistency)} · id ${t.id}`;
  $("theory-downloads").hidden = false;
  $("theory-delete").hidden = false;
  $("levels-hint").hidden = t.formulas === 0;
  $("theory-download").href = `/api/theories/${t.id}/text`;
  saveLink("theory-json", "theory.json", "application/json", JSON.stringify(t, null, 2));
  $("answer-box").hidden = true;
  $("coverage").hidden = true;
  $("compare").replaceChildren();
}

async function deleteTheory() {
  if (!state.theory) return;
  try {
    await api("DELETE", `/api/theories/${state.theory.id}`);
  } catch (err) {
    if (err.status !== 404) {
      fail({ "*": { input: "theory-delete", box: "theory-path-error" } }, err);
      return;
    }
  }
  clearTheory();
  $("theory-summary").textContent = "deleted from the server";
  $("theory-load").focus();
}

function clearHighlight() {
  document.querySelectorAll("#levels .level").forEach((e) => e.classList.remove("drowned", "deciding", "partly"));
  document.querySelectorAll("#levels li").forEach((e) => e.classList.remove("entailing", "set-aside"));
}

// highlight marks, in the levels view, what an explanation names.
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

// ---- coverage of a formula ----

async function coverage(button) {
  clearErrors("theory-section");
  document.querySelectorAll("#levels button.formula").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
  const level = Number(button.dataset.level), index = Number(button.dataset.index);
  const body = { level, index, semantics: $("semantics").value };
  if (state.theoryRun) body.run_id = state.theoryRun;
  if ($("eval-pos").value.trim() || $("eval-neg").value.trim()) {
    body.test_pos = $("eval-pos").value;
    body.test_neg = $("eval-neg").value;
  }
  const targets = {
    test_pos: "eval-pos", test_neg: "eval-neg", run_id: { input: null, box: "coverage-error" },
    "*": { input: null, box: "coverage-error" },
  };
  if (!body.run_id && body.test_pos === undefined) {
    $("coverage").hidden = true;
    const box = $("coverage-error");
    box.textContent = "Give examples to score this formula on: learn a theory in section 5 and explore it here (its training examples), or fill in the examples of section 4 (scored as test examples).";
    box.hidden = false;
    return;
  }
  let r;
  try {
    r = await withTheory((id) => api("POST", "/api/coverage", { theory_id: id, ...body }));
  } catch (err) {
    $("coverage").hidden = true;
    fail(targets, err);
    return;
  }
  renderCoverage(r);
}

function renderCoverage(r) {
  const box = $("coverage");
  const parts = [el("div", { class: "coverage-head" },
    el("strong", { class: "formula-text" }, r.formula), ` (level ${r.level + 1}, weight ${fmt(r.weight)}) under ${r.semantics}`,
    el("button", { type: "button", class: "close", "aria-label": "close", id: "coverage-close" }, "×"))];
  for (const s of r.sets) {
    const decided = s.right + s.wrong;
    parts.push(el("div", { class: "coverage-set", dataset: { set: s.name, right: s.right, wrong: s.wrong } },
      el("div", { class: "summary" }, `${s.name} examples: it decides ${decided} of ${s.examples}: `,
        el("span", { class: "n-right" }, `${s.right} right`), ", ", el("span", { class: "n-wrong" }, `${s.wrong} wrong`),
        " (the theory answers them otherwise without it)")));
    if (s.decided.length) {
      const rows = s.decided.map((d) => el("tr", { class: d.right ? "right" : "wrong" },
        el("td", { class: "formula-text" }, d.example), el("td", {}, d.positive ? "positive" : "negative"),
        el("td", {}, d.covered ? "covered" : "not covered"), el("td", { class: "verdict" }, d.right ? "right" : "wrong"),
        el("td", {}, d.count > 1 ? `×${d.count}` : "")));
      if (s.unlisted) rows.push(el("tr", {}, el("td", { colspan: 5, class: "summary" }, `and ${s.unlisted} more`)));
      parts.push(el("div", { class: "scroll" }, el("table", { class: "table coverage-table" },
        el("thead", {}, el("tr", {}, ...["example", "label", "answer with it", "", "copies"].map((h) => el("th", {}, h)))),
        el("tbody", {}, ...rows))));
    }
  }
  box.replaceChildren(...parts);
  box.hidden = false;
  $("coverage-close").addEventListener("click", () => {
    box.hidden = true;
    const pressed = document.querySelector('#levels button.formula[aria-pressed="true"]');
    pressed?.setAttribute("aria-pressed", "false");
    pressed?.focus();
  });
}

// ---- answers under every semantics ----

// compareTable lays out a query's answers under every semantics; choosing
// one shows its explanation (show). The answers that differ from the
// majority are marked, and a line says where the semantics disagree.
function compareTable(id, cv, show) {
  const answered = cv.answers.filter((a) => !a.error);
  const yes = answered.filter((a) => a.entailed).map((a) => a.semantics);
  const no = answered.filter((a) => !a.entailed).map((a) => a.semantics);
  const minority = yes.length < no.length ? true : yes.length > no.length ? false : null;
  const rows = cv.answers.map((a, i) => {
    const differs = !cv.agree && !a.error && (minority === null || a.entailed === minority);
    const why = a.error ? a.error.error : (a.explanation ? a.explanation.text.split("\n")[0] : "");
    return el("tr", { class: differs ? "differs" : "", dataset: { semantics: a.semantics, answer: a.error ? "error" : a.answer } },
      el("th", { scope: "row" }, a.semantics),
      el("td", {}, el("button", { type: "button", class: `pick ${a.error ? "error-answer" : a.answer}`, "aria-pressed": "false", dataset: { i } },
        a.error ? "not answered" : a.answer)),
      el("td", { class: "why" }, why));
  });
  const verdict = cv.agree
    ? el("div", { class: "summary agree" }, `every semantics answers ${answered[0]?.answer ?? "—"}`)
    : el("div", { class: "summary disagree", role: "status" }, `the semantics disagree: yes under ${yes.join(", ") || "none"}; no under ${no.join(", ") || "none"}`);
  const table = el("table", { class: "table compare-table", id: `${id}-table`, dataset: { agree: cv.agree } },
    el("thead", {}, el("tr", {}, el("th", {}, "semantics"), el("th", {}, "answer"), el("th", {}, "why (choose an answer for all of it)"))),
    el("tbody", {}, ...rows));
  $(id).replaceChildren(verdict, el("div", { class: "scroll" }, table));
  const pick = (i) => {
    table.querySelectorAll("button.pick").forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.i) === i)));
    table.querySelectorAll("tbody tr").forEach((tr, k) => tr.classList.toggle("picked", k === i));
    show(cv.answers[i]);
  };
  table.querySelectorAll("button.pick").forEach((b) => b.addEventListener("click", () => pick(Number(b.dataset.i))));
  pick(0);
}

function recordAnswers(cv, of) {
  state.answers.push({ of, ...cv });
  const tr = el("tr", {}, el("td", { class: "formula-text" }, cv.query), el("td", {}, of),
    el("td", {}, ...cv.answers.flatMap((a, i) => [i ? " · " : "", `${a.semantics} `,
      el("span", { class: a.error ? "" : a.answer }, a.error ? "—" : a.answer)])));
  $("answers").tBodies[0].prepend(tr);
  saveLink("answers-download", "answers.json", "application/json", JSON.stringify(state.answers, null, 2));
}

async function ask() {
  clearErrors("query-section");
  if (!(await ensureTheory())) return;
  let cv;
  try {
    cv = await withTheory((id) => api("POST", "/api/compare", { theory_id: id, query: $("query").value }));
  } catch (err) {
    fail({ query: "query", "*": "query" }, err);
    return;
  }
  state.compare = cv;
  compareTable("compare", cv, showTheoryAnswer);
  recordAnswers(cv, state.theory.name);
}

// showTheoryAnswer shows one answer's explanation and marks it in the
// levels view.
function showTheoryAnswer(a) {
  const box = $("answer");
  if (a.error) {
    box.textContent = "?";
    box.className = "answer";
    $("deciding").textContent = a.error.error;
    $("explanation-text").textContent = "";
    $("answer-box").hidden = false;
    clearHighlight();
    return;
  }
  box.textContent = a.answer;
  box.className = `answer ${a.answer}`;
  $("deciding").textContent = [a.semantics,
    a.entailed ? `necessity of β given α ${fmt(a.deciding_weight)}` : "not entailed",
    `inconsistency level ${fmt(a.inconsistency)}`].join(" · ");
  $("explanation-text").textContent = (a.explanation || {}).text || "";
  $("answer-box").hidden = false;
  highlight(a);
}

async function given(kind) {
  clearErrors("query-section");
  if (!(await ensureTheory())) return;
  const out = $("given-result");
  let r;
  try {
    r = await withTheory((id) => api("POST", `/api/${kind}`, { theory_id: id, given: $("given").value, semantics: $("semantics").value }));
  } catch (err) {
    fail({ given: "given", semantics: { input: "semantics", box: "given-error" }, "*": "given" }, err);
    return;
  }
  state.answers.push({ [kind]: r });
  saveLink("answers-download", "answers.json", "application/json", JSON.stringify(state.answers, null, 2));
  if (kind === "conclusions") {
    const rows = r.conclusions.map((c) => el("tr", {}, el("td", { class: "formula-text" }, c.literal), el("td", {}, fmt(c.necessity))));
    out.replaceChildren(
      el("div", { class: "summary" }, `given ${r.given} under ${r.semantics} (inconsistency level ${fmt(r.inconsistency)}):`),
      el("table", { class: "table", id: "conclusions-table" }, el("thead", {}, el("tr", {}, el("th", {}, "literal"), el("th", {}, "necessity"))), el("tbody", {}, ...rows)));
  } else {
    out.replaceChildren(el("div", { class: "summary" }, r.possible
      ? `a most plausible world given ${r.given} under ${r.semantics} (possibility ${fmt(r.possibility)}): ${r.world.join(", ")}`
      : `${r.given} has no world of positive possibility`));
  }
}

// ---- 3. default base ----

async function loadBase(body) {
  clearErrors("base-section");
  let b;
  try {
    b = await api("POST", "/api/bases", body);
  } catch (err) {
    clearBase();
    fail(body.path ? { "*": "base-path" } : { base: "base-text", background: "base-text", body: "base-text", format: "base-format", block: "base-text", "*": "base-text" }, err);
    if (err.conflict) {
      $("zordering").replaceChildren(el("div", { class: "summary" }, "defaults that clash:"),
        el("table", { class: "table" }, el("tbody", {}, ...err.conflict.map((d) =>
          el("tr", { class: "clash" }, el("td", { class: "line" }, `line ${d.line}`), el("td", { class: "formula-text" }, d.text))))));
    }
    return false;
  }
  state.base = b;
  state.baseSource = body;
  renderBase();
  return true;
}

function clearBase() {
  state.base = null;
  state.baseSource = null;
  $("zordering").replaceChildren();
  $("base-query-row").hidden = true;
  $("base-downloads").hidden = true;
  $("base-delete").hidden = true;
  $("base-compare").replaceChildren();
  $("base-answer").replaceChildren();
  $("ranks").replaceChildren();
}

// withBase is withTheory for the base.
async function withBase(fn) {
  try {
    return await fn(state.base.id);
  } catch (err) {
    if (err.status === 404 && err.field === "theory_id" && state.baseSource) {
      if (await loadBase(state.baseSource)) return fn(state.base.id);
    }
    throw err;
  }
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
        el("td", { class: "formula-text" }, d.text)));
    });
  }
  $("zordering").replaceChildren(
    el("div", { class: "summary" }, `${b.name}: ${b.defaults.length} defaults in ${b.z_ordering.length} Z-levels (${b.solver_calls} solver calls) · id ${b.id}`),
    el("div", { class: "scroll" }, el("table", { class: "table", id: "z-table" }, el("thead", {}, el("tr", {}, el("th", {}, "level"), el("th", {}, "line"), el("th", {}, "default"))), el("tbody", {}, ...rows))),
    el("details", {}, el("summary", {}, "Θ_Z, the base's possibilistic theory"), el("pre", { id: "base-theory" }, b.theory.text)));
  $("base-query-row").hidden = false;
  $("base-downloads").hidden = false;
  $("base-delete").hidden = false;
  $("base-compare").replaceChildren();
  $("base-answer").replaceChildren();
  $("ranks").replaceChildren();
  $("base-theory-download").href = `/api/bases/${b.id}/text`;
  saveLink("base-json", "z-ordering.json", "application/json", JSON.stringify(b, null, 2));
}

async function deleteBase() {
  if (!state.base) return;
  try {
    await api("DELETE", `/api/bases/${state.base.id}`);
  } catch (err) {
    if (err.status !== 404) {
      fail({ "*": { input: "base-delete", box: "base-path-error" } }, err);
      return;
    }
  }
  clearBase();
  $("base-load").focus();
}

async function baseAsk() {
  if (!state.base) return;
  clearErrors("base-section");
  let cv;
  try {
    cv = await withBase((id) => api("POST", "/api/compare", { theory_id: id, query: $("base-query").value }));
  } catch (err) {
    fail({ query: "base-query", "*": "base-query" }, err);
    return;
  }
  state.baseCompare = cv;
  compareTable("base-compare", cv, showBaseAnswer);
  recordAnswers(cv, state.base.name);
}

// showBaseAnswer shows one answer of the base with its explanation, and
// marks in the Z-ordering the levels it drowns, the level that decides it
// and the defaults System P finds clashing with α |~ ¬β.
function showBaseAnswer(a) {
  const x = a.explanation || {};
  const drowned = x.drowned_z_levels || [];
  document.querySelectorAll("#z-table tr.zlevel").forEach((tr) => {
    const z = Number(tr.dataset.z);
    tr.classList.toggle("drowned", !a.error && a.semantics === "rational" && drowned.includes(z));
    tr.classList.toggle("highlight", !a.error && a.entailed && a.semantics === "rational" && x.deciding_z_level !== undefined && z >= x.deciding_z_level && !drowned.includes(z));
    tr.classList.toggle("clash", (x.clash || []).some((d) => d.index === Number(tr.dataset.index)));
  });
  const parts = [el("span", { class: `answer ${a.error ? "" : a.answer}` }, a.error ? "?" : a.answer), " ",
    el("strong", {}, a.semantics), ": ", a.error ? a.error.error : (x.text || "")];
  if (x.impacts) {
    const b = state.base;
    parts.push(el("div", { class: "scroll" }, el("table", { class: "table", id: "impacts-table" },
        el("caption", {}, `the c-representation that does not accept the query: κ(α ∧ β) = ${x.ranks.verification}, κ(α ∧ ¬β) = ${x.ranks.falsification}`),
        el("thead", {}, el("tr", {}, el("th", {}, "default"), el("th", {}, "impact"))),
        el("tbody", {}, ...x.impacts.map((v, i) => el("tr", {}, el("td", { class: "formula-text" }, b.defaults[i]?.text ?? i), el("td", {}, v)))))));
  }
  $("base-answer").replaceChildren(...parts);
}

// ---- ranks ----

async function baseRanks() {
  if (!state.base) return;
  clearErrors("base-section");
  let r;
  try {
    r = await withBase((id) => api("POST", "/api/ranks", { theory_id: id, query: $("base-query").value }));
  } catch (err) {
    fail({ query: "base-query", "*": { input: "base-ranks", box: "base-query-error" } }, err);
    return;
  }
  renderRanks(r, false);
}

// renderRanks lays out κ_Z and κ_c: the defaults with their Z-ranks and
// impacts, how each OCF judges the query, and the worlds sorted by rank
// (with a query, its α-worlds first; those of the least rank decide it).
function renderRanks(r, all) {
  const hasC = !r.c_error;
  const defaults = el("table", { class: "table", id: "ranks-defaults" },
    el("thead", {}, el("tr", {}, el("th", {}, "default"), el("th", {}, "κ_Z: Z-rank"), hasC ? el("th", {}, "κ_c: impact") : null)),
    el("tbody", {}, ...r.defaults.map((d) => el("tr", {}, el("td", { class: "formula-text" }, d.text), el("td", {}, d.rank), hasC ? el("td", {}, d.impact) : null))));
  const parts = [el("h3", {}, "Ranking functions"),
    el("p", { class: "hint" }, "κ_Z ranks a world at the highest Z-rank of the defaults it falsifies; κ_c, a c-representation of least impacts, at the sum of their impacts. A query is accepted when its α ∧ β-worlds rank below its α ∧ ¬β-worlds; the α-worlds of the least rank decide it."),
    el("div", { class: "scroll" }, defaults)];
  if (r.c_error) parts.push(el("div", { class: "summary" }, `κ_c: ${r.c_error}`));
  const least = {};
  if (r.query) {
    const judge = (name, a) => {
      least[name] = rankMin(a.verification, a.falsification);
      return el("li", { dataset: { ocf: name, accepted: a.accepted } }, `${name === "z" ? "κ_Z" : "κ_c"}: κ(α ∧ β) = ${a.verification}, κ(α ∧ ¬β) = ${a.falsification}: `,
        el("strong", { class: a.accepted ? "yes" : "no" }, a.accepted ? "accepted" : "not accepted"));
    };
    parts.push(el("div", { class: "summary" }, `the query ${r.query.query}:`),
      el("ul", { class: "judged" }, judge("z", r.query.z), r.query.c ? judge("c", r.query.c) : null));
  }
  if (!r.worlds) {
    parts.push(el("div", { class: "summary" }, r.worlds_error));
  } else {
    const rank = (x) => (x === "inf" ? Infinity : x);
    let worlds = r.worlds.map((w, i) => ({ ...w, i, alpha: w.verifies || w.falsifies }));
    if (r.query && !all) worlds = worlds.filter((w) => w.alpha);
    worlds.sort((a, b) => rank(a.z) - rank(b.z) || rank(a.c ?? 0) - rank(b.c ?? 0) || a.i - b.i);
    const limit = all ? worlds.length : Math.min(worlds.length, 16);
    const decides = (w) => w.alpha && (rank(w.z) === rank(least.z) || (hasC && w.c !== undefined && rank(w.c) === rank(least.c)));
    const rows = worlds.slice(0, limit).map((w) => el("tr", { class: decides(w) ? "decides" : "", dataset: { z: w.z, c: w.c ?? "" } },
      el("td", { class: "formula-text" }, w.world.length ? w.world.join(", ") : "(none)"),
      el("td", { class: rank(w.z) === rank(least.z) && w.alpha ? "least" : "" }, w.z),
      hasC ? el("td", { class: rank(w.c) === rank(least.c) && w.alpha ? "least" : "" }, w.c) : null,
      r.query ? el("td", {}, w.verifies ? "verifies" : w.falsifies ? "falsifies" : "") : null));
    const what = all ? `all ${r.worlds.length} worlds` : r.query ? `the ${limit} least of the ${worlds.length} worlds of α (the others do not bear on the query)` : `the ${limit} least of ${r.worlds.length}`;
    parts.push(el("h3", {}, `Worlds by rank: ${what}`),
      el("p", { class: "hint" }, `A world is written as its true atoms (of ${r.atoms.join(", ")}); the others are false. ∞: it contradicts the background knowledge.`),
      el("div", { class: "scroll" }, el("table", { class: "table", id: "worlds-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "world"), el("th", {}, "κ_Z"), hasC ? el("th", {}, "κ_c") : null, r.query ? el("th", {}, "query") : null)),
        el("tbody", {}, ...rows))));
    if (!all && (limit < worlds.length || r.query)) {
      const more = el("button", { type: "button", id: "ranks-all" }, `Show all ${r.worlds.length} worlds`);
      more.addEventListener("click", () => renderRanks(r, true));
      parts.push(el("div", { class: "row" }, more));
    }
  }
  $("ranks").replaceChildren(...parts);
}

function rankMin(a, b) {
  if (a === "inf") return b;
  if (b === "inf") return a;
  return Math.min(a, b);
}

// ---- 4. eval ----

async function evaluate() {
  clearErrors("eval-section");
  if (!(await ensureTheory())) {
    const box = $("eval-run-error");
    box.textContent = "the theory of section 1 is not loaded: see the error there";
    box.hidden = false;
    return;
  }
  let r;
  try {
    r = await withTheory((id) => api("POST", "/api/eval", { theory_id: id, pos: $("eval-pos").value, neg: $("eval-neg").value, semantics: $("semantics").value }));
  } catch (err) {
    fail({ pos: "eval-pos", neg: "eval-neg", semantics: { input: "semantics", box: "eval-run-error" }, "*": { input: "eval-run", box: "eval-run-error" } }, err);
    return;
  }
  const rows = r.levels.map((l) => el("tr", {}, el("td", {}, fmt(l.weight)), el("td", {}, l.formulas), el("td", {}, l.decides_pos), el("td", {}, l.decides_neg), el("td", {}, l.set_aside)));
  const a = el("a", { href: "#", id: "eval-download" }, "Download evaluation (JSON)");
  $("eval-result").replaceChildren(
    el("div", { class: "summary", id: "eval-accuracy" }, `accuracy ${r.accuracy.toFixed(4)} on ${r.examples} examples (${r.semantics}); ` +
      `TP ${r.true_positives}, FN ${r.false_negatives}, FP ${r.false_positives}, TN ${r.true_negatives}; precision ${r.precision.toFixed(4)}, recall ${r.recall.toFixed(4)}`),
    el("div", { class: "scroll" }, el("table", { class: "table" }, el("thead", {}, el("tr", {}, ...["weight", "formulas", "decides +", "decides −", "set aside"].map((h) => el("th", {}, h)))), el("tbody", {}, ...rows))),
    el("div", { class: "row downloads" }, a));
  saveLink("eval-download", "eval.json", "application/json", JSON.stringify(r, null, 2));
}

// ---- 5. learning ----

// newCurves holds a run's curves as its events bring them: the final
// run's iterations, each validation fold's, the pooled held-out curve and
// the choice made on it.
function newCurves() {
  return { final: [], folds: new Map(), pooled: [], chosen: null, test: false };
}

function curveSeries(c) {
  const series = [];
  const points = (its, key) => its.map((it) => ({ x: it.iteration, y: it[key] ?? null }));
  const keys = [...c.folds.keys()].sort((a, b) => a - b);
  keys.forEach((k, i) => {
    series.push({ id: `fold-${k}`, label: k ? `held-out fold ${k}` : "held-out part", points: points(c.folds.get(k), "test_accuracy"), color: 3 + (i % 6), faint: keys.length > 1 });
  });
  if (keys.length > 1 && c.pooled.length) {
    series.push({ id: "pooled", label: "held-out, pooled", points: points(c.pooled, "test_accuracy"), color: 2 });
  }
  if (c.final.length) {
    series.push({ id: "training", label: "training", points: points(c.final, "train_accuracy"), color: 0 });
    if (c.test) series.push({ id: "test", label: "test", points: points(c.final, "test_accuracy"), color: 1 });
  }
  let marker = null;
  if (c.chosen) {
    const on = keys.length > 1 ? "pooled" : `fold-${keys[0] ?? 0}`;
    marker = { x: c.chosen.chosen, y: c.chosen.chosen_accuracy ?? null, label: `chosen: ${c.chosen.chosen} iterations`, series: on };
  }
  return { series, marker };
}

// curvesCSV writes the curves as CSV: one line per iteration of each
// validation fold, of the pooled held-out curve and of the final run.
function curvesCSV(c) {
  const lines = ["curve,fold,iteration,train_accuracy,test_accuracy,rules,levels,literals,chosen"];
  const row = (curve, fold, it) => lines.push([curve, fold, it.iteration, it.train_accuracy ?? "", it.test_accuracy ?? "",
    it.rules ?? "", it.levels ?? "", it.literals ?? "", c.chosen && curve !== "final" && it.iteration === c.chosen.chosen ? 1 : 0].join(","));
  for (const k of [...c.folds.keys()].sort((a, b) => a - b)) for (const it of c.folds.get(k)) row("held-out", k, it);
  for (const it of c.pooled) row("pooled", "", it);
  for (const it of c.final) row("final", "", it);
  return lines.join("\n") + "\n";
}

function redrawCurves(now) {
  const { series, marker } = curveSeries(state.curves);
  $("learn-chart").hidden = series.length === 0;
  if (now) {
    state.chart.series = series;
    state.chart.marker = marker;
    state.chart.drawNow();
  } else {
    state.chart.set(series, marker);
  }
  saveLink("learn-dl-csv", `${state.run}-curves.csv`, "text/csv", curvesCSV(state.curves));
}

function setRun(id) {
  state.run = id;
  const base = `/api/learn/${id}`;
  $("learn-dl-theory").href = `${base}/theory`;
  $("learn-dl-checkpoint").href = `${base}/checkpoint`;
  $("learn-downloads").hidden = false;
}

const learnTargets = {
  pos: "learn-pos", neg: "learn-neg",
  iterations: { input: "learn-iterations", box: "learn-settings-error" },
  candidates: { input: "learn-candidates", box: "learn-settings-error" },
  patience: { input: "learn-patience", box: "learn-settings-error" },
  seed: { input: "learn-seed", box: "learn-settings-error" },
  semantics: { input: "learn-semantics", box: "learn-settings-error" },
  validation: { input: "learn-validation", box: "learn-settings-error" },
  folds: { input: "learn-validation", box: "learn-settings-error" },
  validation_patience: { input: "learn-validation", box: "learn-settings-error" },
  prune: { input: "learn-prune", box: "learn-settings-error" },
  label: "learn-label",
  "*": { input: "learn-start", box: "learn-start-error", focus: false },
};

async function startLearning() {
  clearErrors("learn-section");
  if (state.events) state.events.close();
  // An empty field is left out: the server takes strata learn's default.
  const num = (id) => ($(id).value === "" ? undefined : Number($(id).value));
  const fromTable = $("learn-from-table").checked;
  const body = {
    iterations: num("learn-iterations"), candidates: num("learn-candidates"), patience: num("learn-patience"), seed: num("learn-seed"),
    semantics: $("learn-semantics").value,
  };
  const targets = { ...learnTargets };
  if (fromTable) {
    if (!state.table) {
      fail(targets, { field: "table", error: "upload a table first (or take the example)" });
      return;
    }
    body.table = state.table.text;
    body.label = $("learn-label").value;
    body.name = state.table.name;
    targets.table = { input: "learn-table-file", box: "learn-table-file-error", lines: state.table.text };
  } else {
    body.pos = $("learn-pos").value;
    body.neg = $("learn-neg").value;
    body.name = $("learn-pos").dataset.name || "explorer";
  }
  const validation = $("learn-validation").value;
  if (validation === "holdout") body.validation = 0.3;
  if (validation === "folds") body.folds = 5;
  if (validation && $("learn-prune").checked) body.prune = true;
  let r;
  try {
    r = await api("POST", "/api/learn", body);
  } catch (err) {
    fail(targets, err);
    return;
  }
  follow(r.id);
}

// follow shows a run as its events come: the status line, the curves and,
// at the end, the theory and, for a table, the per-class results.
function follow(id) {
  setRun(id);
  state.curves = newCurves();
  const status = $("learn-status");
  status.textContent = "learning…";
  status.dataset.state = "running";
  status.dataset.iterations = 0;
  status.dataset.validations = 0;
  $("learn-theory").textContent = "";
  $("learn-confusion").replaceChildren();
  $("learn-cancel").disabled = false;
  $("learn-start").disabled = true;
  redrawCurves(true);
  const es = new EventSource(`/api/learn/${id}/events`);
  state.events = es;
  let choice = "";
  es.addEventListener("validation", (ev) => {
    const it = JSON.parse(ev.data);
    status.dataset.validations = Number(status.dataset.validations) + 1;
    const k = it.fold || 0;
    if (!state.curves.folds.has(k)) state.curves.folds.set(k, []);
    state.curves.folds.get(k).push(it);
    const fold = it.folds ? ` (fold ${it.fold} of ${it.folds})` : "";
    status.textContent = `choosing the iterations${fold}: iteration ${it.iteration}, held-out accuracy ${pct(it.test_accuracy || 0)}`;
    redrawCurves();
  });
  es.addEventListener("chosen", (ev) => {
    const v = JSON.parse(ev.data);
    state.curves.chosen = v;
    state.curves.pooled = v.history || [];
    choice = `chose ${v.chosen} iterations (held-out accuracy ${pct(v.chosen_accuracy || 0)}; best ${pct(v.best_accuracy || 0)} at ${v.best})`;
    status.textContent = `${choice}; learning on all the examples…`;
    redrawCurves();
  });
  es.addEventListener("iteration", (ev) => {
    const it = JSON.parse(ev.data);
    state.curves.final.push(it);
    if (it.test_accuracy !== null) state.curves.test = true;
    status.dataset.iterations = state.curves.final.length;
    let s = `iteration ${it.iteration}: training accuracy ${pct(it.train_accuracy)}`;
    if (it.test_accuracy !== null) s += `, test ${pct(it.test_accuracy)}`;
    s += `; ${it.rules} rules in ${it.levels} levels`;
    status.textContent = choice ? `${choice} · ${s}` : s;
    redrawCurves();
  });
  es.addEventListener("end", (ev) => {
    es.close();
    const v = JSON.parse(ev.data);
    let s = status.textContent;
    if (choice && v.validation && v.validation.prune_threshold != null) {
      s += ` · pruned of the clauses at most ${v.validation.prune_threshold} examples need`;
    }
    status.textContent = `${s} · ${v.state}: ${v.stop || v.error || ""}`;
    status.dataset.state = v.state;
    $("learn-theory").textContent = v.theory;
    if (v.confusion) renderConfusion(v.confusion);
    $("learn-cancel").disabled = true;
    $("learn-start").disabled = false;
    redrawCurves(true);
  });
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) $("learn-start").disabled = false;
  };
}

// renderConfusion shows a table run's answers for the table's rows, class
// by class: each row a class, each column an answer.
function renderConfusion(c) {
  if (c.error) {
    $("learn-confusion").replaceChildren(el("div", { class: "summary" }, `per-class results: ${c.error}`));
    return;
  }
  const rows = c.labels.map((t, i) => {
    const total = c.counts[i].reduce((a, b) => a + b, 0);
    return el("tr", { dataset: { class: t } }, el("th", { scope: "row" }, t),
      ...c.counts[i].map((n, j) => el("td", { class: i === j ? "diag" : n ? "off" : "" }, n)),
      el("td", {}, total ? `${c.counts[i][i]} of ${total}` : "–"));
  });
  $("learn-confusion").replaceChildren(
    el("h3", {}, "Per class, on the table's rows"),
    el("div", { class: "summary", id: "learn-confusion-accuracy" }, `accuracy ${pct(c.accuracy)} on ${c.rows} rows (training rows: the theory was learned from them)`),
    el("div", { class: "scroll" }, el("table", { class: "table confusion", id: "confusion-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "class \\ answer"), ...c.labels.map((l) => el("th", {}, l)), el("th", {}, "right"))),
      el("tbody", {}, ...rows))));
}

async function cancelLearning() {
  if (!state.run) return;
  try {
    await api("POST", `/api/learn/${state.run}/cancel`);
  } catch (err) {
    fail({ "*": { input: "learn-cancel", box: "learn-start-error" } }, err);
  }
}

async function learnedToTheory() {
  if (!state.run) return;
  const text = await fetchText(`/api/learn/${state.run}/theory`);
  $("theory-text").value = text;
  $("theory-text").dataset.name = `${state.run}.theory`;
  if (await loadTheory({ text, name: `${state.run}.theory` }, state.run)) $("theory-section").scrollIntoView();
  $("theory-text").focus();
}

// ---- tables ----

// csvHeader returns the column names of a CSV text's first line (quotes
// as RFC 4180 writes them).
function csvHeader(text) {
  const names = [];
  let cur = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      names.push(cur.trim());
      cur = "";
    } else if (ch === "\n" || ch === "\r") break;
    else cur += ch;
  }
  names.push(cur.trim());
  return names;
}

function setTable(name, text) {
  state.table = { name, text };
  const cols = csvHeader(text);
  $("learn-label").replaceChildren(...cols.map((c) => el("option", { value: c }, c)));
  $("learn-label").value = cols[cols.length - 1];
  const lines = text.split(/\r?\n/);
  $("learn-table-preview").textContent = `${name}: ${Math.max(0, lines.filter((l) => l.trim()).length - 1)} rows, columns ${cols.join(", ")}\n` +
    lines.slice(0, 6).join("\n") + (lines.length > 6 ? "\n…" : "");
  clearErrors("learn-section");
}

function learnFrom() {
  const table = $("learn-from-table").checked;
  $("learn-table").hidden = !table;
  $("learn-examples").hidden = table;
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
  state.chart = new Curves($("learn-chart"));
  window.addEventListener("resize", () => state.curves && redrawCurves());

  $("theory-load").addEventListener("click", () => loadTheory({ text: $("theory-text").value, name: nameOf("theory-text", "theory") }));
  // Edited text is no longer the file it came from, nor the theory loaded.
  $("theory-text").addEventListener("input", () => {
    delete $("theory-text").dataset.name;
    state.theory = null;
  });
  $("theory-example").addEventListener("click", async () => {
    $("theory-text").value = await fetchText("examples/penguin.theory");
    $("theory-text").dataset.name = "penguin.theory";
    loadTheory({ text: $("theory-text").value, name: "penguin.theory" });
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
  $("base-text").addEventListener("input", () => delete $("base-text").dataset.name);
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
  listFiles();
  document.body.dataset.ready = "1";
}

init();
