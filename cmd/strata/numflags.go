package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every numeric flag of every command is checked here, once, before the
// command runs (docs/cli-conventions.md, "Zero"): a count, a duration or a
// real number is never NaN or infinite and never negative, and a flag
// that has a narrower range (a share below 1, at least one row in a leaf)
// declares it with atLeast or atMost, so that the message says which values
// it takes. Commands check only what depends on several flags.

// The flag annotations holding a numeric flag's least and greatest values,
// and whether the bound is excluded ("<" or ">" in the first place).
const (
	minNote = "strata-min"
	maxNote = "strata-max"
)

// atLeast sets the least value of the numeric flag name (excluded with
// strict): --min-leaf 1, --test-fraction above 0.
func atLeast(fs *pflag.FlagSet, name string, lo float64, strict bool) {
	annotate(fs, name, minNote, lo, strict)
}

// atMost sets the greatest value of the numeric flag name (excluded with
// strict): --noise 1, --test-fraction below 1.
func atMost(fs *pflag.FlagSet, name string, hi float64, strict bool) {
	annotate(fs, name, maxNote, hi, strict)
}

func annotate(fs *pflag.FlagSet, name, note string, x float64, strict bool) {
	f := fs.Lookup(name)
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	op := ""
	if strict {
		op = "strict"
	}
	f.Annotations[note] = []string{strconv.FormatFloat(x, 'g', -1, 64), op}
}

// numericFlag reports whether f takes a number, and reads its value as a
// float64 (a duration in seconds).
func numericFlag(f *pflag.Flag) (x float64, numeric bool) {
	s := f.Value.String()
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		n, err := strconv.ParseFloat(s, 64)
		return n, err == nil
	case "float32", "float64":
		n, err := strconv.ParseFloat(s, 64)
		return n, err == nil || s == "NaN" || s == "+Inf" || s == "-Inf"
	case "duration":
		d, err := time.ParseDuration(s)
		return d.Seconds(), err == nil
	}
	return 0, false
}

// checkNumbers checks every numeric flag the command line of cmd set.
func checkNumbers(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err == nil {
			err = checkNumber(f)
		}
	})
	return err
}

// checkNumber checks one numeric flag's value against its range: never
// NaN, infinite or negative, and within its declared bounds.
func checkNumber(f *pflag.Flag) error {
	x, numeric := numericFlag(f)
	if !numeric {
		return nil
	}
	lo, loStrict, hasLo := bound(f, minNote)
	hi, hiStrict, hasHi := bound(f, maxNote)
	if !hasLo {
		lo = 0
	}
	ok := !math.IsNaN(x) && !math.IsInf(x, 0) &&
		(x > lo || x == lo && !loStrict) && (!hasHi || x < hi || x == hi && !hiStrict)
	if ok {
		return nil
	}
	msg := fmt.Sprintf("--%s %s: give %s", f.Name, f.Value.String(), rangeText(f, lo, loStrict, hi, hiStrict, hasHi))
	if i := strings.Index(f.Usage, "(0: "); i >= 0 && lo == 0 && !loStrict {
		if j := strings.IndexByte(f.Usage[i:], ')'); j > 0 {
			msg += " " + f.Usage[i:i+j+1] // what 0 means: "(0: no limit)"
		}
	}
	return usageError{errors.New(msg)}
}

// bound reads the bound note of f.
func bound(f *pflag.Flag, note string) (x float64, strict, ok bool) {
	a := f.Annotations[note]
	if len(a) != 2 {
		return 0, false, false
	}
	x, err := strconv.ParseFloat(a[0], 64)
	return x, a[1] == "strict", err == nil
}

// rangeText says which values a numeric flag takes: "a number from 0 to
// 1", "a whole number of at least 1", "a duration of at least 0".
func rangeText(f *pflag.Flag, lo float64, loStrict bool, hi float64, hiStrict, hasHi bool) string {
	kind := "a number"
	switch f.Value.Type() {
	case "duration":
		kind = "a duration"
	case "float32", "float64":
	default:
		kind = "a whole number"
	}
	num := func(x float64) string {
		if f.Value.Type() == "duration" {
			return time.Duration(x * float64(time.Second)).String()
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	low := "of at least " + num(lo)
	if loStrict {
		low = "above " + num(lo)
	}
	if !hasHi {
		return kind + " " + low
	}
	high := "at most " + num(hi)
	if hiStrict {
		high = "below " + num(hi)
	}
	return fmt.Sprintf("%s %s and %s", kind, low, high)
}
