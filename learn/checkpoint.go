package learn

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// checkpointVersion changes whenever the checkpoint layout does.
const checkpointVersion = 1

type checkpointIteration struct {
	Iteration     int      `json:"iteration"`
	TrainAccuracy float64  `json:"train_accuracy"`
	TestAccuracy  *float64 `json:"test_accuracy,omitempty"`
	Rules         int      `json:"rules"`
	Levels        int      `json:"levels"`
	Literals      int      `json:"literals"`
	ElapsedNs     int64    `json:"elapsed_ns"`
	Improved      bool     `json:"improved"`
}

type checkpoint struct {
	Version     int    `json:"version"`
	Fingerprint string `json:"fingerprint"`
	// Semantics is absent from checkpoints written before it existed,
	// which were all learned under poss (the zero value).
	Semantics possibilistic.Semantics `json:"semantics"`
	Iteration int                     `json:"iteration"`
	Stale     int                     `json:"stale"`
	ElapsedNs int64                   `json:"elapsed_ns"`
	RNG       []byte                  `json:"rng"`
	Levels    [][]string              `json:"levels"` // lowest first
	Hard      []string                `json:"hard"`
	History   []checkpointIteration   `json:"history"`
}

// fingerprint identifies the training data and hard rules, so that a
// checkpoint is not resumed on other data by mistake.
func fingerprint(v *logic.Vocabulary, train *Examples, hard []logic.Clause) string {
	h := sha256.New()
	for _, e := range train.List {
		fmt.Fprintf(h, "%v %d %s |~ %s\n", e.Positive, e.Count, v.Join(e.Alpha, ","), v.Join(e.Beta, ","))
	}
	for _, c := range hard {
		fmt.Fprintf(h, "hard %s\n", v.Join(c, ","))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// WriteCheckpoint writes the learner's complete state (hypothesis, random
// generator, history, counters) as JSON. Write it atomically;
// Settings.Resume continues from it as if the run had not stopped.
func (l *Learner) WriteCheckpoint(w io.Writer) error {
	rng, err := l.pcg.MarshalBinary()
	if err != nil {
		return err
	}
	cp := checkpoint{
		Version:     checkpointVersion,
		Fingerprint: fingerprint(l.vocab, l.train, l.hard),
		Semantics:   l.opts.Semantics,
		Iteration:   l.iter,
		Stale:       l.stale,
		ElapsedNs:   int64(l.Elapsed()),
		RNG:         rng,
	}
	for _, lv := range l.c.hypothesis().Levels {
		var cs []string
		for _, c := range lv {
			cs = append(cs, c.String(l.vocab))
		}
		cp.Levels = append(cp.Levels, cs)
	}
	for _, c := range l.c.hypothesis().Hard {
		cp.Hard = append(cp.Hard, c.String(l.vocab))
	}
	for _, it := range l.history {
		ci := checkpointIteration{
			Iteration: it.Iteration, TrainAccuracy: it.TrainAccuracy, Rules: it.Rules,
			Levels: it.Levels, Literals: it.Literals, ElapsedNs: int64(it.Elapsed), Improved: it.Improved,
		}
		if !math.IsNaN(it.TestAccuracy) {
			ta := it.TestAccuracy
			ci.TestAccuracy = &ta
		}
		cp.History = append(cp.History, ci)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(cp)
}

// resumeLearner builds a learner for p as newLearner would and restores
// the state written by WriteCheckpoint. The settings may differ (more
// iterations, another timeout, more threads) and so may p.Test; the
// training data, the hard rules and the semantics may not.
func resumeLearner(r io.Reader, p Problem, opts config) (*Learner, error) {
	cp, err := decodeCheckpoint(r)
	if err != nil {
		return nil, err
	}
	if cp.Version != checkpointVersion {
		return nil, fmt.Errorf("checkpoint version %d, this strata reads version %d", cp.Version, checkpointVersion)
	}
	if cp.Semantics != opts.Semantics {
		return nil, fmt.Errorf("checkpoint was written learning under %s semantics, this run asks for %s", cp.Semantics, opts.Semantics)
	}
	l, err := newLearner(p, opts, nil)
	if err != nil {
		return nil, err
	}
	v, train, hard := p.Vocab, p.Train, p.Hard
	if fp := fingerprint(v, train, hard); fp != cp.Fingerprint {
		return nil, errors.New("checkpoint was written for other training data or hard rules")
	}
	if err := cp.checkCounters(); err != nil {
		return nil, err
	}
	if err := l.pcg.UnmarshalBinary(cp.RNG); err != nil {
		return nil, fmt.Errorf("checkpoint: random generator state: %w", err)
	}
	m := &Hypothesis{Hard: hard}
	if m.Levels, err = parseLearned(cp.Levels, v, train); err != nil {
		return nil, err
	}
	if len(cp.Hard) > 0 {
		if m.Hard, err = parseHard(cp.Hard, v, hard); err != nil {
			return nil, err
		}
	}
	l.admit(m)
	l.c.commit(m)
	l.iter, l.stale, l.elapsed = cp.Iteration, cp.Stale, time.Duration(cp.ElapsedNs)
	for _, ci := range cp.History {
		it := Iteration{
			Iteration: ci.Iteration, TrainAccuracy: ci.TrainAccuracy, TestAccuracy: math.NaN(), Rules: ci.Rules,
			Levels: ci.Levels, Literals: ci.Literals, Elapsed: time.Duration(ci.ElapsedNs), Improved: ci.Improved,
		}
		if ci.TestAccuracy != nil {
			it.TestAccuracy = *ci.TestAccuracy
		}
		l.history = append(l.history, it)
	}
	return l, nil
}
