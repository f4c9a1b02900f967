package defaults

import (
	"errors"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestReadBase: a base is read as a rule file or a .cl knowledge base by
// its format, its name or its content, a .cl file's base chosen by name,
// and a base named for a rule file or an unknown format is an error the
// interfaces can tell apart.
func TestReadBase(t *testing.T) {
	cl := "signature\n  b, p, f\nconditionals\nbirds{\n  (f|b), (!f|p), (b|p)\n}\nfish{\n  (f|b)\n}\n"
	rules := "bird -> flies\npenguin -> !flies\n"
	for _, c := range []struct {
		data, name string
		o          BaseOptions
		format     string
		defaults   int
	}{
		{rules, "r.rules", BaseOptions{}, "rules", 2},
		{rules, "r.txt", BaseOptions{Format: "auto"}, "rules", 2},
		{cl, "k.cl", BaseOptions{Base: "fish"}, "cl", 1},
		{cl, "k.txt", BaseOptions{Base: "birds"}, "cl", 3},
		{logic.BOM + cl, "k", BaseOptions{Format: "cl", Base: "birds"}, "cl", 3},
	} {
		b, format, err := ReadBase([]byte(c.data), c.name, c.o, &logic.Vocabulary{})
		if err != nil || format != c.format || len(b.Defaults) != c.defaults {
			t.Errorf("%s %+v: %v, format %q, want %q with %d defaults", c.name, c.o, err, format, c.format, c.defaults)
		}
	}
	var ce *BaseChoiceError
	if _, _, err := ReadBase([]byte(cl), "k.cl", BaseOptions{}, &logic.Vocabulary{}); !errors.As(err, &ce) || len(ce.Names) != 2 {
		t.Errorf("two bases, none chosen: %v", err)
	}
	if _, _, err := ReadBase([]byte(rules), "r.rules", BaseOptions{Base: "birds"}, &logic.Vocabulary{}); !errors.Is(err, ErrBaseOfRules) {
		t.Errorf("a base of a rule file: %v", err)
	}
	if _, _, err := ReadBase([]byte(rules), "r.rules", BaseOptions{Format: "json"}, &logic.Vocabulary{}); !errors.Is(err, ErrBaseFormat) {
		t.Errorf("format json: %v", err)
	}
}
