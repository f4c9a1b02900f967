package learn

import "context"

// The final run learns as many iterations as the validation chose, and
// when that is a few, which clauses its first iterations find is largely
// luck: a candidate is a random sub-clause of a random misclassified
// default, and an iteration keeps the best of a hundred. Two runs of the
// same length can differ by ten points of training accuracy, where the
// validation runs that chose the length did well. Restarts repeat the
// final run with other seeds and keep the hypothesis of the best training
// score, fewer literals on a tie: the choice is made on the training data
// alone, among hypotheses of the chosen length.
//
// The restarts together learn no more iterations than the protocol's
// limit (Settings.Iterations), so they cost at most what one run to the
// limit would; a final run that needs most of the limit is not repeated.

// runs returns how many final runs l's protocol makes: Restarts after a
// validation chose the iterations, within the iteration limit.
func (proto *protocol) runs(sel *Selection, l *Learner) int {
	if sel == nil || proto.Restarts <= 1 {
		return 1
	}
	n := proto.Restarts
	if limit := proto.Settings.Iterations; limit > 0 {
		n = min(n, limit/max(len(l.history), 1))
	}
	return max(n, 1)
}

// restartSeed is the seed of restart k of a final run seeded with seed.
func restartSeed(seed uint64, k int) uint64 { return seed + uint64(k)*0x9e3779b97f4a7c15 }

// restart runs the restarts of a final run that ended as out says, within
// what its timeout leaves after out.Elapsed, and keeps the best hypothesis
// in out. A restart
// cut short by ctx leaves out with the best so far and ctx's stop, since
// an uninterrupted protocol would have finished it; one cut short by the
// timeout is not compared, as it learned less than the others, and ends
// the restarts, as the time is spent.
func (proto *protocol) restart(ctx context.Context, p Problem, sel *Selection, out *outcome, onIteration func(k int, l *Learner, it Iteration)) error {
	return proto.restartWith(ctx, sel, out, func(k int, s config) (*Learner, error) {
		l, err := newLearner(p, s, nil)
		if err == nil && onIteration != nil {
			l.OnIteration = func(it Iteration) { onIteration(k, l, it) }
		}
		return l, err
	})
}

// restartWith is restart with restart k's learner made by learner from its
// settings, so that TestRestartsTimeout can give it a restart whose time
// has run out.
func (proto *protocol) restartWith(ctx context.Context, sel *Selection, out *outcome, learner func(k int, s config) (*Learner, error)) error {
	runs := proto.runs(sel, out.Learner)
	if runs <= 1 || out.Stop == StopCancelled || out.Stop == StopTimeout {
		return nil
	}
	s := out.Learner.opts
	for k := 1; k < runs; k++ {
		if ctx.Err() != nil {
			out.Stop = out.Learner.ctxStop(ctx)
			return nil
		}
		rs := s
		rs.Seed = restartSeed(s.Seed, k)
		if s.Timeout > 0 {
			if rs.Timeout = s.Timeout - out.Elapsed; rs.Timeout <= 0 {
				return nil
			}
		}
		r, err := learner(k, rs)
		if err != nil {
			return err
		}
		stop, err := r.Run(ctx)
		out.Elapsed += r.Elapsed()
		switch {
		case err != nil:
			return err
		case ctx.Err() != nil:
			out.Stop = r.ctxStop(ctx)
			return nil
		case stop == StopTimeout:
			return nil
		}
		out.Runs++
		h, acc := r.Final(), r.TrainAccuracy()
		if acc > out.TrainAccuracy || acc == out.TrainAccuracy && h.NumLiterals() < out.Hypothesis.NumLiterals() {
			out.Learner, out.Stop, out.Hypothesis, out.TrainAccuracy, out.Kept = r, stop, h, acc, k
		}
	}
	return nil
}
