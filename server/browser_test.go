package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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

// TestExplorerPage drives the explorer page in headless Chromium: it pastes
// the penguin theory, asks penguin -> !flies and penguin -> flies and reads
// the answers and the highlighted explanation from the DOM, loads a default
// base and reads its Z-ordering, runs a short learning run and sees its
// curve update, and saves a screenshot (to STRATA_SCREENSHOT too, when set:
// that is how docs/explorer.png is made).
func TestExplorerPage(t *testing.T) {
	exe := chromium(t)
	_, ts := newTest(t, Config{})

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1500, 1100),
	)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()

	run := func(what string, a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(bctx, a); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	wait := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(bctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
	}

	run("load the page", chromedp.Steps(
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(`body[data-ready="1"]`),
	))
	// A malformed theory: the error names its position and the page
	// selects the rest of the line from there.
	run("paste a malformed theory", chromedp.Steps(
		chromedp.SetValue("#theory-text", "1: a\n0.5: b & (c\n"),
		chromedp.Click("#theory-load"),
	))
	wait("the error", `!document.getElementById("theory-error").hidden`)
	if got := eval(`document.getElementById("theory-error").textContent`); !strings.HasPrefix(got, "theory: line 2, column 12") {
		t.Errorf("error %q", got)
	}
	if got := eval(`const ta = document.getElementById("theory-text"); ta.selectionStart + "-" + ta.selectionEnd`); got != "16-16" {
		t.Errorf("selection %s, want 16-16 (the end of line 2, where a ) is missing)", got)
	}
	run("paste the penguin theory", chromedp.Steps(
		chromedp.SetValue("#theory-text", penguin),
		chromedp.Click("#theory-load"),
	))
	wait("the levels", `document.querySelectorAll("#levels .level").length === 2`)
	if got := eval(`Array.from(document.querySelectorAll("#levels .level .weight")).map(e => e.textContent).join(" ")`); got != "1 0.5" {
		t.Errorf("levels %q, want 1 0.5", got)
	}

	ask := func(query, semantics string, n int) {
		t.Helper()
		run("ask "+query, chromedp.Steps(
			chromedp.SetValue("#query", query),
			chromedp.SetValue("#semantics", semantics),
			chromedp.Click("#ask"),
		))
		wait("the answer to "+query, `document.querySelectorAll("#answers tbody tr").length === `+strconv.Itoa(n))
	}
	entailing := `Array.from(document.querySelectorAll("#levels li.entailing")).map(e => e.textContent).join("; ")`
	drowned := `Array.from(document.querySelectorAll("#levels .level.drowned .weight")).map(e => e.firstChild.textContent).join(" ")`
	deciding := `Array.from(document.querySelectorAll("#levels .level.deciding .weight")).map(e => e.firstChild.textContent).join(" ")`

	ask("penguin -> !flies", "poss", 1)
	if got := eval(`document.getElementById("answer").textContent`); got != "yes" {
		t.Errorf("penguin -> !flies: %q", got)
	}
	if got := eval(entailing); got != "!penguin | !flies" {
		t.Errorf("highlighted entailing formulas %q, want !penguin | !flies", got)
	}
	if got := eval(drowned); got != "0.5" {
		t.Errorf("drowned levels %q, want 0.5", got)
	}
	if got := eval(deciding); got != "1" {
		t.Errorf("deciding level %q, want 1", got)
	}
	if got := eval(`document.getElementById("explanation-text").textContent`); !strings.Contains(got, "entails !flies") {
		t.Errorf("explanation %q", got)
	}

	ask("penguin -> flies", "poss", 2)
	if got := eval(`document.getElementById("answer").textContent`); got != "no" {
		t.Errorf("penguin -> flies: %q", got)
	}
	if got := eval(entailing); got != "" {
		t.Errorf("a negative answer highlights %q", got)
	}
	if got := eval(drowned); got != "0.5" {
		t.Errorf("drowned levels %q, want 0.5", got)
	}

	// Under lex the evidence sets aside !bird | flies only: penguins keep
	// their wings.
	ask("penguin -> wings", "lex", 3)
	if got := eval(`document.getElementById("answer").textContent`); got != "yes" {
		t.Errorf("penguin -> wings under lex: %q", got)
	}
	if got := eval(`Array.from(document.querySelectorAll("#levels li.set-aside")).map(e => e.textContent).join("; ")`); got != "!bird | flies" {
		t.Errorf("set-aside formulas %q, want !bird | flies", got)
	}
	if got := eval(entailing); got != "!penguin | bird; !bird | wings" {
		t.Errorf("entailing under lex %q", got)
	}

	// The Z-ordering of a default base, each default with its line.
	run("load the birds base", chromedp.Click("#base-example"))
	wait("the Z-ordering", `document.querySelectorAll("#z-table tbody tr").length === 7`)
	if got := eval(`Array.from(document.querySelectorAll("#z-table tbody tr")).map(r => r.dataset.z + ":" + r.cells[1].textContent).join(",")`); !strings.HasPrefix(got, "2:line 5,2:line 6,") || !strings.Contains(got, "1:line 3") {
		t.Errorf("Z-ordering rows %q", got)
	}
	run("ask the base", chromedp.Steps(
		chromedp.SetValue("#base-query", "penguin -> wings"),
		chromedp.Click("#base-ask"),
	))
	wait("the base's answer", `document.querySelector("#base-answer .answer") !== null`)
	if got := eval(`document.querySelector("#base-answer .answer").textContent + " " + document.querySelectorAll("#z-table tr.drowned").length`); got != "no 2" {
		t.Errorf("penguin -> wings under rational closure: %q, want no with the 2 defaults of Δ1 drowned", got)
	}

	// Evaluation on the example files, under the semantics chosen above.
	run("load the examples", chromedp.Click("#eval-example"))
	wait("the examples", `document.getElementById("eval-neg").value.length > 100`)
	run("evaluate", chromedp.Click("#eval-run"))
	wait("the evaluation", `document.getElementById("eval-accuracy") !== null`)
	if got := eval(`document.getElementById("eval-accuracy").textContent`); !strings.HasPrefix(got, "accuracy 0.") || !strings.Contains(got, "on 120 examples (lex)") {
		t.Errorf("evaluation %q", got)
	}

	// A short learning run: the curve is redrawn after every iteration.
	run("start learning", chromedp.Steps(
		chromedp.Click("#learn-example"),
	))
	wait("the examples", `document.getElementById("learn-neg").value.length > 100`)
	run("start learning", chromedp.Steps(
		chromedp.SetValue("#learn-iterations", "12"),
		chromedp.Click("#learn-start"),
	))
	wait("the end of the run", `document.getElementById("learn-status").dataset.state === "done"`)
	wait("the curve", `document.getElementById("learn-curve").complete && document.getElementById("learn-curve").naturalWidth > 0`)
	iters, _ := strconv.Atoi(eval(`document.getElementById("learn-status").dataset.iterations`))
	updates, _ := strconv.Atoi(eval(`document.getElementById("learn-curve").dataset.updates`))
	if iters < 2 || updates != iters {
		t.Errorf("%d iterations, curve updated %d times", iters, updates)
	}
	if got := eval(`document.getElementById("learn-theory").textContent`); !strings.Contains(got, ":") {
		t.Errorf("learned theory %q", got)
	}
	if got := eval(`document.getElementById("learn-dl-history").getAttribute("href")`); !strings.HasSuffix(got, "/history.csv") {
		t.Errorf("history link %q", got)
	}

	// Again with the iterations chosen by cross-validation, and pruning:
	// the page follows the folds and says what was chosen.
	run("learn with cross-validation", chromedp.Steps(
		chromedp.SetValue("#learn-validation", "folds"),
		chromedp.Click("#learn-prune"),
		chromedp.Click("#learn-start"),
	))
	wait("the end of the second run", `document.getElementById("learn-status").dataset.state === "done" && document.getElementById("learn-status").textContent.includes("chose ")`)
	if n, _ := strconv.Atoi(eval(`document.getElementById("learn-status").dataset.validations`)); n < 5 {
		t.Errorf("%d validation iterations shown for 5 folds", n)
	}
	if got := eval(`document.getElementById("learn-status").textContent`); !strings.Contains(got, "pruned of the clauses at most") {
		t.Errorf("status after a cross-validated run %q", got)
	}

	// A POST without a body (cancelling a run) still says it is JSON, which
	// the server requires of every POST: an unknown run is 404, not 415.
	run("cancel an unknown run", chromedp.Evaluate[chromedp.Void](
		`api("POST", "/api/learn/r-0000000000000000/cancel").then(() => { window.cancelled = "200"; }, (e) => { window.cancelled = String(e.status); })`))
	wait("the cancel's answer", `window.cancelled !== undefined`)
	if got := eval(`window.cancelled`); got != "404" {
		t.Errorf("cancelling an unknown run from the page: status %s, want 404", got)
	}

	// Back to the first question for the screenshot.
	ask("penguin -> !flies", "poss", 4)
	run("scroll", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 1000 {
		t.Fatalf("screenshot of %d bytes", len(png))
	}
	if err := os.WriteFile(filepath.Join(t.TempDir(), "explorer.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("STRATA_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
