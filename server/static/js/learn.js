// strata explorer: evaluation, learning runs and their curves, tables. Plain JavaScript, no build step; it uses
// the helpers and the state of app.js, which loads last and starts the page.
"use strict";

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
    let s = `iteration ${it.iteration}: ${pct(it.train_accuracy)} of the learner's training examples right`;
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
  // A table's rows each have a class: the none row, all zeros, is left out.
  const rows = c.labels.flatMap((t, i) => {
    const total = c.counts[i].reduce((a, b) => a + b, 0);
    if (t === "none" && total === 0) return [];
    return el("tr", { dataset: { class: t } }, el("th", { scope: "row" }, t),
      ...c.counts[i].map((n, j) => el("td", { class: i === j ? "diag" : n ? "off" : "" }, n)),
      el("td", {}, total ? `${c.counts[i][i]} of ${total}` : "–"));
  });
  $("learn-confusion").replaceChildren(
    el("h3", {}, "Per class, on the table's rows"),
    el("div", { class: "summary", id: "learn-confusion-accuracy" }, `one class per row: ${pct(c.accuracy)} of the ${c.rows} training rows right ` +
      "(the learner's examples, whose share is above, count each row's default and non-defaults apart)"),
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
