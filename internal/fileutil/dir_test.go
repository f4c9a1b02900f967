package fileutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree returns the files under dir as "path=content", and directories as
// "path/".
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == ".":
		case d.Type()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out = append(out, rel+"->"+l)
		case d.IsDir():
			out = append(out, rel+"/")
		default:
			b, _ := os.ReadFile(p)
			out = append(out, rel+"="+string(b))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// writeFolds returns a fill writing n fold directories of one file each,
// and a manifest.
func writeFolds(n int, tag string) func(string) error {
	return func(tmp string) error {
		for i := 1; i <= n; i++ {
			d := filepath.Join(tmp, "fold"+string(rune('0'+i)))
			if err := os.Mkdir(d, 0o755); err != nil {
				return err
			}
			if err := WriteAtomic(filepath.Join(d, "train"), func(w io.Writer) error { _, err := io.WriteString(w, tag); return err }); err != nil {
				return err
			}
		}
		return os.WriteFile(filepath.Join(tmp, "manifest.json"), []byte(tag), 0o644)
	}
}

func ownsFolds(name string, isDir bool) bool {
	return name == "manifest.json" || isDir && strings.HasPrefix(name, "fold")
}

// TestWriteDir: a directory of outputs is replaced whole: outputs of the
// old run that the new one does not write are gone, the user's own files
// stay, and a failed run changes nothing and leaves no temporary directory.
func TestWriteDir(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "sub", "out")
	if err := WriteDir(out, ownsFolds, writeFolds(5, "a")); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, out); len(got) != 11 || got[0] != "fold1/" || got[10] != "manifest.json=a" {
		t.Fatalf("five folds: %q", got)
	}
	// The user's files beside the outputs.
	os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o600)
	os.Mkdir(filepath.Join(out, "theories"), 0o755)
	os.WriteFile(filepath.Join(out, "theories", "t1"), []byte("th"), 0o644)
	os.Symlink("notes.txt", filepath.Join(out, "link"))
	if err := WriteDir(out, ownsFolds, writeFolds(2, "b")); err != nil {
		t.Fatal(err)
	}
	want := []string{"fold1/", "fold1/train=b", "fold2/", "fold2/train=b", "link->notes.txt", "manifest.json=b", "notes.txt=mine", "theories/", "theories/t1=th"}
	if got := tree(t, out); !slices.Equal(got, want) {
		t.Fatalf("two folds over five:\n got %q\nwant %q", got, want)
	}
	if st, _ := os.Stat(filepath.Join(out, "notes.txt")); st.Mode().Perm() != 0o600 {
		t.Errorf("a kept file's mode changed to %v", st.Mode())
	}
	boom := errors.New("boom")
	err := WriteDir(out, ownsFolds, func(tmp string) error {
		writeFolds(3, "c")(tmp)
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("the fill's error: %v", err)
	}
	if got := tree(t, out); !slices.Equal(got, want) {
		t.Fatalf("a failed run changed the outputs: %q", got)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Fatalf("temporary directories left behind: %v", ents)
	}
	// Through a link to the directory: the target is replaced, the link stays.
	link := filepath.Join(parent, "link")
	os.Symlink(out, link)
	if err := WriteDir(link, ownsFolds, writeFolds(1, "d")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "fold1", "train")); string(b) != "d" {
		t.Fatalf("the link's target was not written: %q", b)
	}
	if err := WriteDir(filepath.Join(out, "notes.txt"), ownsFolds, writeFolds(1, "e")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a file as the directory: %v", err)
	}
}

// TestRenameSwap: where the system cannot exchange two names, two renames
// do.
func TestRenameSwap(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	os.WriteFile(filepath.Join(a, "x"), []byte("A"), 0o644)
	os.WriteFile(filepath.Join(b, "x"), []byte("B"), 0o644)
	if err := renameSwap(a, b); err != nil {
		t.Fatal(err)
	}
	if ga, gb := tree(t, a), tree(t, b); !slices.Equal(ga, []string{"x=B"}) || !slices.Equal(gb, []string{"x=A"}) {
		t.Fatalf("after the swap: a %q, b %q", ga, gb)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("left behind: %v", ents)
	}
}
