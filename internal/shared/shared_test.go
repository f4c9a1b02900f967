package shared

import (
	"os"
	"testing"
)

func TestPath(t *testing.T) {
	p := Path(t, "README.md")
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
}
