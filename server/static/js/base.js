// strata explorer: a default base, its answers under every inference relation and its ranks. Plain JavaScript, no build step; it uses
// the helpers and the state of app.js, which loads last and starts the page.
"use strict";

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
  $("zordering").classList.remove("stale");
  $("base-query-row").hidden = true;
  $("base-downloads").hidden = true;
  $("base-delete").hidden = true;
  $("base-compare").replaceChildren();
  $("base-answer").replaceChildren();
  $("ranks").replaceChildren();
}

// staleBase marks the view of the loaded base as not that of the edited
// text; the next question loads the text.
function staleBase() {
  state.base = null;
  state.baseSource = null;
  $("zordering").classList.add("stale");
  $("base-downloads").hidden = true;
  $("base-delete").hidden = true;
  $("base-compare").replaceChildren();
  $("base-answer").replaceChildren();
  $("ranks").replaceChildren();
}

// ensureBase is ensureTheory for the base.
async function ensureBase() {
  if (state.base) return true;
  if ($("base-text").value.trim() === "") {
    fail({ "*": "base-text" }, { field: "base", error: "load a default base first: paste one here, or take the example" });
    return false;
  }
  return loadBase({ text: $("base-text").value, name: nameOf("base-text", "base"), format: $("base-format").value });
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
  $("zordering").classList.remove("stale");
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
  clearErrors("base-section");
  if (!(await ensureBase())) return;
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
  clearErrors("base-section");
  if (!(await ensureBase())) return;
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
