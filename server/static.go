package server

import (
	"embed"
	"io/fs"
	"net/http"
)

// static holds the explorer page: plain HTML, CSS and JavaScript with no
// build step and no external resources.
//
//go:embed static
var static embed.FS

func staticHandler() http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'")
		files.ServeHTTP(w, r)
	})
}
