package fileutil

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// TestWriteAtomicThroughLinks: a link is written through, never replaced by
// a regular file; its target is replaced atomically and keeps its mode.
func TestWriteAtomicThroughLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "data", "real.theory")
	if err := os.Mkdir(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.theory")
	chain := filepath.Join(dir, "chain.theory")
	if err := os.Symlink("data/real.theory", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("out.theory", chain); err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{link, chain} {
		want := "new" + strconv.Itoa(i)
		if err := WriteAtomic(p, writeString(want)); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link: %v %v", p, st.Mode(), err)
		}
		if b, _ := os.ReadFile(target); string(b) != want {
			t.Fatalf("target holds %q, want %q", b, want)
		}
		if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
			t.Fatalf("target's mode became %v", st.Mode().Perm())
		}
	}
	// A dangling link: its target is created.
	dangling := filepath.Join(dir, "dangling.theory")
	if err := os.Symlink("data/new.theory", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(dangling, writeString("fresh")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "data", "new.theory")); err != nil || string(b) != "fresh" {
		t.Fatalf("dangling link's target: %q %v", b, err)
	}
	if st, _ := os.Lstat(dangling); st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("dangling link replaced")
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "data"))
	if len(ents) != 2 {
		t.Fatalf("temporary files left behind: %v", ents)
	}
	// Loops and directories are refused.
	loop := filepath.Join(dir, "loop")
	os.Symlink("loop", loop)
	if err := WriteAtomic(loop, writeString("x")); err == nil {
		t.Fatal("a link loop was written")
	}
	dirLink := filepath.Join(dir, "dirlink")
	os.Symlink("data", dirLink)
	for _, p := range []string{dir, dirLink} {
		if err := WriteAtomic(p, writeString("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
			t.Fatalf("writing to directory %s: %v", p, err)
		}
	}
}

// TestWriteAtomicSpecialFiles: devices and pipes are written in place, not
// replaced by a regular file (the issue: -o /dev/null, run as root, turned
// /dev/null into a regular file).
func TestWriteAtomicSpecialFiles(t *testing.T) {
	// A private null device (mknod needs root): the issue's /dev/null,
	// without risking the system's.
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		st, _ := os.Stat(null)
		if err := WriteAtomic(null, writeString("discarded")); err != nil {
			t.Fatalf("writing a null device: %v", err)
		}
		if after, err := os.Lstat(null); err != nil || after.Mode() != st.Mode() || !os.SameFile(st, after) {
			t.Fatalf("null device replaced: %v, was %v", after.Mode(), st.Mode())
		}
	} else {
		t.Logf("mknod: %v; device part skipped", err)
	}

	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteAtomic(fifo, writeString("through the pipe")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was replaced: %v %v", st.Mode(), err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("reader got %q", s)
	}

	// /proc/self/fd/N of a pipe (what /dev/stdout is when piped) names no
	// file: it is written in place.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fd := "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))
	if _, err := os.Stat(fd); err != nil {
		w.Close()
		t.Skip("no /proc/self/fd")
	}
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	err = WriteAtomic(fd, writeString("to stdout"))
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "to stdout" {
		t.Fatalf("pipe reader got %q", s)
	}
}
