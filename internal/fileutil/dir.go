package fileutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteDir writes a directory of outputs whole. fill writes the outputs
// into a new temporary directory beside dir, which then takes dir's place
// in one rename: readers see the old directory or the new one, never a mix
// of the two runs, and an output of the old run that the new one does not
// write (fold3 when two folds replace five) is gone. A fill that fails
// leaves dir as it was.
//
// owns tells the outputs apart from what else dir holds (the user's files,
// a theory learned from the outputs): an entry it does not own is carried
// over into the new directory as it is, by hard links, so that the old
// directory stays whole until the rename. A symbolic link at dir is
// followed, and its target replaced.
func WriteDir(dir string, owns func(name string, isDir bool) bool, fill func(tmp string) error) (err error) {
	target, err := resolve(dir)
	if err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	if target, err = filepath.Abs(target); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	parent, base := filepath.Dir(target), filepath.Base(target)
	if parent == target {
		return fmt.Errorf("write %s: cannot replace the root directory", dir)
	}
	mode := fs.FileMode(0o755)
	st, err := os.Stat(target)
	exists := err == nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return fmt.Errorf("write %s: %w", dir, err)
		}
	case err != nil:
		return fmt.Errorf("write %s: %w", dir, err)
	case !st.IsDir():
		return fmt.Errorf("write %s: not a directory", dir)
	default:
		mode = st.Mode().Perm()
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err = os.Chmod(tmp, mode); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	if err = fill(tmp); err != nil {
		return err
	}
	if !exists {
		if err = os.Rename(tmp, target); err != nil {
			return fmt.Errorf("write %s: %w", dir, err)
		}
		return syncDir(parent)
	}
	if err = carryOver(target, tmp, owns); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	if err = syncDir(tmp); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	if err = swap(tmp, target); err != nil {
		return fmt.Errorf("write %s: %w", dir, err)
	}
	// tmp now names the old directory.
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("write %s: removing the previous outputs: %w", dir, err)
	}
	return syncDir(parent)
}

// carryOver links the entries of old that owns does not claim into dir.
func carryOver(old, dir string, owns func(name string, isDir bool) bool) error {
	entries, err := os.ReadDir(old)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if owns(e.Name(), e.IsDir()) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, e.Name())); err == nil {
			return fmt.Errorf("%s is both an output and a file of its own", e.Name())
		}
		if err := linkTree(filepath.Join(old, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("keeping %s: %w", e.Name(), err)
		}
	}
	return nil
}

// linkTree makes dst a copy of src whose files are hard links to src's.
func linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch t := d.Type(); {
		case d.IsDir():
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.Mkdir(to, info.Mode().Perm())
		case t&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		case t.IsRegular():
			return os.Link(path, to)
		}
		return fmt.Errorf("%s is not a file, a directory or a link", path)
	})
}

// swap exchanges the directories a and b: atomically where the system can
// (exchange), otherwise by two renames, between which b is briefly missing
// but never half-written.
func swap(a, b string) error {
	err := exchange(a, b)
	if err == nil || !errors.Is(err, errNoExchange) {
		return err
	}
	return renameSwap(a, b)
}

// renameSwap exchanges the directories a and b by renames.
func renameSwap(a, b string) error {
	old, err := os.MkdirTemp(filepath.Dir(b), "."+filepath.Base(b)+".old*")
	if err != nil {
		return err
	}
	if err := os.Remove(old); err != nil { // a free name for b
		return err
	}
	if err := os.Rename(b, old); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(old, b)
		return err
	}
	return os.Rename(old, a)
}

// syncDir makes a directory's entries durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// errNoExchange says that the system cannot exchange two names atomically.
var errNoExchange = errors.New("atomic exchange not supported")
