// strata explorer: learning curves drawn as SVG from a run's events. Plain
// JavaScript, no build step, no external resources.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

// integerTicks returns the whole numbers from lo to hi, at a step of 1, 2
// or 5 times a power of ten, about at most `most` of them.
function integerTicks(lo, hi, most) {
  const span = Math.max(hi - lo, 1);
  let step = 1;
  for (let p = 1; ; p *= 10) {
    const s = [1, 2, 5].map((m) => m * p).find((s) => span / s <= most);
    if (s !== undefined) {
      step = s;
      break;
    }
  }
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi; t += step) ticks.push(t);
  return ticks;
}

// pct writes an accuracy (0..1) as a percentage with one decimal.
const pct = (y) => `${(100 * y).toFixed(1)}%`;

// Curves draws learning curves into a figure: series of (iteration,
// accuracy) points, an optional marker (the chosen iteration), integer
// ticks on both axes (iterations; accuracy in percent), a legend, and the
// values of every series at the iteration under the pointer or, from the
// keyboard, chosen with the arrow keys.
class Curves {
  constructor(figure) {
    this.figure = figure;
    this.plot = figure.querySelector(".chart-plot");
    this.legend = figure.querySelector(".chart-legend");
    this.readout = figure.querySelector(".chart-readout");
    this.series = [];
    this.marker = null;
    this.cursor = null; // the iteration the readout shows
    this.pending = false;
  }

  // set replaces the data and redraws at the next frame.
  set(series, marker) {
    this.series = series;
    this.marker = marker;
    if (!this.pending) {
      this.pending = true;
      requestAnimationFrame(() => {
        this.pending = false;
        this.draw();
      });
    }
  }

  // drawNow redraws at once (for a run that has ended).
  drawNow() {
    this.pending = false;
    this.draw();
  }

  domain() {
    let x0 = Infinity, x1 = -Infinity, y0 = 1;
    for (const s of this.series) {
      for (const p of s.points) {
        x0 = Math.min(x0, p.x);
        x1 = Math.max(x1, p.x);
        if (p.y !== null) y0 = Math.min(y0, p.y);
      }
    }
    if (!isFinite(x0)) {
      x0 = 1;
      x1 = 1;
    }
    if (x1 === x0) x1 = x0 + 1;
    // Accuracy in whole percents, down to a multiple of ten below the lowest.
    let lo = Math.max(0, Math.floor((100 * y0 - 1) / 10) * 10);
    if (lo >= 100) lo = 90;
    return { x0, x1, lo, hi: 100 };
  }

  draw() {
    const width = Math.max(280, Math.round(this.plot.clientWidth || 480));
    const height = width < 420 ? 220 : 260;
    const m = { left: 46, right: 14, top: 12, bottom: 36 };
    const d = this.domain();
    const X = (x) => m.left + ((x - d.x0) / (d.x1 - d.x0)) * (width - m.left - m.right);
    const Y = (y) => m.top + (1 - (100 * y - d.lo) / (d.hi - d.lo)) * (height - m.top - m.bottom);
    this.scale = { X, d, m, width, height };

    const svg = svgEl("svg", {
      viewBox: `0 0 ${width} ${height}`, width, height, tabindex: "0", role: "img",
      "aria-label": "learning curves: accuracy by iteration; use the arrow keys to read the values at an iteration",
    });
    const axes = svgEl("g", { class: "axes" });
    for (const t of integerTicks(d.x0, d.x1, Math.max(3, Math.floor(width / 70)))) {
      axes.append(svgEl("line", { class: "grid", x1: X(t), x2: X(t), y1: m.top, y2: height - m.bottom }));
      axes.append(svgEl("text", { class: "tick x-tick", x: X(t), y: height - m.bottom + 14, "text-anchor": "middle" }, t));
    }
    for (const t of integerTicks(d.lo, d.hi, 6)) {
      axes.append(svgEl("line", { class: "grid", x1: m.left, x2: width - m.right, y1: Y(t / 100), y2: Y(t / 100) }));
      axes.append(svgEl("text", { class: "tick y-tick", x: m.left - 6, y: Y(t / 100) + 4, "text-anchor": "end" }, `${t}%`));
    }
    axes.append(svgEl("text", { class: "axis-label", x: (m.left + width - m.right) / 2, y: height - 4, "text-anchor": "middle" }, "iteration"));
    svg.append(axes);

    this.series.forEach((s, i) => {
      let path = "";
      let pen = false;
      for (const p of s.points) {
        if (p.y === null) {
          pen = false;
          continue;
        }
        path += `${pen ? "L" : "M"}${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`;
        pen = true;
      }
      const g = svgEl("g", { class: `series c${s.color ?? i}${s.faint ? " faint" : ""}`, "data-series": s.id });
      g.append(svgEl("path", { d: path }));
      if (s.points.length === 1 && s.points[0].y !== null) {
        g.append(svgEl("circle", { cx: X(s.points[0].x), cy: Y(s.points[0].y), r: 2.5 }));
      }
      svg.append(g);
    });

    if (this.marker) {
      const mk = this.marker;
      const g = svgEl("g", { class: "chosen", "data-iteration": mk.x, "data-series": mk.series });
      g.append(svgEl("line", { x1: X(mk.x), x2: X(mk.x), y1: m.top, y2: height - m.bottom }));
      if (mk.y !== null && mk.y !== undefined) g.append(svgEl("circle", { cx: X(mk.x), cy: Y(mk.y), r: 4.5 }));
      const right = X(mk.x) > width - 120;
      g.append(svgEl("text", { x: X(mk.x) + (right ? -5 : 5), y: m.top + 12, "text-anchor": right ? "end" : "start" }, mk.label));
      svg.append(g);
    }

    const guide = svgEl("line", { class: "guide", y1: m.top, y2: height - m.bottom, visibility: "hidden" });
    svg.append(guide);
    this.guide = guide;
    const overlay = svgEl("rect", { class: "overlay", x: m.left, y: m.top, width: width - m.left - m.right, height: height - m.top - m.bottom });
    svg.append(overlay);
    overlay.addEventListener("mousemove", (ev) => {
      const box = svg.getBoundingClientRect();
      const x = ((ev.clientX - box.left) / box.width) * width;
      this.show(Math.round(d.x0 + ((x - m.left) / (width - m.left - m.right)) * (d.x1 - d.x0)));
    });
    overlay.addEventListener("mouseleave", () => this.show(null));
    svg.addEventListener("keydown", (ev) => {
      const moves = { ArrowRight: 1, ArrowLeft: -1, PageUp: 10, PageDown: -10 };
      let c = this.cursor ?? d.x0 - 1;
      if (ev.key in moves) c += moves[ev.key];
      else if (ev.key === "Home") c = d.x0;
      else if (ev.key === "End") c = d.x1;
      else if (ev.key === "Escape") c = null;
      else return;
      ev.preventDefault();
      this.show(c === null ? null : Math.min(Math.max(c, d.x0), d.x1));
    });
    svg.addEventListener("blur", () => this.show(null));
    this.plot.replaceChildren(svg);

    this.legend.replaceChildren(...this.series.map((s, i) => {
      const item = document.createElement("span");
      item.className = `key c${s.color ?? i}${s.faint ? " faint" : ""}`;
      item.dataset.series = s.id;
      item.textContent = s.label;
      return item;
    }));
    if (this.marker) {
      const item = document.createElement("span");
      item.className = "key chosen-key";
      item.textContent = this.marker.label;
      this.legend.append(item);
    }
    if (this.cursor !== null) this.show(this.cursor);
  }

  // show writes the values of every series at iteration x (null: none).
  show(x) {
    if (x === null || !this.scale || x < this.scale.d.x0 || x > this.scale.d.x1) {
      this.cursor = null;
      if (this.guide) this.guide.setAttribute("visibility", "hidden");
      this.readout.textContent = "";
      return;
    }
    this.cursor = x;
    const X = this.scale.X(x);
    this.guide.setAttribute("x1", X);
    this.guide.setAttribute("x2", X);
    this.guide.setAttribute("visibility", "visible");
    const parts = [];
    for (const s of this.series) {
      const p = s.points.find((p) => p.x === x);
      if (p && p.y !== null) parts.push(`${s.label} ${pct(p.y)}`);
    }
    let text = `iteration ${x}: ${parts.length ? parts.join(" · ") : "no values"}`;
    if (this.marker && this.marker.x === x) text += ` · ${this.marker.label}`;
    this.readout.textContent = text;
    this.readout.dataset.iteration = x;
  }
}

window.Curves = Curves;
window.integerTicks = integerTicks;
