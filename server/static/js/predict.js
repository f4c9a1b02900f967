// strata explorer, section 6: a table's rows answered by the theory of
// section 1 (POST /api/predict), as strata predict --keep --degrees
// writes them.
"use strict";

// predictTable asks the API for the class of every row of the table given
// (typed, uploaded, an example, or a file under --dir) and shows them.
async function predictTable() {
  clearErrors("predict-section");
  if (!(await ensureTheory())) {
    const box = $("predict-run-error");
    box.textContent = "the theory of section 1 is not loaded: see the error there";
    box.hidden = false;
    return;
  }
  const keep = $("predict-keep").value.split(",").map((s) => s.trim()).filter((s) => s);
  const body = { semantics: $("semantics").value, keep, degrees: $("predict-degrees").checked, label: $("predict-label").value.trim() };
  const path = $("predict-path").value;
  const text = $("predict-table").value;
  if (path) body.table_path = path;
  else body.table = text;
  const targets = {
    table: path ? "predict-path" : { input: "predict-table", lines: text },
    keep: "predict-keep",
    label: "predict-label",
    semantics: { input: "semantics", box: "predict-run-error" },
    "*": { input: "predict-run", box: "predict-run-error" },
  };
  if (!path && text.trim() === "") {
    fail(targets, { field: "table", error: "give a table: paste one here, upload one, or take the example" });
    return;
  }
  let r;
  try {
    r = await withTheory((id) => api("POST", "/api/predict", { theory_id: id, ...body }));
  } catch (err) {
    fail(targets, err);
    return;
  }
  renderPredictions(r, keep, body.degrees);
}

// renderPredictions shows a table's predictions: a row per table row, its
// line, the kept columns, the answer, its degree and the row's class when
// the table has it; above them how many rows each answer got.
function renderPredictions(r, keep, degrees) {
  const ps = r.predictions;
  const targets = ps.some((p) => p.target);
  const counts = new Map();
  for (const p of ps) counts.set(p.predicted, (counts.get(p.predicted) || 0) + 1);
  let summary = `${ps.length} rows of ${r.table} (${r.semantics}): ` + [...counts].map(([c, n]) => `${n} ${c}`).join(", ");
  if (targets) {
    const scored = ps.filter((p) => p.target);
    summary += `; ${scored.filter((p) => p.predicted === p.target).length} of ${scored.length} rows with a class answered right`;
  }
  const head = ["line", ...keep, "predicted", ...(degrees ? ["degree"] : []), ...(targets ? ["class"] : [])];
  const rows = ps.map((p) => el("tr", { dataset: { line: p.line, predicted: p.predicted } },
    el("td", {}, p.line),
    ...keep.map((k) => el("td", {}, (p.columns || {})[k] ?? "")),
    el("td", { class: targets && p.target ? (p.target === p.predicted ? "diag" : "off") : "" }, p.predicted),
    ...(degrees ? [el("td", { title: (p.degrees || []).map((d) => `${d.class}: ${fmt(d.degree)}`).join(", ") }, fmt(p.degree ?? 0))] : []),
    ...(targets ? [el("td", {}, p.target || "")] : [])));
  const csv = [head.join(","), ...ps.map((p) => [p.line, ...keep.map((k) => csvField((p.columns || {})[k] ?? "")), csvField(p.predicted),
    ...(degrees ? [p.degree ?? 0] : []), ...(targets ? [csvField(p.target || "")] : [])].join(","))].join("\n") + "\n";
  $("predict-result").replaceChildren(
    el("div", { class: "summary", id: "predict-summary" }, summary),
    ...(r.warnings || []).map((w) => el("div", { class: "summary warning" }, `warning: ${w}`)),
    el("div", { class: "scroll" }, el("table", { class: "table", id: "predict-table-view" },
      el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows))),
    el("div", { class: "row downloads" }, el("a", { href: "#", id: "predict-download" }, "Download predictions (CSV)")));
  saveLink("predict-download", "predictions.csv", "text/csv", csv);
}

// csvField quotes a CSV field that needs it.
function csvField(s) {
  s = String(s);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function initPredict() {
  $("predict-run").addEventListener("click", predictTable);
  $("predict-example").addEventListener("click", async () => {
    $("predict-table").value = await fetchText("examples/applicants.csv");
    $("predict-path").value = "";
    $("predict-keep").value = "name";
  });
  $("predict-table-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    $("predict-table").value = await f.text();
    $("predict-path").value = "";
    ev.target.value = "";
  });
  // A table typed or uploaded is the one to predict, not a file chosen
  // under --dir before.
  $("predict-table").addEventListener("input", () => ($("predict-path").value = ""));
}
