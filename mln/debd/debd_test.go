package debd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/mln"
)

// TestSplits: the train split when there is one, the valid split otherwise
// (MSNBC), and an error naming the dataset when a split is missing.
func TestSplits(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("0,1\n1,0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/a.train.data", "a/a.valid.data", "a/a.test.data", "b/b.valid.data", "b/b.test.data", "c/c.train.data"} {
		write(f)
	}
	for _, c := range []struct{ name, from string }{{"a", "a.train.data"}, {"b", "b.valid.data"}} {
		from, test, err := Splits(dir, c.name)
		if err != nil || filepath.Base(from) != c.from || filepath.Base(test) != c.name+".test.data" {
			t.Errorf("%s: %s %s %v", c.name, from, test, err)
		}
	}
	if _, _, err := Splits(dir, "c"); err == nil || !strings.Contains(err.Error(), "dataset c") {
		t.Errorf("no test split: %v", err)
	}
	net, pll, indep, err := Learn(dir, "a", mln.LearnOptions{})
	if err != nil || net.NumAtoms() != 2 || pll > 0 || indep > 0 {
		t.Errorf("learn: %v %v %v %v", net, pll, indep, err)
	}
}
