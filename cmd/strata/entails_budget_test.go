package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestEntailsBudgets: a budget that has run out before a query starts
// (1ns) stops the query whatever it needs first, the compilation of the
// base included. Per query (--query-timeout) each query is reported as a
// timeout, with what it had done, and the command goes on and succeeds;
// for the whole command (--timeout) the report is printed and the command
// fails, saying how many queries it answered.
func TestEntailsBudgets(t *testing.T) {
	cl := writeFile(t, "birds.cl", birdsCLFile)
	clq := writeFile(t, "birds.clq", "(f|p),\n(w|p),\n(b|p)\n")
	type report struct {
		Queries []struct{ Query, Answer, Stopped string }
	}
	answers := map[string]string{"c": "no\t(f|p)\nyes\t(w|p)\nyes\t(b|p)\n", "w": "no\t(f|p)\nyes\t(w|p)\nyes\t(b|p)\n", "p": "no\t(f|p)\nno\t(w|p)\nyes\t(b|p)\n"}
	for sem, answer := range answers {
		out, errs, code := strata(t, "", "entails", "--relation", sem, cl, "--queries", clq, "--json", "--query-timeout", "1ns")
		var rep report
		if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Queries) != 3 {
			t.Fatalf("--relation %s --query-timeout 1ns: exit %d %v %q:\n%s", sem, code, err, errs, out)
		}
		for k, q := range rep.Queries {
			if q.Answer != "timeout" || !strings.Contains(q.Stopped, "context deadline exceeded") {
				t.Errorf("--relation %s: %+v, want a timeout that says how far it came", sem, q)
			}
			if line := "strata: query " + string(rune('1'+k)) + " " + q.Query + ": no answer within 1ns (--query-timeout): " + q.Stopped + "\n"; !strings.Contains(errs, line) {
				t.Errorf("--relation %s: stderr lacks %q:\n%s", sem, line, errs)
			}
		}

		out, errs, code = strata(t, "", "entails", "--relation", sem, cl, "--queries", clq, "--timeout", "1ns")
		if want := "timeout\t(f|p)\ntimeout\t(w|p)\ntimeout\t(b|p)\n"; code != 1 || out != want ||
			!strings.Contains(errs, "entails ran out of its budget (--timeout 1ns) after 0 of 3 queries") {
			t.Errorf("--relation %s --timeout 1ns: exit %d %q:\n%s", sem, code, errs, out)
		}
		out, errs, code = strata(t, "", "entails", "--relation", sem, cl, "(f|p)", "--query-timeout", "1ns")
		if code != 0 || !strings.HasPrefix(out, "timeout\nno answer within 1ns: ") {
			t.Errorf("one query, --relation %s --query-timeout 1ns: exit %d %q:\n%s", sem, code, errs, out)
		}
		out, errs, code = strata(t, "", "entails", "--relation", sem, cl, "--queries", clq, "--timeout", "1h", "--query-timeout", "1h")
		if code != 0 || out != answer {
			t.Errorf("--relation %s with budgets to spare: exit %d %q:\n%s", sem, code, errs, out)
		}
	}
}
