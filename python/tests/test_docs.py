"""The docs are tests: every Python block of the README's Python section and
of docs/python.md runs, in a directory where strata examples has written
examples/, as a reader would run it."""

import contextlib
import io
import os
import re

import pytest

from conftest import REPO


def blocks(path, section=None):
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        text = f.read()
    if section:
        text = text.split(section, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("path,section", [("README.md", "## From Python"), ("docs/python.md", None)])
def test_python_blocks_run(cli, tmp_path, path, section):
    found = blocks(path, section)
    assert found, f"no Python block in {path}"
    cli("examples", cwd=tmp_path)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for code in found:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, path, "exec"), {})
            assert out.getvalue(), "a block prints what it shows"
    finally:
        os.chdir(cwd)
