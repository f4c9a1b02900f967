"""Builds the Go library (python/native) into the package with the local Go
toolchain: go build -buildmode=c-shared, which needs cgo (a C compiler).
Nothing is downloaded but the Go modules of go.mod. The Go command is $GO,
else go on PATH, else /usr/local/go/bin/go."""

import os
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def repository():
    root = os.path.dirname(HERE)
    if not os.path.exists(os.path.join(root, "go.mod")) or not os.path.isdir(os.path.join(HERE, "native")):
        raise SystemExit("strata-logic: build from a clone of the strata repository (pip install ./python): the Go sources are not beside it")
    return root


def go_command():
    for cand in (os.environ.get("GO"), shutil.which("go"), "/usr/local/go/bin/go"):
        if cand and os.path.exists(cand) or cand and shutil.which(cand):
            return cand
    raise SystemExit("strata-logic: no Go toolchain found: install Go (https://go.dev/dl) or set $GO")


class BuildGo(build_py):
    """build_py, then the Go library into the built package."""

    def run(self):
        super().run()
        out = os.path.join(os.path.abspath(self.build_lib), "strata", "libstrata.so")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        env = dict(os.environ, CGO_ENABLED="1")
        cmd = [go_command(), "build", "-buildmode=c-shared", "-trimpath", "-o", out, "./python/native"]
        self.announce(" ".join(cmd), level=2)
        subprocess.check_call(cmd, cwd=repository(), env=env)
        header = os.path.splitext(out)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)


class BinaryDistribution(Distribution):
    """A wheel with a shared library: tagged for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildGo}, distclass=BinaryDistribution)
