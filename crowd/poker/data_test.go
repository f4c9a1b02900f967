package poker

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
)

// The Pluribus hands, parsed and replayed here, agree decision by decision
// with pluribus_decisions.csv.gz, which another program derived from the
// same hands: same player, street, action, chips to call and pot.
func TestPluribusAgainstDecisionsFile(t *testing.T) {
	f, err := os.Open(shared.Path(t, "poker/pluribus_hands.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hands, warns, err := Read(f, "pluribus_hands.txt.gz")
	if err != nil || len(warns) != 0 {
		t.Fatalf("%v; %d warnings, first %v", err, len(warns), warns)
	}
	mine := map[string][]Decision{}
	vocab := DescriptorNames()
	sessions := map[int]bool{}
	for _, h := range hands {
		ds, unknown := Decisions(h)
		if unknown != 0 {
			t.Fatalf("hand #%s: %d decisions without hole cards, but all are shown", h.ID, unknown)
		}
		mine[h.ID] = ds
		n, ok := SessionOf(h.Table)
		if !ok {
			t.Fatalf("hand #%s: no session in table %q", h.ID, h.Table)
		}
		sessions[n] = true
		// The fixed vocabulary holds every descriptor of the real hands.
		for _, d := range ds {
			for _, x := range d.Situation {
				if _, ok := slices.BinarySearch(vocab, x); !ok {
					t.Fatalf("hand #%s: descriptor %s is not in DescriptorNames", h.ID, x)
				}
			}
		}
	}
	if len(sessions) != 54 || !sessions[30] || !sessions[118] {
		t.Fatalf("%d sessions", len(sessions))
	}
	g, err := os.Open(shared.Path(t, "poker/pluribus_decisions.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	zr, err := gzip.NewReader(g)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"fold", "check", "call", "bet", "raise"}
	next := map[string]int{}
	for _, r := range recs[1:] {
		id := r[0]
		ds, ok := mine[id]
		i := next[id]
		next[id]++
		if !ok || i >= len(ds) {
			t.Fatalf("hand #%s: decision %d of the decisions file is missing here", id, i+1)
		}
		d := ds[i]
		toCall, _ := strconv.ParseFloat(r[10], 64)
		pot, _ := strconv.ParseFloat(r[9], 64)
		if d.Player != r[2] || d.Street.String() != r[7] || kinds[d.Kind] != r[11] || d.ToCall != toCall || d.Pot != pot {
			t.Fatalf("hand #%s decision %d: %s %s %s to call %v pot %v; the decisions file has %s %s %s to call %s pot %s",
				id, i+1, d.Player, d.Street, kinds[d.Kind], d.ToCall, d.Pot, r[2], r[7], r[11], r[10], r[9])
		}
	}
	for id, n := range next {
		if n != len(mine[id]) {
			t.Fatalf("hand #%s: %d decisions here, %d in the decisions file", id, len(mine[id]), n)
		}
	}
	if len(next) < 8000 {
		t.Fatalf("only %d hands compared", len(next))
	}
}

// BenchmarkPluribus measures reading the 8,230 Pluribus hands (gzip,
// parsing, replay and descriptors of 75,023 decisions).
func BenchmarkPluribus(b *testing.B) {
	data, err := os.ReadFile(shared.Path(b, "poker/pluribus_hands.txt.gz"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		answers, _, _, err := ReadAnswers(bytes.NewReader(data), "pluribus", Options{})
		if err != nil || len(answers) < 70000 {
			b.Fatal(err, len(answers))
		}
	}
}
