package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/weka"
)

const crowdCallsCSV = `worker,down,ydstogo,yrdline100,call
ann,4,10,30,field goal
ann,4,1,80,punt
ann,4,12,75,punt
bob,1,10,80,pass
bob,2,7,45,don't know
bob,3,3,45
carl,3,5,12,run
carl,4,12,70,punt
dan,2,x,40,run
dan,4,11,60,punt
eve,1,10,75,pass
eve,4,3,25,field goal
fay,4,9,77,punt
fay,2,2,33,run
`

const crowdTheory = `1: !punt | !field_goal
1: !punt | !pass
1: !punt | !run
1: !field_goal | !pass
1: !field_goal | !run
1: !pass | !run
0.75: !down_4 | !field_goal_range | field_goal
0.5: !down_4 | punt
0.25: pass
`

func TestCrowdTable(t *testing.T) {
	csv := writeFile(t, "calls.csv", crowdCallsCSV)
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, "", "crowd", "table", csv, "-o", out, "--annotator", "worker", "--answer", "call",
		"--describe", "field_goal_range=yrdline100:..35", "--describe", "distance_long=ydstogo:8..", "--seed", "2", "--test-fraction", "0.4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Broken rows are reported on stderr with file and line, and skipped.
	for _, want := range []string{"calls.csv:7: skipped row: 4 fields, the header has 5",
		`calls.csv:10:3: skipped row: "x" in column "ydstogo" is not a number`} {
		if !strings.Contains(stderr, "warning: ") || !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if !strings.Contains(stdout, "table: 12 answers by 6 annotators") || !strings.Contains(stdout, "4 actions (field_goal, pass, punt, run), 6 hard rules") {
		t.Fatalf("summary:\n%s", stdout)
	}
	var m struct {
		Train, Test struct{ Annotators []string }
	}
	data, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || json.Unmarshal(data, &m) != nil {
		t.Fatal(err)
	}
	for _, a := range m.Test.Annotators {
		for _, b := range m.Train.Annotators {
			if a == b {
				t.Fatalf("annotator %s on both sides", a)
			}
		}
	}
	for _, f := range []string{"train.defaults", "train.nondefaults", "test.defaults", "test.nondefaults", "hard.rules", "train.arff", "test.arff", "train.typical", "test.typical"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}

	th := writeFile(t, "calls.theory", crowdTheory)
	stdout, stderr, code = strata(t, "", "crowd", "eval", out, th, "--confusion")
	if code != 0 || !strings.Contains(stdout, "Poss. (theory)") || !strings.Contains(stdout, "18 literals in 9 formulas, 4 levels (6 literals below the top level)") ||
		!strings.Contains(stdout, "Poss. binary") || !strings.Contains(stdout, "target \\ predicted") {
		t.Fatalf("eval: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, sem := range []string{"Linear", "Lex"} {
		stdout, stderr, code = strata(t, "", "crowd", "eval", out, th, "--semantics", strings.ToLower(sem))
		if code != 0 || !strings.Contains(stdout, sem+" (theory)") || !strings.Contains(stdout, sem+" binary") {
			t.Fatalf("eval --semantics %s: exit %d\n%s\n%s", sem, code, stdout, stderr)
		}
	}
	if _, err := weka.Find(); err == nil {
		stdout, stderr, code = strata(t, "", "crowd", "eval", out, "--weka")
		if code != 0 || !strings.Contains(stdout, "C4.5") || !strings.Contains(stdout, "tree nodes") || !strings.Contains(stdout, "RIPPER") {
			t.Fatalf("eval --weka: exit %d\n%s\n%s", code, stdout, stderr)
		}
	}
	// Without Weka, --weka fails before it prints any of the table.
	t.Setenv("WEKA_JAR", filepath.Join(t.TempDir(), "no-weka.jar"))
	stdout, stderr, code = strata(t, "", "crowd", "eval", out, th, "--weka")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "no-weka.jar") || !strings.Contains(stderr, "leave out --weka") {
		t.Errorf("eval --weka without Weka: exit %d, stdout %q, stderr %q; want a failure before any output", code, stdout, stderr)
	}
}

func TestCrowdErrors(t *testing.T) {
	csv := writeFile(t, "calls.csv", crowdCallsCSV)
	hands := writeFile(t, "hands.txt", "no hands here\n")
	headerOnly := writeFile(t, "pbp.csv", "GameID,qtr,down,TimeSecs,yrdline100,ydstogo,posteam,PlayType,TwoPointConv,ScoreDiff\n")
	oneAnnotator := writeFile(t, "one.csv", "worker,down,call\nann,4,punt\nann,1,pass\n")
	out := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"crowd", "table", csv, "--annotator", "worker", "--answer", "call"}, 2, "give the output directory with -o DIR"},
		{[]string{"crowd", "table", csv, "-o", out}, 2, "needs --annotator and --answer"},
		{[]string{"crowd", "table", csv, "-o", out, "--annotator", "who", "--answer", "call"}, 1, `calls.csv:1: header: no annotator column "who"`},
		{[]string{"crowd", "table", csv, "-o", out, "--annotator", "worker", "--answer", "call", "--describe", "x=ydstogo"}, 2, "--describe"},
		{[]string{"crowd", "table", csv, "-o", out, "--annotator", "worker", "--answer", "call", "--test-fraction", "1"}, 2, "--test-fraction 1: give a number above 0 and below 1"},
		{[]string{"crowd", "football", filepath.Join(out, "missing.csv"), "-o", out}, 1, "no such file"},
		{[]string{"crowd", "football", csv, "-o", out}, 1, "not a table of a known layout"},
		{[]string{"crowd", "poker", hands, "-o", out}, 1, "no PokerStars hand histories"},
		{[]string{"crowd", "poker", hands, "-o", out, "--streets", "showdown"}, 2, `"showdown" is not preflop`},
		{[]string{"crowd", "eval", out}, 1, "manifest.json"},
		// A header alone, one annotator, one column for two roles: what is wrong, in which file.
		{[]string{"crowd", "football", headerOnly, "-o", out}, 1, headerOnly + ": no usable answers"},
		{[]string{"crowd", "table", oneAnnotator, "-o", out, "--annotator", "worker", "--answer", "call"}, 1,
			oneAnnotator + ": the answers come from 1 annotator(s) (ann), and a split by annotator needs 2 or more"},
		{[]string{"crowd", "table", oneAnnotator, "-o", out, "--annotator", "worker", "--answer", "call", "--test-folds", "3"}, 1,
			oneAnnotator + ": the answers come from 1 annotator(s) (ann), and a 3-fold split by annotator needs 3 or more"},
		{[]string{"crowd", "table", csv, "-o", out, "--annotator", "call", "--answer", "call"}, 1, `the annotator and the answer are both column "call"`},
	}
	for _, c := range cases {
		stdout, stderr, code := strata(t, "", c.args...)
		if code != c.code || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and one line containing %q", c.args, code, stdout, stderr, c.code, c.want)
		}
	}
}

const crowdHand = `PokerStars Hand #HAND: Hold'em No Limit (50/100) - 2019/07/12 03:46:40 ET
Table 'T' 6-max (Play Money) Seat #1 is the button
Seat 1: Ann (10000 in chips)
Seat 2: Bo (10000 in chips)
Ann: posts small blind 50
Bo: posts big blind 100
*** HOLE CARDS ***
Dealt to Ann [Ah Ad]
Dealt to Bo [7c 2d]
Ann: raises 200 to 300
Bo: calls 200
*** FLOP *** [As 7d 2h]
Bo: checks
Ann: bets 300
Bo: folds
*** SUMMARY ***

`

func TestCrowdPoker(t *testing.T) {
	var src strings.Builder
	for i, who := range []string{"Ann", "Cy", "Di", "Ann", "Cy", "Di"} {
		h := strings.ReplaceAll(crowdHand, "HAND", string(rune('1'+i)))
		h = strings.ReplaceAll(h, "Ann", who)
		if i == 2 {
			h = strings.Replace(h, "[As 7d 2h]", "[As 7d 2x]", 1)
		}
		src.WriteString(h)
	}
	hands := writeFile(t, "hands.txt", src.String())
	out := filepath.Join(t.TempDir(), "poker")
	stdout, stderr, code := strata(t, "", "crowd", "poker", hands, "-o", out, "--test-fraction", "0.3")
	if code != 0 || !strings.Contains(stderr, "hands.txt:46: skipped hand #3: card \"2x\"") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d\nstderr %s", code, stderr)
	}
	if !strings.Contains(stdout, "poker: 25 answers by 4 annotators") {
		t.Fatalf("stdout %s", stdout)
	}
}

// A few hundred real decisions of each domain through the command line.
func TestCrowdRealData(t *testing.T) {
	hands := shared.Path(t, "poker/pluribus_hands.txt.gz")
	pbp := shared.Path(t, "football/playoffs/playoff_pbp_2015.csv")
	dir := t.TempDir()
	stdout, stderr, code := strata(t, "", "crowd", "poker", hands, "--max-hands", "30", "-o", filepath.Join(dir, "poker"))
	if code != 0 || stderr != "" || !strings.Contains(stdout, "poker: ") {
		t.Fatalf("poker: exit %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = strata(t, "", "crowd", "football", pbp, "-o", filepath.Join(dir, "football"), "--test-folds", "3")
	if code != 0 || stderr != "" || strings.Count(stdout, "football fold ") != 3 {
		t.Fatalf("football: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "football", "fold3", "test.arff")); err != nil {
		t.Fatal(err)
	}
}
