package sat

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Clash returns the indices, increasing, of a minimal subset of fs that no
// world satisfies (dropping any one of them makes the rest satisfiable),
// or nil when some world satisfies all of fs: what a reader of hard rules
// or background knowledge names when they contradict each other. Each
// formula gets a selector; the failed assumptions of the first call are
// shrunk by deletion. It fails with ctx's error when ctx is done first.
func Clash(ctx context.Context, fs []*logic.Formula) ([]int, error) {
	if len(fs) == 0 {
		return nil, nil
	}
	s := New()
	n := 0
	for _, f := range fs {
		n = max(n, int(f.MaxAtom())+1)
	}
	for range n {
		s.NewVar()
	}
	sel := make([]logic.Lit, len(fs)) // formula i holds when sel[i] is assumed
	for i, f := range fs {
		sel[i] = logic.Pos(s.NewVar())
		for _, c := range logic.CNF(f, s.NewVar) {
			s.AddClause(append(slices.Clone(c), sel[i].Not())...)
		}
	}
	ok, err := s.Solve(ctx, sel...)
	if err != nil || ok {
		return nil, err
	}
	// The first i members of core are each needed.
	core := slices.Clone(s.Failed())
	for i := 0; i < len(core); {
		rest := slices.Delete(slices.Clone(core), i, i+1)
		ok, err := s.Solve(ctx, rest...)
		if err != nil {
			return nil, err
		}
		if ok {
			i++
			continue
		}
		failed := s.Failed() // a clash within rest, which keeps the needed ones
		core = slices.DeleteFunc(rest, func(l logic.Lit) bool { return !slices.Contains(failed, l) })
	}
	var out []int
	for i, l := range sel {
		if slices.Contains(core, l) {
			out = append(out, i)
		}
	}
	return out, nil
}
