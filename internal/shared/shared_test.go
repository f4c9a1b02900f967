package shared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPath(t *testing.T) {
	p := Path(t, "README.md")
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
}

func TestData(t *testing.T) {
	root := Data(t, "README.md", "debd")
	if want := filepath.Dir(Path(t, "README.md")); root != want {
		t.Errorf("Data is %s, want %s", root, want)
	}
}
