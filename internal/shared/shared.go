// Package shared locates the public data in ../shared/data for tests and
// benchmarks. A user's fresh clone has no ../shared, so tests skip with a
// clear message; CI sets STRATA_REQUIRE_DATA=1, which turns the skip into a
// failure so that a missing data directory cannot pass unnoticed.
package shared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root returns the absolute path of ../shared/data relative to the
// repository root, found from this source file's location, and whether it
// exists.
func Root() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data")
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return filepath.Clean(dir), true
	}
	return filepath.Clean(dir), false
}

// Path returns the path of rel inside ../shared/data, or skips the test (fails
// it when STRATA_REQUIRE_DATA is set) if it is not there.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	root, _ := Root()
	p := filepath.Join(root, rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("STRATA_REQUIRE_DATA") != "" {
			tb.Fatalf("shared data %s is missing (STRATA_REQUIRE_DATA is set): %v", p, err)
		}
		tb.Skipf("shared data %s is not here (a fresh clone has no ../shared); skipping", p)
	}
	return p
}

// Data returns ../shared/data, the folder that the reproductions and the
// bench commands take as their data, after checking with Path that each of
// rels is there inside it.
func Data(tb testing.TB, rels ...string) string {
	tb.Helper()
	for _, rel := range rels {
		Path(tb, rel)
	}
	root, _ := Root()
	return root
}
