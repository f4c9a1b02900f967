package learn

import (
	"context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// A coverage engine decides whether the current hypothesis Θ covers every
// example, under the semantics the learner was given, and scores tentative
// changes of Θ without re-deciding what cannot change. This file holds what
// they share: the interface the learner drives (coverage) and the choice of
// an engine (newEngine). There are two general ones, over one store of the
// examples, their states and stored worlds (store.go), each with a pool of
// workers that own a solver (worker.go), because the shortcut that makes
// poss fast rests on drowning:
//   - drowning, the engine of poss, keeps the boundary b and the threshold
//     t below, and its invariant: a clause inserted strictly below position
//     2b changes nothing, and above it the answer depends only on b, t and
//     the lowest level consistent with the clause (drowning.go);
//   - drowningFree, the engine of linear and lex: linear keeps, per level,
//     whether the walk down from the top keeps it, and lex the least
//     violation count of each level among the worlds optimal above it
//     (semengine.go). Their invariants: a level's decision
//     depends only on α and the levels above it, so a changed hypothesis is
//     re-decided only below the top levels it shares with the current one;
//     a candidate satisfied by some witness of the current decision has one
//     answer at every position (linear: except inside skipped levels, where
//     nothing changes); a candidate violated by every witness has one
//     answer at every position from 2g up, g the least level whose
//     decisions above admit it, changes nothing at new levels below 2g, and
//     under lex nothing inside levels below g−1 (slowSem proves each).
//
// The third, complete, needs no solver: where every example's evidence
// leaves a few worlds it lists them (complete.go).

// coverage is a coverage engine: it decides, under its semantics, which
// examples the current hypothesis covers, and what inserting or removing a
// clause would change. The drowning engine decides ⊢poss, the
// drowning-free one linear and lex entailment, both with a solver over
// stored worlds; the complete engine decides any of the three by
// evaluation where every example's evidence fixes its worlds to a few
// (complete.go). The learner, the greedy stratifier and pruning run on
// any of them.
type coverage interface {
	// examples returns the examples as the engine numbers them.
	examples() *layout
	// hypothesis returns the current hypothesis, covers whether it covers
	// example i (in the engine's numbering), and score the covered
	// positives' weight less the covered negatives'.
	hypothesis() *Hypothesis
	covers(i int) bool
	score() int64
	// commit makes h the current hypothesis and re-decides every example;
	// commitInsert and commitRemove do so for the current one changed by
	// a clause, re-deciding only what the change may alter.
	commit(h *Hypothesis)
	commitInsert(c logic.Clause, p int)
	commitRemove(j, i int)
	// scoreCandidates returns, for each clause, the change of score when
	// it is inserted at each position 0..2k of the current hypothesis;
	// scoreAbove only for the candidates that may change it by need or
	// more at some position from[ci] on other than except (-1: none; see
	// bestAbove and reinsert).
	scoreCandidates(ctx context.Context, cands []logic.Clause) [][]int64
	scoreAbove(ctx context.Context, cands []logic.Clause, from []int, need int64, except int) [][]int64
	// scoreRemoval returns the change of score if clause i of level j
	// were removed, removalHarmless whether it is at least 0; both leave
	// the workers compiled for the smaller hypothesis (commitRemove or
	// recompile next).
	scoreRemoval(j, i int) int64
	removalHarmless(j, i int) bool
	// minPosition returns the lowest position of h at which c is not
	// redundant, or −1 when no position changes anything.
	minPosition(h *Hypothesis, c logic.Clause) int
	// save, restore and forget go back to a hypothesis and its states, or
	// give up going back (see store.save); recompile rebuilds the
	// workers' solvers.
	save() snapshot
	restore(h *Hypothesis, s snapshot)
	forget()
	recompile()
}

// coveredOf returns whether e's hypothesis covers each example, in the
// order of the Examples e was built from.
func coveredOf(e coverage) []bool {
	x := e.examples()
	out := make([]bool, x.count())
	for i := range out {
		out[x.orig[i]] = e.covers(i)
	}
	return out
}

// newEngine returns the coverage engine of sem for the examples ex, with
// the hard rules and no learned level as its hypothesis.
func newEngine(nAtoms int, ex *Examples, hard []logic.Clause, threads int, sem possibilistic.Semantics) coverage {
	if sem == possibilistic.Poss {
		return newDrowning(nAtoms, ex, hard, threads)
	}
	return newDrowningFree(nAtoms, ex, hard, threads, sem)
}
