//go:build !linux

package fileutil

// exchange is not available here: swap renames twice.
func exchange(a, b string) error { return errNoExchange }
