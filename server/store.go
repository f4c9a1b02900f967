package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Kinds of stored entries.
const (
	kindTheory = "theory"
	kindBase   = "base"
)

// entry is a loaded theory or default base with a pool of reasoners. The
// theory, base and ordering are never modified after loading, so any
// number of requests read them at once; each request takes a worker of its
// own from the pool.
type entry struct {
	id, kind, name string
	theory         *possibilistic.Theory // the theory; Θ_Z for a base
	base           *defaults.Base        // nil for a theory
	ord            *defaults.Ordering    // the base's Z-ordering
	format         string                // the base's input format
	view           any                   // *theoryView or *baseView, built when stored
	atoms          int                   // atoms of the vocabulary when loaded
	pools          []chan *worker        // idle workers, per usage
	// size is about the bytes of the theory's text (textSize), which a
	// request on the stored entry takes of the bytes in flight (with), and
	// expansion the part of it that its cardinality constraints add, which
	// even the request that sent the theory did not pay for with its body.
	size, expansion int64
	inflight        *weighted
	textOnce        sync.Once
	text            *texts // see texts
	// used is the server's clock (Server.clock) when the entry was last
	// stored or looked up: the store forgets the least recently used.
	used atomic.Int64
}

// usage names the pool a request takes its worker from. A reasoner that
// served lex or an explanation has split levels (a selector per formula,
// totalizers) that make its later poss queries several times slower, so
// each semantics, with explanations and without, keeps reasoners of its
// own. A default base has one pool.
type usage uint8

// usage returns the usage of requests under the named semantics.
func (e *entry) usage(semantics string, explain bool) usage {
	if e.kind == kindBase {
		return 0
	}
	sem, err := theorySemantics(semantics)
	if err != nil {
		return 0 // the request fails on its semantics anyway
	}
	u := usage(sem) * 2
	if explain {
		u++
	}
	return u
}

// worker is what one request at a time reasons with: reasoners and a
// vocabulary of their own, since parsing a query interns its atoms.
type worker struct {
	vocab *logic.Vocabulary
	poss  *possibilistic.Reasoner // for a theory
	defs  *defaults.Reasoner      // for a base
	// negNames caches the texts of negative literals by atom (litString).
	negNames []string
}

// maxNewAtoms bounds the atoms that queries may add to a worker's
// vocabulary before the worker is dropped rather than pooled again, so that
// queries over ever new names cannot grow memory without bound.
const maxNewAtoms = 1024

func (e *entry) get(ctx context.Context, u usage) (*worker, error) {
	select {
	case w := <-e.pools[u]:
		return w, nil
	default:
	}
	// The reasoner copies the theory or base; the vocabulary of a stored
	// one is cloned because queries intern new atoms into it. A theory or
	// base given with its request serves that request alone.
	stored := e.id != ""
	if e.kind == kindTheory {
		th := e.theory
		if stored {
			th = &possibilistic.Theory{Vocab: e.theory.Vocab.Clone(), Levels: e.theory.Levels}
		}
		rs, err := possibilistic.NewReasoner(ctx, th)
		if err != nil {
			return nil, err
		}
		return &worker{vocab: th.Vocab, poss: rs}, nil
	}
	b := *e.base
	if stored {
		b.Vocab = e.base.Vocab.Clone()
	}
	rs, err := defaults.NewReasoner(ctx, &b)
	if err != nil {
		return nil, err
	}
	return &worker{vocab: b.Vocab, defs: rs}, nil
}

func (e *entry) put(u usage, w *worker) {
	if w.vocab.Len() > e.atoms+maxNewAtoms {
		return
	}
	select {
	case e.pools[u] <- w:
	default:
	}
}

// with runs fn with a worker of the entry's pool for u. A theory's worker
// whose work ctx cut short is not pooled again: the reasoner is left
// usable, but a fresh one costs little next to a query that ran out its
// budget. A base's is: what it compiled for the query (CR(Δ) of
// c-inference, seconds of work on a large base) is kept, and the next
// request goes on from there instead of starting again within the same
// budget.
//
// A worker holds memory in proportion to its theory, not to the request's
// body, which names a stored theory in a few bytes: a request on a stored
// entry holds the theory's size of the bytes in flight when that is more
// than its body's share (a theory given with its request came in its
// body), so that the workers compiled or busy at once stay within
// Config.MaxInFlight.
func (e *entry) with(ctx context.Context, u usage, fn func(w *worker) (any, error)) (any, error) {
	release, err := e.hold(ctx, 1)
	if err != nil {
		return nil, err
	}
	defer release()
	w, err := e.get(ctx, u)
	if err != nil {
		return nil, err
	}
	v, err := fn(w)
	if ctx.Err() == nil || w.defs != nil {
		e.put(u, w)
	}
	return v, err
}

// hold takes, for a request on a stored entry, the bytes in flight that k
// compiled copies of its theory take beyond the request's body's share
// (see with), and for a theory given with its request those its
// cardinality constraints expand to, and returns the function that gives
// them back.
func (e *entry) hold(ctx context.Context, k int64) (func(), error) {
	size := e.size
	if e.id == "" {
		// A theory given with its request came in its body, which paid
		// for its text but not for what its atleasts expand to.
		size = e.expansion
	}
	n := min(k*size, e.inflight.size) - shareOf(ctx)
	if n <= 0 {
		return func() {}, nil
	}
	if err := e.inflight.acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() { e.inflight.release(n) }, nil
}

// source is where a request's theory, base or examples come from: text in
// the request, or a file under Config.Dir.
type source struct {
	Text string `json:"text"`
	Path string `json:"path"`
	Name string `json:"name"`
}

// read returns the source's bytes and the name error messages use.
func (s *Server) read(field string, src source) ([]byte, string, error) {
	switch {
	case src.Text != "" && src.Path != "":
		return nil, "", badRequest(field, "give %s text or a path, not both", field)
	case src.Path != "":
		data, err := s.readFile(src.Path)
		return data, src.Path, err
	}
	name := src.Name
	if name == "" {
		name = field
	}
	return []byte(src.Text), name, nil
}

type loadRequest struct {
	source
	// For a base: rules, cl or auto (the default: by the extension .cl,
	// else by the first word "signature").
	Format string `json:"format"`
	// For a base read from a .cl file of several blocks: the block.
	Block string `json:"block"`
	// For a base: hard formulas, one per line, that hold in every world.
	Background string `json:"background"`
}

func (s *Server) handleLoadTheory(w http.ResponseWriter, r *http.Request) {
	var req loadRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Format != "" || req.Block != "" || req.Background != "" {
		writeError(w, badRequest("body", "format, block and background are for default bases (POST /api/bases)"))
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		e, err := s.parseTheory(ctx, req.source)
		if err != nil {
			return nil, err
		}
		return s.store(ctx, e)
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

func (s *Server) handleLoadBase(w http.ResponseWriter, r *http.Request) {
	var req loadRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		e, err := s.parseBase(ctx, req)
		if err != nil {
			return nil, err
		}
		return s.store(ctx, e)
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// parseTheory reads a theory in the text format.
func (s *Server) parseTheory(ctx context.Context, src source) (*entry, error) {
	var text io.Reader
	name := src.Name
	if src.Path == "" { // read in place: a body's theory may take megabytes
		if name == "" {
			name = "theory"
		}
		text = strings.NewReader(src.Text)
	} else {
		data, path, err := s.read("theory", src)
		if err != nil {
			return nil, err
		}
		text, name = bytes.NewReader(data), path
	}
	th, err := possibilistic.ReadText(ctx, text, name, nil)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
		return nil, inputError("theory", err)
	}
	return s.newEntry(kindTheory, name, th, nil, nil), nil
}

// parseBase reads a default base (a rule file or a .cl knowledge base) and
// computes its Z-ordering; an inconsistent base is an error naming the
// defaults that clash, with the line of the first.
func (s *Server) parseBase(ctx context.Context, req loadRequest) (*entry, error) {
	data, name, err := s.read("base", req.source)
	if err != nil {
		return nil, err
	}
	v := &logic.Vocabulary{}
	b, format, err := defaults.ReadBase(data, name, defaults.BaseOptions{Format: req.Format, Base: req.Block}, v)
	switch ce := (*defaults.BaseChoiceError)(nil); {
	case errors.As(err, &ce):
		return nil, badRequest("block", "%s", ce.Explain(name, "block"))
	case errors.Is(err, defaults.ErrBaseOfRules):
		return nil, badRequest("block", "block needs a .cl knowledge base, and %s is a rule file", name)
	case errors.Is(err, defaults.ErrBaseFormat):
		return nil, badRequest("format", "%v", err)
	case err != nil:
		return nil, inputError("base", err)
	}
	if req.Background != "" {
		if b.Background, b.BackgroundPos, err = defaults.ReadClausesAt(strings.NewReader(req.Background), "background", v); err != nil {
			return nil, inputError("background", err)
		}
	}
	fs := slices.Clone(b.Background)
	for _, d := range b.Defaults {
		fs = append(fs, d.Antecedent, d.Consequent)
	}
	release, err := holdCells(ctx, s.inflight, fs...) // the Z-ordering compiles the base
	if err != nil {
		return nil, err
	}
	defer release()
	ord, err := defaults.ZOrdering(ctx, b)
	if err != nil {
		return nil, inconsistentError(err)
	}
	e := s.newEntry(kindBase, name, ord.Theory(), b, ord)
	e.format = format
	return e, nil
}

func inconsistentError(err error) error {
	ie, ok := err.(*defaults.InconsistentError)
	if !ok {
		return err
	}
	e := &apiError{Status: http.StatusUnprocessableEntity, Field: "base", Message: ie.Error()}
	if ie.Background {
		e.Field = "background"
		if len(ie.ClashPos) > 0 {
			e.File, e.Line = ie.ClashPos[0].File, ie.ClashPos[0].Line
		}
	}
	base := &defaults.Base{Vocab: ie.Vocab, Defaults: ie.Conflict}
	for i := range ie.Conflict {
		dv := jsonview.DescribeDefault(base, i, 0)
		dv.Index = ie.Indices[i]
		e.Conflict = append(e.Conflict, dv)
		if e.Line == 0 && dv.Line > 0 {
			e.File, e.Line, e.Column = ie.Conflict[i].Pos.File, dv.Line, max(ie.Conflict[i].Pos.Col, 1)
		}
	}
	return e
}

func (s *Server) newEntry(kind, name string, th *possibilistic.Theory, b *defaults.Base, ord *defaults.Ordering) *entry {
	n := 1
	if kind == kindTheory {
		n = 2 * len(possibilistic.AllSemantics)
	}
	e := &entry{kind: kind, name: name, theory: th, base: b, ord: ord, atoms: th.Vocab.Len(), pools: make([]chan *worker, n),
		expansion: expansionSize(th), inflight: s.inflight}
	e.size = textSize(th) + e.expansion
	// Idle workers of a large theory are kept only as far as the bytes in
	// flight would let them be busy at once.
	idle := int(min(int64(s.poolSize), max(1, s.cfg.MaxInFlight/max(e.size, 1))))
	for i := range e.pools {
		e.pools[i] = make(chan *worker, idle)
	}
	return e
}

// textSize estimates the bytes of th's text: a few per literal and per
// formula. A compiled theory takes some tens of times as many.
func textSize(th *possibilistic.Theory) int64 {
	formulas, literals := th.Size()
	return 8 * int64(formulas+literals)
}

// bytesPerCell is what a counter register of an atleast (logic.CounterCells)
// counts as in the bytes in flight: compiled, one takes about 500 bytes,
// some tens of times 16, as a byte of text compiles to some tens.
const bytesPerCell = 16

// expansionSize is what th's cardinality constraints add to its size: the
// counters their CNF takes, which no text of theirs pays for
// (atleast(500, a1..a2000) is 15 KB of text and a million registers).
func expansionSize(th *possibilistic.Theory) int64 {
	var fs []*logic.Formula
	for _, l := range th.Levels {
		fs = append(fs, l.Formulas...)
	}
	return cellBytes(fs...)
}

// cellBytes is what the counters of the atleasts of fs count as in the
// bytes in flight.
func cellBytes(fs ...*logic.Formula) int64 {
	var cells int64
	for _, f := range fs {
		cells += int64(logic.CounterCells(f))
	}
	return bytesPerCell * cells
}

// holdCells takes, for a request about to compile the formulas fs (a
// query, evidence, a base, hard rules), the bytes in flight that their
// atleasts' counters take beyond the request's share, waiting in turn
// within its budget, and returns the function that gives them back. Formulas
// without atleast cost nothing.
func holdCells(ctx context.Context, in *weighted, fs ...*logic.Formula) (func(), error) {
	n := min(cellBytes(fs...), in.size) - shareOf(ctx)
	if n <= 0 {
		return func() {}, nil
	}
	if err := in.acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() { in.release(n) }, nil
}

// newView describes e for its answers. Only stored entries need one, so a
// theory or base given inline with a query does not pay for it (a view
// costs an inconsistency search and the theory's text).
func (e *entry) newView(ctx context.Context) (any, error) {
	if e.kind == kindBase {
		return newBaseView(ctx, e.base, e.ord, e.theory, e.name, e.format)
	}
	return newTheoryView(ctx, e.theory, kindTheory, e.name)
}

// store gives e an id and keeps it, unless the request ran past its
// budget (then it was answered 503 and keeps nothing). A full store
// forgets its least recently used entries first (Config.MaxTheories), so
// that loading never fails for want of room.
func (s *Server) store(ctx context.Context, e *entry) (any, error) {
	release, err := e.hold(ctx, 1) // the view compiles the theory
	if err != nil {
		return nil, err
	}
	defer release()
	view, err := e.newView(ctx) // outside the lock: it runs the solver
	if err != nil {
		return nil, err
	}
	err = s.commit(ctx, func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		for len(s.entries) >= s.cfg.MaxTheories {
			s.evictLocked()
		}
		prefix := "t-"
		if e.kind == kindBase {
			prefix = "b-"
		}
		e.id = newID(prefix)
		switch v := view.(type) {
		case *theoryView:
			v.ID = e.id
		case *baseView:
			v.ID = e.id
		}
		e.view = view
		e.used.Store(s.clock.Add(1))
		s.entries[e.id] = e
		return nil
	})
	if err != nil {
		return nil, err
	}
	return view, nil
}

// evictLocked forgets the least recently used entry. Requests working on
// it finish with the entry they hold; later ones get a 404. The caller
// holds s.mu; a scan of at most MaxTheories entries costs little next to
// loading the theory that needs the room.
func (s *Server) evictLocked() {
	var oldest *entry
	for _, e := range s.entries {
		if oldest == nil || e.used.Load() < oldest.used.Load() {
			oldest = e
		}
	}
	if oldest != nil {
		delete(s.entries, oldest.id)
	}
}

func (s *Server) lookup(id string) (*entry, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.entries[id]
	if !ok {
		err := notFound("no theory or base with id %q: it was deleted, or forgotten to make room (the server keeps the %d used last); load it again", id, s.cfg.MaxTheories)
		err.Field = "theory_id"
		return nil, err
	}
	e.used.Store(s.clock.Add(1))
	return e, nil
}

// lookupKind finds an entry by the id in the path, of the kind the path
// names.
func (s *Server) lookupKind(r *http.Request) (*entry, error) {
	e, err := s.lookup(r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	want := kindTheory
	if strings.HasPrefix(r.URL.Path, "/api/bases/") {
		want = kindBase
	}
	if e.kind != want {
		return nil, notFound("%s is a %s, not a %s", e.id, e.kind, want)
	}
	return e, nil
}

func (s *Server) handleGetEntry(w http.ResponseWriter, r *http.Request) {
	e, err := s.lookupKind(r)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, e.view)
}

// handleEntryText answers the theory in the text format (Θ_Z for a base),
// for download.
func (s *Server) handleEntryText(w http.ResponseWriter, r *http.Request) {
	e, err := s.lookupKind(r)
	if err != nil {
		writeError(w, err)
		return
	}
	name := strings.TrimSuffix(path.Base(e.name), path.Ext(e.name)) + ".theory"
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Write([]byte(e.theory.String()))
}

func (s *Server) handleDeleteEntry(w http.ResponseWriter, r *http.Request) {
	e, err := s.lookupKind(r)
	if err != nil {
		writeError(w, err)
		return
	}
	s.mu.Lock()
	delete(s.entries, e.id)
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}
