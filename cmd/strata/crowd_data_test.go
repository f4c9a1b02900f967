package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// footballCSV is a small table in the legacy nflscrapR layout, with plays
// of two teams.
const footballCSV = `GameID,play_id,qtr,down,TimeSecs,yrdline100,ydstogo,posteam,PlayType,TwoPointConv,ScoreDiff
1,1,1,1,3590,75,10,NE,Run,NA,0
1,2,1,2,3550,70,5,NE,Pass,NA,0
1,3,1,4,3490,80,15,NE,Punt,NA,0
1,4,2,4,1820,20,3,DEN,Field Goal,NA,-7
1,5,2,1,1800,75,10,DEN,Run,NA,-7
1,6,4,1,30,60,10,DEN,QB Kneel,NA,3
`

// Issue 14, item 13: "-" reads the play calls from stdin.
func TestCrowdFootballStdin(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, footballCSV, "crowd", "football", "-", "-o", out, "--test-fraction", "0.5")
	if code != 0 || !strings.Contains(stdout, "football: 6 answers by 2 annotators") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// Issue 14, item 12: two situation columns whose (column, value) atoms
// coincide, "a b"=c and a="b c", are an error naming both, not one atom.
func TestCrowdTableAtomCollision(t *testing.T) {
	csv := writeFile(t, "c.csv", "who,a b,a,call\nx,c,b c,run\ny,d,e,pass\nz,c,e,run\n")
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, "", "crowd", "table", csv, "-o", out, "--annotator", "who", "--answer", "call")
	if code != 1 || stdout != "" || !strings.Contains(stderr, `"a_b_c"`) || !strings.Contains(stderr, `column "a b" value "c"`) ||
		!strings.Contains(stderr, `column "a" value "b c"`) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// Issue 14, item 12: crowd eval on a test.typical without a situation is an
// error, not 0.0 %.
func TestCrowdEvalEmptyTest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := strata(t, footballCSV, "crowd", "football", "-", "-o", out, "--test-fraction", "0.5"); code != 0 {
		t.Fatal(stderr)
	}
	if err := os.WriteFile(filepath.Join(out, "test.typical"), []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := strata(t, "", "crowd", "eval", out)
	if code != 1 || !strings.Contains(stderr, "test.typical: no test situations to score") || strings.Contains(stdout, "%") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}
