package learn

import (
	"context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// possQuery asks a possibilistic.Reasoner the tests' questions under Poss.
// The tests' theories are built by Add and their context is never done,
// so that neither compiling nor a query can fail.
type possQuery struct{ r *possibilistic.Reasoner }

func possReasoner(th *possibilistic.Theory) possQuery {
	r, err := possibilistic.NewReasoner(context.Background(), th)
	if err != nil {
		panic(err)
	}
	return possQuery{r}
}

func (q possQuery) EntailsClause(alpha logic.Term, beta logic.Clause) bool {
	ok, err := q.r.EntailsClause(context.Background(), possibilistic.Poss, alpha, beta)
	if err != nil {
		panic(err)
	}
	return ok
}

func (q possQuery) Entails(alpha, beta *logic.Formula) bool {
	ok, err := q.r.Entails(context.Background(), possibilistic.Poss, alpha, beta)
	if err != nil {
		panic(err)
	}
	return ok
}
