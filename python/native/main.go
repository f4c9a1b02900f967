// Command native is strata's C ABI for the Python package (python/strata):
// built with go build -buildmode=c-shared into libstrata.so, which the
// package loads with ctypes. It holds no logic of its own: every call
// decodes a JSON request, calls one function of the library (package
// table, possibilistic, defaults) and encodes its answer as JSON.
//
// The ABI is five functions:
//
//	char *strata_call(char *method, char *request, long long job)
//	void strata_free(char *response)
//	long long strata_job(void)
//	void strata_cancel(long long job)
//	void strata_release(long long handle)
//
// strata_call answers {"result": …} or {"error": {"kind", "message",
// "file", "line", "column"}}, in memory the caller frees with strata_free;
// no panic leaves it (each call recovers and answers an error of kind
// "panic"). A job (strata_job) is a context that strata_cancel cancels from
// any thread, as the Python side does on Ctrl-C; a call given job 0 runs
// to its end. A handle is a compiled reasoner (methods theory.open and
// base.open) that strata_release drops.
package main

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

//export strata_call
func strata_call(method, request *C.char, job C.longlong) *C.char {
	out := call(C.GoString(method), []byte(C.GoString(request)), int64(job))
	return C.CString(string(out))
}

//export strata_free
func strata_free(p *C.char) { C.free(unsafe.Pointer(p)) }

//export strata_job
func strata_job() C.longlong { return C.longlong(jobs.begin()) }

//export strata_cancel
func strata_cancel(job C.longlong) { jobs.cancel(int64(job)) }

//export strata_release
func strata_release(handle C.longlong) { handles.release(int64(handle)) }
