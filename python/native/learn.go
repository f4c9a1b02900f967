package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/table/tabular"
)

func init() {
	methods["table.learn"] = learnTable
	methods["table.folds"] = tableFolds
}

// tableRequest is a table in CSV with a header, as the Python side writes
// a DataFrame or an array: Name names it in errors, Categorical names the
// columns that are categorical whatever their values (pandas' category,
// bool and string columns); the others' types are inferred as strata learn
// --table infers them.
type tableRequest struct {
	Table       string   `json:"table"`
	Name        string   `json:"name"`
	Categorical []string `json:"categorical"`
}

// readLabelled reads the table, which must have the column label.
func (r tableRequest) readLabelled(label string) (*table.Table, error) {
	t, err := r.read(nil)
	if err == nil && t.Column(label) == nil {
		err = fmt.Errorf("%s: no class column %q", t.Name, label)
	}
	return t, err
}

// read reads the table, with the columns of numeric as numbers when it is
// not nil (a theory's threshold columns: table.NumericColumns).
func (r tableRequest) read(numeric []string) (*table.Table, error) {
	return table.Read(strings.NewReader(r.Table), r.Name, table.Options{Numeric: numeric, Categorical: r.Categorical})
}

// learnSettings are the learning settings, named as strata learn's flags
// and the server's fields are (an underscore for the dash), with their
// meanings; a zero has no effect (table.Settings), so the Python side
// sends strata learn --table's defaults.
type learnSettings struct {
	Semantics          string   `json:"semantics"`
	Iterations         int      `json:"iterations"`
	Timeout            float64  `json:"timeout"` // seconds
	Candidates         int      `json:"candidates"`
	Grow               int      `json:"grow"`
	Tally              bool     `json:"tally"`
	Patience           int      `json:"patience"`
	Seed               uint64   `json:"seed"`
	Threads            int      `json:"threads"`
	Folds              int      `json:"folds"`
	Validation         float64  `json:"validation"`
	ValidationPatience int      `json:"validation_patience"`
	Choose             string   `json:"choose"`
	Restarts           int      `json:"restarts"`
	Prune              bool     `json:"prune"`
	Variants           []string `json:"variants"`
}

// settings maps the request to table.Settings as strata learn --table maps
// its flags (cmd/strata/protocol_flags.go, table.go): a value equal to the
// flag's default leaves its field zero, the library's default; a 0 that the
// flag reads as none (no limit, never, nothing held out, no grown
// candidates) is the library's none.
func (ls learnSettings) settings(label string) (table.Settings, error) {
	sem, err := possibilistic.ParseSemantics(ls.Semantics)
	if err != nil {
		return table.Settings{}, err
	}
	rule, err := learn.ParseRule(ls.Choose)
	if err != nil {
		return table.Settings{}, err
	}
	l := learn.Settings{Timeout: time.Duration(ls.Timeout * float64(time.Second)), Candidates: ls.Candidates,
		Seed: ls.Seed, Threads: ls.Threads, Semantics: sem, Folds: ls.Folds, Rule: rule, Prune: ls.Prune}
	zeroIsNone := func(v, def int) int {
		switch v {
		case def:
			return 0
		case 0:
			return learn.None
		}
		return v
	}
	l.Iterations = zeroIsNone(ls.Iterations, learn.DefaultIterations)
	l.Patience = zeroIsNone(ls.Patience, learn.DefaultPatience)
	l.ValidationPatience = zeroIsNone(ls.ValidationPatience, learn.DefaultValidationPatience)
	l.Grow = zeroIsNone(ls.Grow, table.DefaultGrow)
	switch ls.Validation {
	case learn.DefaultValidation:
	case 0:
		l.Validation = learn.None
	default:
		l.Validation = ls.Validation
	}
	if ls.Restarts != learn.DefaultRestarts {
		l.Restarts = max(ls.Restarts, 1)
	}
	if !ls.Tally {
		l.Tally = learn.SwitchOff
	}
	s := table.Settings{Learning: l, Label: label}
	var vs []table.Variant
	for _, name := range ls.Variants {
		v, err := table.ParseVariant(name)
		if err != nil {
			return table.Settings{}, err
		}
		vs = append(vs, v)
	}
	switch {
	case len(vs) == 1:
		s.Variant = vs[0]
	case len(vs) > 1:
		s.Variants = vs
	}
	return s, nil
}

type learnRequest struct {
	tableRequest
	Label string `json:"label"`
	// Features are the columns to learn from (strata learn --table
	// --features); nil: those strata learn --table chooses
	// (table.DefaultFeatures), with notes on those it leaves out.
	Features []string      `json:"features"`
	Settings learnSettings `json:"settings"`
	// Answers asks for the theory's answers on the table's rows too
	// (table.answers), with the table as read for learning: on the rows
	// AnswerRows (indices from 0), or all of them when it is nil.
	Answers    bool  `json:"answers"`
	AnswerRows []int `json:"answer_rows"`
}

// learnAnswer is a learned theory with what strata learn --table says of
// its run.
type learnAnswer struct {
	Theory   string   `json:"theory"`
	Classes  []string `json:"classes"`  // the encoding's classes
	Features []string `json:"features"` // the columns learned from
	Notes    []string `json:"notes"`    // columns left out, and why
	Stop     string   `json:"stop"`
	// Iterations is the final run's number of iterations.
	Iterations    int     `json:"iterations"`
	Seconds       float64 `json:"seconds"`
	TrainAccuracy float64 `json:"train_accuracy"` // on the learner's examples
	Formulas      int     `json:"formulas"`
	Levels        int     `json:"levels"`
	Literals      int     `json:"literals"`
	Variant       string  `json:"variant"`
	// Answers are the theory's answers on the rows learned from, with
	// Answers.
	Answers *answersAnswer `json:"answers,omitempty"`
}

// learnTable is table.Learn on the request's table.
func learnTable(ctx context.Context, req []byte) (any, error) {
	var r learnRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	s, err := r.Settings.settings(r.Label)
	if err != nil {
		return nil, err
	}
	t, err := r.readLabelled(r.Label)
	if err != nil {
		return nil, err
	}
	var notes []string
	if s.Features = r.Features; s.Features == nil {
		s.Features, notes = table.DefaultFeatures(t, r.Label, "")
	}
	lr, err := table.Learn(ctx, t, nil, s, nil)
	if err == nil {
		// A run stopped by its context keeps what it learned; a fit
		// interrupted (Ctrl-C) raises instead.
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if err := lr.Theory.WriteText(&b); err != nil {
		return nil, err
	}
	a := learnAnswer{Theory: b.String(), Classes: lr.Encoding.Classes, Features: []string{}, Notes: notes, Stop: string(lr.Stop),
		Iterations: len(lr.History), Seconds: lr.Elapsed.Seconds(), TrainAccuracy: lr.TrainAccuracy,
		Formulas: lr.Hypothesis.NumClauses(), Levels: len(lr.Hypothesis.Levels), Literals: lr.Hypothesis.NumLiterals(), Variant: lr.Variant.String()}
	for _, f := range lr.Encoding.Features {
		a.Features = append(a.Features, f.Column)
	}
	if a.Notes == nil {
		a.Notes = []string{}
	}
	if r.Answers {
		rw, err := bindRows(ctx, lr.Theory, t, r.Label, s.Learning.Semantics)
		if err != nil {
			return nil, err
		}
		if a.Answers, err = rw.answers(ctx, r.Label, r.AnswerRows); err != nil {
			return nil, err
		}
	}
	return a, nil
}

type foldsRequest struct {
	tableRequest
	Label string `json:"label"`
	K     int    `json:"k"`
	Seed  uint64 `json:"seed"`
}

// foldsAnswer is a cross-validation as strata bench tabular runs it: the
// test rows of each fold, by index from 0, and the learner's seed of each
// split.
type foldsAnswer struct {
	Folds [][]int  `json:"folds"`
	Seeds []uint64 `json:"seeds"`
}

// tableFolds returns the folds of a cross-validation of the table's rows
// as strata bench tabular draws them (table.Folds, stratified by the class
// column) and the seeds it learns each split with (tabular.SplitSeed).
func tableFolds(_ context.Context, req []byte) (any, error) {
	var r foldsRequest
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	t, err := r.readLabelled(r.Label)
	if err != nil {
		return nil, err
	}
	rows := make([]int, t.Rows)
	for i := range rows {
		rows[i] = i
	}
	folds, err := table.Folds(t, rows, r.K, r.Label, "", r.Seed)
	if err != nil {
		return nil, err
	}
	a := foldsAnswer{Folds: folds}
	for i := range folds {
		a.Seeds = append(a.Seeds, tabular.SplitSeed(r.Seed, i))
	}
	return a, nil
}
