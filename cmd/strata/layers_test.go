package main

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/strata-logic/strata/"

// TestLayers holds the packages to the layers that docs/development.md
// draws, top first: every package of the module is in one layer, and
// imports (in its code and the tests inside it) only packages of its own
// layer or of the layers below it, with no cycle among them. A package's
// external tests (package p_test) are a package of their own above every
// layer, as a command is.
func TestLayers(t *testing.T) {
	root := filepath.Join("..", "..")
	layers := readLayers(t, filepath.Join(root, "docs", "development.md"))
	layerOf := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			if _, twice := layerOf[p]; twice {
				t.Errorf("%s is drawn in two layers", p)
			}
			layerOf[p] = i
		}
	}
	imports := moduleImports(t, root)
	for p, deps := range imports {
		lp, ok := layerOf[p]
		if !ok {
			t.Errorf("package %s is in no layer of docs/development.md", p)
			continue
		}
		for _, d := range deps {
			if ld, ok := layerOf[d]; ok && ld < lp {
				t.Errorf("%s (layer %d) imports %s, drawn above it (layer %d)", p, lp+1, d, ld+1)
			}
		}
	}
	for p := range layerOf {
		if _, ok := imports[p]; !ok {
			t.Errorf("docs/development.md draws %s, which is no package", p)
		}
	}
	// No cycle: every package can be put after all it imports.
	state := map[string]int{} // 1 on the path, 2 done
	var visit func(p string, path []string)
	visit = func(p string, path []string) {
		switch state[p] {
		case 1:
			t.Errorf("an import cycle: %s", strings.Join(append(path, p), " → "))
			return
		case 2:
			return
		}
		state[p] = 1
		for _, d := range imports[p] {
			visit(d, append(path, p))
		}
		state[p] = 2
	}
	for p := range imports {
		visit(p, nil)
	}
}

// readLayers reads the numbered list of the section "Layers" of the
// developers' guide: per layer, top first, the packages in backquotes
// before its colon.
func readLayers(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	item := regexp.MustCompile(`^(\d+)\. (.*?):`)
	name := regexp.MustCompile("`([a-z0-9/]+)`")
	var layers [][]string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
			in = strings.TrimLeft(line, "# ") == "Layers"
		case in:
			if m := item.FindStringSubmatch(line); m != nil {
				if n, _ := strconv.Atoi(m[1]); n != len(layers)+1 {
					t.Fatalf("%s: layer %s out of order", path, m[1])
				}
				var l []string
				for _, p := range name.FindAllStringSubmatch(m[2], -1) {
					l = append(l, p[1])
				}
				layers = append(layers, l)
			}
		}
	}
	if len(layers) < 3 {
		t.Fatalf("%s: no list of layers under a heading Layers", path)
	}
	return layers
}

// moduleImports returns, for every package of the module under root, the
// packages of the module its files import, the tests of the package
// itself (not its external tests, package p_test) included.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		deps := out[pkg]
		if strings.HasSuffix(f.Name.Name, "_test") {
			out[pkg] = deps
			return nil
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if d, ok := strings.CutPrefix(p, modulePath); ok && d != pkg && !slices.Contains(deps, d) {
				deps = append(deps, d)
			}
		}
		out[pkg] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
