package main

import (
	"os"
	"regexp"
	"runtime/debug"
	"testing"
)

// TestVersionEverywhere holds the version constant, CHANGELOG.md's newest
// section and CITATION.cff's version together.
func TestVersionEverywhere(t *testing.T) {
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(Version) {
		t.Fatalf("Version %q is not MAJOR.MINOR.PATCH", Version)
	}
	changelog, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^## (.*)$`).FindSubmatch(changelog); m == nil || !regexp.MustCompile(`^`+regexp.QuoteMeta(Version)+` \(\d{4}-\d\d-\d\d\)$`).Match(m[1]) {
		t.Errorf("CHANGELOG.md's newest section is %q, want %q and its date", m, "## "+Version)
	}
	cff, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^version: "` + regexp.QuoteMeta(Version) + `"$`).Match(cff) {
		t.Errorf("CITATION.cff does not give version %q", Version)
	}
}

// TestVersionRevision: the build's VCS settings add the commit, its time
// and whether the tree was modified; without them the version is alone.
func TestVersionRevision(t *testing.T) {
	for _, c := range []struct {
		settings []debug.BuildSetting
		want     string
	}{
		{nil, ""},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "4f563b7f6cd81ca8b35b6843c8c7748a980fd410"}, {Key: "vcs.time", Value: "2026-12-01T21:53:48Z"},
			{Key: "vcs.modified", Value: "false"}}, " (revision 4f563b7f6cd8, 2026-12-01T21:53:48Z)"},
		{[]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}, " (revision abc, modified)"},
	} {
		if got := vcsNote(c.settings); got != c.want {
			t.Errorf("vcsNote(%v) = %q, want %q", c.settings, got, c.want)
		}
	}
}
