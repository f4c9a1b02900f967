// Package defaults reasons with a consistent set Δ of default rules α |~ β
// ("if α then typically β"), optionally under background knowledge K: hard
// formulas that hold in every world considered.
//
// It implements the notions of §3.1 of the paper and the semantics a
// non-monotonic-reasoning researcher compares strata with:
//
//   - tolerance (Pearl): α |~ β is tolerated by D iff
//     K ∧ α ∧ β ∧ ⋀_{αi|~βi ∈ D} (¬αi ∨ βi) is satisfiable;
//   - the Z-ordering Δ1, …, Δk (each Δj holds the defaults of the remainder
//     that the remainder tolerates) and the possibilistic theory Θ_Z built
//     from it; an inconsistent Δ is reported with a small conflicting subset;
//   - rational closure, decided as (Θ_Z, α) ⊢poss β;
//   - System P (p-entailment): Δ p-entails α |~ β iff Δ ∪ {α |~ ¬β} is
//     inconsistent;
//   - lexicographic closure (Lehmann; Benferhat et al.): worlds are compared
//     by their vectors of violated defaults per Z-level, highest level first,
//     which avoids the drowning problem of rational closure;
//   - System W (Komo and Beierle): worlds are compared by the sets of
//     defaults they falsify per Z-level, highest first, by inclusion;
//   - skeptical c-inference (Beierle, Eichhorn, Kern-Isberner and Kutsch):
//     α |~ β holds when every c-representation accepts it, decided exactly
//     by linear programs over the impacts (cinf.go, internal/lp);
//   - ranking functions (OCF): κ_Z and a minimal c-representation κ_c;
//   - the extended partition with its layer Δ^∞ and weakly consistent
//     bases (NewWeakReasoner), where (⊥|α) makes α impossible.
//
// Bases are read from rule files in the dataset format (ReadRules) and from
// the .cl / .clq formats of the conditional-logic community (ReadCL,
// ReadCLQ). The dataset format is also the learner's: its examples are the
// Rules of what ReadRules reads, WriteRules writes them back, and
// ReadClauses and WriteClauses read and write hard rules, one clause per
// line. A Reasoner compiles a base once into one incremental SAT solver
// and answers queries under every semantics.
//
// Every computation that calls the SAT solver takes a context first
// (ZOrdering, NewReasoner, Entails, Explain, Prepare, CRepresentation,
// OCF.RankFormula, …): each solver call polls it before it starts and at
// its own check points, and once it is done the computation makes no
// further call and returns its error. A Reasoner stays usable.
//
// In every semantics a query whose antecedent contradicts the background
// knowledge is entailed vacuously, as in the preferential semantics (α ⊨ β
// implies α |~ β).
package defaults
