package crowd_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/crowd/football"
	"github.com/strata-logic/strata/crowd/poker"
	"github.com/strata-logic/strata/internal/shared"
)

// The CI-sized run: a few hundred decisions from each domain, end to end up
// to the baselines (the learner is exercised elsewhere).
func TestSmallEndToEnd(t *testing.T) {
	fb := shared.Path(t, "football/playoffs/playoff_pbp_2012.csv")
	f, err := os.Open(fb)
	if err != nil {
		t.Fatal(err)
	}
	answers, _, warns, err := football.Read(f, fb)
	f.Close()
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	fbTab := &crowd.AnswerTable{Actions: football.Actions, Answers: answers[:400]}

	pk := shared.Path(t, "poker/pluribus_hands.txt.gz")
	g, err := os.Open(pk)
	if err != nil {
		t.Fatal(err)
	}
	hands, _, warns, err := poker.ReadAnswers(g, pk, poker.Options{MaxHands: 40})
	g.Close()
	if err != nil || len(warns) != 0 || len(hands) < 200 || len(hands) > 1000 {
		t.Fatalf("%d poker decisions from 40 hands: %v %v", len(hands), err, warns)
	}
	pokerTab := &crowd.AnswerTable{Actions: poker.Actions, Answers: hands}

	for _, dom := range []struct {
		name string
		tab  *crowd.AnswerTable
	}{{"football", fbTab}, {"poker", pokerTab}} {
		d, err := crowd.Build(dom.name, dom.tab, crowd.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := d.Write(dir); err != nil {
			t.Fatal(err)
		}
		crowd.CheckOutput(t, dir, dom.tab.Actions)
		crowd.RunBaselines(t, dir)
	}
}

// BenchmarkBuildFootball measures the protocol on the seven playoff
// seasons (10,836 play calls): split, examples, situations, ARFF tables.
func BenchmarkBuildFootball(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(shared.Path(b, "football/playoffs"), "*.csv"))
	tab := &crowd.AnswerTable{Actions: football.Actions}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		answers, _, _, err := football.Read(f, name)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		tab.Answers = append(tab.Answers, answers...)
	}
	for b.Loop() {
		if _, err := crowd.Build("football", tab, crowd.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
