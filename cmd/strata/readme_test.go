package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/server"
)

// The shell examples of README.md and docs/*.md are tests. In a code
// block (indented by four spaces, or fenced by ```), a line "$ strata ARGS"
// (continued by a trailing backslash) is run, in order, in a scratch
// directory of its own per file, where strata examples has written
// examples/ and ../shared (the public data) is beside it; the lines after
// it, up to the next "$ " line or the end of the block, are its output:
// standard output, then standard error. What may differ is marked:
//
//   - a duration (371ms, 1.5s, 2m3s) is a timing and matches any duration;
//   - a line "…" alone stands for any number of lines.
//
// "$ cat FILE" shows a file: the lines after it must be its content. A
// block whose commands read ../shared/data is a group: where the data are
// not (a fresh clone), the whole block skips, so that no later command of
// it runs without what an earlier one would have written (under
// STRATA_REQUIRE_DATA=1, as in CI, it fails instead). The commands of
// notRun are shown but not run, for the reason given; any other "$ " line
// is an error, so that no example goes untested unnoticed. Lines without
// "$ " (long experiments, commands for a shell) are not run.

// notRun holds the commands the docs show that this test does not run.
var notRun = map[string]string{}

// A "$ curl ARGS" example asks an API server of this test (strata serve's,
// with --dir the scratch directory) in place of localhost:8080; it may
// give -s, -H, -X and -d. One that names a stored theory or run by a
// placeholder ("t-…") is not run: the ids are random.

// readmeExample is one "$ ..." line of a doc and its shown output.
type readmeExample struct {
	line    int    // of the "$", 1-based
	block   int    // the code block it is in, from 0
	cmdline string // after "$", continuation lines joined
	want    []string
}

// command is the first word of the example's command line.
func (ex readmeExample) command() string {
	if f := strings.Fields(ex.cmdline); len(f) > 0 {
		return f[0]
	}
	return ""
}

// codeBlock is the text of a code block: its lines without the block's
// indentation, and the line number of the first.
type codeBlock struct {
	first int
	lines []string
}

// codeBlocks finds the code blocks of a Markdown text: fenced by ``` at the
// start of a line, or indented by four spaces after a blank line (blank
// lines inside belong to it when an indented line follows).
func codeBlocks(src string) []codeBlock {
	lines := strings.Split(src, "\n")
	var blocks []codeBlock
	for i := 0; i < len(lines); i++ {
		switch {
		case strings.HasPrefix(lines[i], "```"):
			b := codeBlock{first: i + 2}
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				b.lines = append(b.lines, lines[i])
			}
			blocks = append(blocks, b)
		case strings.HasPrefix(lines[i], "    ") && (i == 0 || strings.TrimSpace(lines[i-1]) == ""):
			b := codeBlock{first: i + 1}
			for ; i < len(lines); i++ {
				if strings.TrimSpace(lines[i]) == "" {
					j := i
					for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
						j++
					}
					if j == len(lines) || !strings.HasPrefix(lines[j], "    ") {
						break
					}
					b.lines = append(b.lines, "")
					continue
				}
				if !strings.HasPrefix(lines[i], "    ") {
					break
				}
				b.lines = append(b.lines, strings.TrimPrefix(lines[i], "    "))
			}
			blocks = append(blocks, b)
		}
	}
	return blocks
}

// readmeExamples extracts the shell examples of a Markdown text's code
// blocks.
func readmeExamples(src string) []readmeExample {
	var exs []readmeExample
	for k, b := range codeBlocks(src) {
		for i := 0; i < len(b.lines); i++ {
			s, ok := strings.CutPrefix(b.lines[i], "$ ")
			if !ok {
				continue
			}
			ex := readmeExample{line: b.first + i, block: k, cmdline: s}
			for strings.HasSuffix(ex.cmdline, `\`) && i+1 < len(b.lines) {
				i++
				ex.cmdline = strings.TrimSuffix(ex.cmdline, `\`) + " " + strings.TrimSpace(b.lines[i])
			}
			for i+1 < len(b.lines) && !strings.HasPrefix(b.lines[i+1], "$ ") {
				i++
				ex.want = append(ex.want, b.lines[i])
			}
			for len(ex.want) > 0 && ex.want[len(ex.want)-1] == "" {
				ex.want = ex.want[:len(ex.want)-1]
			}
			exs = append(exs, ex)
		}
	}
	return exs
}

// shellWords splits a command line as a POSIX shell does for the forms the
// README uses: words separated by blanks, single and double quotes. Anything
// that would need a shell (pipes, redirections, variables, globs) is an
// error.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated %c in %q", c, s)
			}
			q := s[i+1 : i+1+j]
			if c == '"' && strings.ContainsAny(q, "$`\\") {
				return nil, fmt.Errorf("%q needs a shell", s)
			}
			w.WriteString(q)
			inWord = true
			i += j + 1
		case strings.IndexByte("|&;<>()$`\\*?[#~", c) >= 0:
			return nil, fmt.Errorf("%q needs a shell (%c)", s, c)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// durationRE matches a Go duration as strata prints timings.
var durationRE = regexp.MustCompile(`\b(\d+(\.\d+)?(h|m|s|ms|µs|us|ns))+\b`)

// matchOutput reports whether got matches the shown lines want, with
// durations as timings and "…" as any number of lines.
func matchOutput(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "…" {
		for k := 0; k <= len(got); k++ {
			if matchOutput(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	norm := func(s string) string { return durationRE.ReplaceAllString(s, "<duration>") }
	return norm(want[0]) == norm(got[0]) && matchOutput(want[1:], got[1:])
}

func outputLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// copyDir copies the regular files under src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// docFiles lists README.md and the Markdown files of docs/, relative to
// the repository.
func docFiles(t *testing.T, repo string) []string {
	t.Helper()
	files := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		rel, _ := filepath.Rel(repo, d)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

func TestDocExamples(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	withQuietInterval(t, 1<<62) // no progress lines in the shown output
	for _, file := range docFiles(t, repo) {
		src, err := os.ReadFile(filepath.Join(repo, file))
		if err != nil {
			t.Fatal(err)
		}
		exs := readmeExamples(string(src))
		total += len(exs)
		if len(exs) == 0 {
			continue
		}
		t.Run(file, func(t *testing.T) { runDocExamples(t, file, exs) })
	}
	if total < 40 {
		t.Fatalf("found %d examples in README.md and docs/; the parser or the docs are broken", total)
	}
}

// runDocExamples runs the examples of one doc in a scratch directory of its
// own.
func runDocExamples(t *testing.T, file string, exs []readmeExample) {
	scratch := t.TempDir()
	work := filepath.Join(scratch, "strata")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if data, ok := shared.Root(); ok {
		if err := os.Symlink(filepath.Dir(data), filepath.Join(scratch, "shared")); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	if _, errs, code := strata(t, "", "examples"); code != 0 {
		t.Fatalf("strata examples: %s", errs)
	}
	// A block that reads the data skips whole where the data are not.
	missing := map[int]string{}
	for _, ex := range exs {
		args, _ := shellWords(ex.cmdline)
		for _, a := range args {
			if rel, ok := strings.CutPrefix(a, "../shared/data/"); ok {
				root, _ := shared.Root()
				if _, err := os.Stat(filepath.Join(root, rel)); err != nil && missing[ex.block] == "" {
					missing[ex.block] = filepath.Join(root, rel)
				}
			}
		}
	}
	var api *httptest.Server // started by the first curl, for the whole file
	fileT := t
	for _, ex := range exs {
		name := fmt.Sprintf("%s:%d", file, ex.line)
		t.Run(strconv.Itoa(ex.line), func(t *testing.T) {
			if why, ok := notRun[ex.command()]; ok {
				t.Skipf("%s: $ %s: not run: %s", name, ex.command(), why)
			}
			if ex.command() == "curl" && strings.Contains(ex.cmdline, "…") {
				t.Skipf("%s: $ curl with a placeholder id: not run", name)
			}
			if p := missing[ex.block]; p != "" {
				if os.Getenv("STRATA_REQUIRE_DATA") != "" {
					t.Fatalf("%s: shared data %s is missing (STRATA_REQUIRE_DATA is set)", name, p)
				}
				t.Skipf("%s: the block reads %s, which is not here (a fresh clone has no ../shared); skipping the block", name, p)
			}
			args, err := shellWords(ex.cmdline)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var got []string
			switch {
			case len(args) == 2 && args[0] == "cat":
				b, err := os.ReadFile(args[1])
				if err != nil {
					t.Fatal(err)
				}
				got = outputLines(string(b))
			case len(args) > 0 && args[0] == "strata":
				stdout, stderr, _ := strata(t, "", args[1:]...)
				got = append(outputLines(stdout), outputLines(stderr)...)
			case len(args) > 0 && args[0] == "curl":
				if api == nil {
					api = startDocServer(fileT, work)
				}
				got = outputLines(curl(t, api.URL, args[1:]))
			default:
				t.Fatalf("%s: only '$ strata ...' and '$ cat FILE' examples can be run (or name the command in notRun, with the reason): %q", name, args)
			}
			if !matchOutput(ex.want, got) {
				t.Errorf("%s: $ %s\nthe doc shows:\n%s\nthe command printed:\n%s", name, ex.cmdline,
					indent(ex.want), indent(got))
			}
		})
	}
}

// startDocServer starts the API server the docs' curl examples ask, on
// the files of dir.
func startDocServer(t *testing.T, dir string) *httptest.Server {
	app, err := server.New(server.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { ts.Close(); app.Close(context.Background()) })
	return ts
}

// curl does what curl does with the arguments the docs give it: -s, -H
// 'Name: value', -X METHOD, -d DATA (a POST unless -X says otherwise) and
// one URL on localhost:8080, which is served by base instead. It returns
// the body of the answer.
func curl(t *testing.T, base string, args []string) string {
	t.Helper()
	method, body, url := "GET", "", ""
	header := http.Header{}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-s":
		case (a == "-H" || a == "-X" || a == "-d") && i+1 < len(args):
			i++
			switch a {
			case "-H":
				k, v, _ := strings.Cut(args[i], ":")
				header.Add(k, strings.TrimSpace(v))
			case "-X":
				method = args[i]
			case "-d":
				body = args[i]
				if method == "GET" {
					method = "POST"
				}
			}
		case strings.HasPrefix(a, "localhost:8080/") && url == "":
			url = base + strings.TrimPrefix(a, "localhost:8080")
		default:
			t.Fatalf("curl %q: the docs' curl examples take -s, -H, -X, -d and one URL on localhost:8080", args)
		}
	}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func indent(lines []string) string {
	var b strings.Builder
	w := bufio.NewWriter(&b)
	for _, l := range lines {
		fmt.Fprintf(w, "    %s\n", l)
	}
	w.Flush()
	return b.String()
}

func TestReadmeHarness(t *testing.T) {
	exs := readmeExamples("text\n\n    $ strata query 'a -> b' \\\n        --given x\n    yes\n\n    level 1\n\nafter\n\n    $ cat f\n    x\n\n```console\n$ strata demo\nhi\n\nthere\n```\n")
	args, err := shellWords(exs[0].cmdline)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 3 || strings.Join(args, "|") != "strata|query|a -> b|--given|x" || strings.Join(exs[0].want, "|") != "yes||level 1" ||
		exs[0].line != 3 || strings.Join(exs[1].want, "|") != "x" || exs[1].block != 1 ||
		exs[2].cmdline != "strata demo" || strings.Join(exs[2].want, "|") != "hi||there" || exs[2].line != 15 || exs[2].block != 2 {
		t.Fatalf("parsed %+v", exs)
	}
	for _, bad := range []string{"strata learn > x", "strata 'open", "strata $HOME", "strata a | b", "strata *.theory"} {
		if _, err := shellWords(bad); err == nil {
			t.Errorf("shellWords(%q) accepted it", bad)
		}
	}
	cases := []struct {
		want, got string
		ok        bool
	}{
		{"stopped after 3 iterations (371ms)", "stopped after 3 iterations (1m2.5s)", true},
		{"stopped after 3 iterations (371ms)", "stopped after 4 iterations (371ms)", false},
		{"a|…|d", "a|b|c|d", true},
		{"a|…", "a", true},
		{"a|…|d", "a|b|c", false},
		{"a", "a|b", false},
	}
	for _, c := range cases {
		if got := matchOutput(strings.Split(c.want, "|"), strings.Split(c.got, "|")); got != c.ok {
			t.Errorf("matchOutput(%q, %q) = %v", c.want, c.got, got)
		}
	}
}
