package server

import (
	"context"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// lib asks the library the questions whose answers the server must give,
// with a context never done, failing the test on any error.
type lib struct {
	t testing.TB
	r *possibilistic.Reasoner
}

func libReasoner(t testing.TB, th *possibilistic.Theory) lib {
	t.Helper()
	r, err := possibilistic.NewReasoner(context.Background(), th)
	if err != nil {
		t.Fatal(err)
	}
	return lib{t, r}
}

func (l lib) must(err error) {
	l.t.Helper()
	if err != nil {
		l.t.Fatal(err)
	}
}

func (l lib) entails(s possibilistic.Semantics, alpha, beta *logic.Formula) bool {
	l.t.Helper()
	ok, err := l.r.Entails(context.Background(), s, alpha, beta)
	l.must(err)
	return ok
}

func (l lib) decide(s possibilistic.Semantics, alpha, beta *logic.Formula) possibilistic.Verdict {
	l.t.Helper()
	v, err := l.r.Decide(context.Background(), s, alpha, beta)
	l.must(err)
	return v
}

func (l lib) conclude(s possibilistic.Semantics, alpha *logic.Formula) []possibilistic.Conclusion {
	l.t.Helper()
	cs, err := l.r.Conclude(context.Background(), s, alpha)
	l.must(err)
	return cs
}

func (l lib) world(s possibilistic.Semantics, alpha *logic.Formula) []bool {
	l.t.Helper()
	w, err := l.r.MostPlausibleWorld(context.Background(), s, alpha)
	l.must(err)
	return w
}

// readTheory reads a theory in the text format.
func readTheory(t testing.TB, src string) *possibilistic.Theory {
	t.Helper()
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader(src), "p", nil)
	if err != nil {
		t.Fatal(err)
	}
	return th
}
