package jsonview

import (
	"fmt"
	"slices"
)

// Nulls returns the paths (".levels[0].formulas") of the nulls in a decoded
// JSON value v, leaving out the members named in allowed, whose null the
// API documents (deciding_level when nothing decides). A view writes a list
// that is empty as [], never null; the tests hold every command and
// endpoint to that with Nulls.
func Nulls(v any, allowed ...string) []string {
	return nulls(v, "", allowed)
}

func nulls(v any, path string, allowed []string) []string {
	var out []string
	switch x := v.(type) {
	case nil:
		return []string{path}
	case map[string]any:
		for k, y := range x {
			if y == nil && slices.Contains(allowed, k) {
				continue
			}
			out = append(out, nulls(y, path+"."+k, allowed)...)
		}
	case []any:
		for i, y := range x {
			out = append(out, nulls(y, fmt.Sprintf("%s[%d]", path, i), allowed)...)
		}
	}
	return out
}
