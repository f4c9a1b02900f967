package server

import (
	"bytes"
	"context"
	"net/http"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// examples names the example files of eval and learn: each as text in the
// request or as a path under Config.Dir.
type examples struct {
	Pos         string `json:"pos"`
	Neg         string `json:"neg"`
	PosPath     string `json:"pos_path"`
	NegPath     string `json:"neg_path"`
	Hard        string `json:"hard"`
	HardPath    string `json:"hard_path"`
	TestPos     string `json:"test_pos"`
	TestNeg     string `json:"test_neg"`
	TestPosPath string `json:"test_pos_path"`
	TestNegPath string `json:"test_neg_path"`
}

// rules reads one example file (empty text and path: none).
func (s *Server) rules(field, text, path string, v *logic.Vocabulary) ([]logic.Rule, bool, error) {
	if text == "" && path == "" {
		return nil, false, nil
	}
	data, name, err := s.read(field, source{Text: text, Path: path})
	if err != nil {
		return nil, false, err
	}
	ds, err := defaults.ReadRules(bytes.NewReader(data), name, v)
	if err != nil {
		return nil, false, inputError(field, err)
	}
	return defaults.Rules(ds), true, nil
}

// hardFormulas reads the hard rules (none when neither text nor path is
// given).
func (s *Server) hardFormulas(ex examples, v *logic.Vocabulary) ([]*logic.Formula, error) {
	if ex.Hard == "" && ex.HardPath == "" {
		return nil, nil
	}
	data, name, err := s.read("hard", source{Text: ex.Hard, Path: ex.HardPath})
	if err != nil {
		return nil, err
	}
	fs, pos, err := defaults.ReadClausesAt(bytes.NewReader(data), name, v)
	if err != nil {
		return nil, inputError("hard", err)
	}
	if err := learn.CheckHardAt(v, fs, pos); err != nil {
		return nil, inputError("hard", err)
	}
	return fs, nil
}

type evalRequest struct {
	target
	examples
	Semantics string `json:"semantics"`
}

// handleEval scores a theory on positive and negative defaults, as strata
// eval does. Hard rules, when given, join the theory at weight 1.
func (s *Server) handleEval(w http.ResponseWriter, r *http.Request) {
	var req evalRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		e, err := s.resolve(ctx, req.target)
		if err != nil {
			return nil, err
		}
		if e.kind != kindTheory {
			return nil, badRequest("theory_id", "eval scores a theory; load Θ_Z of the base as a theory first")
		}
		sem, err := theorySemantics(req.Semantics)
		if err != nil {
			return nil, err
		}
		if req.Hard == "" && req.HardPath == "" {
			// The examples may bring new atoms: a pooled worker has a
			// vocabulary of its own for them.
			return e.with(ctx, e.usage(req.Semantics, false), func(w *worker) (any, error) {
				pos, neg, err := s.evalSets(req.examples, w.vocab)
				if err != nil {
					return nil, err
				}
				return evaluate(ctx, e, w, sem, pos, neg)
			})
		}
		// Hard rules change the theory: eval builds an entry of its own.
		th := e.theory.Clone()
		th.Vocab = th.Vocab.Clone()
		pos, neg, err := s.evalSets(req.examples, th.Vocab)
		if err != nil {
			return nil, err
		}
		hard, err := s.hardFormulas(req.examples, th.Vocab)
		if err != nil {
			return nil, err
		}
		for _, f := range hard {
			th.Add(f, 1)
		}
		ev := s.newEntry(kindTheory, e.name, th, nil, nil)
		return ev.with(ctx, ev.usage(req.Semantics, false), func(w *worker) (any, error) { return evaluate(ctx, ev, w, sem, pos, neg) })
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// evalSets reads the positive and negative examples of an evaluation.
func (s *Server) evalSets(ex examples, v *logic.Vocabulary) (pos, neg []logic.Rule, err error) {
	var sets [2][]logic.Rule
	for i, f := range []struct{ field, text, path string }{{"pos", ex.Pos, ex.PosPath}, {"neg", ex.Neg, ex.NegPath}} {
		rs, ok, err := s.rules(f.field, f.text, f.path, v)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, badRequest(f.field, "eval needs %s examples (%s or %s_path)", f.field, f.field, f.field)
		}
		sets[i] = rs
	}
	return sets[0], sets[1], nil
}

// evaluate scores the entry's theory on the worker (eval.Defaults) and
// renders the score, levels highest first.
func evaluate(ctx context.Context, e *entry, w *worker, sem possibilistic.Semantics, pos, neg []logic.Rule) (*jsonview.Eval, error) {
	r, err := e.possWorker(ctx, w)
	if err != nil {
		return nil, err
	}
	b, err := eval.Defaults(ctx, r, sem, pos, neg)
	if err != nil {
		return nil, err
	}
	if b.Examples() == 0 {
		return nil, badRequest("pos", "no examples: pos and neg hold none (only blank lines and comments)")
	}
	return jsonview.NewEval(e.theory, sem, b), nil
}
