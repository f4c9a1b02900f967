package possibilistic

import (
	"encoding/json"
	"testing"
)

func TestSemanticsNames(t *testing.T) {
	for _, s := range AllSemantics {
		got, err := ParseSemantics(s.String())
		if err != nil || got != s {
			t.Fatalf("ParseSemantics(%q) = %v, %v", s, got, err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Semantics
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Fatalf("JSON round trip of %v: %s -> %v, %v", s, b, back, err)
		}
	}
	if _, err := ParseSemantics("drowning"); err == nil {
		t.Fatal("unknown name accepted")
	}
	var zero Semantics
	if zero != Poss {
		t.Fatal("zero value is not Poss")
	}
}
