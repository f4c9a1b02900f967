package server

// The endpoints that follow a learning run and fetch its results.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/strata-logic/strata/learn"
)

func (s *Server) lookupRun(r *http.Request) (*run, error) { return s.findRun(r.PathValue("id")) }

// findRun returns the run of an id.
func (s *Server) findRun(id string) (*run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rn, ok := s.runs[id]
	if !ok {
		e := notFound("no learning run with id %q (the server keeps the %d started last)", id, s.cfg.MaxStoredRuns)
		e.Field = "run_id"
		return nil, e
	}
	return rn, nil
}

func (s *Server) handleLearnList(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	runs := make([]*run, 0, len(s.order))
	for _, id := range s.order {
		runs = append(runs, s.runs[id])
	}
	s.mu.Unlock()
	out := []map[string]any{}
	for _, rn := range runs {
		v := rn.view()
		out = append(out, map[string]any{"id": v.ID, "name": v.Name, "state": v.State, "iterations": len(v.History)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": out})
}

func (s *Server) handleLearnStatus(w http.ResponseWriter, r *http.Request) {
	rn, err := s.lookupRun(r)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rn.view())
}

func (s *Server) handleLearnCancel(w http.ResponseWriter, r *http.Request) {
	rn, err := s.lookupRun(r)
	if err != nil {
		writeError(w, err)
		return
	}
	rn.cancel()
	select {
	case <-rn.finished:
	case <-r.Context().Done():
	case <-time.After(s.cfg.Timeout):
	}
	writeJSON(w, http.StatusOK, rn.view())
}

// handleLearnEvents streams the run as Server-Sent Events: with a
// validation phase, a "validation" event per iteration of it (of every
// fold, in turn) and a "chosen" event with its choices and the pooled
// held-out curve they were made on; an "iteration"
// event per iteration of the final run (those already run first), then one
// "end" event with the run's final state. A comment line every 15 s keeps proxies from
// closing an idle stream.
func (s *Server) handleLearnEvents(w http.ResponseWriter, r *http.Request) {
	rn, err := s.lookupRun(r)
	if err != nil {
		writeError(w, err)
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, errors.New("streaming is not supported by this connection"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	heartbeat := time.NewTicker(15 * time.Second)
	defer heartbeat.Stop()
	sent, validated, chosen := 0, 0, false
	for {
		rn.mu.Lock()
		fresh := append([]learn.Iteration(nil), rn.hist[sent:]...)
		var steps []validationStep
		var choice *validationView
		if val := rn.val; val != nil {
			steps = append(steps, val.steps[validated:]...)
			if val.sel != nil && !chosen {
				choice = val.view() // with the pooled held-out curve
			}
		}
		state, changed := rn.state, rn.changed
		rn.mu.Unlock()
		for _, st := range steps {
			validated++
			if err := sse(w, "validation", -1, st); err != nil {
				return
			}
		}
		if choice != nil {
			chosen = true
			if err := sse(w, "chosen", -1, choice); err != nil {
				return
			}
		}
		for _, it := range fresh {
			sent++
			if err := sse(w, "iteration", sent, it); err != nil {
				return
			}
		}
		if state != stateRunning {
			v := rn.view()
			v.History = nil
			sse(w, "end", sent+1, v)
			flusher.Flush()
			return
		}
		flusher.Flush()
		select {
		case <-changed:
		case <-heartbeat.C:
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

// sse writes one event; an id below 0 writes none (the validation
// phase's events, which the final run's numbering does not count).
func sse(w io.Writer, event string, id int, v any) error {
	var buf bytes.Buffer // without HTML escaping, as every answer of the API
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	var err error
	if id < 0 {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	} else {
		_, err = fmt.Fprintf(w, "event: %s\nid: %d\ndata: %s\n\n", event, id, b)
	}
	return err
}

func (s *Server) handleLearnTheory(w http.ResponseWriter, r *http.Request) {
	rn, err := s.lookupRun(r)
	if err != nil {
		writeError(w, err)
		return
	}
	rn.mu.Lock()
	text := rn.theory
	rn.mu.Unlock()
	download(w, "text/plain; charset=utf-8", rn.id+".theory", []byte(text))
}

func (s *Server) handleLearnHistory(w http.ResponseWriter, r *http.Request) {
	rn, err := s.lookupRun(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var b bytes.Buffer
	if err := learn.WriteHistoryCSV(&b, rn.history()); err != nil {
		writeError(w, err)
		return
	}
	download(w, "text/csv; charset=utf-8", rn.id+"-history.csv", b.Bytes())
}

func (s *Server) handleLearnCheckpoint(w http.ResponseWriter, r *http.Request) {
	rn, err := s.lookupRun(r)
	if err != nil {
		writeError(w, err)
		return
	}
	rn.mu.Lock()
	cp := rn.checkpoint
	rn.mu.Unlock()
	if cp == nil {
		writeError(w, &apiError{Status: http.StatusConflict, Message: "the run has no checkpoint until it stops (cancel it to get one)"})
		return
	}
	download(w, "application/json", rn.id+".checkpoint.json", cp)
}

func (r *run) history() []learn.Iteration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]learn.Iteration(nil), r.hist...)
}

func download(w http.ResponseWriter, contentType, name string, data []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Write(data)
}
