// Package tabletest holds tables that the tests of several packages
// (cmd/strata, server) learn from, so that each interface is checked on the
// same data.
//
// It is a normal package so that those tests can import it, but only tests
// import it.
package tabletest

import "strings"

// Majority is a CSV table of every assignment of five yes/no columns a–e,
// its class "majority" when most of them are yes and "minority" otherwise:
// a tally of five votes, which one level of one-literal rules writes under
// lex (learn.Settings.Tally) and no single rule does.
func Majority() string {
	var b strings.Builder
	b.WriteString("a,b,c,d,e,class\n")
	for w := range 32 {
		votes := 0
		for i := range 5 {
			b.WriteString([]string{"no,", "yes,"}[w>>i&1])
			votes += w >> i & 1
		}
		b.WriteString([]string{"minority\n", "majority\n"}[min(votes/3, 1)])
	}
	return b.String()
}
