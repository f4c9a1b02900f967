package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestViewsAgree checks that show --json, closure --json and closure
// --ranks --json print what POST /api/theories, POST /api/bases and POST
// /api/ranks answer, field for field, but for what only one side has: the
// server's id, kind, name, format, block and text, and the file a default
// was read from on the command line.
func TestViewsAgree(t *testing.T) {
	apiURL := newAPIServer(t)
	drop := func(m any, keys ...string) {
		for _, k := range keys {
			delete(m.(map[string]any), k)
		}
	}
	r := rand.New(rand.NewPCG(25, 21))
	for i := range 20 {
		text := randTheoryText(r)
		path := writeFile(t, "t.theory", text)
		var cli, api any
		out, errs, code := strata(t, "", "show", "--json", path)
		if err := json.Unmarshal([]byte(out), &cli); code != 0 || err != nil {
			t.Fatalf("show --json (exit %d, %s, %v):\n%s", code, errs, err, out)
		}
		post(t, apiURL+"/api/theories", map[string]string{"text": text}, &api)
		drop(api, "id", "kind", "name", "text")
		if !reflect.DeepEqual(cli, api) {
			t.Fatalf("theory #%d:\n%s\nshow --json printed %v\nthe API answered %v", i, text, cli, api)
		}
	}
	bases := []struct{ text, hard string }{
		{"bird -> flies\nbird -> wings\npenguin -> bird\npenguin -> !flies\n", ""},
		{"bird -> flies\nbird -> wings\npenguin -> !flies\n", "!penguin | bird\n!ostrich | bird\n"},
		{"a -> b\nb -> c\na -> !c\nc -> d\n", ""},
	}
	for i, b := range bases {
		path := writeFile(t, fmt.Sprintf("b%d.rules", i), b.text)
		args := []string{"closure", "--json", path}
		body := map[string]string{"text": b.text}
		if b.hard != "" {
			args = append(args, "--hard", writeFile(t, fmt.Sprintf("b%d.hard", i), b.hard))
			body["background"] = b.hard
		}
		// baseJSON runs closure with args and returns its JSON without the
		// file each default was read from, which only it has.
		baseJSON := func(args ...string) any {
			var v any
			out, errs, code := strata(t, "", args...)
			if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
				t.Fatalf("%v (exit %d, %s, %v):\n%s", args, code, errs, err, out)
			}
			for _, d := range v.(map[string]any)["defaults"].([]any) {
				if d.(map[string]any)["file"] != path {
					t.Fatalf("%v: default %v without its file %s", args, d, path)
				}
				drop(d, "file")
			}
			return v
		}
		var api any
		cli := baseJSON(args...)
		post(t, apiURL+"/api/bases", body, &api)
		id := api.(map[string]any)["id"]
		drop(api, "id", "kind", "name", "format", "block")
		drop(api.(map[string]any)["theory"], "kind", "name", "text")
		if !reflect.DeepEqual(cli, api) {
			got, _ := json.Marshal(cli)
			want, _ := json.Marshal(api)
			t.Fatalf("base #%d:\n%s\nclosure --json printed\n%s\nthe API answered\n%s", i, b.text, got, want)
		}

		// closure --ranks --json is POST /api/ranks's answer.
		cli = baseJSON(append(args, "--ranks")...)
		api = nil
		post(t, apiURL+"/api/ranks", map[string]any{"theory_id": id}, &api)
		if !reflect.DeepEqual(cli, api) {
			got, _ := json.Marshal(cli)
			want, _ := json.Marshal(api)
			t.Fatalf("base #%d:\n%s\nclosure --ranks --json printed\n%s\nthe API answered\n%s", i, b.text, got, want)
		}
	}
}

// TestConfusionViewsAgree checks that a confusion table has one shape: a
// learning run of the server on a table ends with the confusion that
// strata eval --table --json prints for the run's theory on the same rows,
// field for field, and crowd eval --json scores a theory with the same
// fields.
func TestConfusionViewsAgree(t *testing.T) {
	apiURL := newAPIServer(t)
	ex := t.TempDir()
	if _, errs, code := strata(t, "", "examples", ex); code != 0 {
		t.Fatal(errs)
	}
	loans := filepath.Join(ex, "loans.csv")
	csvText, err := os.ReadFile(loans)
	if err != nil {
		t.Fatal(err)
	}
	var run map[string]any
	post(t, apiURL+"/api/learn", map[string]any{"table": string(csvText), "label": "decision", "iterations": 8}, &run)
	id := run["id"].(string)
	for deadline := time.Now().Add(2 * time.Minute); run["state"] == "running"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("run %s still running", id)
		}
		get(t, apiURL+"/api/learn/"+id, &run)
	}
	api, ok := run["confusion"].(map[string]any)
	if run["state"] != "done" || !ok {
		t.Fatalf("run %s: %v", id, run)
	}
	theory := writeFile(t, "run.theory", run["theory"].(string))
	cli := jsonOf(t, "eval", theory, "--table", loans, "--label", "decision", "--json")
	if cli["table"] != loans || cli["semantics"] != "poss" {
		t.Errorf("eval --table --json: table %v, semantics %v", cli["table"], cli["semantics"])
	}
	delete(cli, "table")
	delete(cli, "semantics")
	if !reflect.DeepEqual(cli, api) {
		got, _ := json.Marshal(cli)
		want, _ := json.Marshal(api)
		t.Fatalf("eval --table --json printed\n%s\nthe run's confusion is\n%s", got, want)
	}

	calls := filepath.Join(t.TempDir(), "calls")
	if _, errs, code := strata(t, "", "crowd", "table", filepath.Join(ex, "calls.csv"), "-o", calls, "--annotator", "team", "--answer", "call"); code != 0 {
		t.Fatal(errs)
	}
	crowd, ok := field(jsonOf(t, "crowd", "eval", calls, filepath.Join(ex, "penguin.theory"), "--json"), "theory", "confusion").(map[string]any)
	if !ok || !slices.Equal(slices.Sorted(maps.Keys(crowd)), slices.Sorted(maps.Keys(api))) {
		t.Errorf("crowd eval --json: theory.confusion %v; a table run's %v", crowd, api)
	}
}

func get(t *testing.T, url string, out any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// TestEntailsAgrees checks that entails --json prints what POST /api/query
// answers on the same base, field for field (the explanation too), under
// every relation, but for the time the command line adds and the name of
// the file its explanation cites.
func TestEntailsAgrees(t *testing.T) {
	apiURL := newAPIServer(t)
	bases := []struct {
		text    string
		queries []string
	}{
		{"bird -> flies\nbird -> wings\npenguin -> bird\npenguin -> !flies\n", []string{"penguin -> wings", "penguin -> flies", "bird -> flies", "penguin, !bird -> flies"}},
		{"a -> b\nb -> c\na -> !c\nc -> d\n", []string{"a -> d", "b -> d", "a -> !c", "a & c -> b"}},
	}
	for i, b := range bases {
		path := writeFile(t, fmt.Sprintf("b%d.rules", i), b.text)
		for _, q := range b.queries {
			for _, rel := range relationWords {
				cli := jsonOf(t, "entails", "--json", "--relation", rel, path, q)
				if _, ok := cli["seconds"].(float64); !ok {
					t.Fatalf("entails --json --relation %s %q: no seconds: %v", rel, q, cli)
				}
				delete(cli, "seconds")
				// The explanation names the file a default was read from,
				// which the server calls base.
				if x, ok := cli["explanation"].(map[string]any); ok {
					x["text"] = strings.ReplaceAll(x["text"].(string), path, "base")
				}
				var api map[string]any
				post(t, apiURL+"/api/query", map[string]string{"base": b.text, "query": q, "semantics": rel}, &api)
				if !reflect.DeepEqual(cli, api) {
					got, _ := json.Marshal(cli)
					want, _ := json.Marshal(api)
					t.Fatalf("base #%d, %q under %s:\nentails --json printed\n%s\nthe API answered\n%s", i, q, rel, got, want)
				}
			}
		}
	}
}

// TestLearnSummariesAgree checks that learn --json and learn --table
// --json name what both say of a run alike: every field of the former but
// the VC bounds and the built-in example's queries is one of the latter,
// of the same JSON type.
func TestLearnSummariesAgree(t *testing.T) {
	ex := t.TempDir()
	if _, errs, code := strata(t, "", "examples", ex); code != 0 {
		t.Fatal(errs)
	}
	p := func(name string) string { return filepath.Join(ex, name) }
	learned := jsonOf(t, "learn", "--json", "--pos", p("animals/train.defaults"), "--neg", p("animals/train.nondefaults"),
		"--test-pos", p("animals/test.defaults"), "--test-neg", p("animals/test.nondefaults"), "--iterations", "5", "--folds", "2", "-o", filepath.Join(ex, "a.theory"))
	tabled := jsonOf(t, "learn", "--json", "--table", p("loans.csv"), "--label", "decision", "--test-table", p("loans.csv"), "--iterations", "5", "--folds", "2",
		"-o", filepath.Join(ex, "l.theory"))
	kind := func(v any) string { return fmt.Sprintf("%T", v) }
	for k, v := range learned {
		switch k {
		case "vc_dimension", "error_bound", "examples", "queries":
			continue
		}
		w, ok := tabled[k]
		if !ok || kind(v) != kind(w) {
			t.Errorf("learn --json has %s = %v; learn --table --json %v", k, v, w)
		}
		if m, isMap := v.(map[string]any); isMap && k != "theory" {
			for kk := range m {
				if _, ok := w.(map[string]any)[kk]; !ok {
					t.Errorf("learn --json has %s.%s; learn --table --json not", k, kk)
				}
			}
		}
	}
	if len(learned) < 12 {
		t.Errorf("learn --json: %v", learned)
	}
}
