package server

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
)

// maxFile caps the size of a file read from Config.Dir.
const maxFile = 256 << 20

// maxListed caps the files GET /api/files lists.
const maxListed = 5000

// readFile reads a file under Config.Dir. The path must be relative and
// local ("a/b.theory", not "/etc/passwd" or "../x"); os.Root also refuses a
// symbolic link that leads outside the directory.
func (s *Server) readFile(name string) ([]byte, error) {
	if s.root == nil {
		return nil, &apiError{Status: http.StatusForbidden, Field: "path",
			Message: "this server reads no files: it was started without a directory to serve"}
	}
	if !filepath.IsLocal(name) {
		return nil, &apiError{Status: http.StatusForbidden, Field: "path",
			Message: fmt.Sprintf("path %q is outside the served directory", name)}
	}
	f, err := s.root.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &apiError{Status: http.StatusNotFound, Field: "path", Message: fmt.Sprintf("no file %q in the served directory", name)}
		}
		return nil, &apiError{Status: http.StatusForbidden, Field: "path",
			Message: fmt.Sprintf("path %q is outside the served directory or unreadable: %v", name, trimRootErr(err))}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, &apiError{Status: http.StatusBadRequest, Field: "path", Message: fmt.Sprintf("%q is a directory", name)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, &apiError{Status: http.StatusInternalServerError, Field: "path", Message: fmt.Sprintf("read %s: %v", name, err)}
	}
	if len(data) > maxFile {
		return nil, &apiError{Status: http.StatusRequestEntityTooLarge, Field: "path", Message: fmt.Sprintf("%s is larger than %d bytes", name, maxFile)}
	}
	return data, nil
}

// trimRootErr drops the operation and path of a *fs.PathError, which would
// repeat the server's own directory.
func trimRootErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

type fileView struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// handleFiles lists the regular files under Config.Dir (hidden ones left
// out), so that the explorer page can offer them.
func (s *Server) handleFiles(w http.ResponseWriter, r *http.Request) {
	if s.root == nil {
		writeJSON(w, http.StatusOK, map[string]any{"dir": false, "files": []fileView{}})
		return
	}
	files := []fileView{}
	truncated := false
	err := fs.WalkDir(s.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory is skipped, not fatal
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if len(files) == maxListed {
			truncated = true
			return fs.SkipAll
		}
		var size int64
		if info, err := d.Info(); err == nil {
			size = info.Size()
		}
		files = append(files, fileView{Path: p, Size: size})
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	writeJSON(w, http.StatusOK, map[string]any{"dir": true, "files": files, "truncated": truncated})
}
