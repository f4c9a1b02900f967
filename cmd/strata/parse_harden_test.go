package main

import (
	"strings"
	"testing"
)

// TestBOMEverywhere: a UTF-8 byte-order mark at the start of any input file
// is skipped, so that it does not become part of the first atom (rules,
// hard rules) nor make the file unreadable (theory, .cl, .clq, Alchemy,
// WCNF, tables).
func TestBOMEverywhere(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	rules := writeFile(t, "b.rules", bom+"bird -> flies\npenguin -> bird\npenguin -> !flies\n")
	cl := writeFile(t, "b.cl", bom+"signature\n  bird, flies, penguin\n\nconditionals\nb{\n  (flies|bird),\n  (bird|penguin),\n  (!flies|penguin)\n}\n")
	clq := writeFile(t, "q.clq", bom+"(flies|bird), (!flies|penguin)\n")
	theory := writeFile(t, "b.theory", bom+"0.8: !bird | flies\n")
	alchemy := writeFile(t, "r.mln", bom+"2 a\n")
	wcnf := writeFile(t, "r.wcnf", bom+"p wcnf 1 1 10\n2 1 0\n")
	pos := writeFile(t, "p.rules", bom+"bird -> flies\nbird -> flies\n")
	neg := writeFile(t, "n.rules", bom+"bird -> !flies\n")
	hard := writeFile(t, "h.rules", bom+"bird\n")
	table := writeFile(t, "t.data", bom+"0,1\n1,1\n0,0\n1,0\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"entails", rules, "bird -> flies"}, "yes\n"},
		{[]string{"entails", cl, "(flies|bird)"}, "yes\n"},
		{[]string{"entails", cl, "--queries", clq}, "yes\t"},
		{[]string{"query", theory, "bird -> flies"}, "yes\n"},
		{[]string{"mln", "map", alchemy, "--entails", "a"}, "yes"},
		{[]string{"mln", "map", wcnf, "--entails", "a1"}, "yes"},
		{[]string{"learn", "--pos", pos, "--neg", neg, "--hard", hard, "--iterations", "2"}, "flies"},
		{[]string{"mln", "learn", table, "-o", writeFile(t, "o.mln", "")}, "2 atoms"},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", c.args...)
		if code != 0 || !strings.Contains(out, c.want) || strings.Contains(out+errs, bom) {
			t.Errorf("strata %s: exit %d, out %q, err %q; want %q", strings.Join(c.args, " "), code, out, errs, c.want)
		}
	}
}
