"""Fixtures: the repository, the strata command line (to compare answers
with), the shared examples and the public data.

The command line is $STRATA_CLI, else built once per session with Go from
the repository. The data is $STRATA_DATA, else ../shared/data beside the
repository; tests that need it skip without it, and fail instead when
STRATA_REQUIRE_DATA=1 (as in CI).
"""

import json
import os
import shutil
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(REPO, "cmd", "strata", "examples")


def _go():
    for cand in (os.environ.get("GO"), shutil.which("go"), "/usr/local/go/bin/go"):
        if cand and os.path.exists(cand):
            return cand
    return None


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    """A function that runs the strata command line and returns its
    standard output (and, with json=True, the JSON it prints)."""
    path = os.environ.get("STRATA_CLI")
    if not path:
        go = _go()
        if go is None:
            pytest.fail("no Go toolchain to build the strata command line; set $STRATA_CLI")
        path = str(tmp_path_factory.mktemp("cli") / "strata")
        subprocess.run([go, "build", "-o", path, "./cmd/strata"], cwd=REPO, check=True)

    def run(*args, json_out=False, cwd=None, check=True):
        p = subprocess.run([path, *args], cwd=cwd, capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"strata {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        if json_out:
            return json.loads(p.stdout)
        return p

    run.path = path
    return run


@pytest.fixture(scope="session")
def data():
    """The public data directory (../shared/data)."""
    d = os.environ.get("STRATA_DATA") or os.path.join(os.path.dirname(REPO), "shared", "data")
    if not os.path.isdir(os.path.join(d, "tabular")):
        if os.environ.get("STRATA_REQUIRE_DATA") == "1":
            pytest.fail(f"STRATA_REQUIRE_DATA=1 and no public data in {d}")
        pytest.skip(f"no public data in {d}")
    return d


def example(name):
    return os.path.join(EXAMPLES, name)


def read(name):
    with open(example(name), encoding="utf-8") as f:
        return f.read()
