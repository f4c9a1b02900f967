package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// decodeCheckpoint reads one checkpoint and nothing after it: a file with
// trailing text was not written by WriteCheckpoint. A leading byte-order
// mark is skipped; a JSON error is a logic.ParseError at its line and
// column.
func decodeCheckpoint(r io.Reader) (*checkpoint, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read checkpoint: %w", err)
	}
	data = logic.TrimBOM(data)
	var cp checkpoint
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&cp); err != nil {
		return nil, fmt.Errorf("read checkpoint: %w", jsonError(data, err, dec.InputOffset()))
	}
	off := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		off += int64(len(data[off:]) - len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return nil, fmt.Errorf("read checkpoint: %w", at(data, off, errors.New("unexpected data after the checkpoint")))
	}
	return &cp, nil
}

// jsonError gives a JSON decoding error of data its line and column: at
// the offset the error names, or at off (where the decoder stopped).
func jsonError(data []byte, err error, off int64) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // the offset after the bad byte
	case errors.As(err, &te):
		off = te.Offset - 1
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		off = int64(len(data))
		err = errors.New("unexpected end of the checkpoint")
	}
	return at(data, off, err)
}

// at is err at byte off of data.
func at(data []byte, off int64, err error) error {
	line, col := logic.LineCol(data, int(max(off, 0)))
	return &logic.ParseError{Pos: logic.Position{Line: line, Col: col}, Err: err}
}

// checkCounters checks what WriteCheckpoint always writes: counters that
// are not negative, one history line per iteration, numbered from 1,
// accuracies between 0 and 1.
func (cp *checkpoint) checkCounters() error {
	switch {
	case cp.Iteration < 0:
		return fmt.Errorf("checkpoint: negative iteration %d", cp.Iteration)
	case cp.Stale < 0 || cp.Stale > cp.Iteration:
		return fmt.Errorf("checkpoint: %d iterations without improvement is not between 0 and the iteration %d", cp.Stale, cp.Iteration)
	case cp.ElapsedNs < 0:
		return fmt.Errorf("checkpoint: negative elapsed time %d ns", cp.ElapsedNs)
	case len(cp.History) != cp.Iteration:
		return fmt.Errorf("checkpoint: %d history lines for %d iterations", len(cp.History), cp.Iteration)
	}
	for i, it := range cp.History {
		bad := ""
		switch {
		case it.Iteration != i+1:
			bad = fmt.Sprintf("numbered %d", it.Iteration)
		case it.ElapsedNs < 0:
			bad = "negative elapsed time"
		case it.Rules < 0 || it.Levels < 0 || it.Literals < 0:
			bad = "negative size"
		case !(it.TrainAccuracy >= 0 && it.TrainAccuracy <= 1):
			bad = fmt.Sprintf("training accuracy %v", it.TrainAccuracy)
		case it.TestAccuracy != nil && !(*it.TestAccuracy >= 0 && *it.TestAccuracy <= 1):
			bad = fmt.Sprintf("test accuracy %v", *it.TestAccuracy)
		}
		if bad != "" {
			return fmt.Errorf("checkpoint: history line %d: %s", i+1, bad)
		}
	}
	return nil
}

// parseLearned parses the checkpoint's learned levels. Their atoms must
// occur in the training examples, from which every learned clause is
// drawn; the learner's solvers know no other atoms.
func parseLearned(levels [][]string, v *logic.Vocabulary, train *Examples) ([][]logic.Clause, error) {
	known := make(map[logic.Atom]bool)
	for _, e := range train.List {
		for _, l := range e.Alpha {
			known[l.Atom()] = true
		}
		for _, l := range e.Beta {
			known[l.Atom()] = true
		}
	}
	pv := v.Clone() // a bad checkpoint must not add atoms to v
	var out [][]logic.Clause
	for j, lv := range levels {
		if len(lv) == 0 {
			return nil, fmt.Errorf("checkpoint: level %d is empty", j+1)
		}
		var cs []logic.Clause
		for i, s := range lv {
			c, err := logic.ParseClause(pv, s)
			if err != nil {
				return nil, fmt.Errorf("checkpoint: level %d, clause %d: %w", j+1, i+1, err)
			}
			for _, l := range c {
				if !known[l.Atom()] {
					return nil, fmt.Errorf("checkpoint: level %d, clause %d (%s): atom %s does not occur in the training examples", j+1, i+1, s, pv.Name(l.Atom()))
				}
			}
			cs = append(cs, c)
		}
		out = append(out, cs)
	}
	return out, nil
}

// parseHard parses the checkpoint's hard rules. The learner may have
// simplified the given ones by unit propagation, but they must stay
// equivalent to them: a checkpoint cannot bring other hard rules.
func parseHard(rules []string, v *logic.Vocabulary, hard []logic.Clause) ([]logic.Clause, error) {
	pv := v.Clone()
	var cs []logic.Clause
	for i, s := range rules {
		c, err := logic.ParseClause(pv, s)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: hard rule %d: %w", i+1, err)
		}
		cs = append(cs, c)
	}
	n := pv.Len()
	for _, c := range hard {
		for _, l := range c {
			n = max(n, int(l.Atom())+1)
		}
	}
	if !entailsAll(n, hard, cs) || !entailsAll(n, cs, hard) {
		return nil, errors.New("checkpoint: its hard rules are not equivalent to the hard rules given")
	}
	return cs, nil
}

// entailsAll reports whether the clauses a entail every clause of b.
func entailsAll(n int, a, b []logic.Clause) bool {
	s := sat.New()
	for range n {
		s.NewVar()
	}
	for _, c := range a {
		s.AddClause(c...)
	}
	for _, c := range b {
		if ok, _ := s.Solve(context.Background(), c.Negate()...); ok {
			return false
		}
	}
	return true
}
