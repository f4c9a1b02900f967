package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Problem is what Learn learns from: the data, apart from how it learns
// (Settings) and who watches it (Recorder), as gonum's optimize separates
// a Problem from its Settings and Recorder.
type Problem struct {
	Vocab *logic.Vocabulary
	Train *Examples      // positive and negative examples to learn from
	Hard  []logic.Clause // hard rules, above every learned level
	// Test, if not nil, is scored after every iteration for the history's
	// TestAccuracy; it is never learned from.
	Test *Examples
	// Fallback are the answers of the situations the learned rules leave
	// undecided, in order of preference, such as a table's classes from
	// the most frequent: Learn states the first alone at a new
	// lowest level of the final hypothesis (Hypothesis.WithFallback), and
	// each next one at a level below when it answers a training situation
	// right that had no answer (withFallbacks). The learner and the
	// held-out curve never see them.
	Fallback []logic.Clause
	// HardRules, when Hard names subformulas of the hard rules by
	// auxiliary atoms (HardClauses), are the hard rules as written: the
	// theories Learn returns state them in place of Hard.
	HardRules []*logic.Formula
	// Holdout says how Settings.Folds hold out the training data: by
	// whole groups, each held-out part scored as its Task says. nil: by
	// whole antecedents of Train, scored by binary accuracy
	// (ByAntecedent).
	Holdout Holdout
	// Render writes a hypothesis as the theory a person reads (a table's
	// rules as rules, Encoding.Theory). nil: Hypothesis.Theory over Vocab,
	// with HardRules as written.
	Render func(*Hypothesis) *possibilistic.Theory
	// Alternatives are other encodings of the same data (a table's
	// variants) to choose among on the held-out parts: the problem and
	// each alternative are validated on their own held-out parts of the
	// same groups, each with an equal share of the validation's time, and
	// the one whose held-out score at its chosen iteration is the highest
	// (the first on a tie) is learned (Result.Alternative).
	Alternatives []Problem
}

// Iteration is one line of the learning history. Its JSON (MarshalJSON)
// is the one every interface shows.
type Iteration struct {
	Iteration     int
	TrainAccuracy float64
	TestAccuracy  float64 // NaN without a test set
	Rules         int
	Levels        int
	Literals      int
	Elapsed       time.Duration
	Improved      bool
}

// Stop says why learning ended.
type Stop string

// The reasons learning ends.
const (
	StopIterations Stop = "iteration limit reached"
	StopTimeout    Stop = "timeout"
	StopPatience   Stop = "no improvement"
	StopPerfect    Stop = "every training example classified correctly"
	StopCancelled  Stop = "interrupted"
)

// Learner is the heuristic structure learner of §4.3. It keeps the hypothesis of
// the last completed iteration, so that it can be stopped, checkpointed and
// resumed at any iteration boundary; an iteration cut short by cancellation
// or the timeout is undone.
type Learner struct {
	// OnIteration, if not nil, is called after every completed iteration
	// with its line of the history. Set it before Run.
	OnIteration func(Iteration)

	opts  config
	vocab *logic.Vocabulary
	train *Examples
	hard  []logic.Clause
	c, tc coverage // the coverage engines of the training and the test examples
	e     *layout  // the training examples as c numbers them
	n     int      // atoms
	test  *Examples
	lits  litSet // the literals the engines decide clauses of
	grown map[logic.Lit]*growIndex
	// grownFrom holds the candidates grown so far, by the default grown
	// from (grow).
	grownFrom map[string]logic.Clause
	pool      []def // sample's, kept for its memory
	task      Task  // scores te's coverage; nil: binary accuracy on Problem.Test
	pcg       *rand.PCG
	rng       *rand.Rand
	iter      int
	stale     int
	history   []Iteration
	elapsed   time.Duration // learning time before this run (resumed runs)
	started   time.Time
}

// newLearner prepares learning p under the settings opts; with a task, it
// scores the task's queries for the history's TestAccuracy instead of
// p.Test. It keeps p's examples and hard rules, and changes neither.
func newLearner(p Problem, opts config, task Task) (*Learner, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	opts.defaults()
	if task != nil {
		p.Test = task.Queries()
	}
	v, train, hard := p.Vocab, p.Train, p.Hard
	if train == nil || len(train.List) == 0 {
		return nil, errors.New("learn: no training examples")
	}
	if v == nil {
		return nil, errors.New("learn: no vocabulary")
	}
	n := max(v.Len(), int(train.MaxAtom())+1)
	if p.Test != nil {
		n = max(n, int(p.Test.MaxAtom())+1)
	}
	hardF := make([]*logic.Formula, len(hard))
	for i, c := range hard {
		for _, l := range c {
			n = max(n, int(l.Atom())+1)
		}
		hardF[i] = logic.ClauseF(c)
	}
	if err := CheckHard(v, hardF); err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	l := &Learner{opts: opts, vocab: v, train: train, hard: hard, task: task}
	l.pcg = rand.NewPCG(opts.Seed, 0x5eed)
	l.rng = rand.New(l.pcg)
	l.n, l.test = n, p.Test
	l.lits = learnable(train).union(literalsOf(p.Fallback))
	l.build()
	return l, nil
}

// Semantics returns the semantics the learner decides coverage under.
func (l *Learner) Semantics() possibilistic.Semantics { return l.opts.Semantics }

// Hypothesis returns the best hypothesis found so far.
func (l *Learner) Hypothesis() *Hypothesis { return l.c.hypothesis().Clone() }

// History returns the iterations run so far.
func (l *Learner) History() []Iteration { return slices.Clone(l.history) }

// covers returns which of the training examples m covers, decided by the
// learner's own engine, which then returns to the learner's hypothesis:
// after a run, the engine is at hand, and a second one built for the
// question (Covers) doubled the memory of a table of a million rows
// (TestLearnerCovers).
func (l *Learner) covers(m *Hypothesis) []bool {
	own := l.c.hypothesis()
	if m == own {
		return coveredOf(l.c)
	}
	l.admit(m)
	l.c.commit(m)
	out := coveredOf(l.c)
	l.c.commit(own)
	return out
}

// TrainAccuracy returns the training accuracy of the current hypothesis.
func (l *Learner) TrainAccuracy() float64 { return l.e.accuracy(l.c.score()) }

// Run learns until the iteration limit, the timeout, patience running out,
// a perfect fit or ctx being done, and returns why it stopped. After it
// returns, Hypothesis is the hypothesis of the last completed iteration (an
// iteration cut short is undone). Settings without a limit, with a ctx that
// is never done, are an error: the run could go on forever.
func (l *Learner) Run(ctx context.Context) (Stop, error) {
	if l.opts.Iterations == 0 && l.opts.Timeout == 0 && l.opts.Patience == 0 && ctx.Done() == nil {
		return "", errors.New("learn: no iteration limit, timeout or patience, and a context that is never done: the run might not end")
	}
	l.started = time.Now()
	defer func() {
		// Between runs no time passes for the learner: a checkpoint
		// written after Run, or a second Run, counts learning time only.
		l.elapsed += time.Since(l.started)
		l.started = time.Time{}
	}()
	if l.opts.Timeout > 0 {
		remaining := l.opts.Timeout - l.elapsed
		if remaining <= 0 {
			return StopTimeout, nil
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, remaining)
		defer cancel()
	}
	for l.opts.Iterations == 0 || l.iter < l.opts.Iterations {
		if ctx.Err() != nil {
			return l.ctxStop(ctx), nil
		}
		before, rng := l.c.hypothesis(), *l.pcg
		improved, perfect, err := l.step(ctx)
		if err != nil {
			return "", err
		}
		if ctx.Err() != nil {
			// A step cut short has drawn random numbers and may have
			// committed a half-simplified hypothesis; an uninterrupted run would
			// have finished it. Return to the iteration boundary, so that
			// a checkpoint written now resumes exactly as if the run had
			// not stopped.
			*l.pcg = rng
			if l.c.hypothesis() != before {
				l.c.commit(before)
			}
			return l.ctxStop(ctx), nil
		}
		if improved {
			l.stale = 0
		} else {
			l.stale++
		}
		l.record(improved)
		if perfect {
			return StopPerfect, nil
		}
		if l.opts.Patience > 0 && l.stale >= l.opts.Patience {
			return StopPatience, nil
		}
	}
	return StopIterations, nil
}

func (l *Learner) ctxStop(ctx context.Context) Stop {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return StopTimeout
	}
	return StopCancelled
}

// Elapsed returns the total learning time, including earlier runs.
func (l *Learner) Elapsed() time.Duration {
	if l.started.IsZero() {
		return l.elapsed
	}
	return l.elapsed + time.Since(l.started)
}

func (l *Learner) record(improved bool) {
	l.iter++
	h := l.c.hypothesis()
	it := Iteration{
		Iteration:     l.iter,
		TrainAccuracy: l.TrainAccuracy(),
		TestAccuracy:  math.NaN(),
		Rules:         h.NumClauses(),
		Levels:        len(h.Levels),
		Literals:      h.NumLiterals(),
		Elapsed:       l.Elapsed(),
		Improved:      improved,
	}
	if l.tc != nil {
		if l.tc.hypothesis() != h { // an unchanged hypothesis scores as before
			l.tc.commit(h)
		}
		if l.task != nil {
			right, total := l.task.Score(coveredOf(l.tc))
			it.TestAccuracy = float64(right) / float64(max(total, 1))
		} else {
			it.TestAccuracy = l.tc.examples().accuracy(l.tc.score())
		}
	}
	l.history = append(l.history, it)
	if l.OnIteration != nil {
		l.OnIteration(it)
	}
}

// step runs one iteration: sample candidates from the misclassified
// examples, pick the best clause and position, minimise the clause, and if
// that improves the training score, insert it, simplify, prune and
// re-insert every clause at its best level.
func (l *Learner) step(ctx context.Context) (improved, perfect bool, err error) {
	cands, drawn := l.sample()
	if len(cands) == 0 {
		return false, true, nil
	}
	e := l.c
	base := e.score()
	best, ok := bestOf(ctx, e, cands)
	if ok && best.ok && l.opts.Specialise > 0 {
		i := slices.IndexFunc(cands, func(c logic.Clause) bool { return slices.Equal(c, best.clause) })
		best = l.specialise(ctx, best, drawn[i])
	}
	if ok && best.ok {
		best = l.minimise(ctx, best)
	}
	var next *Hypothesis
	var target int64
	free := l.opts.Semantics != possibilistic.Poss
	if free {
		next, target = unitLevel(ctx, e) // units.go
		// The tally is tried on the first iteration and then on the
		// powers of two only: its examples do not change, so its
		// levels hardly do, and each costs a full re-decision per share.
		// On the inner splits of 13 tables every iteration instead gave
		// the same theories in 104 of 105 runs.
		if l.opts.Tally && l.opts.Semantics == possibilistic.Lex && l.iter&(l.iter-1) == 0 {
			if m, s := tallyLevel(ctx, e); m != nil && (next == nil || s > target) {
				next, target = m, s
			}
		}
	}
	switch {
	case ctx.Err() != nil:
		return false, false, nil
	case next != nil && target > base && (!best.ok || target > best.score):
		l.c.commit(l.simplify(next))
	case best.ok && best.score > base:
		next, target = e.hypothesis().Insert(best.clause, best.pos), best.score
		if free {
			// One clause more: the engine re-decides only what it may change.
			l.c.commitInsert(best.clause, best.pos)
		} else {
			l.c.commit(l.simplify(next))
		}
	default:
		return false, false, nil
	}
	prune(ctx, l.c)
	reinsert(ctx, l.c)
	if s := e.score(); s < target {
		return false, false, fmt.Errorf("learn: internal error: score fell from %d to %d while simplifying", target, s)
	}
	return true, false, nil
}

// minimise greedily drops literals from the chosen clause while the score
// does not fall (and no level is added for nothing).
func (l *Learner) minimise(ctx context.Context, best choice) choice {
	for len(best.clause) > 1 && ctx.Err() == nil {
		subs := make([]logic.Clause, len(best.clause))
		for i := range best.clause {
			subs[i] = best.clause.Without(best.clause[i])
		}
		// A sub-clause scoring below best is of no use: bestAbove need
		// not score it.
		c, ok := bestAbove(ctx, l.c, subs, best.score-l.c.score())
		if !ok || !c.ok || c.score < best.score || c.score == best.score && c.levels > best.levels {
			break
		}
		best = c
	}
	return best
}

// specialise adds to the chosen clause, one at a time and at most
// Settings.Specialise times, the negation of the literal of alpha (the
// antecedent of the default it was drawn from) that raises the training
// score most, while one raises it.
func (l *Learner) specialise(ctx context.Context, best choice, alpha logic.Term) choice {
	for range l.opts.Specialise {
		var more []logic.Clause
		for _, a := range alpha {
			if c, taut := logic.Normalize(append(slices.Clone(best.clause), a.Not())); !taut && len(c) > len(best.clause) {
				more = append(more, c)
			}
		}
		if len(more) == 0 || ctx.Err() != nil {
			break
		}
		// Only a clause that scores above best is of use.
		c, ok := bestAbove(ctx, l.c, more, best.score-l.c.score()+1)
		if !ok || !c.ok || c.score <= best.score {
			break
		}
		best = c
	}
	return best
}
