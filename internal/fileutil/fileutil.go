// Package fileutil holds the small file helpers that the command line and
// the learner share: reading from a path or standard input, and writing a
// file atomically so that an interrupted run never leaves a half-written
// output behind.
package fileutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Open opens path for reading; "-" means stdin. The name returned is what
// error messages should call the input.
func Open(path string, stdin io.Reader) (io.ReadCloser, string, error) {
	if path == "-" {
		return io.NopCloser(stdin), "<stdin>", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, path, fmt.Errorf("read %s: is a directory", path)
	}
	return f, path, nil
}

// WriteAtomic writes a file by writing a temporary file in the same
// directory, syncing it and renaming it over path, so that readers see
// either the old or the new content, never a mix.
func WriteAtomic(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// CreateTemp makes the file private; a new output is as readable as
	// any file the user creates, and a replaced one keeps its mode (a
	// private checkpoint stays private).
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
