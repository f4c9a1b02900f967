package learn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

func TestZZBaseline(t *testing.T) {
	out := ""
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 42))
		th := hiddenTheory(r, 9, 4)
		p, q := Generate(th, atomsUpTo(9), 200, 200, 3, 0.1, r)
		l, _ := NewLearner(th.Vocab, Merge(p, q), nil, Options{Seed: seed, Iterations: 30, Threads: 2})
		l.Run(context.Background())
		out += fmt.Sprintf("%d\n%s\n%s\n", seed, l.Final().Theory(th.Vocab), StratifyGreedy(context.Background(), clauses(l.Model()), Merge(p, q), nil, 2, 0).Theory(th.Vocab))
	}
	os.WriteFile(os.Getenv("ZZOUT"), []byte(out), 0o644)
}
