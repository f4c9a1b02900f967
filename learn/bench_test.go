package learn

import (
	"bufio"
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// readTable reads a debd 0/1 table.
func readTable(tb testing.TB, path string) [][]bool {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows [][]bool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(strings.TrimSpace(sc.Text()), ",")
		row := make([]bool, len(fs))
		for i, s := range fs {
			row[i] = s == "1"
		}
		rows = append(rows, row)
	}
	return rows
}

// empiricalExamples labels random defaults α |~ β over the table's variables
// by the data: positive when β holds in most rows that satisfy α (rows
// satisfying α must exist). This stands in for MAP entailment in a model of
// the data: it is noisy and not realisable by a small theory.
func empiricalExamples(rows [][]bool, n, count, maxAlpha int, r *rand.Rand, v *logic.Vocabulary) *Examples {
	ex := &Examples{}
	for i := range len(rows[0]) {
		v.Intern("a" + strconv.Itoa(i+1))
	}
	nv := len(rows[0])
	for made := 0; made < count; {
		perm := r.Perm(nv)
		na := 1 + r.IntN(maxAlpha)
		alpha := make(logic.Term, na)
		for i := range alpha {
			alpha[i] = logic.MkLit(logic.Atom(perm[i]), r.IntN(2) == 0)
		}
		beta := logic.MkLit(logic.Atom(perm[na]), r.IntN(2) == 0)
		var match, yes int
		for _, row := range rows {
			if alpha.Holds(row) {
				match++
				if beta.Holds(row) {
					yes++
				}
			}
		}
		if match == 0 {
			continue
		}
		ex.Add(alpha, logic.Clause{beta}, 2*yes > match, 1)
		made++
	}
	return ex
}

func nltcsProblem(tb testing.TB) (*logic.Vocabulary, *Examples, *Examples) {
	rows := readTable(tb, shared.Path(tb, "debd/nltcs/nltcs.train.data"))
	v := &logic.Vocabulary{}
	r := rand.New(rand.NewPCG(2016, 1))
	train := empiricalExamples(rows, 16, 1000, 5, r, v)
	test := empiricalExamples(rows, 16, 1000, 5, r, v)
	return v, train, test
}

// learnedNLTCS returns the NLTCS problem and the hypothesis after 20 iterations.
func learnedNLTCS(b *testing.B) (*Learner, *Examples) {
	v, train, test := nltcsProblem(b)
	l, err := NewLearner(Problem{Vocab: v, Train: train}, Config{Seed: 1, Iterations: 20})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	return l, test
}

// BenchmarkCoverage decides all 1000 test examples under a 20-iteration
// NLTCS theory from scratch (one op = one example).
func BenchmarkCoverage(b *testing.B) {
	l, test := learnedNLTCS(b)
	m := l.Hypothesis()
	e := newEngine(16, test, nil, 1, possibilistic.Poss).(*drowning)
	b.ResetTimer()
	for done := 0; done < b.N; done += len(test.List) {
		e.commit(m)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "examples/s")
}

// BenchmarkScoreCandidates scores 100 candidate clauses at every position
// of a 20-iteration NLTCS theory on the 1000 training examples (one op =
// one candidate).
func BenchmarkScoreCandidates(b *testing.B) {
	l, _ := learnedNLTCS(b)
	var cands []logic.Clause
	for len(cands) < 100 {
		more, _ := l.sample()
		cands = append(cands, more...)
	}
	cands = cands[:100]
	pos := l.c.hypothesis().Positions()
	b.ResetTimer()
	for done := 0; done < b.N; done += len(cands) {
		l.c.scoreCandidates(context.Background(), cands)
	}
	b.ReportMetric(float64(b.N*pos*len(l.e.ex))/b.Elapsed().Seconds(), "example-positions/s")
}

// BenchmarkIteration runs one learner iteration (sampling, scoring,
// minimisation, pruning, re-insertion) from the 20-iteration NLTCS state.
func BenchmarkIteration(b *testing.B) {
	l, _ := learnedNLTCS(b)
	var buf bytes.Buffer
	if err := l.WriteCheckpoint(&buf); err != nil {
		b.Fatal(err)
	}
	cp := buf.Bytes()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r, err := ResumeLearner(bytes.NewReader(cp), Problem{Vocab: l.vocab, Train: l.train}, Config{Seed: 1, Iterations: 21})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		r.Run(context.Background())
	}
}
