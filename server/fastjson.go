package server

import "net/http"

// decodeQuery reads the body of POST /api/query.
func (s *Server) decodeQuery(w http.ResponseWriter, r *http.Request, req *queryRequest) *apiError {
	return s.decode(w, r, req)
}

// writeAnswer answers one decided query.
func writeAnswer(w http.ResponseWriter, a *answerView) {
	writeJSON(w, http.StatusOK, a)
}
