package learn

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestCheckpointBOMAndPositions: a checkpoint behind a byte-order mark (an
// editor's) resumes, and a damaged one is reported at its line and column.
func TestCheckpointBOMAndPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	th := hiddenTheory(r, 6, 3)
	p, q := Generate(th, atomsUpTo(6), 40, 40, 2, 0.1, r)
	prob := Problem{Vocab: th.Vocab, Train: Merge(p, q)}
	opts := Config{Seed: 3, Iterations: 2, Threads: 1}
	l, err := NewLearner(prob, opts)
	if err != nil {
		t.Fatal(err)
	}
	l.Run(context.Background())
	var buf bytes.Buffer
	if err := l.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	cp := buf.String()
	if _, err := ResumeLearner(strings.NewReader(logic.BOM+cp), prob, opts); err != nil {
		t.Fatalf("a checkpoint behind a byte-order mark: %v", err)
	}
	lines := strings.Split(cp, "\n")
	for _, c := range []struct {
		name, text string
		line, col  int
	}{
		// The third line loses its value: the syntax error is at its comma.
		{"syntax", strings.Join(lines[:2], "\n") + "\n" + strings.Replace(lines[2], ": ", ": ,", 1) + "\n" + strings.Join(lines[3:], "\n"), 3, strings.Index(lines[2], ": ") + 3},
		{"type", strings.Replace(cp, `"iteration": 2,`, `"iteration": "two",`, 1), strings.Count(cp[:strings.Index(cp, `"iteration": 2,`)], "\n") + 1, 0},
		{"truncated", cp[:len(cp)/2], strings.Count(cp[:len(cp)/2], "\n") + 1, 0},
		{"trailing", cp + "\r\n{}", len(lines) + 1, 1},
		{"CR only", strings.ReplaceAll(cp, "\n", "\r") + "x", len(lines), 0},
	} {
		_, err := ResumeLearner(strings.NewReader(c.text), prob, opts)
		var pe *logic.ParseError
		if !errors.As(err, &pe) || pe.Pos.Line == 0 || pe.Pos.Col == 0 {
			t.Errorf("%s: %v has no line and column", c.name, err)
			continue
		}
		if c.line > 0 && pe.Pos.Line != c.line || c.col > 0 && pe.Pos.Col != c.col {
			t.Errorf("%s: %v, want %d:%d", c.name, err, c.line, c.col)
		}
	}
}
