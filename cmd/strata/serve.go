package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/server"
)

func init() { register(newServeCmd) }

func newServeCmd() *cobra.Command {
	var addr string
	var cfg server.Config
	var quiet bool
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--dir DIR]",
		Short: "Serve the JSON API and the explorer page for theories, default bases and learning runs",
		Long: `serve answers queries over HTTP: a JSON API (load theories and default bases,
entailment with its explanation under every semantics, plausible conclusions,
most plausible worlds, Z-orderings, eval, learning runs followed as Server-Sent
Events) and, at /, an explorer page that uses it. docs/api.md describes the API.

It listens on loopback unless --addr says otherwise. With --dir, requests may
load files under DIR by a relative path; no path leads outside it.

Pages of other sites cannot use it: a request whose Host header is not the
address it arrived at (or localhost on loopback), as after DNS rebinding, and
a request from a page of another origin are refused (403), and so is a POST
that is not Content-Type: application/json (415). --allow-origin ORIGIN (such
as https://strata.example.org; repeatable) lets the pages of ORIGIN use the
API, with CORS headers, and requests name its host (behind a proxy); '*' turns
these checks off. Each request
is cancelled after --request-timeout (503); bodies beyond --max-body bytes are
refused (413). Access logs go to standard error in the Combined Log Format,
in batches at most 100 ms after each request ends. SIGINT or SIGTERM cancel the learning runs, write their checkpoints to
--checkpoints and stop the server. The garbage collector runs with GOGC=400
unless the GOGC environment variable says otherwise (fewer collections,
shorter tail latency); set GOMEMLIMIT to cap the memory.`,
		Example: `  strata serve
  strata serve --addr 127.0.0.1:9000 --dir ../shared/data
  strata serve --addr 0.0.0.0:8080 --allow-origin https://strata.example.org`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !quiet {
				cfg.AccessLog = cmd.ErrOrStderr()
			}
			for _, o := range cfg.AllowOrigins {
				if err := server.CheckOrigin(o); err != nil {
					return usageError{fmt.Errorf("--allow-origin %w", err)}
				}
			}
			server.TuneGC() // GOGC=400 unless GOGC is set: see server.GCPercent
			app, err := server.New(cfg)
			if err != nil {
				return fmt.Errorf("--dir: %w", err) // New fails only on the directory
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "strata: serving on http://%s/\n", ln.Addr())
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serve(ctx, ln, app)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	fl.StringVar(&cfg.Dir, "dir", "", "directory whose files requests may load")
	fl.StringVar(&cfg.CheckpointDir, "checkpoints", "strata-checkpoints", "directory for the checkpoints of learning runs cancelled at shutdown (empty: none)")
	fl.Int64Var(&cfg.MaxBody, "max-body", 8<<20, "largest request body in bytes")
	fl.DurationVar(&cfg.Timeout, "request-timeout", 10*time.Second, "time budget of one request's computation")
	fl.IntVar(&cfg.MaxTheories, "max-theories", 256, "theories and default bases stored at most; beyond, loading one forgets the least recently used")
	fl.IntVar(&cfg.MaxRuns, "max-runs", 2, "learning runs at once at most")
	atLeast(fl, "max-body", 1, false)
	atLeast(fl, "request-timeout", 0, true)
	atLeast(fl, "max-theories", 1, false)
	atLeast(fl, "max-runs", 1, false)
	fl.BoolVar(&quiet, "quiet", false, "no access log")
	fl.StringSliceVar(&cfg.AllowOrigins, "allow-origin", nil, "an origin (scheme://host[:port]) whose pages may use the API and whose host requests may name; '*': any")
	return cmd
}

// serve runs the HTTP server until ctx is done, then cancels the learning
// runs (writing their checkpoints), which also ends their event streams,
// and shuts the server down gracefully.
func serve(ctx context.Context, ln net.Listener, app *server.Server) error {
	// No WriteTimeout: event streams last as long as their learning runs.
	hs := &http.Server{Handler: app.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errClose := app.Close(shutdown)
	errShut := hs.Shutdown(shutdown)
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		errShut = errors.Join(errShut, err)
	}
	// The requests that ended during the shutdown have log lines pending.
	return errors.Join(errClose, errShut, app.FlushLog())
}
