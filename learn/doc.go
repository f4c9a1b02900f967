// Package learn learns possibilistic logic theories from default rules, as in
// §4 of the paper: examples are defaults α |~ β labelled positive or negative,
// a hypothesis is a stratification of clauses (plus hard rules at the top),
// and a hypothesis covers an example when (Θ, α) ⊢poss β.
//
// The package holds the example sets, the coverage engine (the hot path: an
// incremental solver per worker, witness models that settle most queries
// without a solver call, and per-candidate answer profiles over all
// insertion positions), parameter learning for a fixed set of clauses
// (greedy, and the exact Stratify-Separable of the appendix), the heuristic
// structure learner of §4.3 with its history, checkpoints and resumption,
// and the VC-dimension bounds of §4.2.
package learn
