package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestNumericFlagsRefuseNonsense sets every numeric flag of every command
// to a negative number, to NaN and to infinity (the real ones), and to a
// value past its declared bounds, and checks that each is refused with a
// message naming the flag and what it takes, while its default passes.
func TestNumericFlagsRefuseNonsense(t *testing.T) {
	checked := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if _, ok := numericFlag(f); !ok {
				return
			}
			checked++
			name := c.CommandPath() + " --" + f.Name
			if err := checkNumber(f); err != nil {
				t.Errorf("%s: the default %s is refused: %v", name, f.DefValue, err)
			}
			bad := []string{"-1"}
			if strings.HasPrefix(f.Value.Type(), "float") {
				bad = append(bad, "NaN", "+Inf", "-Inf")
			}
			if f.Value.Type() == "duration" {
				bad = []string{"-1s"}
			}
			if _, strict, ok := bound(f, maxNote); ok {
				if strict {
					bad = append(bad, f.Annotations[maxNote][0])
				} else {
					bad = append(bad, "1e9")
				}
			}
			if _, strict, ok := bound(f, minNote); ok && strict {
				bad = append(bad, f.Annotations[minNote][0])
			}
			for _, v := range bad {
				if strings.HasPrefix(f.Value.Type(), "uint") && v == "-1" {
					continue // pflag refuses it
				}
				if err := f.Value.Set(v); err != nil {
					continue // the flag's own parser refuses it
				}
				err := checkNumber(f)
				if err == nil || !strings.Contains(err.Error(), "--"+f.Name+" ") || !strings.Contains(err.Error(), "give ") {
					t.Errorf("%s %s: %v", name, v, err)
				}
			}
			if err := f.Value.Set(f.DefValue); err != nil { // aliases share the value
				t.Fatal(err)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
	if checked < 80 {
		t.Errorf("only %d numeric flags", checked)
	}
}

// TestNonsenseFlagsFailBeforeWork: the check runs before any command, with
// the exit status of a malformed command line.
func TestNonsenseFlagsFailBeforeWork(t *testing.T) {
	table := writeFile(t, "t.data", "0,1\n1,0\n1,1\n")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"mln", "learn", table, "-o", "x.mln", "--l2", "NaN"}, "--l2 NaN: give a number of at least 0"},
		{[]string{"mln", "learn", table, "-o", "x.mln", "--l2", "-1"}, "--l2 -1: give a number of at least 0"},
		{[]string{"mln", "learn", table, "-o", "x.mln", "--penalty", "NaN"}, "--penalty NaN: give a number of at least 0"},
		{[]string{"mln", "learn", table, "-o", "x.mln", "--max-depth", "-1"}, "--max-depth -1: give a whole number of at least 0"},
		{[]string{"mln", "learn", table, "-o", "x.mln", "--min-leaf", "0"}, "--min-leaf 0: give a whole number of at least 1"},
		{[]string{"crowd", "poker", "x", "-o", "y", "--max-hands", "-1"}, "--max-hands -1: give a whole number of at least 0"},
		{[]string{"mln", "map", table, "--map", "approx", "--noise", "2"}, "--noise 2: give a number of at least 0 and at most 1"},
	} {
		_, errs, code := strata(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.msg)
		}
	}
}
