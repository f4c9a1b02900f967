"""What the Python path adds to learning: StrataClassifier().fit against
strata learn --table on the same rows of adult (the training rows of the
first of bench tabular's 10 folds, seed 1), with the same settings (the
defaults; every column a feature), side by side, in the order ABBA (the
command line first in odd runs, the estimator first in even ones), so
that a load that rises or falls meanwhile weighs on both alike.

    python3 python/bench/adult.py [--data DIR] [--cli PATH] [--runs N]

It checks that both learn the same theory, and prints each run's wall and
CPU seconds (the CPU of strata learn as a child process; of the Python
process, Go's threads included, for fit), the seconds table.Learn took
inside each (strata learn --json's seconds, StrataClassifier's
learning_["seconds"]), and the medians' ratios. What each adds to
table.Learn is measured within one process, under the same load: on a
shared machine it is steadier than the ratio of two processes' times.
"""

import json

import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time

import pandas as pd

from strata import StrataClassifier, TableFolds


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "..", "shared", "data"))
    ap.add_argument("--cli", default="strata")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    df = pd.read_csv(os.path.join(a.data, "tabular", "adult", "adult.csv"), dtype=str, keep_default_na=False)
    X, y = df.drop(columns=["label"]), df["label"]
    train, _ = next(TableFolds(10, seed=1).split(X, y))
    # The command line reads the rows from a file; the estimator from a
    # DataFrame of the same text (types inferred alike).
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "adult-train.csv")
    df.iloc[train].to_csv(path, index=False)
    Xtr, ytr = X.iloc[train], y.iloc[train]
    cli_wall, cli_cpu, cli_learn, py_wall, py_cpu, py_learn = [], [], [], [], [], []
    print("run\tstrata learn --table: wall\tcpu\ttable.Learn\tStrataClassifier.fit: wall\tcpu\ttable.Learn", flush=True)
    def learn_cli():
        out = os.path.join(tmp, "cli.theory")
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run([a.cli, "learn", "--table", path, "--label", "label", "--features", ",".join(X.columns), "--json", "-o", out],
                           check=True, capture_output=True, text=True)
        cli_wall.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cli_cpu.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        cli_learn.append(json.loads(p.stdout)["seconds"])
        with open(out) as f:
            return f.read()

    def learn_py():
        t0, c0 = time.perf_counter(), time.process_time()
        clf = StrataClassifier().fit(Xtr, ytr)
        py_wall.append(time.perf_counter() - t0)
        py_cpu.append(time.process_time() - c0)
        py_learn.append(clf.learning_["seconds"])
        return clf.theory_

    for run in range(a.runs):
        if run % 2 == 0:
            cli_theory, py_theory = learn_cli(), learn_py()
        else:
            py_theory, cli_theory = learn_py(), learn_cli()
        same = cli_theory == py_theory
        print(f"{run + 1}\t{cli_wall[-1]:.2f}\t{cli_cpu[-1]:.2f}\t{cli_learn[-1]:.2f}\t{py_wall[-1]:.2f}\t{py_cpu[-1]:.2f}\t{py_learn[-1]:.2f}"
              f"\tsame theory: {same}", flush=True)
        if not same:
            raise SystemExit("the two learned different theories: not the same work")
    med = statistics.median
    mw, mc = med(py_wall) / med(cli_wall), med(py_cpu) / med(cli_cpu)
    print(f"median ratio, Python / command line: wall {mw:.3f} ({100 * (mw - 1):+.1f}%), cpu {mc:.3f} ({100 * (mc - 1):+.1f}%)")
    added_py = med([(w - s) / s for w, s in zip(py_wall, py_learn)])
    added_cli = med([(w - s) / s for w, s in zip(cli_wall, cli_learn)])
    print(f"median time beyond table.Learn, as a share of it: StrataClassifier.fit {100 * added_py:+.1f}%, strata learn --table {100 * added_cli:+.1f}%")


if __name__ == "__main__":
    main()
