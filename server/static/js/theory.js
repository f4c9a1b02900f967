// strata explorer: the theory, its answers under every semantics and what its formulas decide. Plain JavaScript, no build step; it uses
// the helpers and the state of app.js, which loads last and starts the page.
"use strict";

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
  $("levels").classList.remove("stale");
  $("theory-summary").textContent = "";
  $("theory-downloads").hidden = true;
  $("theory-delete").hidden = true;
  $("levels-hint").hidden = true;
  $("coverage").hidden = true;
  $("answer-box").hidden = true;
  $("compare").replaceChildren();
}

// staleTheory marks the view of the loaded theory as not that of the
// edited text: it stays to read, and the next question loads the text.
function staleTheory() {
  state.theory = null;
  state.theorySource = null;
  state.theoryRun = null;
  $("levels").classList.add("stale");
  $("levels").querySelectorAll("button.formula").forEach((b) => { b.disabled = true; });
  $("theory-summary").textContent = "The text was edited: Load theory, or ask a question, to use it.";
  $("theory-downloads").hidden = true;
  $("theory-delete").hidden = true;
  $("levels-hint").hidden = true;
  $("coverage").hidden = true;
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
  box.classList.remove("stale");
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
