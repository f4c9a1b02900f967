// Package learntest holds what the tests of several packages need of the
// learner's settings.
package learntest

import "github.com/strata-logic/strata/learn"

// Legacy returns l with the zero fields that learn.Settings gives a
// default of its own meaning none, as the tests written against such
// settings meant them: no patience, no grown candidates, no level of
// votes, no validation patience, one final run, no held-out share (with
// Folds 1: nothing held out). Iterations stays as it is: those tests give
// a limit, or run a quick reproduction, which has its own.
func Legacy(l learn.Settings) learn.Settings {
	if l.Patience == 0 {
		l.Patience = learn.Never
	}
	if l.Grow == 0 {
		l.Grow = learn.None
	}
	if l.Tally == learn.SwitchDefault {
		l.Tally = learn.SwitchOff
	}
	if l.ValidationPatience == 0 {
		l.ValidationPatience = learn.Never
	}
	if l.Restarts == 0 {
		l.Restarts = 1
	}
	if l.Validation == 0 {
		l.Validation = learn.None
	}
	return l
}
