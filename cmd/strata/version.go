package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Version is strata's version, the heading of its section in CHANGELOG.md
// and the version of CITATION.cff (TestVersionEverywhere holds the three
// together). The module is not published, so no tag or module proxy gives
// a build its version: this constant does, and the build information adds
// the commit.
const Version = "0.5.0"

// version is Version with the VCS revision, time and state strata was
// built from, when the build recorded them (go build and go install in a
// clone do; go run and go test do not).
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	return Version + vcsNote(bi.Settings)
}

// vcsNote returns " (revision R, TIME[, modified])" from the build
// settings, or "" when they hold no revision.
func vcsNote(settings []debug.BuildSetting) string {
	var rev, when, dirty string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev == "" {
		return ""
	}
	parts := []string{"revision " + rev[:min(12, len(rev))]}
	if when != "" {
		parts = append(parts, when)
	}
	return fmt.Sprintf(" (%s%s)", strings.Join(parts, ", "), dirty)
}
