package server

// What one formula of a theory decides on labelled examples.

import (
	"context"
	"net/http"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// coverageRequest names a formula of a theory (level, highest first, and
// index in it) and the examples to score it on: those of a learning run
// (RunID: its training examples, and its test examples if it had some), or
// given as in POST /api/eval (pos and neg: training; test_pos and
// test_neg: test). With a run, test examples may be given when the run
// had none.
type coverageRequest struct {
	target
	examples
	RunID     string `json:"run_id"`
	Level     int    `json:"level"`
	Index     int    `json:"index"`
	Semantics string `json:"semantics"`
}

// coverageView is what a formula decides on each set of examples
// (eval.Decides): the examples the theory answers otherwise without it,
// right when the formula makes the answer right.
type coverageView struct {
	Formula   string        `json:"formula"`
	Level     int           `json:"level"`
	Index     int           `json:"index"`
	Weight    float64       `json:"weight"`
	Semantics string        `json:"semantics"`
	Sets      []coverageSet `json:"sets"`
}

// maxDecidedListed bounds the decided examples a set lists; Unlisted counts the
// others.
const maxDecidedListed = 200

type coverageSet struct {
	Name     string        `json:"name"` // training or test
	Examples int           `json:"examples"`
	Right    int           `json:"right"`
	Wrong    int           `json:"wrong"`
	Decided  []decidedView `json:"decided"`
	Unlisted int           `json:"unlisted,omitempty"`
}

// decidedView is a decided example: the theory covers it (Covered) and
// would not without the formula, or the other way round. Count is the
// number of copies of it that follow one another in the examples.
type decidedView struct {
	Example  string `json:"example"`
	Positive bool   `json:"positive"`
	Covered  bool   `json:"covered"`
	Right    bool   `json:"right"`
	Count    int    `json:"count"`
}

// labelled is a set of examples to score a formula on.
type labelled struct {
	name     string
	pos, neg []logic.Rule
}

func (s *Server) handleCoverage(w http.ResponseWriter, r *http.Request) {
	var req coverageRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Hard != "" || req.HardPath != "" {
		writeError(w, badRequest("hard", "coverage scores the theory as it is: give no hard rules"))
		return
	}
	var rn *run
	if req.RunID != "" {
		var err error
		if rn, err = s.findRun(req.RunID); err != nil {
			writeError(w, err)
			return
		}
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		e, err := s.resolve(ctx, req.target)
		if err != nil {
			return nil, err
		}
		if e.kind != kindTheory {
			return nil, badRequest("theory_id", "coverage scores the formulas of a theory; %s is a default base", e.name)
		}
		if req.Level < 0 || req.Level >= len(e.theory.Levels) || req.Index < 0 || req.Index >= len(e.theory.Levels[req.Level].Formulas) {
			return nil, badRequest("level", "the theory has no formula %d in level %d", req.Index, req.Level)
		}
		sem, err := theorySemantics(req.Semantics)
		if err != nil {
			return nil, err
		}
		// eval.Decides compiles the theory twice: with the formula and
		// without.
		release, err := e.hold(ctx, 2)
		if err != nil {
			return nil, err
		}
		defer release()
		// The examples' atoms join a vocabulary of the request's own.
		th := &possibilistic.Theory{Vocab: e.theory.Vocab.Clone(), Levels: e.theory.Levels}
		sets, err := s.coverageSets(req, rn, th.Vocab)
		if err != nil {
			return nil, err
		}
		out := &coverageView{Formula: e.texts().formulas[req.Level][req.Index], Level: req.Level, Index: req.Index,
			Weight: th.Levels[req.Level].Weight, Semantics: sem.String(), Sets: []coverageSet{}}
		for _, set := range sets {
			d, err := eval.Decides(ctx, th, req.Level, req.Index, sem, set.pos, set.neg)
			if err != nil {
				return nil, err
			}
			out.Sets = append(out.Sets, viewDecisions(set, d, th.Vocab))
		}
		return out, nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// coverageSets reads the sets of examples a coverage request names, in v.
func (s *Server) coverageSets(req coverageRequest, rn *run, v *logic.Vocabulary) ([]labelled, error) {
	var sets []labelled
	ex := req.examples
	if rn != nil {
		if ex.Pos != "" || ex.PosPath != "" || ex.Neg != "" || ex.NegPath != "" {
			return nil, badRequest("pos", "give a run's id or training examples, not both")
		}
		train, test := rn.examples()
		sets = append(sets, fromExamples("training", train, v))
		if test != nil {
			if ex.TestPos != "" || ex.TestPosPath != "" || ex.TestNeg != "" || ex.TestNegPath != "" {
				return nil, badRequest("test_pos", "the run has test examples of its own: give none")
			}
			sets = append(sets, fromExamples("test", test, v))
		}
	}
	for _, f := range []struct {
		name, pos, posPath, neg, negPath, field string
	}{
		{"training", ex.Pos, ex.PosPath, ex.Neg, ex.NegPath, "pos"},
		{"test", ex.TestPos, ex.TestPosPath, ex.TestNeg, ex.TestNegPath, "test_pos"},
	} {
		pos, okPos, err := s.rules(f.field, f.pos, f.posPath, v)
		if err != nil {
			return nil, err
		}
		negField := "neg"
		if f.field == "test_pos" {
			negField = "test_neg"
		}
		neg, okNeg, err := s.rules(negField, f.neg, f.negPath, v)
		if err != nil {
			return nil, err
		}
		if okPos || okNeg {
			sets = append(sets, labelled{name: f.name, pos: pos, neg: neg})
		}
	}
	if len(sets) == 0 {
		return nil, badRequest("pos", "give examples to score the formula on: a run's id (run_id), or pos and neg, or test_pos and test_neg")
	}
	return sets, nil
}

// fromExamples returns a learner's examples, each as many times as its
// count, as defaults over v: the atoms are matched by name.
func fromExamples(name string, ex *runExamples, v *logic.Vocabulary) labelled {
	atom := make([]logic.Atom, ex.vocab.Len())
	for a := range atom {
		atom[a] = v.Intern(ex.vocab.Name(logic.Atom(a)))
	}
	lits := func(ls []logic.Lit) []logic.Lit {
		out := make([]logic.Lit, len(ls))
		for i, l := range ls {
			out[i] = logic.MkLit(atom[l.Atom()], l.IsNeg())
		}
		return out
	}
	out := labelled{name: name}
	for _, e := range ex.ex.List {
		r := logic.Rule{Antecedent: logic.TermF(lits(e.Alpha)), Consequent: logic.ClauseF(lits(e.Beta))}
		for range e.Count {
			if e.Positive {
				out.pos = append(out.pos, r)
			} else {
				out.neg = append(out.neg, r)
			}
		}
	}
	return out
}

// viewDecisions lists what a formula decides on one set: identical
// examples that follow one another in the set are listed once, with their
// count.
func viewDecisions(set labelled, d *eval.Decisions, v *logic.Vocabulary) coverageSet {
	out := coverageSet{Name: set.name, Examples: d.Examples, Right: d.Right, Wrong: d.Wrong, Decided: []decidedView{}}
	prev := -1
	for _, dc := range d.List {
		rules := set.neg
		if dc.Positive {
			rules = set.pos
		}
		text := rules[dc.Index].String(v)
		if n := len(out.Decided); n > 0 && prev == dc.Index-1 && out.Decided[n-1].Example == text && out.Decided[n-1].Positive == dc.Positive {
			out.Decided[n-1].Count++
			prev = dc.Index
			continue
		}
		prev = dc.Index
		if len(out.Decided) == maxDecidedListed {
			out.Unlisted++
			continue
		}
		out.Decided = append(out.Decided, decidedView{Example: text, Positive: dc.Positive, Covered: dc.Covered, Right: dc.Right(), Count: 1})
	}
	return out
}

// runExamples are the examples of a learning run over the run's
// vocabulary.
type runExamples struct {
	vocab *logic.Vocabulary
	ex    *learn.Examples
}
