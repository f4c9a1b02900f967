// Package wekatest finds Weka for tests. Weka is optional for a user, so a
// test without it goes on without the baselines; CI installs Weka and sets
// STRATA_REQUIRE_WEKA=1, which turns its absence into a failure.
package wekatest

import (
	"os"
	"testing"

	"github.com/strata-logic/strata/weka"
)

// Runner returns Weka with a 1 GB heap, or nil when it is not installed
// (failing t when STRATA_REQUIRE_WEKA is set).
func Runner(t testing.TB) *weka.Runner {
	t.Helper()
	r, err := weka.Find()
	if err != nil {
		if os.Getenv("STRATA_REQUIRE_WEKA") != "" {
			t.Fatalf("STRATA_REQUIRE_WEKA is set: %v", err)
		}
		t.Logf("%v: the baselines are not run", err)
		return nil
	}
	r.Memory = "1g"
	return r
}
