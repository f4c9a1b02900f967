package football

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
)

// readSeasons reads the seven season files of a directory, keyed by game and
// play id.
func readSeasons(t *testing.T, dir string) (map[string]play, Stats) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(files) != 7 {
		t.Fatalf("%s: %d files, want 7 (2009-2015)", dir, len(files))
	}
	out := map[string]play{}
	var total Stats
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		plays, st, warns, err := readPlays(f, name)
		f.Close()
		if err != nil || len(warns) != 0 {
			t.Fatalf("%s: %v %v", name, err, warns)
		}
		total.Add(st)
		for _, p := range plays {
			key := p.Game + "/" + p.ID
			if _, dup := out[key]; dup || p.Game == "" || p.ID == "" {
				t.Fatalf("%s:%d: play %q read twice or without an id", name, p.Line, key)
			}
			out[key] = p
		}
	}
	return out, total
}

// scoreDescriptors are the descriptors of the score difference.
var scoreDescriptors = []string{"tied", "leading_by_1_to_8", "leading_by_9_to_16", "leading_by_17_or_more",
	"trailing_by_1_to_8", "trailing_by_9_to_16", "trailing_by_17_or_more"}

func withoutScore(sit []string) []string {
	return slices.DeleteFunc(slices.Clone(sit), func(d string) bool { return slices.Contains(scoreDescriptors, d) })
}

// The same post-season games in nflscrapR's legacy layout (playoffs/) and
// in its current layout, nflfastR's (post_season/), give the same answers
// play by play, except for the differences named and counted here, each
// traced to the two sources' rows.
func TestLegacyAndCurrentLayoutsAgree(t *testing.T) {
	legacyPlays, lst := readSeasons(t, shared.Path(t, "football/playoffs"))
	currentPlays, cst := readSeasons(t, shared.Path(t, "football/post_season"))

	var onlyLegacy, onlyCurrent, calls []string
	scoreOnly := map[string]int{} // per game
	same := 0
	for key, l := range legacyPlays {
		c, ok := currentPlays[key]
		switch {
		case !ok:
			onlyLegacy = append(onlyLegacy, l.Action)
		case l.Action != c.Action:
			calls = append(calls, l.Action+" -> "+c.Action)
		case l.Annotator != c.Annotator || l.Down != c.Down || !slices.Equal(withoutScore(l.Situation), withoutScore(c.Situation)):
			t.Errorf("play %s: legacy %s %v, current %s %v", key, l.Annotator, l.Situation, c.Annotator, c.Situation)
		case !slices.Equal(l.Situation, c.Situation):
			scoreOnly[l.Game]++
		default:
			same++
		}
	}
	for key, c := range currentPlays {
		if _, ok := legacyPlays[key]; !ok {
			onlyCurrent = append(onlyCurrent, c.Action)
		}
	}
	count := func(xs []string) map[string]int {
		m := map[string]int{}
		for _, x := range xs {
			m[x]++
		}
		return m
	}
	for _, d := range []struct {
		what      string
		got, want map[string]int
	}{
		// A play wiped out by a penalty is a call in the legacy layout and
		// no_play (intentional grounding, a penalty on the punt) or NA (a
		// delay of game in punt formation) in the current one.
		{"calls only in the legacy layout", count(onlyLegacy), map[string]int{"pass": 27, "punt": 4, "run": 5}},
		// The legacy layout files a play as Timeout or End of Game when the
		// description holds the timeout too.
		{"calls only in the current layout", count(onlyCurrent), map[string]int{"run": 3, "pass": 1}},
		// QB Kneel vs run on three kneels; two aborted snaps or challenged
		// passes are Pass in the legacy layout and run in the current.
		{"calls that differ", count(calls), map[string]int{"kneel -> run": 3, "pass -> run": 2}},
		// The two sources keep different running scores in a few games
		// (ScoreDiff against score_differential), so only the score
		// descriptor differs.
		{"plays whose score descriptor differs, per game", scoreOnly,
			map[string]int{"2011012300": 64, "2016020700": 104, "2014010400": 1}},
	} {
		if !maps.Equal(d.got, d.want) {
			t.Errorf("%s: %v, want %v", d.what, d.got, d.want)
		}
	}
	if same < 10600 {
		t.Errorf("only %d identical plays", same)
	}
	// Apart from those plays, the two layouts drop the same rows.
	if lst.TwoPoint != cst.TwoPoint || lst.Spikes != cst.Spikes || lst.ProBowl != cst.ProBowl || lst.Malformed+cst.Malformed != 0 {
		t.Errorf("legacy %+v, current %+v", lst, cst)
	}
	t.Logf("%d identical plays; legacy %+v; current %+v; %s", same, lst, cst, strings.Join(calls, ", "))
}
