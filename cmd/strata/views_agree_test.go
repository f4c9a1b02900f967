package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestViewsAgree checks that show --json and closure --json print what
// POST /api/theories and POST /api/bases answer, field for field, but for
// what only one side has: the server's id, kind, name, format, block and
// text, and the file a default was read from on the command line.
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
		var cli, api any
		out, errs, code := strata(t, "", args...)
		if err := json.Unmarshal([]byte(out), &cli); code != 0 || err != nil {
			t.Fatalf("closure --json (exit %d, %s, %v):\n%s", code, errs, err, out)
		}
		for _, d := range cli.(map[string]any)["defaults"].([]any) {
			if d.(map[string]any)["file"] != path {
				t.Fatalf("closure --json: default %v without its file %s", d, path)
			}
			drop(d, "file")
		}
		post(t, apiURL+"/api/bases", body, &api)
		drop(api, "id", "kind", "name", "format", "block")
		drop(api.(map[string]any)["theory"], "kind", "name", "text")
		if !reflect.DeepEqual(cli, api) {
			got, _ := json.Marshal(cli)
			want, _ := json.Marshal(apiURL)
			t.Fatalf("base #%d:\n%s\nclosure --json printed\n%s\nthe API answered\n%s", i, b.text, got, want)
		}
	}
}
