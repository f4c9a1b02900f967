// Package fileutil holds the small file helpers that the command line and
// the learner share: reading from a path or standard input, and writing a
// file atomically so that an interrupted run never leaves a half-written
// output behind.
package fileutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
//
// Only a regular file (or a missing path) is replaced that way. A symbolic
// link is written through: its target is replaced atomically if it is a
// regular file (or missing), and the link stays. Anything else — a device
// such as /dev/null or /dev/stdout, a named pipe — is written in place, as
// a shell redirection would, since renaming over it would destroy it; a
// directory is refused.
func WriteAtomic(path string, write func(io.Writer) error) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A new file, or a dangling link whose target is created.
		target, err := resolve(path)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return replace(path, target, nil, write)
	case err != nil:
		return fmt.Errorf("write %s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("write %s: is a directory", path)
	case !st.Mode().IsRegular():
		return writeInPlace(path, write)
	}
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// The kernel's own links (/dev/stdout, /proc/self/fd/N) do not always
	// name their file; write in place what cannot be found by name.
	if tst, err := os.Stat(target); err != nil || !os.SameFile(st, tst) {
		return writeInPlace(path, write)
	}
	return replace(path, target, st, write)
}

// maxLinks bounds the symbolic links followed, as the kernel does (ELOOP).
const maxLinks = 40

// resolve follows the symbolic links at path and returns the name of the
// file that a write would reach, which need not exist.
func resolve(path string) (string, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			// Not filepath.Join: cleaning "dir/link/.." lexically is
			// wrong when link is a directory link.
			dir, _ := split(path)
			dest = dir + string(filepath.Separator) + dest
		}
		path = dest
	}
	return "", errors.New("too many levels of symbolic links")
}

// split splits path at its last separator without cleaning it (see
// resolve).
func split(path string) (dir, base string) {
	i := strings.LastIndexByte(path, filepath.Separator)
	switch {
	case i < 0:
		return ".", path
	case i == 0:
		return string(filepath.Separator), path[1:]
	}
	return path[:i], path[i+1:]
}

// replace writes target (path itself, or the file a link at path leads
// to) atomically; st describes the file it replaces, or is nil.
func replace(path, target string, st os.FileInfo, write func(io.Writer) error) (err error) {
	dir, base := split(target)
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
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
	if st != nil {
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
	if err = os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeInPlace writes to a file that must not be replaced (a device, a
// pipe), opening it as it is.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckWritable reports, before a long run, whether WriteAtomic can write
// path: path is not a directory, and its directory exists and takes new
// files (tried by creating and removing a temporary file there); a device
// or a pipe, which WriteAtomic writes in place, must open for writing.
func CheckWritable(path string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("write %s: is a directory", path)
	case err == nil && !st.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return f.Close()
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("write %s: %w", path, err)
	}
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	dir, base := split(target)
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}
