package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
)

// The README's shell examples are tests. In an indented code block, a line
// "$ strata ARGS" (continued by a trailing backslash) is run, in order, in a
// scratch directory holding a copy of examples/ and, beside it, ../shared
// (the public data); the lines after it, up to the next "$ " line or the end
// of the block, are its output: standard output, then standard error. What
// may differ is marked:
//
//   - a duration (371ms, 1.5s, 2m3s) is a timing and matches any duration;
//   - a line "…" alone stands for any number of lines.
//
// "$ cat FILE" shows a file: the lines after it must be its content. An
// example that reads ../shared/data skips when the data are not there
// (fails under STRATA_REQUIRE_DATA=1, as in CI). The commands of notRun are
// shown but not run, for the reason given; any other "$ " line is an error,
// so that no example goes untested unnoticed.

// notRun holds the commands the README shows that this test does not run.
var notRun = map[string]string{
	"curl": "talks to a running strata serve (the server's own tests cover its API)",
}

// readmeExample is one "$ ..." line of the README and its shown output.
type readmeExample struct {
	line    int    // of the "$", 1-based
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

// readmeExamples extracts the shell examples of the README's indented code
// blocks.
func readmeExamples(src string) []readmeExample {
	lines := strings.Split(src, "\n")
	var exs []readmeExample
	for i := 0; i < len(lines); i++ {
		s, ok := strings.CutPrefix(lines[i], "    $ ")
		if !ok {
			continue
		}
		start := i + 1
		cmdline := s
		for strings.HasSuffix(cmdline, `\`) && i+1 < len(lines) {
			i++
			cmdline = strings.TrimSuffix(cmdline, `\`) + " " + strings.TrimSpace(lines[i])
		}
		ex := readmeExample{line: start, cmdline: cmdline}
		// The output runs to the next "$ " line or the end of the block; a
		// blank line belongs to the block when an indented line follows it.
		for i+1 < len(lines) {
			next := lines[i+1]
			if strings.HasPrefix(next, "    $ ") {
				break
			}
			if strings.TrimSpace(next) == "" {
				j := i + 1
				for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
					j++
				}
				if j == len(lines) || !strings.HasPrefix(lines[j], "    ") || strings.HasPrefix(lines[j], "    $ ") {
					break
				}
				for ; i+1 < j; i++ {
					ex.want = append(ex.want, "")
				}
				continue
			}
			if !strings.HasPrefix(next, "    ") {
				break
			}
			ex.want = append(ex.want, strings.TrimPrefix(next, "    "))
			i++
		}
		exs = append(exs, ex)
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

func TestReadmeExamples(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	exs := readmeExamples(string(src))
	if len(exs) < 10 {
		t.Fatalf("found %d examples in README.md; the parser or the README is broken", len(exs))
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	work := filepath.Join(scratch, "strata")
	copyDir(t, filepath.Join(repo, "examples"), filepath.Join(work, "examples"))
	if data, ok := shared.Root(); ok {
		if err := os.Symlink(filepath.Dir(data), filepath.Join(scratch, "shared")); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(work)
	withQuietInterval(t, 1<<62) // no progress lines in the shown output
	for _, ex := range exs {
		name := fmt.Sprintf("README.md:%d", ex.line)
		t.Run(name, func(t *testing.T) {
			if why, ok := notRun[ex.command()]; ok {
				t.Skipf("%s: $ %s: not run: %s", name, ex.command(), why)
			}
			args, err := shellWords(ex.cmdline)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, a := range args {
				if rel, ok := strings.CutPrefix(a, "../shared/data/"); ok {
					shared.Path(t, rel)
				}
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
			default:
				t.Fatalf("%s: only '$ strata ...' and '$ cat FILE' examples can be run (or name the command in notRun, with the reason): %q", name, args)
			}
			if !matchOutput(ex.want, got) {
				t.Errorf("%s: $ %s\nthe README shows:\n%s\nthe command printed:\n%s", name, ex.cmdline,
					indent(ex.want), indent(got))
			}
		})
	}
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
	exs := readmeExamples("text\n\n    $ strata query 'a -> b' \\\n        --given x\n    yes\n\n    level 1\n\nafter\n    $ cat f\n    x\n")
	args, err := shellWords(exs[0].cmdline)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 || strings.Join(args, "|") != "strata|query|a -> b|--given|x" || strings.Join(exs[0].want, "|") != "yes||level 1" ||
		exs[0].line != 3 || strings.Join(exs[1].want, "|") != "x" {
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
