"""StrataClassifier: scikit-learn's own checks, the command line's theories
and answers on the same table, mixed and missing columns without
encoding, pickling, GridSearchCV, a Pipeline with a ColumnTransformer, and
its errors."""

import io
import json
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import check_estimator

import strata
from conftest import example
from strata import StrataClassifier


def loans():
    df = pd.read_csv(example("loans.csv"))
    return df.drop(columns=["id", "decision"]), df["decision"]


def test_check_estimator():
    # Every check passes: none is skipped (the tags declare NaN allowed and
    # strings accepted, no _xfail_checks).
    with warnings.catch_warnings():
        warnings.simplefilter("error", category=UserWarning)
        check_estimator(StrataClassifier())


def test_theory_is_the_command_lines(cli, tmp_path):
    X, y = loans()
    for sem in ["poss", "linear", "lex"]:
        clf = StrataClassifier(semantics=sem, folds=3).fit(X, y)
        out = tmp_path / f"{sem}.theory"
        cli("learn", "--table", example("loans.csv"), "--label", "decision", "--features", ",".join(X.columns),
            "--semantics", sem, "--folds", "3", "-o", str(out))
        assert clf.theory_ == out.read_text(), sem
        assert clf.label_ == "decision"
        # predict answers the class strata predict answers, on every row
        # the theory decides.
        want = cli("predict", str(out), "--table", example("applicants.csv"), "--semantics", sem, "--json", json_out=True)
        new = pd.read_csv(example("applicants.csv"), keep_default_na=False).drop(columns=["name"])
        got = clf.predict(new)
        assert len(want["predictions"]) == len(got)
        for p, g in zip(want["predictions"], got):
            if p["predicted"] != "none":
                assert p["predicted"] == g
        # explain says what strata predict --explain says.
        want = cli("predict", str(out), "--table", example("loans.csv"), "--semantics", sem, "--explain", "--json", json_out=True)
        for p, e in zip(want["predictions"], clf.explain(X)):
            decided = p["predicted"] != "none"
            assert e.entailed == (p["predicted"] if decided else None)
            assert e.level == p.get("level", 0)
            assert e.rules == p.get("rules" if decided else "entailed", [])
            assert e.against == p.get("against", [])


def test_mixed_missing_columns_without_encoding():
    # Numbers, text, a category, a bool, NaN and None: no encoding step.
    rng = np.random.default_rng(3)
    n = 300
    age = rng.integers(18, 80, n).astype(float)
    job = rng.choice(["clerk", "nurse", "pilot", None], n)
    region = pd.Categorical(rng.choice(["north", "south", "east"], n))
    owner = rng.random(n) < 0.4
    label = np.where((age > 40) & (job != "clerk") | owner, "yes", "no")
    age[rng.random(n) < 0.1] = np.nan
    X = pd.DataFrame({"age": age, "job": job, "region": region, "owner": owner})
    clf = StrataClassifier(seed=2).fit(X, label)
    assert clf.score(X, label) > 0.85
    assert list(clf.feature_names_in_) == ["age", "job", "region", "owner"]
    assert clf.n_features_in_ == 4
    p = clf.predict_proba(X)
    assert p.shape == (n, 2) and np.allclose(p.sum(axis=1), 1)
    assert (clf.classes_[p.argmax(axis=1)] == clf.predict(X)).all()
    ex = clf.explain(X.head(5))
    assert len(ex) == 5 and all(e.prediction in clf.classes_ for e in ex)
    # The rules as data: every condition a comparison of a column of X.
    ops = {"=", "!=", "<=", ">"}
    for r in clf.rules_:
        assert 0 < r.weight < 1
        if r.conditions is not None:
            for col, op, value in r.conditions:
                assert col in X.columns and op in ops
            assert all(col == clf.label_ for col, _, _ in r.conclusion)
    assert any(r.conditions for r in clf.rules_)


@pytest.mark.parametrize("labels", [["a", "b"], [0, 1], ["x", "y", "z"], [3, 7, 11, 20]])
def test_labels_strings_integers_binary_multiclass(labels):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    k = len(labels)
    y_idx = np.digitize(X[:, 0], np.quantile(X[:, 0], np.linspace(0, 1, k + 1)[1:-1]))
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else int)[y_idx]
    clf = StrataClassifier().fit(X, y)
    assert list(clf.classes_) == sorted(labels)
    pred = clf.predict(X)
    assert pred.dtype == np.asarray(y).dtype
    assert clf.score(X, y) > 0.8
    assert clf.predict_proba(X).shape == (200, k)


def test_large_table_counts_a_sample():
    # predict_proba counts its frequencies on 5,000 of the training rows.
    rng = np.random.default_rng(1)
    X = rng.normal(size=(6000, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=6000) > 0, "up", "down")
    clf = StrataClassifier(iterations=5).fit(X, y)
    assert sum(clf._frequencies["prior"]) == 5000
    p = clf.predict_proba(X)
    assert np.allclose(p.sum(axis=1), 1) and (clf.classes_[p.argmax(axis=1)] == clf.predict(X)).all()


def test_pickle_keeps_the_theory():
    X, y = loans()
    clf = StrataClassifier(semantics="lex").fit(X, y)
    blob = pickle.dumps(clf)
    assert clf.theory_.encode() in blob  # the theory's text is the state
    again = pickle.loads(blob)
    assert again.theory_ == clf.theory_
    assert again.rules_ == clf.rules_
    assert (again.predict(X) == clf.predict(X)).all()
    assert np.array_equal(again.predict_proba(X), clf.predict_proba(X))


def test_grid_search():
    X, y = loans()
    grid = GridSearchCV(StrataClassifier(), {"semantics": ["poss", "lex"], "iterations": [5, 50]}, cv=3)
    grid.fit(X, y)
    assert grid.best_params_["semantics"] in ("poss", "lex")
    assert grid.best_score_ > 0.8
    assert grid.best_estimator_.theory_


def test_pipeline_with_column_transformer():
    X, y = loans()
    X = X.copy()
    X["income"] = pd.to_numeric(X["income"], errors="coerce")  # '?' is missing
    X.loc[::7, "income"] = np.nan
    pre = ColumnTransformer([("income", SimpleImputer(strategy="median"), ["income"])], remainder="passthrough")
    pipe = Pipeline([("pre", pre), ("strata", StrataClassifier())])
    scores = cross_val_score(pipe, X, y, cv=3)
    assert scores.mean() > 0.8
    pipe.fit(X, y)
    # The transformer hands an object array on: its columns are read as
    # strata learn --table reads them (numbers inferred).
    assert any(c[1] in ("<=", ">") for r in pipe[-1].rules_ if r.conditions for c in r.conditions)


def test_bad_table_names_column_and_row():
    X, y = loans()
    clf = StrataClassifier().fit(X, y)
    bad = X.head(6).copy().astype(object)
    bad.iloc[4, bad.columns.get_loc("income")] = "lots"
    with pytest.raises(ValueError) as e:
        clf.predict(bad)
    msg = str(e.value)
    assert '"income"' in msg and "row 4" in msg and "lots" in msg
    inf = X.head(3).copy()
    inf.iloc[2, 0] = np.inf
    with pytest.raises(ValueError, match=r"infinity: column 'income', row 2"):
        clf.predict(inf)


def test_bad_settings_are_value_errors():
    X, y = loans()
    for kw in [{"semantics": "drowning"}, {"iterations": -1}, {"choose": "any"}, {"validation": 1.5},
               {"prune": True}, {"variants": "mdl,cuts>=4"}, {"variants": "cuts>=x"}, {"timeout": -1}]:
        with pytest.raises(ValueError):
            StrataClassifier(**kw).fit(X, y)


def test_settings_reach_the_learner():
    X, y = loans()
    a = StrataClassifier(iterations=1, patience=0, grow=0).fit(X, y)
    assert a.learning_["iterations"] <= 1
    b = StrataClassifier(folds=3, prune=True, choose="best", restarts=2, variants="mdl,cuts>=2", seed=5, threads=1).fit(X, y)
    assert b.learning_["variant"] in ("mdl", "cuts>=2")
    assert set(StrataClassifier().get_params()) == {
        "semantics", "iterations", "timeout", "candidates", "grow", "tally", "patience", "folds", "validation",
        "validation_patience", "choose", "restarts", "prune", "variants", "seed", "threads"}
