// Package weka runs the paper's baselines, Weka's J48 (C4.5), JRip (RIPPER)
// and RandomForest with 100 trees, each with Weka's default settings
// otherwise: it trains on one ARFF file, tests on another, and reads the
// test-set accuracy and the size of the model (J48's number of tree nodes,
// JRip's number of rules) from Weka's report. It also writes the ARFF
// tables (ARFF) that the crowdsourcing and MAP experiments give Weka.
//
// Weka is not a Go dependency: it needs a Java runtime and weka.jar
// (bench/install-weka.sh installs the Debian package, whose jar is
// /usr/share/java/weka.jar; set WEKA_JAR to use another).
package weka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Classifier is a Weka classifier class with its options.
type Classifier struct {
	Name    string // as the paper's table names it
	Class   string
	Options []string
}

// The paper's baselines.
var (
	RandomForest = Classifier{Name: "RF", Class: "weka.classifiers.trees.RandomForest", Options: []string{"-I", "100"}}
	J48          = Classifier{Name: "C4.5", Class: "weka.classifiers.trees.J48"}
	JRip         = Classifier{Name: "RIPPER", Class: "weka.classifiers.rules.JRip"}
	Baselines    = []Classifier{RandomForest, J48, JRip}
)

// defaultJar is where the Debian package puts Weka.
const defaultJar = "/usr/share/java/weka.jar"

// ErrNotInstalled is returned by Find when Java or weka.jar is missing.
var ErrNotInstalled = errors.New("weka is not installed (run bench/install-weka.sh, or set WEKA_JAR)")

// Runner runs Weka through a Java runtime.
type Runner struct {
	Java   string // path of the java binary
	Jar    string // path of weka.jar
	Memory string // maximum Java heap, as -Xmx takes it ("2g"); empty for Java's default
}

// Find locates java (JAVA_HOME/bin/java, else on PATH) and weka.jar
// (WEKA_JAR, else /usr/share/java/weka.jar, where the Debian package puts
// it).
func Find() (*Runner, error) {
	jar := os.Getenv("WEKA_JAR")
	if jar == "" {
		jar = defaultJar
	}
	if _, err := os.Stat(jar); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotInstalled, err)
	}
	java := ""
	if home := os.Getenv("JAVA_HOME"); home != "" {
		if p := filepath.Join(home, "bin", "java"); fileExists(p) {
			java = p
		}
	}
	if java == "" {
		p, err := exec.LookPath("java")
		if err != nil {
			return nil, fmt.Errorf("%w: no java: %v", ErrNotInstalled, err)
		}
		java = p
	}
	return &Runner{Java: java, Jar: jar}, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Result is what one classifier achieved on the test file.
type Result struct {
	Classifier Classifier
	Correct    int
	Total      int
	TreeSize   int // J48: number of nodes of the pruned tree ("Size of the tree"); 0 otherwise
	Leaves     int // J48: number of leaves
	Rules      int // JRip: number of rules
	Report     string
}

// Accuracy returns Correct/Total.
func (r *Result) Accuracy() float64 {
	if r.Total == 0 {
		return 0
	}
	return float64(r.Correct) / float64(r.Total)
}

// Run trains c on the train ARFF file and evaluates it on the test ARFF
// file, whose headers must be compatible.
func (r *Runner) Run(ctx context.Context, c Classifier, train, test string) (*Result, error) {
	var args []string
	if r.Memory != "" {
		args = append(args, "-Xmx"+r.Memory)
	}
	args = append(args, "-cp", r.Jar, c.Class, "-t", train, "-T", test, "-v")
	args = append(args, c.Options...)
	cmd := exec.CommandContext(ctx, r.Java, args...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("weka %s: %w", c.Name, ctx.Err())
	}
	res, perr := parse(out.String())
	if perr != nil {
		if err != nil {
			return nil, fmt.Errorf("weka %s: %v: %w", c.Name, err, perr)
		}
		return nil, fmt.Errorf("weka %s: %w", c.Name, perr)
	}
	res.Classifier = c
	return res, nil
}

var (
	correctRe = regexp.MustCompile(`(?m)^Correctly Classified Instances\s+(\d+)`)
	totalRe   = regexp.MustCompile(`(?m)^Total Number of Instances\s+(\d+)`)
	sizeRe    = regexp.MustCompile(`(?m)^Size of the tree\s*:\s*(\d+)`)
	leavesRe  = regexp.MustCompile(`(?m)^Number of Leaves\s*:\s*(\d+)`)
	rulesRe   = regexp.MustCompile(`(?m)^Number of Rules\s*:\s*(\d+)`)
)

// parse reads Weka's report on a test file: the counts of the "Error on
// test data" section and, when present, the model's size.
func parse(report string) (*Result, error) {
	if i := strings.Index(report, "Weka exception:"); i >= 0 {
		msg, _, _ := strings.Cut(report[i:], "\n")
		return nil, errors.New(strings.TrimSpace(msg))
	}
	_, test, ok := strings.Cut(report, "=== Error on test data ===")
	if !ok {
		first, _, _ := strings.Cut(strings.TrimSpace(report), "\n")
		return nil, fmt.Errorf("no test-set evaluation in Weka's output (it begins %q)", first)
	}
	res := &Result{Report: report}
	var err error
	if res.Correct, err = intMatch(correctRe, test, "correctly classified instances"); err != nil {
		return nil, err
	}
	if res.Total, err = intMatch(totalRe, test, "total number of instances"); err != nil {
		return nil, err
	}
	res.TreeSize, _ = intMatch(sizeRe, report, "")
	res.Leaves, _ = intMatch(leavesRe, report, "")
	res.Rules, _ = intMatch(rulesRe, report, "")
	return res, nil
}

func intMatch(re *regexp.Regexp, s, what string) (int, error) {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("no %s in Weka's output", what)
	}
	return strconv.Atoi(m[1])
}
