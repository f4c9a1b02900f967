package possibilistic_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/strata-logic/strata/possibilistic"
)

// unitTheory returns the text of a theory of n distinct unit formulas of
// weight 1, "1: a0" to "1: a<n-1>".
func unitTheory(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "1: a%d\n", i)
	}
	return b.String()
}

// BenchmarkLoadUnits measures reading and compiling a theory of n distinct
// unit formulas in one level: the work before the first query, which must
// grow linearly with the theory.
func BenchmarkLoadUnits(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		src := unitTheory(n)
		b.Run(fmt.Sprintf("formulas=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				th, err := possibilistic.ReadText(context.Background(), strings.NewReader(src), "units", nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := possibilistic.NewReasoner(context.Background(), th); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
