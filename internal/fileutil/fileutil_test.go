package fileutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.theory")
	if err := WriteAtomic(p, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteAtomic(p, func(w io.Writer) error { io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("error %v does not wrap the writer's", err)
	}
	if st, err := os.Stat(p); err != nil {
		t.Fatal(err)
	} else if st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", st.Mode().Perm())
	}
	b, _ := os.ReadFile(p)
	if string(b) != "old" {
		t.Fatalf("failed write replaced the file: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
}

func TestWriteAtomicKeepsMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.checkpoint")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(p, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil {
		t.Fatal(err)
	} else if st.Mode().Perm() != 0o600 {
		t.Fatalf("replacing a 0600 file gave %v, want 0600", st.Mode().Perm())
	}
}

func TestOpen(t *testing.T) {
	if _, _, err := Open(filepath.Join(t.TempDir(), "missing"), nil); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing file: %v", err)
	}
	if _, _, err := Open(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("directory: %v", err)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{filepath.Join(dir, "new.cp"), "/dev/null"} {
		if err := CheckWritable(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, c := range []struct{ path, want string }{
		{"/nonexistent/cp", "write /nonexistent/cp: "},
		{dir, "is a directory"},
	} {
		if err := CheckWritable(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.path, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
