package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestUsageErrors checks the README's promise: every malformed command line
// exits with status 2 and one line on stderr, and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	th := writeFile(t, "penguin.theory", penguinTheory)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bogus"}, `unknown command "bogus" for "strata"`},
		{[]string{"lern"}, `unknown command "lern" for "strata"; did you mean "learn"?`},
		{[]string{"mln", "bogus"}, `unknown command "bogus" for "strata mln"`},
		{[]string{"crowd", "bogus"}, `unknown command "bogus" for "strata crowd"`},
		{[]string{"bench", "bogus"}, `unknown command "bogus" for "strata bench"`},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"learn", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"learn", "--iteration", "3"}, "unknown flag: --iteration; did you mean --iterations?"},
		{[]string{"query", th, "a", "--semantic", "lex"}, "unknown flag: --semantic; did you mean --semantics?"},
		{[]string{"predict", th, "--tabel", "x.csv"}, "unknown flag: --tabel; did you mean --table?"},
		{[]string{"learn", "--jsn"}, "unknown flag: --jsn; did you mean --json?"},
		{[]string{"mln", "map", "x.mln", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"query"}, "query takes 1 to 2 arguments, got 0"},
		{[]string{"query", th}, "needs a QUERY or --given"},
		{[]string{"closure"}, "closure takes 1 argument(s), got 0"},
		{[]string{"learn", "--iterations"}, "flag needs an argument: --iterations"},
		{[]string{"learn", "--iterations", "many"}, `invalid argument "many" for "--iterations" flag`},
		{[]string{"mln", "map", "x.mln", "--map", "gibbs"}, `invalid argument "gibbs" for "--map" flag: want exact or approx`},
		{[]string{"mln", "examples", "x.mln", "-o", t.TempDir(), "--test", "5"}, "unknown flag: --test"},
		{[]string{"crowd", "table", "x.csv"}, "give the output directory with -o DIR"},
		{[]string{"bench", "crowd", "--grow", "-1"}, "--grow -1: give a whole number of at least 0 (0: none)"},
		{[]string{"bench", "crowd", "--examples", "all"}, `--examples "all": give answers or typical`},
		{[]string{"bench", "crowd", "--runs", "0"}, "--runs 0: give a whole number of at least 1"},
		{[]string{"help", "bogus"}, `unknown help topic "bogus"`},
		{[]string{"help", "mln", "bogus"}, `unknown help topic "mln bogus"`},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestUsageAlone checks that strata and its command groups alone print
// their usage on stderr and exit with status 2, and that help is on stdout
// with status 0.
func TestUsageAlone(t *testing.T) {
	for _, args := range [][]string{nil, {"mln"}, {"crowd"}, {"bench"}} {
		out, errs, code := strata(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errs, "Usage:") || !strings.Contains(errs, "Available Commands:") {
			t.Errorf("strata %v: exit %d, stdout %q, stderr %q; want the usage on stderr and exit 2", args, code, out, errs)
		}
	}
	out, errs, code := strata(t, "", "help")
	if code != 0 || errs != "" || !strings.Contains(out, "Available Commands:") {
		t.Errorf("strata help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = strata(t, "", "help", "mln", "map")
	if code != 0 || errs != "" || !strings.Contains(out, "strata mln map NET.mln") {
		t.Errorf("strata help mln map: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = strata(t, "", "--help")
	if code != 0 || errs != "" || !strings.Contains(out, "Available Commands:") {
		t.Errorf("strata --help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestVersion(t *testing.T) {
	out, errs, code := strata(t, "", "--version")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "strata ") || strings.Count(out, "\n") != 1 {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if v := version(); out != "strata "+v+"\n" || !strings.HasPrefix(v, Version) {
		t.Fatalf("--version printed %q, version() is %q, Version %q", out, v, Version)
	}
}

// TestFlagAliases checks that the old spellings still work: --out for
// -o/--output, --approx for --map approx, --train for --train-examples and
// --no-weka for --weka=false with a note on stderr, and --background for
// --hard without one.
func TestFlagAliases(t *testing.T) {
	table := writeFile(t, "small.data", mlnTable())
	dir := t.TempDir()
	net := filepath.Join(dir, "small.mln")
	if _, errs, code := strata(t, "", "mln", "learn", table, "--output", net, "--min-leaf", "2"); code != 0 {
		t.Fatalf("mln learn --output: %d %s", code, errs)
	}
	want, _, _ := strata(t, "", "mln", "map", net, "--given", "a1", "--map", "approx", "--flips", "500")
	out, errs, code := strata(t, "", "mln", "map", net, "--given", "a1", "--approx", "--flips", "500")
	timings := func(s string) string { return durationRE.ReplaceAllString(s, "<duration>") }
	if code != 0 || timings(out) != timings(want) || !strings.HasPrefix(out, "the best world MaxWalkSAT found") || errs != "strata: --approx is deprecated; use --map approx\n" {
		t.Fatalf("--approx: %d %q %q, want %q", code, out, errs, want)
	}
	ex := filepath.Join(dir, "ex")
	out, errs, code = strata(t, "", "mln", "examples", net, "--output", ex, "--train", "30", "--test-examples", "20")
	if code != 0 || !strings.Contains(out, "train: ") || !strings.HasPrefix(errs, "strata: --train is deprecated; use --train-examples\n") {
		t.Fatalf("mln examples --train: %d %q %q", code, out, errs)
	}
	if st, err := os.Stat(filepath.Join(ex, "train.defaults")); err != nil || st.Size() == 0 {
		t.Fatalf("--output of mln examples not written: %v", err)
	}
	hard := writeFile(t, "hard.rules", "!penguin | bird\n")
	withHard, _, _ := strata(t, "penguin -> !flies\nbird -> flies\n", "closure", "-", "--hard", hard)
	out, errs, code = strata(t, "penguin -> !flies\nbird -> flies\n", "closure", "-", "--background", hard)
	if code != 0 || errs != "" || out != withHard || !strings.Contains(out, "1: !penguin | bird") {
		t.Fatalf("closure --background: %d %q %q, want %q", code, out, errs, withHard)
	}
	_, errs, code = strata(t, "", "bench", "map", "--no-weka", "--data", t.TempDir(), "-o", t.TempDir(), "--datasets", "chess")
	if code == 0 || !strings.HasPrefix(errs, "strata: --no-weka is deprecated; use --weka=false\n") || strings.Contains(errs, "Weka") {
		t.Fatalf("bench map --no-weka: %d %q", code, errs)
	}
	// crowd table with --out writes where -o writes.
	csv := writeFile(t, "answers.csv", "who,down,call\na,1,run\nb,1,pass\nc,2,run\nd,2,run\ne,1,run\n")
	crowdOut := filepath.Join(dir, "crowd")
	_, errs, code = strata(t, "", "crowd", "table", csv, "--out", crowdOut, "--annotator", "who", "--answer", "call")
	if code != 0 || !strings.Contains(errs, "strata: --out is deprecated; use -o/--output\n") {
		t.Fatalf("crowd table --out: %d %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(crowdOut, "manifest.json")); err != nil {
		t.Fatalf("crowd table --out wrote nothing: %v", err)
	}
}

// TestRenamedFlags checks the old spelling of every renamed flag: it does
// what the new one does, with a note on stderr that names the new one.
func TestRenamedFlags(t *testing.T) {
	rules := writeFile(t, "penguins.rules", penguinRules)
	table := writeFile(t, "small.data", mlnTable())
	net := filepath.Join(t.TempDir(), "small.mln")
	if _, errs, code := strata(t, "", "mln", "learn", table, "-o", net, "--min-leaf", "2"); code != 0 {
		t.Fatal(errs)
	}
	csv := writeFile(t, "answers.csv", "who,down,call\na,1,run\nb,1,pass\nc,2,run\nd,2,run\ne,1,run\n")
	timings := func(s string) string { return durationRE.ReplaceAllString(s, "<duration>") }
	// Timings in JSON are numbers of seconds.
	seconds := regexp.MustCompile(`"(seconds|setup_seconds)": [0-9.e-]+|(?m),[0-9.e-]+$`)
	cases := []struct {
		old, new []string
		note     string
	}{
		{[]string{"entails", "--semantics", "lex", rules, "penguin -> wings"}, []string{"entails", "--relation", "lex", rules, "penguin -> wings"}, "--semantics is deprecated; use --relation"},
		{[]string{"entails", "--results", "json", rules, "--queries", rules}, []string{"entails", "--json", rules, "--queries", rules}, "--results is deprecated; use --json or --csv"},
		{[]string{"entails", "--results", "csv", rules, "--queries", rules}, []string{"entails", "--csv", rules, "--queries", rules}, "--results is deprecated; use --json or --csv"},
		{[]string{"mln", "map", net, "--given", "a1", "--map", "approx", "--walk-seed", "3"}, []string{"mln", "map", net, "--given", "a1", "--map", "approx", "--seed", "3"}, "--walk-seed is deprecated; use --seed"},
		{[]string{"crowd", "table", csv, "-o", filepath.Join(t.TempDir(), "a"), "--annotator", "who", "--answer", "call", "--folds", "2", "--json"},
			[]string{"crowd", "table", csv, "-o", filepath.Join(t.TempDir(), "a"), "--annotator", "who", "--answer", "call", "--test-folds", "2", "--json"}, "--folds is deprecated; use --test-folds"},
		{[]string{"learn", "-v", "--iterations", "1", "--json"}, []string{"learn", "--verbose", "--iterations", "1", "--json"}, "-v is deprecated; use --verbose"},
	}
	for _, c := range cases {
		want, wantErrs, wantCode := strata(t, "", c.new...)
		got, errs, code := strata(t, "", c.old...)
		norm := func(s string) string { return seconds.ReplaceAllString(timings(s), "<seconds>") }
		if tmp := regexp.MustCompile(`/tmp/[^"]*/a`); true {
			want, got = tmp.ReplaceAllString(want, "DIR"), tmp.ReplaceAllString(got, "DIR")
		}
		if code != wantCode || norm(got) != norm(want) || !strings.HasPrefix(errs, "strata: "+c.note+"\n") || strings.TrimPrefix(errs, "strata: "+c.note+"\n") != wantErrs && c.old[0] != "learn" {
			t.Errorf("%v: exit %d, stderr %q, stdout\n%s\nwant as %v: exit %d, stderr %q, stdout\n%s", c.old, code, errs, got, c.new, wantCode, wantErrs, want)
		}
	}
	_, errs, code := strata(t, "", "bench", "map", "--semantics", "poss,nope")
	if code != 2 || !strings.Contains(errs, `invalid argument "poss,nope" for "--semantics" flag`) {
		t.Errorf("bench map --semantics: exit %d %q", code, errs)
	}
}

// noJSON holds the commands that print no result, with the reason; every
// other command that runs has --json (TestFlagVocabulary).
var noJSON = map[string]string{
	"strata demo":        "a tour in prose of what strata query prints",
	"strata examples":    "writes files; its listing names them",
	"strata serve":       "serves the JSON API; prints only its address and the access log",
	"strata mln convert": "writes a file and prints nothing",
}

// shorthands are the one-letter flags, each with one meaning everywhere.
var shorthands = map[string]string{"o": "output", "h": "help", "v": "version"}

// TestFlagVocabulary walks the command tree and holds every command to
// the conventions of docs/cli-conventions.md: a flag name has one meaning
// (a line of flagMeanings) and one type of value everywhere; a one-letter
// flag is one of shorthands; a command that prints a result has --json; a
// command has an example of its use; old spellings are hidden and say what
// replaces them.
func TestFlagVocabulary(t *testing.T) {
	files := map[string]bool{"pos": true, "neg": true, "test-pos": true, "test-neg": true, "hard": true, "test": true, "train": true}
	types := map[string]string{} // flag name -> value type
	where := map[string]string{} // flag name -> a command that has it
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		path := c.CommandPath()
		if c.Runnable() && !c.Hidden && !c.HasSubCommands() { // a group prints its usage
			if _, ok := noJSON[path]; !ok {
				if f := c.LocalFlags().Lookup("json"); f == nil || f.Value.Type() != "bool" {
					t.Errorf("%s prints a result and has no --json (or add it to noJSON with the reason it prints none)", path)
				}
			}
			if c.Example == "" {
				t.Errorf("%s has no example in its help", path)
			}
			for _, line := range strings.Split(c.Example, "\n") {
				if !strings.HasPrefix(line, "      ") && !strings.HasPrefix(line, "  "+path) {
					t.Errorf("%s: the example %q does not start with %q (continuation lines are indented further)", path, line, "  "+path)
				}
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			at := path + " --" + f.Name
			if f.Hidden {
				if len(f.Annotations[deprecatedNote]) == 0 && f.Name != "background" {
					t.Errorf("%s: hidden but neither deprecated nor a documented alias", at)
				}
				return
			}
			if _, ok := flagMeanings[f.Name]; !ok {
				t.Errorf("%s: not in flagMeanings; give it its meaning there (and a name no other flag has, if it means something else)", at)
			}
			if typ, ok := types[f.Name]; ok && typ != f.Value.Type() {
				t.Errorf("%s takes %s, and %s --%s takes %s: one name, one kind of value", at, f.Value.Type(), where[f.Name], f.Name, typ)
			}
			types[f.Name], where[f.Name] = f.Value.Type(), path
			if f.Shorthand != "" && shorthands[f.Shorthand] != f.Name {
				t.Errorf("%s (-%s): -%s is --%s everywhere", at, f.Shorthand, f.Shorthand, shorthands[f.Shorthand])
			}
			switch {
			case f.Name == "output" && f.Shorthand != "o":
				t.Errorf("%s: -o is --output everywhere", at)
			case f.Name == "out" || f.Name == "no-weka" || f.Name == "approx" || f.Name == "results" || f.Name == "walk-seed":
				t.Errorf("%s: an old spelling is visible", at)
			case f.Name == "java-memory" && f.DefValue != defaultJavaMemory:
				t.Errorf("%s: default %s, want %s everywhere", at, f.DefValue, defaultJavaMemory)
			case f.Name == "map" && f.Value.Type() != "exact|approx":
				t.Errorf("%s: type %s, want exact|approx", at, f.Value.Type())
			case files[f.Name] && f.Value.Type() != "string":
				t.Errorf("%s names data, so it takes a file, not a %s", at, f.Value.Type())
			case f.Name == "java-memory" && c.LocalFlags().Lookup("weka") == nil:
				t.Errorf("%s: a command that runs Weka has --weka", at)
			case f.Name == "semantics" && f.Value.Type() != "poss|linear|lex":
				t.Errorf("%s: --semantics takes one of poss, linear or lex (addSemantics)", at)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRoot()
	root.InitDefaultVersionFlag()
	walk(root)
	for name := range flagMeanings {
		if _, ok := types[name]; !ok {
			t.Errorf("flagMeanings has --%s, which no command defines", name)
		}
	}
	for path := range noJSON {
		if c, _, err := root.Find(strings.Fields(path)[1:]); err != nil || c.CommandPath() != path {
			t.Errorf("noJSON names %s, which is not a command", path)
		}
	}
}

// TestHelpPointsToCommand checks that a malformed command line points to
// the help of the command it was meant for.
func TestHelpPointsToCommand(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"query", "--bogus"}, "(see 'strata help query')"},
		{[]string{"mln", "map", "--given"}, "(see 'strata help mln map')"},
		{[]string{"crowd", "eval"}, "(see 'strata help crowd eval')"},
		{[]string{"mln", "bogus"}, "(see 'strata help mln')"},
		{[]string{"bogus"}, "(see 'strata help')"},
		{[]string{"help", "bogus"}, "(see 'strata help')"},
		{[]string{"entails", "--relation", "x", "a.rules", "a -> b"}, "(see 'strata help entails')"},
	}
	for _, c := range cases {
		_, errs, code := strata(t, "", c.args...)
		if code != 2 || !strings.HasSuffix(errs, c.want+"\n") {
			t.Errorf("%v: exit %d, stderr %q; want it to end %q", c.args, code, errs, c.want)
		}
	}
}

// TestCompletion checks that the shell completes the values of the flags
// that take one of a few words.
func TestCompletion(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"query", "--semantics", ""}, []string{"poss", "linear", "lex"}},
		{[]string{"learn", "--semantics", "l"}, []string{"linear", "lex"}},
		{[]string{"entails", "--relation", ""}, []string{"p", "rational", "lex", "w", "c"}},
		{[]string{"closure", "--format", ""}, []string{"auto", "rules", "cl"}},
		{[]string{"mln", "map", "--format", ""}, []string{"auto", "alchemy", "wcnf"}},
		{[]string{"mln", "map", "--map", ""}, []string{"exact", "approx"}},
		{[]string{"bench", "map", "--semantics-list", "poss,l"}, []string{"poss,linear", "poss,lex"}},
		{[]string{"closure", "--ocf", ""}, []string{"z", "c", "all"}},
		{[]string{"bench", "crowd", "--domains", "poker,f"}, []string{"poker,football", "poker,fourth_down"}},
		{[]string{"bench", "map", "--datasets", "p"}, []string{"plants"}},
		{[]string{"crowd", "poker", "--streets", ""}, []string{"preflop", "flop", "turn", "river"}},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", append([]string{"__complete"}, c.args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) == 0 || strings.Join(lines[:len(lines)-1], " ") != strings.Join(c.want, " ") || lines[len(lines)-1] != ":4" {
			t.Errorf("complete %v: exit %d %q\n%s", c.args, code, errs, out)
		}
	}
	out, _, code := strata(t, "", "completion", "bash")
	if code != 0 || !strings.Contains(out, "__start_strata") {
		t.Errorf("strata completion bash: exit %d", code)
	}
}

// TestBenchFlagsAgree checks that every bench command has the common flags
// (addBenchFlags) with one type and default, and one help where the flag
// means the same everywhere.
func TestBenchFlagsAgree(t *testing.T) {
	sameHelp := map[string]bool{"output": true, "weka": true, "xgboost": true, "java-memory": true, "json": true}
	first := map[string]*pflag.Flag{}
	for _, newCmd := range benchCommands {
		c := newCmd()
		for _, name := range []string{"output", "data", "quick", "seed", "semantics-list", "weka", "xgboost", "java-memory", "json"} {
			f := c.Flags().Lookup(name)
			if f == nil {
				t.Errorf("bench %s has no --%s", c.Name(), name)
				continue
			}
			g, ok := first[name]
			if !ok {
				first[name] = f
				continue
			}
			if f.Value.Type() != g.Value.Type() || name != "output" && f.DefValue != g.DefValue || sameHelp[name] && f.Usage != g.Usage {
				t.Errorf("bench %s --%s (%s, %q, %q) differs from another bench command's (%s, %q, %q)", c.Name(), name,
					f.Value.Type(), f.DefValue, f.Usage, g.Value.Type(), g.DefValue, g.Usage)
			}
		}
	}
	if len(first) == 0 {
		t.Fatal("no bench commands")
	}
}

// TestEditDistance: insertions, deletions, substitutions and swaps of two
// adjacent letters each cost one.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"table", "table", 0}, {"tabel", "table", 1}, {"tabel", "label", 1}, {"iteration", "iterations", 1},
		{"semantic", "semantics", 1}, {"jsn", "json", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.b, c.a); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}
