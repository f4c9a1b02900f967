"""Which predict_proba: the calibration of candidate probabilities of a
learned theory, measured on held-out folds of the tables of strata bench
tabular (no test split is used: every table is cross-validated as training
data).

    python3 python/bench/calibration.py [--data DIR] [--tables a,b] [--folds K] [--semantics poss,lex]

For every table, fold and semantics, StrataClassifier (its defaults) learns
on the other folds and each candidate gives the held-out rows a
distribution over the classes; the Brier score (the mean squared distance
to the one-hot truth, summed over the classes) and the log loss (natural
log, probabilities clipped at 1e-15) are pooled over the folds. Candidates:

  frequency-prior-M   the training rows' class frequencies among those the
                      theory answers the same class at the same necessity
                      N(answer | x), smoothed by M rows of the class prior
                      (M = 8 is StrataClassifier.predict_proba); the entailed
                      class made the most probable (it trades places with a
                      more probable class)
  frequency-answer-M  the same smoothed by M rows toward the frequencies among
                      the rows answered the same class at any necessity,
                      themselves smoothed toward the prior
  frequency-prior-8-free  frequency-prior-8 without making the entailed class
                      the most probable
  possibility         Π(c | x) = 1 − N(label≠c | x), normalised over the classes
  onehot              predict's class with probability 1 − ε, ε = 1/(n+K)
                      shared by the others (n training rows, K classes)
  prior               the training rows' class frequencies (no theory)
"""

import argparse
import os
from collections import defaultdict

import numpy as np
import pandas as pd

from strata import StrataClassifier, TableFolds


def load(data, name):
    ds = pd.read_csv(os.path.join(data, "datasets.tsv"), sep="\t").set_index("name").loc[name]
    df = pd.read_csv(os.path.join(data, ds.files.split()[0]), dtype=str, keep_default_na=False)
    feats = ds.features.split(",")
    num = ds.numeric.split(",") if isinstance(ds.numeric, str) else []
    X = pd.DataFrame({c: (pd.to_numeric(df[c].replace("?", ""), errors="coerce") if c in num else df[c].astype("category")) for c in feats})
    return X, df[ds.label].to_numpy()


def candidates(clf, Xte):
    k = len(clf.classes_)
    f = clf._frequencies
    prior = np.asarray(f["prior"]) / np.sum(f["prior"])
    answer, necessity = clf._answers(Xte)
    out = {"prior": np.tile(prior, (len(Xte), 1))}
    for parent, ms in (("answer", (1, 8)), ("prior", (1, 4, 8, 16, 32))):
        for m in ms:
            out[f"frequency-{parent}-{m}"] = clf._frequency_proba(answer, necessity, consistent=True, m=m, parent=parent)
    out["frequency-prior-8-free"] = clf._frequency_proba(answer, necessity, consistent=False, m=8, parent="prior")
    req, text = clf._predict_request(Xte)
    res = clf._call("table.degrees", req, text)
    cols = [clf._class_index[c] for c in res["classes"]]
    poss = np.ones((len(Xte), k))
    poss[:, cols] = 1 - np.asarray(res["excluded"], dtype=float).reshape(len(Xte), len(cols))
    out["possibility"] = poss / poss.sum(axis=1, keepdims=True)
    eps = 1.0 / (np.sum(f["prior"]) + k)
    pred = out["frequency-prior-8"].argmax(axis=1)
    hot = np.full((len(Xte), k), eps / max(k - 1, 1))
    hot[np.arange(len(Xte)), pred] = 1 - eps
    out["onehot"] = hot
    return out


def scores(p, y, classes):
    onehot = (y[:, None] == classes[None, :]).astype(float)
    brier = ((p - onehot) ** 2).sum(axis=1)
    ll = -np.log(np.clip((p * onehot).sum(axis=1), 1e-15, 1))
    return brier, ll


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "tabular"))
    ap.add_argument("--tables", default="breastw,wine,heart,credit,voting,ecoli,ionosphere,autism")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--semantics", default="poss,linear,lex")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    total = defaultdict(lambda: [0.0, 0.0, 0])
    print("table\tsemantics\tcandidate\tbrier\tlog_loss")
    for name in a.tables.split(","):
        X, y = load(a.data, name)
        for sem in a.semantics.split(","):
            acc = defaultdict(lambda: [[], []])
            for tr, te in TableFolds(a.folds, seed=a.seed).split(X, y):
                clf = StrataClassifier(semantics=sem, seed=a.seed).fit(X.iloc[tr], y[tr])
                for cand, p in candidates(clf, X.iloc[te]).items():
                    b, ll = scores(p, y[te], clf.classes_)
                    acc[cand][0].extend(b)
                    acc[cand][1].extend(ll)
            for cand, (b, ll) in sorted(acc.items()):
                print(f"{name}\t{sem}\t{cand}\t{np.mean(b):.4f}\t{np.mean(ll):.4f}", flush=True)
                t = total[(sem, cand)]
                t[0] += np.mean(b)
                t[1] += np.mean(ll)
                t[2] += 1
    print("\nmean over the tables")
    for (sem, cand), (b, ll, n) in sorted(total.items()):
        print(f"all\t{sem}\t{cand}\t{b / n:.4f}\t{ll / n:.4f}")


if __name__ == "__main__":
    main()
