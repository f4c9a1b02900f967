package server

// The explorer page, driven in headless Chromium. Each test opens the page
// on a test server of its own and reads what it shows from the DOM.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/strata-logic/strata/internal/jsonview"
)

// chromium finds a Chromium binary. The test skips without one, unless
// STRATA_REQUIRE_CHROMIUM=1 (set in CI, which installs it with
// bench/install-chromium.sh).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("STRATA_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("chromium not found and STRATA_REQUIRE_CHROMIUM=1 (run bench/install-chromium.sh)")
	}
	t.Skip("chromium not found (bench/install-chromium.sh installs it)")
	return ""
}

// page is the explorer page open in a headless Chromium of its own.
type page struct {
	t     *testing.T
	ctx   context.Context
	width int
}

// openPage opens the page of the server at url in a window width pixels
// wide, and records the page's uncaught errors (checked at the end of the
// test).
func openPage(t *testing.T, url string, width int) *page {
	t.Helper()
	exe := chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, 1000),
	)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	p := &page{t: t, ctx: bctx, width: width}
	p.run("load the page", chromedp.Steps(
		chromedp.EmulateViewport(int64(width), 1000),
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(`body[data-ready="1"]`),
	))
	p.exec(`window.pageErrors = []; window.addEventListener("error", (e) => pageErrors.push(e.message));
		window.addEventListener("unhandledrejection", (e) => pageErrors.push(String(e.reason && (e.reason.error || e.reason.message) || e.reason)))`)
	t.Cleanup(func() {
		if got := p.eval(`pageErrors.join("\n")`); got != "" {
			t.Errorf("the page threw: %s", got)
		}
	})
	return p
}

func (p *page) run(what string, a chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, a); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression whose value is a string (or is
// made one).
func (p *page) eval(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`String(`+expr+`)`))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// exec runs JavaScript statements.
func (p *page) exec(js string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[chromedp.Void](js)); err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
}

func (p *page) evalInt(expr string) int {
	p.t.Helper()
	n, err := strconv.Atoi(p.eval(expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return n
}

// await evaluates an expression whose value is a promise of a string.
func (p *page) await(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`Promise.resolve(`+expr+`).then(String)`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func (p *page) wait(what, expr string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		p.t.Fatalf("waiting for %s: %v", what, err)
	}
}

func (p *page) click(sel string) { p.t.Helper(); p.run("click "+sel, chromedp.Click(sel)) }

// key sends keys to the focused element, as a keyboard does.
func (p *page) key(keys string) { p.t.Helper(); p.run("keys "+keys, chromedp.KeyEvent(keys)) }

// textsOf is a JavaScript expression joining the text of the elements sel
// finds.
func textsOf(sel, sep string) string {
	return fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map((e) => e.textContent).join(%q)`, sel, sep)
}

// screenshotsEnv names the environment variable that makes the browser
// tests write their screenshots of the page's main views into docs/, for
// the README and the serving guide; without it they go to a scratch
// directory, so that go test leaves the checkout as it was.
const screenshotsEnv = "STRATA_SCREENSHOTS"

// shot takes a screenshot of the elements sel (CSS) finds, all of them, as
// docs/explorer-NAME-WIDTH.png when STRATA_SCREENSHOTS=1.
func (p *page) shot(name, sel string) {
	p.t.Helper()
	p.exec(fmt.Sprintf(`document.querySelector(%q).scrollIntoView(); document.activeElement.blur()`, sel))
	png, err := chromedp.Run(p.ctx, chromedp.Screenshot(chromedp.CSSAll(sel)))
	if err != nil {
		p.t.Fatalf("screenshot of %s: %v", sel, err)
	}
	if len(png) < 1000 {
		p.t.Fatalf("screenshot of %s: %d bytes", sel, len(png))
	}
	dir := p.t.TempDir()
	if os.Getenv(screenshotsEnv) == "1" {
		dir = filepath.Join("..", "docs")
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("explorer-%s-%d.png", name, p.width)), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// loadPenguin loads the penguin example theory.
func (p *page) loadPenguin() {
	p.t.Helper()
	p.click("#theory-example")
	p.wait("the levels", `document.querySelectorAll("#levels .level").length === 2 && document.querySelectorAll("#levels button.formula").length === 4`)
}

// ask asks the theory's query under every semantics and returns the
// answers, "semantics:answer" in order.
func (p *page) ask(query string) string {
	p.t.Helper()
	p.exec(`state.compare = null`)
	p.run("ask "+query, chromedp.Steps(chromedp.SetValue("#query", query), chromedp.Click("#ask")))
	p.wait("the answers to "+query, fmt.Sprintf(`document.querySelector("#compare-table") !== null && state.compare && state.compare.query === %q`, query))
	return p.eval(`Array.from(document.querySelectorAll("#compare-table tbody tr")).map((r) => r.dataset.semantics + ":" + r.dataset.answer).join(" ")`)
}

// baseAsk asks the base's query under every inference relation.
func (p *page) baseAsk(query string) string {
	p.t.Helper()
	p.exec(`state.baseCompare = null`)
	p.run("ask the base "+query, chromedp.Steps(chromedp.SetValue("#base-query", query), chromedp.Click("#base-ask")))
	p.wait("the base's answers to "+query, fmt.Sprintf(`document.querySelector("#base-compare-table") !== null && state.baseCompare && state.baseCompare.query === %q`, query))
	return p.eval(`Array.from(document.querySelectorAll("#base-compare-table tbody tr")).map((r) => r.dataset.semantics + ":" + r.dataset.answer).join(" ")`)
}

// pick chooses the answer of a semantics in a comparison table.
func (p *page) pick(table, semantics string) {
	p.t.Helper()
	p.click(fmt.Sprintf(`#%s tr[data-semantics=%q] button.pick`, table, semantics))
}

func (p *page) loadBirdsBase() {
	p.t.Helper()
	p.click("#base-example")
	p.wait("the Z-ordering", `document.querySelectorAll("#z-table tbody tr").length === 7`)
}

// learn starts a learning run from the page and waits for its end.
func (p *page) learn(what string) {
	p.t.Helper()
	p.exec(`document.getElementById("learn-status").dataset.state = ""`)
	p.click("#learn-start")
	p.wait(what, `["done", "failed", "cancelled"].includes(document.getElementById("learn-status").dataset.state)`)
	if st := p.eval(`document.getElementById("learn-status").dataset.state`); st != "done" {
		p.t.Fatalf("%s: %s: %s", what, st, p.eval(`document.getElementById("learn-status").textContent`))
	}
}

// TestExplorerCompare: a query answered under every semantics at once,
// with the reason for each answer and the disagreements marked; choosing an
// answer shows its explanation (the levels it sets aside, the formulas that
// decide it, a preferred world, the impacts and ranks of c-inference). On
// the birds base, penguin -> wings is the known disagreement of the five
// relations.
func TestExplorerCompare(t *testing.T) {
	_, ts := newTest(t, Config{})
	p := openPage(t, ts.URL, 1400)
	p.loadPenguin()

	if got := p.ask("penguin -> wings"); got != "poss:no linear:no lex:yes" {
		t.Fatalf("penguin -> wings: %s", got)
	}
	if got := p.eval(`document.querySelector("#compare .disagree").textContent`); got != "the semantics disagree: yes under lex; no under poss, linear" {
		t.Errorf("disagreement line %q", got)
	}
	if got := p.eval(`Array.from(document.querySelectorAll("#compare-table tr.differs")).map((r) => r.dataset.semantics).join(" ")`); got != "lex" {
		t.Errorf("marked as differing: %q, want lex", got)
	}
	for _, sem := range []string{"poss", "linear", "lex"} {
		if why := p.eval(fmt.Sprintf(`document.querySelector('#compare-table tr[data-semantics=%q] .why').textContent`, sem)); why == "" {
			t.Errorf("%s: no reason in the table", sem)
		}
	}
	// Under poss the evidence drowns the level of 0.5 and a preferred
	// world of penguin falsifies wings.
	p.pick("compare-table", "poss")
	drowned := textsOf("#levels .level.drowned .weight", " ")
	entailing := textsOf("#levels li.entailing", "; ")
	if got := p.eval(drowned); got != "0.5" {
		t.Errorf("poss: drowned %q", got)
	}
	if got := p.eval(`document.getElementById("explanation-text").textContent`); !strings.Contains(got, "counter-example, a preferred world: ") || !strings.Contains(got, "!wings") {
		t.Errorf("poss: explanation %q", got)
	}
	// Under lex it sets aside !bird | flies alone: penguins keep their wings.
	p.pick("compare-table", "lex")
	if got := p.eval(`document.getElementById("answer").textContent`); got != "yes" {
		t.Errorf("lex: answer %q", got)
	}
	if got := p.eval(textsOf("#levels li.set-aside", "; ")); got != "!bird | flies" {
		t.Errorf("lex: set aside %q, want !bird | flies", got)
	}
	if got := p.eval(entailing); got != "!penguin | bird; !bird | wings" {
		t.Errorf("lex: entailing %q", got)
	}
	if got := p.eval(`document.querySelector('#compare-table tr[data-semantics="lex"] button.pick').getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("the chosen answer is not marked pressed: %s", got)
	}
	if got := p.ask("penguin -> !flies"); got != "poss:yes linear:yes lex:yes" || p.eval(`document.querySelector("#compare .agree").textContent`) != "every semantics answers yes" {
		t.Errorf("penguin -> !flies: %s", got)
	}
	if got := p.eval(entailing); got != "!penguin | !flies" {
		t.Errorf("poss, penguin -> !flies: entailing %q", got)
	}

	// The five inference relations on the birds base.
	p.loadBirdsBase()
	if got := p.baseAsk("penguin -> wings"); got != "p:no rational:no w:yes lex:yes c:yes" {
		t.Fatalf("the birds base, penguin -> wings: %s", got)
	}
	if got := p.eval(`Array.from(document.querySelectorAll("#base-compare-table tr.differs")).map((r) => r.dataset.semantics).join(" ")`); got != "p rational" {
		t.Errorf("marked as differing: %q", got)
	}
	p.pick("base-compare-table", "rational")
	if got := p.eval(`document.querySelectorAll("#z-table tr.drowned").length + " " + document.getElementById("base-answer").textContent`); !strings.HasPrefix(got, "2 no rational: penguin drowns Δ1") {
		t.Errorf("rational closure: %q, want the 2 defaults of Δ1 drowned", got)
	}
	p.pick("base-compare-table", "lex")
	if got := p.eval(`document.getElementById("base-answer").textContent`); !strings.Contains(got, "violate (Δ2: 0, Δ1: 1)") {
		t.Errorf("lexicographic closure: %q", got)
	}
	// c-inference rejecting a query: the impacts and ranks involved.
	if got := p.baseAsk("penguin, zoo -> flies"); got != "p:no rational:no w:no lex:no c:no" {
		t.Errorf("penguin, zoo -> flies: %s", got)
	}
	p.pick("base-compare-table", "c")
	if got := p.eval(`document.querySelectorAll("#impacts-table tbody tr").length + " " + document.querySelector("#impacts-table caption").textContent`); !strings.HasPrefix(got, "7 the c-representation that does not accept the query: κ(α ∧ β) = ") {
		t.Errorf("c-inference's impacts: %q", got)
	}
	p.pick("base-compare-table", "p")
	if got := p.eval(`document.getElementById("base-answer").textContent`); !strings.Contains(got, "is consistent: its Z-ordering puts") {
		t.Errorf("System P: %q", got)
	}
	// Every answer is kept in the table of answers so far.
	if got := p.evalInt(`document.querySelectorAll("#answers tbody tr").length`); got != 4 {
		t.Errorf("%d answers so far, want 4", got)
	}
	p.ask("penguin -> wings")
	p.pick("compare-table", "lex")
	p.shot("theory", "#theory-section, #query-section")
}

// TestExplorerRanks: κ_Z and κ_c of the birds base as tables of worlds,
// with how each judges the query and the α-worlds of least rank, which
// decide it.
func TestExplorerRanks(t *testing.T) {
	_, ts := newTest(t, Config{})
	p := openPage(t, ts.URL, 1400)
	p.loadBirdsBase()
	p.baseAsk("penguin -> wings")
	p.pick("base-compare-table", "rational")
	p.run("ranks", chromedp.Click("#base-ranks"))
	p.wait("the worlds", `document.querySelector("#worlds-table") !== null`)
	if got := p.eval(`Array.from(document.querySelectorAll("#ranks-defaults tbody tr")).map((r) => r.cells[1].textContent + "/" + r.cells[2].textContent).join(" ")`); got != "1/1 1/1 2/2 2/2 2/2 2/2 2/1" {
		t.Errorf("Z-ranks/impacts of the defaults: %s", got)
	}
	// κ_Z drowns penguin -> wings, κ_c accepts it.
	if got := p.eval(`Array.from(document.querySelectorAll("ul.judged li")).map((l) => l.dataset.ocf + ":" + l.dataset.accepted).join(" ")`); got != "z:false c:true" {
		t.Errorf("judged: %s", got)
	}
	// The worlds of penguin (64 of 128), least ranks first (the first
	// 16, then all of them); those of the least rank under either OCF
	// decide the query.
	if got := p.evalInt(`document.querySelectorAll("#worlds-table tbody tr").length`); got != 16 {
		t.Errorf("%d worlds of α listed, want the first 16", got)
	}
	p.shot("base", "#base-section")
	p.click("#ranks-all")
	p.wait("every world", `document.querySelectorAll("#worlds-table tbody tr").length === 128`)
	rows := p.eval(`JSON.stringify(Array.from(document.querySelectorAll("#worlds-table tbody tr")).map((r) => [r.cells[0].textContent, r.cells[1].textContent, r.cells[2].textContent, r.cells[3].textContent, r.classList.contains("decides")]))`)
	var worlds [][5]any
	if err := json.Unmarshal([]byte(rows), &worlds); err != nil {
		t.Fatal(err)
	}
	minZ, minC, decides := 1<<30, 1<<30, 0
	var alpha [][5]any
	for _, w := range worlds {
		if (w[3] != "") != strings.Contains(w[0].(string), "penguin") {
			t.Fatalf("world %v: a world of α exactly when penguin holds", w)
		}
		if w[3] != "" {
			alpha = append(alpha, w)
		}
	}
	worlds = alpha
	for _, w := range worlds {
		if z, err := strconv.Atoi(w[1].(string)); err == nil {
			minZ = min(minZ, z)
		}
		if c, err := strconv.Atoi(w[2].(string)); err == nil {
			minC = min(minC, c)
		}
	}
	for _, w := range worlds {
		least := w[1] == strconv.Itoa(minZ) || w[2] == strconv.Itoa(minC)
		if w[4].(bool) != least {
			t.Errorf("world %v marked deciding %v; least ranks %d, %d", w, w[4], minZ, minC)
		}
		if w[4].(bool) {
			decides++
		}
	}
	if decides == 0 || worlds[0][1] != strconv.Itoa(minZ) {
		t.Errorf("%d deciding worlds; first row %v", decides, worlds[0])
	}
}

// TestExplorerStore: the store forgets the least recently used theory
// instead of refusing loads, so 300 loads in a row never get a 429; the
// page loads a forgotten theory again when it asks it, and deletes one.
func TestExplorerStore(t *testing.T) {
	_, ts := newTest(t, Config{})
	p := openPage(t, ts.URL, 1400)
	p.loadPenguin()
	first := p.eval(`state.theory.id`)
	got := p.await(`(async () => {
		const seen = {};
		for (let i = 0; i < 300; i++) {
			let st = 201;
			try { await api("POST", "/api/theories", { text: "1: a" + i }); } catch (e) { st = e.status; }
			seen[st] = (seen[st] || 0) + 1;
		}
		return JSON.stringify(seen);
	})()`)
	if got != `{"201":300}` {
		t.Fatalf("300 loads in a row: %s", got)
	}
	// The page's theory, used before them all, was forgotten: asking it
	// loads it again.
	if got := p.ask("penguin -> !flies"); got != "poss:yes linear:yes lex:yes" {
		t.Errorf("asking a forgotten theory: %s", got)
	}
	second := p.eval(`state.theory.id`)
	if second == first {
		t.Errorf("the forgotten theory %s was not loaded again", first)
	}
	// Delete.
	p.click("#theory-delete")
	p.wait("the deletion", `state.theory === null && document.querySelectorAll("#levels .level").length === 0`)
	var e apiError
	if st := call(t, "GET", ts.URL+"/api/theories/"+second, nil, &e); st != 404 {
		t.Errorf("GET the deleted theory: %d", st)
	}
	if got := p.eval(`document.getElementById("theory-delete").hidden + " " + document.getElementById("theory-summary").textContent`); got != "true deleted from the server" {
		t.Errorf("after delete: %q", got)
	}
	p.loadBirdsBase()
	base := p.eval(`state.base.id`)
	p.click("#base-delete")
	p.wait("the base's deletion", `state.base === null && document.getElementById("z-table") === null`)
	if st := call(t, "GET", ts.URL+"/api/bases/"+base, nil, &e); st != 404 {
		t.Errorf("GET the deleted base: %d", st)
	}
}

// TestExplorerCurves: the learning curves drawn in the page from the run's
// events: the training curve, every held-out fold's and the pooled one with
// the chosen iteration marked on it, whole iterations on the axis, values
// on hover and from the keyboard, and the same data as CSV.
func TestExplorerCurves(t *testing.T) {
	_, ts := newTest(t, Config{})
	p := openPage(t, ts.URL, 1400)
	p.click("#learn-example")
	p.wait("the examples", `document.getElementById("learn-neg").value.length > 100`)
	p.run("12 iterations", chromedp.SetValue("#learn-iterations", "12"))
	p.learn("a short run")
	series := `Array.from(document.querySelectorAll("#learn-chart g.series")).map((g) => g.dataset.series).join(" ")`
	if got := p.eval(series); got != "training" {
		t.Errorf("series of a run without validation: %q", got)
	}
	if n := p.evalInt(`document.getElementById("learn-status").dataset.iterations`); n < 2 || p.evalInt(`state.curves.final.length`) != n {
		t.Errorf("%d iterations, %s points", n, p.eval(`state.curves.final.length`))
	}

	p.run("cross-validation", chromedp.SetValue("#learn-validation", "folds"))
	p.learn("a cross-validated run")
	if got := p.eval(series); got != "fold-1 fold-2 fold-3 fold-4 fold-5 pooled training" {
		t.Errorf("series of a cross-validated run: %q", got)
	}
	run := p.eval(`state.run`)
	var rv runView
	call(t, "GET", ts.URL+"/api/learn/"+run, nil, &rv)
	chosen := rv.Validation.Chosen
	if got := p.eval(`document.querySelector("#learn-chart g.chosen").dataset.iteration + " " + document.querySelector("#learn-chart g.chosen").dataset.series`); got != fmt.Sprintf("%d pooled", chosen) {
		t.Errorf("chosen marker %q, want %d on the pooled held-out curve", got, chosen)
	}
	// The marker sits on the pooled held-out curve: the run's pooled
	// accuracy at the chosen iteration.
	if got := p.eval(fmt.Sprintf(`state.curves.pooled.find((it) => it.iteration === %d).test_accuracy === state.curves.chosen.chosen_accuracy && document.querySelector("#learn-chart g.chosen circle") !== null`, chosen)); got != "true" {
		t.Errorf("the chosen iteration is not on the pooled held-out curve")
	}
	if got := p.evalInt(`state.curves.pooled.length`); got != len(rv.Validation.History) {
		t.Errorf("%d pooled points, the run has %d", got, len(rv.Validation.History))
	}
	// Whole iterations on the x axis, whole percents on the y axis.
	ticks := func(class string) []string {
		return strings.Fields(p.eval(textsOf("#learn-chart ."+class, " ")))
	}
	prev := -1
	for _, x := range ticks("x-tick") {
		n, err := strconv.Atoi(x)
		if err != nil || n <= prev {
			t.Errorf("x ticks %v: %q", ticks("x-tick"), x)
		}
		prev = n
	}
	for _, y := range ticks("y-tick") {
		if _, err := strconv.Atoi(strings.TrimSuffix(y, "%")); err != nil || !strings.HasSuffix(y, "%") {
			t.Errorf("y ticks %v", ticks("y-tick"))
		}
	}
	if len(ticks("x-tick")) < 2 || len(ticks("y-tick")) < 2 {
		t.Errorf("ticks %v %v", ticks("x-tick"), ticks("y-tick"))
	}
	// Hover: the values of every curve at the iteration under the pointer.
	p.exec(`(() => {
		const svg = document.querySelector("#learn-chart svg"), box = svg.getBoundingClientRect();
		const x = box.left + state.chart.scale.X(1) * box.width / state.chart.scale.width;
		const y = box.top + box.height / 2;
		document.querySelector("#learn-chart rect.overlay").dispatchEvent(new MouseEvent("mousemove", { clientX: x, clientY: y, bubbles: true }));
	})()`)
	readout := `document.querySelector("#learn-chart .chart-readout").textContent`
	if got := p.eval(readout); !strings.HasPrefix(got, "iteration 1: held-out fold 1 ") || !strings.Contains(got, "training ") || !strings.Contains(got, "%") {
		t.Errorf("hover readout %q", got)
	}
	// The keyboard moves along the iterations.
	p.run("focus the chart", chromedp.Focus("#learn-chart svg"))
	p.key(kb.ArrowLeft) // from no iteration to the first
	p.key(kb.ArrowRight)
	if got := p.eval(readout); !strings.HasPrefix(got, "iteration 2: ") {
		t.Errorf("after the right arrow: %q", got)
	}
	p.key(kb.End)
	last := p.eval(`document.querySelector("#learn-chart .chart-readout").dataset.iteration`)
	if got := p.eval(readout); !strings.HasPrefix(got, "iteration "+last+": ") || last == "2" {
		t.Errorf("after End: %q", got)
	}
	// The same data as CSV: a line per iteration of every curve. (The
	// page's policy lets it fetch nothing but the server, so the test
	// reads what the link was made of.)
	if got := p.eval(`document.getElementById("learn-dl-csv").href.startsWith("blob:") && document.getElementById("learn-dl-csv").download.endsWith("-curves.csv")`); got != "true" {
		t.Errorf("the CSV link is not a download of the curves")
	}
	csv := p.eval(`curvesCSV(state.curves)`)
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	want := 1 + p.evalInt(`document.getElementById("learn-status").dataset.validations`) + len(rv.Validation.History) + p.evalInt(`state.curves.final.length`)
	if len(lines) != want || lines[0] != "curve,fold,iteration,train_accuracy,test_accuracy,rules,levels,literals,chosen" {
		t.Errorf("CSV of %d lines, want %d: %q", len(lines), want, lines[0])
	}
	marked := 0
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[0] == "pooled" && f[8] == "1" {
			marked++
			if f[2] != strconv.Itoa(chosen) {
				t.Errorf("CSV marks iteration %s chosen, the run %d", f[2], chosen)
			}
		}
	}
	if marked != 1 {
		t.Errorf("%d pooled lines marked chosen", marked)
	}
	// A POST without a body (cancelling a run) still says it is JSON, which
	// the server requires of every POST: an unknown run is 404, not 415.
	if got := p.await(`api("POST", "/api/learn/r-0000000000000000/cancel").then(() => "200", (e) => String(e.status))`); got != "404" {
		t.Errorf("cancelling an unknown run from the page: status %s, want 404", got)
	}
}

// loansTable writes the explorer's loans example as a file to upload.
func loansTable(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "loans.csv")
	if err := os.WriteFile(path, []byte(exampleFile(t, "loans.csv")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// learnTable uploads the loans table and learns from it with 5-fold
// cross-validation, as a user does with the page.
func (p *page) learnTable(path string) {
	p.t.Helper()
	p.click("#learn-from-table")
	p.run("upload a table", chromedp.SetUploadFiles("#learn-table-file", []string{path}))
	p.wait("the table's columns", `document.querySelectorAll("#learn-label option").length === 6`)
	p.run("validation", chromedp.SetValue("#learn-validation", "folds"))
	p.learn("a run on a table")
	p.wait("the per-class results", `document.querySelector("#confusion-table") !== null`)
}

// TestExplorerCoverage: choosing a formula of a learned theory shows which
// training examples (the run's) and test examples (section 4's) it decides,
// right and wrong; a table upload learns and shows per-class results, and
// a malformed table's error points at its line.
func TestExplorerCoverage(t *testing.T) {
	_, ts := newTest(t, Config{})
	p := openPage(t, ts.URL, 1400)
	p.click("#learn-example")
	p.wait("the examples", `document.getElementById("learn-neg").value.length > 100`)
	p.run("10 iterations", chromedp.SetValue("#learn-iterations", "10"))
	p.learn("a run")
	run := p.eval(`state.run`)
	p.click("#learn-to-theory")
	p.wait("the learned theory", fmt.Sprintf(`state.theory !== null && state.theoryRun === %q`, run))
	n := p.evalInt(`document.querySelectorAll("#levels button.formula").length`)
	if n == 0 {
		t.Fatal("the learned theory has no formula")
	}
	p.click("#eval-example")
	p.wait("the test examples", `document.getElementById("eval-neg").value.length > 100`)
	decided, most, mostWrong := 0, 0, -1
	for i := range n {
		p.eval(fmt.Sprintf(`document.querySelectorAll("#levels button.formula")[%d].click()`, i))
		p.wait("the coverage", fmt.Sprintf(`!document.getElementById("coverage").hidden && document.querySelectorAll("#levels button.formula")[%d].getAttribute("aria-pressed") === "true" && document.querySelectorAll(".coverage-set").length === 2 && document.querySelector(".coverage-head strong").textContent === document.querySelectorAll("#levels button.formula")[%d].textContent`, i, i))
		level, index := p.evalInt(fmt.Sprintf(`document.querySelectorAll("#levels button.formula")[%d].dataset.level`, i)), p.evalInt(fmt.Sprintf(`document.querySelectorAll("#levels button.formula")[%d].dataset.index`, i))
		var cv coverageView
		call(t, "POST", ts.URL+"/api/coverage", map[string]any{"theory_id": p.eval(`state.theory.id`), "run_id": run, "level": level, "index": index,
			"test_pos": exampleFile(t, "birds.pos"), "test_neg": exampleFile(t, "birds.neg")}, &cv)
		for _, s := range cv.Sets {
			got := p.eval(fmt.Sprintf(`(() => { const s = document.querySelector('.coverage-set[data-set=%q]'); return s.dataset.right + "/" + s.dataset.wrong; })()`, s.Name))
			if got != fmt.Sprintf("%d/%d", s.Right, s.Wrong) {
				t.Errorf("formula %d/%d, %s: the page shows %s right/wrong, the API %d/%d", level, index, s.Name, got, s.Right, s.Wrong)
			}
			decided += s.Right + s.Wrong
			if s.Name == "training" && s.Wrong*1000+s.Right > mostWrong {
				most, mostWrong = i, s.Wrong*1000+s.Right
			}
		}
		listed := p.evalInt(`document.querySelectorAll(".coverage-table tbody tr").length`)
		if want := len(cv.Sets[0].Decided) + len(cv.Sets[1].Decided); listed < want {
			t.Errorf("%d decided examples listed, want %d", listed, want)
		}
	}
	if decided == 0 {
		t.Error("no formula decides an example")
	}
	// On the training examples alone, the formula that decides most
	// wrongly (else most).
	p.exec(`document.getElementById("eval-pos").value = ""; document.getElementById("eval-neg").value = ""`)
	p.eval(fmt.Sprintf(`document.querySelectorAll("#levels button.formula")[%d].click()`, most))
	p.wait("the coverage on the training examples", `document.querySelectorAll(".coverage-set").length === 1`)
	p.shot("coverage", "#theory-section")

	// A table: per-class results.
	p.learnTable(loansTable(t))
	run = p.eval(`state.run`)
	var rv runView
	call(t, "GET", ts.URL+"/api/learn/"+run, nil, &rv)
	if rv.Confusion == nil {
		t.Fatalf("the run has no per-class results: %+v", rv)
	}
	got := p.eval(`Array.from(document.querySelectorAll("#confusion-table tbody tr")).map((r) => r.dataset.class + ":" + Array.from(r.cells).slice(1, -1).map((c) => c.textContent).join("/")).join(" ")`)
	var want []string
	for i, l := range rv.Confusion.Labels {
		var cells []string
		total := 0
		for _, n := range rv.Confusion.Counts[i] {
			cells = append(cells, strconv.Itoa(n))
			total += n
		}
		if l == "none" && total == 0 {
			continue // a table's rows each have a class: no none row
		}
		want = append(want, l+":"+strings.Join(cells, "/"))
	}
	if got != strings.Join(want, " ") || rv.Confusion.Rows != 120 || strings.Contains(got, "none:") {
		t.Errorf("per-class results %q, the run's %q (%d rows)", got, strings.Join(want, " "), rv.Confusion.Rows)
	}
	if got := p.eval(`document.getElementById("learn-label").value + " " + document.querySelectorAll("#learn-chart g.series").length`); got != "decision 7" {
		t.Errorf("class column and curves: %q", got)
	}
	p.shot("learn", "#learn-section")

	// A malformed table: the error names the line and shows it, under the
	// upload.
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("a,b,c\n1,2,x\n3,4\n"), 0o644)
	p.run("upload a malformed table", chromedp.SetUploadFiles("#learn-table-file", []string{bad}))
	p.wait("its columns", `document.getElementById("learn-label").value === "c"`)
	p.click("#learn-start")
	p.wait("the error", `!document.getElementById("learn-table-file-error").hidden`)
	if got := p.eval(`document.getElementById("learn-table-file-error").textContent`); !strings.HasPrefix(got, "line 3, column ") || !strings.HasSuffix(got, "\n3 | 3,4") {
		t.Errorf("table error %q", got)
	}
	if got := p.eval(`document.getElementById("learn-table-file").getAttribute("aria-invalid")`); got != "true" {
		t.Errorf("the upload is not marked invalid: %s", got)
	}
}

// TestExplorerPhoneAndKeyboard: at 420 pixels no card overflows, every
// control is reached and used from the keyboard, and each error is shown
// under the input that caused it, with the name of what was typed (not of
// the example it started from); after a failed load no old theory stays.
func TestExplorerPhoneAndKeyboard(t *testing.T) {
	_, ts := newTest(t, Config{})
	p := openPage(t, ts.URL, 420)
	// tabTo presses Tab until the focused element matches the test, and
	// returns the ids of the elements it went through.
	tabTo := func(what, test string) []string {
		t.Helper()
		var ids []string
		for range 80 {
			p.key("\t")
			ids = append(ids, p.eval(`document.activeElement.id || document.activeElement.className || document.activeElement.tagName`))
			if p.eval(test) == "true" {
				return ids
			}
		}
		t.Fatalf("Tab never reached %s; went through %v", what, ids)
		return nil
	}
	active := func(id string) string { return fmt.Sprintf(`document.activeElement.id === %q`, id) }
	went := tabTo("the penguin example", active("theory-example"))
	p.key("\r")
	p.wait("the levels", `document.querySelectorAll("#levels button.formula").length === 4`)
	went = append(went, tabTo("a formula", `document.activeElement.classList.contains("formula")`)...)
	p.key("\r")
	p.wait("the coverage error", `!document.getElementById("coverage-error").hidden`)
	went = append(went, tabTo("the query", active("query"))...)
	p.key("\r")
	p.wait("the answers", `document.querySelectorAll("#compare-table button.pick").length === 3`)
	went = append(went, tabTo("an answer", `document.activeElement.classList.contains("pick")`)...)
	p.key("\t")
	p.key(" ")
	if got := p.eval(`document.querySelector('#compare-table tr[data-semantics="linear"] button.pick').getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("the linear answer, chosen with the keyboard: pressed %s", got)
	}
	went = append(went, tabTo("the birds base", active("base-example"))...)
	p.key("\r")
	p.wait("the Z-ordering", `document.querySelectorAll("#z-table tbody tr").length === 7`)
	went = append(went, tabTo("the ranks", active("base-ranks"))...)
	p.key("\r")
	p.wait("the worlds", `document.querySelector("#worlds-table") !== null`)
	// The choice of what to learn from is a group of radio buttons: Tab
	// reaches the chosen one, the arrows choose.
	went = append(went, tabTo("the choice of what to learn from", active("learn-from-examples"))...)
	p.key(kb.ArrowRight)
	p.wait("the table's inputs", `!document.getElementById("learn-table").hidden && document.activeElement.id === "learn-from-table"`)
	went = append(went, tabTo("the table example", active("learn-table-example"))...)
	p.key("\r")
	p.wait("the example's columns", `document.getElementById("learn-label").value === "decision"`)
	for _, id := range []string{"theory-file", "theory-delete", "base-file", "eval-pos-file", "eval-neg-file", "learn-table-file"} {
		if !strings.Contains(" "+strings.Join(went, " ")+" ", " "+id+" ") {
			t.Errorf("Tab never reaches #%s; it goes through %v", id, went)
		}
	}

	// No card wider than the screen.
	overflow := func(when string) {
		t.Helper()
		got := p.eval(`(() => {
			const out = [];
			if (document.documentElement.scrollWidth > window.innerWidth) out.push("page " + document.documentElement.scrollWidth);
			for (const c of document.querySelectorAll(".card")) if (c.scrollWidth > c.clientWidth + 1) out.push(c.id + " " + c.scrollWidth + ">" + c.clientWidth);
			return out.join(", ");
		})()`)
		if got != "" {
			t.Errorf("%s: overflowing at 420 px: %s", when, got)
		}
	}
	overflow("theory, answers, base and ranks")
	p.ask("penguin -> wings")
	p.pick("compare-table", "lex")
	p.baseAsk("penguin -> wings")
	p.pick("base-compare-table", "rational")
	p.run("ranks", chromedp.Click("#base-ranks"))
	p.wait("the worlds", `document.querySelector("#worlds-table") !== null`)
	overflow("the comparisons")
	p.shot("theory", "#theory-section, #query-section")
	p.shot("base", "#base-section")
	p.learnTable(loansTable(t))
	overflow("the learning run")
	p.shot("learn", "#learn-section")
	p.click("#learn-to-theory")
	p.wait("the learned theory", `state.theoryRun !== null && document.querySelectorAll("#levels button.formula").length > 0`)
	p.exec(`document.getElementById("eval-pos").value = ""; document.getElementById("eval-neg").value = ""`)
	p.click("#levels button.formula")
	p.wait("the coverage", `!document.getElementById("coverage").hidden`)
	overflow("a formula's coverage")
	p.shot("coverage", "#theory-section")

	// An error in typed text names the text, not the example it came from.
	p.run("type into the theory", chromedp.Steps(
		chromedp.Focus("#theory-text"),
		chromedp.Evaluate[chromedp.Void](`(() => { const ta = document.getElementById("theory-text"); ta.setSelectionRange(ta.value.length, ta.value.length); })()`),
	))
	p.key("0.5: b & (c")
	// Edited, the text is not the theory shown: the view says so, and its
	// formulas cannot be chosen until it is loaded.
	if got := p.eval(`document.getElementById("levels").classList.contains("stale") + " " + document.querySelector("#levels button.formula").disabled`); got != "true true" {
		t.Errorf("the levels of the theory before the edit: stale and disabled %s", got)
	}
	p.click("#theory-load")
	p.wait("the error", `!document.getElementById("theory-text-error").hidden`)
	lines := p.evalInt(`document.getElementById("theory-text").value.split("\n").length`)
	errText := p.eval(`document.getElementById("theory-text-error").textContent`)
	// The position is said once, in words: not again as the message's
	// "theory:LINE:12:" (nor under the example's name, wings.theory).
	if !strings.HasPrefix(errText, fmt.Sprintf("line %d, column 12: ", lines)) || strings.Contains(errText, fmt.Sprintf(":%d:12", lines)) || strings.Contains(errText, "wings.theory") {
		t.Errorf("error %q, want line %d, column 12 of the typed theory, said once", errText, lines)
	}
	if got := p.eval(`document.getElementById("theory-text").getAttribute("aria-invalid") + " " + document.getElementById("theory-text").getAttribute("aria-describedby")`); got != "true theory-text-error" {
		t.Errorf("the theory is not marked invalid: %s", got)
	}
	// The failed load leaves no theory on screen; evaluating says so and
	// points at the theory's error.
	if got := p.evalInt(`document.querySelectorAll("#levels .level").length`); got != 0 {
		t.Errorf("%d levels of the old theory still shown after a failed load", got)
	}
	p.click("#eval-example")
	p.wait("the examples", `document.getElementById("eval-neg").value.length > 100`)
	p.click("#eval-run")
	p.wait("the evaluation's error", `!document.getElementById("eval-run-error").hidden`)
	if got := p.eval(`document.getElementById("theory-text-error").hidden + " " + document.getElementById("eval-run-error").textContent`); got != "false the theory of section 1 is not loaded: see the error there" {
		t.Errorf("evaluate without a theory: %q", got)
	}
	// An error in an example file is shown under that file's text.
	p.run("a malformed negative", chromedp.SetValue("#eval-neg", "bird -> flies\nbird -> (wings\n"))
	p.loadPenguin()
	p.click("#eval-run")
	p.wait("the error", `!document.getElementById("eval-neg-error").hidden`)
	if got := p.eval(`document.getElementById("eval-neg-error").textContent + " " + document.getElementById("eval-pos-error").hidden`); !strings.HasPrefix(got, "line 2, column ") || !strings.HasSuffix(got, " true") {
		t.Errorf("error in the negatives: %q", got)
	}
	// A malformed query: under the query, its rest selected.
	p.run("a malformed query", chromedp.SetValue("#query", "penguin -> (wings"))
	p.click("#ask")
	p.wait("the query's error", `!document.getElementById("query-error").hidden`)
	if got := p.eval(`document.getElementById("query-error").textContent + " " + document.activeElement.id`); !strings.HasPrefix(got, "line 1, column 18: ") || !strings.HasSuffix(got, " query") {
		t.Errorf("query error %q", got)
	}
	overflow("the errors")
}

// TestExplorerPredictions: section 6 answers the rows of a table with the
// theory of section 1, as POST /api/predict does: the applicants example,
// the kept column and the degrees, row for row; a table with a class
// column shows it beside the answer; a table the server cannot read shows
// its error under the table, with its line.
func TestExplorerPredictions(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "applicants.csv"), []byte(exampleFile(t, "applicants.csv")), 0o644)
	_, ts := newTest(t, Config{Dir: dir})
	p := openPage(t, ts.URL, 1400)
	p.run("type the loans theory", chromedp.SetValue("#theory-text", loansTheory))
	p.click("#theory-load")
	p.wait("the levels", `document.querySelectorAll("#levels button.formula").length > 0`)
	p.click("#predict-example")
	p.wait("the applicants", `document.getElementById("predict-table").value.startsWith("name,income")`)
	p.click("#predict-run")
	p.wait("the predictions", `document.querySelectorAll("#predict-table-view tbody tr").length === 4`)
	var want jsonview.Predictions
	if st := call(t, "POST", ts.URL+"/api/predict", map[string]any{"theory": loansTheory, "table": exampleFile(t, "applicants.csv"), "keep": []string{"name"}, "degrees": true}, &want); st != 200 {
		t.Fatalf("the API: %d", st)
	}
	var rows []string
	for _, pr := range want.Predictions {
		rows = append(rows, fmt.Sprintf("%d|%s|%s|%v", pr.Line, pr.Columns["name"], pr.Predicted, *pr.Degree))
	}
	got := p.eval(`Array.from(document.querySelectorAll("#predict-table-view tbody tr")).map((r) => Array.from(r.cells).map((c) => c.textContent).join("|")).join(" ")`)
	if got != strings.Join(rows, " ") {
		t.Errorf("the page predicts %q, the API %q", got, strings.Join(rows, " "))
	}
	if head := p.eval(textsOf("#predict-table-view thead th", ",")); head != "line,name,predicted,degree" {
		t.Errorf("the head %q", head)
	}
	if s := p.eval(`document.getElementById("predict-summary").textContent`); !strings.Contains(s, "4 rows of table (poss)") {
		t.Errorf("summary %q", s)
	}
	// A table with the class: the class beside each answer, and how many
	// are right.
	p.run("a table with its class", chromedp.SetValue("#predict-table", loansRows))
	p.exec(`document.getElementById("predict-keep").value = ""; document.getElementById("predict-result").replaceChildren()`)
	p.click("#predict-run")
	p.wait("the predictions", `document.querySelectorAll("#predict-table-view thead th").length === 4`)
	if head := p.eval(textsOf("#predict-table-view thead th", ",")); head != "line,predicted,degree,class" {
		t.Errorf("the head with the class %q", head)
	}
	if s := p.eval(`document.getElementById("predict-summary").textContent`); !strings.Contains(s, "4 of 4 rows with a class answered right") {
		t.Errorf("summary %q", s)
	}
	// A file under --dir, chosen from the list.
	p.wait("the files under --dir", `Array.from(document.querySelectorAll("#predict-path option")).some((o) => o.value === "applicants.csv")`)
	p.run("choose the file", chromedp.SetValue("#predict-path", "applicants.csv"))
	p.exec(`document.getElementById("predict-result").replaceChildren()`)
	p.click("#predict-run")
	p.wait("its predictions", `document.getElementById("predict-summary") !== null && document.getElementById("predict-summary").textContent.includes("of applicants.csv")`)
	// A ragged row: the error under the table, its position said once
	// (and selected in the table).
	p.run("a ragged table", chromedp.SetValue("#predict-table", "name,income\nann,80,3\n"))
	p.exec(`document.getElementById("predict-path").value = ""`)
	p.click("#predict-run")
	p.wait("the error", `!document.getElementById("predict-table-error").hidden`)
	if got := p.eval(`document.getElementById("predict-table-error").textContent`); got != "line 2, column 8: row has 3 fields, the header 2" {
		t.Errorf("table error %q", got)
	}
	if got := p.eval(`(() => { const ta = document.getElementById("predict-table"); return ta.value.slice(ta.selectionStart, ta.selectionEnd); })()`); got != "3" {
		t.Errorf("the error selects %q in the table, want the field 3", got)
	}
}
