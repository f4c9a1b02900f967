"""The Go library behind the package: libstrata.so, loaded with ctypes.

Every call sends one JSON request to strata_call and reads one JSON answer,
which this module frees at once (strata_free). ctypes releases the GIL for
the length of a call, so other Python threads run while Go learns. A call
made from the main thread runs in a worker thread while the main thread
waits, so that Ctrl-C reaches Python: the wait raises KeyboardInterrupt,
which cancels the call's job in Go (strata_cancel), waits for the call to
return, and is raised again.
"""

import ctypes
import json
import os
import threading

__all__ = ["StrataError", "ParseError", "InternalError", "call", "release"]


class StrataError(Exception):
    """An error of the Go library."""


class ParseError(StrataError, ValueError):
    """Text or a table that cannot be read, with the position of the error.

    file, line and column say where, as the command line's messages do
    ("theory:2:11: ..."); detail is the message without the position.
    """

    def __init__(self, message, file=None, line=None, column=None, detail=None):
        super().__init__(message)
        self.file, self.line, self.column = file, line, column
        self.detail = detail if detail is not None else message


class InternalError(StrataError, RuntimeError):
    """A bug: a Go panic, recovered at the ABI, or a malformed request."""


def _find_library():
    path = os.environ.get("STRATA_LIBRARY")
    if path:
        return path
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libstrata.so")


_lib = None
_lib_lock = threading.Lock()


def _library():
    global _lib
    if _lib is None:
        with _lib_lock:
            if _lib is None:
                path = _find_library()
                if not os.path.exists(path):
                    raise ImportError(
                        f"strata: the Go library {path} is missing; install the package with "
                        "`pip install ./python` from a clone of the repository (it builds the library with Go)"
                    )
                lib = ctypes.CDLL(path)
                lib.strata_call.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_longlong]
                # A void pointer, not c_char_p: ctypes would copy a c_char_p
                # into bytes and lose the pointer that strata_free needs.
                lib.strata_call.restype = ctypes.c_void_p
                lib.strata_free.argtypes = [ctypes.c_void_p]
                lib.strata_free.restype = None
                lib.strata_job.argtypes = []
                lib.strata_job.restype = ctypes.c_longlong
                lib.strata_cancel.argtypes = [ctypes.c_longlong]
                lib.strata_cancel.restype = None
                lib.strata_release.argtypes = [ctypes.c_longlong]
                lib.strata_release.restype = None
                _lib = lib
    return _lib


def _raw_call(lib, method, request, job):
    p = lib.strata_call(method, request, job)
    try:
        return ctypes.string_at(p)
    finally:
        lib.strata_free(p)


def call(method, request):
    """Calls method with the request (a dict) and returns its result.

    Raises ParseError (a ValueError) for text or a table that cannot be
    read, ValueError for a request the library refuses, KeyboardInterrupt
    when interrupted, InternalError for a bug.
    """
    lib = _library()
    req = json.dumps(request, allow_nan=False).encode("utf-8")
    name = method.encode("ascii")
    if threading.current_thread() is not threading.main_thread():
        raw = _raw_call(lib, name, req, 0)
    else:
        raw = _interruptible(lib, name, req)
    answer = json.loads(raw)
    err = answer.get("error")
    if err:
        raise _exception(err)
    return answer.get("result")


def _interruptible(lib, name, req):
    job = lib.strata_job()
    box = {}

    def run():
        try:
            box["raw"] = _raw_call(lib, name, req, job)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["exc"] = e

    t = threading.Thread(target=run, name="strata-call", daemon=True)
    t.start()
    try:
        # join with a timeout returns to the interpreter now and then, so
        # that a SIGINT's KeyboardInterrupt is raised here.
        while t.is_alive():
            t.join(0.05)
    except KeyboardInterrupt:
        lib.strata_cancel(job)
        t.join()
        raise
    if "exc" in box:
        raise box["exc"]
    return box["raw"]


def _exception(err):
    kind, msg = err.get("kind"), err.get("message", "")
    if kind == "parse":
        return ParseError(msg, err.get("file"), err.get("line"), err.get("column"), err.get("detail"))
    if kind == "cancelled":
        return KeyboardInterrupt(msg)
    if kind in ("panic", "request"):
        return InternalError(msg)
    return ValueError(msg)


def release(handle):
    """Drops a compiled reasoner's handle (at the garbage collection of its
    Python object)."""
    lib = _lib
    if lib is not None:
        lib.strata_release(handle)
