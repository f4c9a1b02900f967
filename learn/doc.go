// Package learn learns possibilistic logic theories from default rules, as in
// §4 of the paper: examples are defaults α |~ β labelled positive or negative,
// a hypothesis is a stratification of clauses (plus hard rules at the top),
// and a hypothesis covers an example when (Θ, α) ⊢poss β.
//
// The package holds the example sets, the coverage engine (the hot path: an
// incremental solver per worker, witness worlds that settle most queries
// without a solver call, and per-candidate answer profiles over all
// insertion positions), parameter learning for a fixed set of clauses
// (greedy, and the exact Stratify-Separable of the appendix), the heuristic
// structure learner of §4.3 with its history, checkpoints and resumption,
// the learning protocol behind one entry, Learn, that strata learn, the
// benchmarks and the server call (the number of iterations and a pruning
// threshold chosen on held-out parts of the training data, split by whole
// groups with SplitItems as the problem's Holdout says, each part scored as
// its Task is: binary accuracy for default sets, the multi-class answer per
// situation for answer tables; then the final run, its restarts and
// pruning), with its Settings, whose zero value is the documented default,
// and its Recorder, and the VC-dimension bounds of §4.2.
//
// The files: the coverage engines and their scoring (engine.go, score*.go,
// semengine.go, semscore.go, lex*.go, propagate.go, repair.go, entailed.go,
// free.go, units.go, tally.go, support.go); the learner (learner.go,
// steps.go, select.go, grow.go, greedy.go, exact.go, checkpoint*.go,
// history.go); the protocol (settings.go, learn.go, protocol.go,
// validation.go, paired.go, restarts.go, split.go, task.go, seed.go).
//
// Settings.Semantics chooses the coverage relation: poss (the paper's, with
// drowning), or the drowning-free linear and lex entailment. The learner is
// the paper's under every semantics, with one addition under linear and
// lex: besides the sampled clauses, each iteration scores a candidate that
// adds a whole new lowest level of unit clauses, one per atom without a
// unit clause, the literal that its misclassified examples favour (units.go),
// and takes it when its training score beats the best sampled clause's.
// Sparse data are described by such a level ("typically every atom is
// false"); under lex an evidence that contradicts some of its units sets
// aside only those, but the sampled candidates add one clause an iteration,
// so a level for 180 atoms took 180 iterations. Under poss a level of units
// drowns as soon as the evidence contradicts one of them, so the candidate
// is not offered there and the poss learner keeps its behaviour.
package learn
