// Package jsonview holds the JSON views of theories, answers, default bases
// and evaluations that both the command line (--json) and the HTTP API
// print. Each thing has one type here, so that `strata … --json` and the
// API's answer to the same question have the same fields (docs/api.md);
// the server adds its store's identity (id, kind, name) around a view, and
// the command line the names of the files it read.
//
// Levels in every view index the theory's levels, highest first, as
// possibilistic numbers them.
package jsonview
