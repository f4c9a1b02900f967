package benchgen

import (
	"fmt"
	"strings"
)

// Pigeonhole returns the text of a theory whose level 0.5 says that n+1
// pigeons sit in n holes, one pigeon a hole (PigeonholeClauses), under a
// level 1 holding the atom a: the level is unsatisfiable and exponentially
// hard for a resolution-based solver, so that deciding anything that
// depends on it runs far past any budget unless it is stopped. Tests of
// cancellation use it.
func Pigeonhole(n int) string {
	var b strings.Builder
	b.WriteString("1: a\n")
	for _, c := range strings.SplitAfter(PigeonholeClauses(n), "\n") {
		if c != "" {
			b.WriteString("0.5: " + c)
		}
	}
	return b.String()
}

// PigeonholeClauses returns clauses, one a line, over the atoms pI_J (pigeon
// I sits in hole J), saying that n+1 pigeons sit in n holes, one pigeon a
// hole.
func PigeonholeClauses(n int) string {
	var b strings.Builder
	for i := range n + 1 {
		for j := range n {
			if j > 0 {
				b.WriteString(" | ")
			}
			fmt.Fprintf(&b, "p%d_%d", i, j)
		}
		b.WriteString("\n")
	}
	for j := range n {
		for i := range n + 1 {
			for k := i + 1; k < n+1; k++ {
				fmt.Fprintf(&b, "!p%d_%d | !p%d_%d\n", i, j, k, j)
			}
		}
	}
	return b.String()
}
