package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// strata runs the command line in-process and returns stdout, stderr and
// the exit status.
func strata(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestQuery(t *testing.T) {
	th := writeFile(t, "penguin.theory", penguinTheory)
	cases := []struct {
		query, first string
	}{
		{"penguin -> !flies", "yes"},
		{"penguin |~ flies", "no"},
		{"bird, red -> flies", "yes"},
		{" -> !penguin", "yes"},
		{"!penguin | bird", "yes"},
		{"flies", "no"},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", "query", th, c.query)
		if code != 0 || errs != "" {
			t.Fatalf("query %q: exit %d, stderr %q", c.query, code, errs)
		}
		lines := strings.Split(out, "\n")
		if lines[0] != c.first || len(lines) < 2 || !strings.Contains(lines[1], "level") {
			t.Errorf("query %q: output %q, want first line %q then the deciding level", c.query, out, c.first)
		}
	}
	out, _, code := strata(t, "", "query", th, "--given", "penguin, red")
	if code != 0 || !strings.Contains(out, "!flies") || !strings.Contains(out, "bird") || strings.Contains(out, "  flies") {
		t.Fatalf("--given penguin, red: %q", out)
	}
	out, _, code = strata(t, penguinTheory, "query", "-", "penguin -> bird")
	if code != 0 || !strings.HasPrefix(out, "yes\n") {
		t.Fatalf("theory on stdin: %d %q", code, out)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, "bad.theory", "1: penguin -> bird\n0.5: bird & \n")
	good := writeFile(t, "penguin.theory", penguinTheory)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"query", filepath.Join(dir, "nope.theory"), "a -> b"}, 1, "no such file or directory"},
		{[]string{"query", dir, "a -> b"}, 1, "is a directory"},
		{[]string{"query", bad, "a -> b"}, 1, "bad.theory:2:13: expected formula, found end of text"},
		{[]string{"query", good, "a -> (b"}, 1, "query: 1:8: expected ')'"},
		{[]string{"query", good}, 2, "needs a QUERY or --given"},
		{[]string{"query"}, 2, "takes 1 to 2 arguments"},
		{[]string{"show", good, "--bogus"}, 2, "unknown flag"},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", c.args...)
		if code != c.code || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line containing %q", c.args, code, out, errs, c.code, c.want)
		}
	}
}

func TestShow(t *testing.T) {
	th := writeFile(t, "t.theory", "0.25: bird\n0.25: penguin\n0.5: flies\n1: !penguin | !flies\n")
	out, _, code := strata(t, "", "show", th)
	want := "# 4 formulas in 3 levels, 5 literals over 3 atoms\n# inconsistency level: 0.25\n1: !penguin | !flies\n\n0.5: flies\n\n0.25: bird\n0.25: penguin\n"
	if code != 0 || out != want {
		t.Fatalf("show:\n%s\nwant\n%s", out, want)
	}
	out, _, _ = strata(t, "", "show", "--simplify", th)
	if !strings.HasSuffix(out, "1: !penguin | !flies\n\n0.5: flies\n") {
		t.Fatalf("show --simplify:\n%s", out)
	}
	out, _, _ = strata(t, "", "show", "--json", th)
	if !strings.Contains(out, `"weight": 0.25`) {
		t.Fatalf("show --json:\n%s", out)
	}
}

func TestDemo(t *testing.T) {
	out, errs, code := strata(t, "", "demo")
	if code != 0 || errs != "" || !strings.Contains(out, "penguin -> !flies'\nyes\n") {
		t.Fatalf("demo: %d %q %q", code, out, errs)
	}
}
