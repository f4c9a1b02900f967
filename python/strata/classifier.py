"""StrataClassifier: a scikit-learn estimator that learns a possibilistic
theory from a table with the Go library (table.Learn), as strata learn
--table does."""

import math
import numbers
import warnings
from collections import namedtuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from . import _native, _table

__all__ = ["StrataClassifier", "Rule", "Explanation"]

Rule = namedtuple("Rule", "level weight conditions conclusion formula")
Rule.__doc__ = """A learned rule: conditions → conclusion at a level of the theory.

level is the index of its level (0 the highest), weight the level's weight;
conditions and conclusion are lists of (column, operator, value) with the
operators '=', '!=', '<=' and '>' (a numeric value as text, as the theory
writes it); formula is the rule as the theory file writes it. A formula
that is not such a rule has conditions and conclusion None."""

Explanation = namedtuple("Explanation", "prediction entailed level rules against")
Explanation.__doc__ = """Why a row is answered as it is, as strata predict --explain says.

prediction is the class predict answers; entailed the class the theory
entails (None when it entails none or several, and then predict's answer
is predict_proba's most probable class); level the weight of the deciding
level; rules the learned rules that decide the row, highest level first
(under lex, with every vote of the deciding level for the answer); against
(lex only) the rules the answer sets aside; when no single class is
entailed, rules lists the classes that are."""

_SEMANTICS = ("poss", "linear", "lex")

# predict_proba's smoothing: the frequencies among the training rows
# answered alike, smoothed by _SMOOTHING rows toward _PARENT (measured by
# python/bench/calibration.py; docs/python.md).
_SMOOTHING = 8
_PARENT = "prior"
# The training rows predict_proba counts on: all of them up to this many,
# else this many drawn with the seed: answering every row of a large table
# once more can cost more than learning from it (all 29,304 training rows
# of adult took 7 s, its learning 4 to 8 s, on a loaded machine), and a
# sample of that size leaves a frequency's standard error below a point
# where it counts many rows.
_COUNTED_ROWS = 5000
_RULES = ("one-se", "best", "paired")


def _validate_data_kwargs():
    import inspect

    params = inspect.signature(check_array).parameters
    return {"ensure_all_finite": False} if "ensure_all_finite" in params else {"force_all_finite": False}


_FINITE = _validate_data_kwargs()


class StrataClassifier(ClassifierMixin, BaseEstimator):
    """Learns a possibilistic theory from a table: stratified rules over the
    columns' comparisons (odor=foul, age <= 30), as strata learn --table.

    Numeric and categorical columns are inferred as strata learn --table
    infers them (a pandas column of dtype category or bool is categorical);
    NaN and None are missing values; no encoding is needed. Every parameter
    is a learning setting of strata learn --table, under the flag's name
    (an underscore for the dash) and with its default:

    semantics : 'poss', 'linear' or 'lex' — how a theory answers a row
        whose literals clash with it (the same semantics predicts).
    iterations : int — at most this many iterations (0: no limit).
    timeout : float — learning time in seconds, validation included (0:
        no limit).
    candidates : int — candidate rules sampled per iteration (0: the
        default, 100).
    grow : int — candidates also grown by information gain per iteration.
    tally : bool — under lex, also try a level of one-literal rules that
        vote.
    patience : int — stop after this many iterations that improve nothing
        (0: never).
    folds : int — choose the number of iterations on held-out training
        rows: K >= 2 by K-fold cross-validation, 1 on one held-out part of
        share validation, 0 not at all.
    validation : float — the share of the rows one held-out part holds out
        (folds=1).
    validation_patience : int — stop a validation run after this many
        iterations without a better held-out score (0: never).
    choose : 'one-se', 'best' or 'paired' — the rule of choice on the
        held-out curve.
    restarts : int — with held-out parts, learn the final theory this many
        times with other seeds and keep the most accurate on the training
        rows.
    prune : bool — with held-out parts, prune the rules too few training
        rows need.
    variants : str — the encodings of the rows ('mdl', 'cuts>=K', then
        '+nearest', '+unequal'), comma-separated; several are chosen among
        on held-out rows.
    seed : int — the same seed gives the same theory for any threads.
    threads : int — learner workers (0: all CPUs).

    After fit: classes_, n_features_in_, feature_names_in_ (for a
    DataFrame with string column names), theory_ (the theory's text, which
    strata predict reads), rules_ (the rules as data), label_ (the class
    column's name in the theory), features_ (the columns learned from) and
    learning_ (what strata learn --table --json says of the run).

    predict_proba gives each class its frequency among the training rows
    that the theory answers as it answers the row: the same class entailed
    at the same necessity (the deciding level), smoothed; the class the
    theory entails is always the most probable, so predict answers it (see
    docs/python.md for the calibration that chose it).
    """

    def __init__(
        self,
        semantics="poss",
        iterations=100,
        timeout=0.0,
        candidates=100,
        grow=10,
        tally=True,
        patience=5,
        folds=0,
        validation=0.3,
        validation_patience=60,
        choose="one-se",
        restarts=5,
        prune=False,
        variants="mdl",
        seed=1,
        threads=0,
    ):
        self.semantics = semantics
        self.iterations = iterations
        self.timeout = timeout
        self.candidates = candidates
        self.grow = grow
        self.tally = tally
        self.patience = patience
        self.folds = folds
        self.validation = validation
        self.validation_patience = validation_patience
        self.choose = choose
        self.restarts = restarts
        self.prune = prune
        self.variants = variants
        self.seed = seed
        self.threads = threads

    def _more_tags(self):
        return {
            "allow_nan": True,
            # Strings are categorical values, read as they are.
            "X_types": ["2darray", "string"],
            "requires_y": True,
        }

    def __sklearn_tags__(self):  # scikit-learn >= 1.6
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.target_tags.required = True
        return tags

    # Parameters.

    def _settings(self):
        def whole(name, low=0):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
                raise ValueError(f"{name}={v!r}: give a whole number >= {low}")
            return int(v)

        def share(name):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v < 1:
                raise ValueError(f"{name}={v!r}: give a share in [0, 1)")
            return float(v)

        def flag(name):
            v = getattr(self, name)
            if not isinstance(v, (bool, np.bool_)):
                raise ValueError(f"{name}={v!r}: give True or False")
            return bool(v)

        if self.semantics not in _SEMANTICS:
            raise ValueError(f"semantics={self.semantics!r}: give one of {', '.join(_SEMANTICS)}")
        if self.choose not in _RULES:
            raise ValueError(f"choose={self.choose!r}: give one of {', '.join(_RULES)}")
        t = self.timeout
        if t is None:
            t = 0.0
        if isinstance(t, bool) or not isinstance(t, numbers.Real) or not t >= 0 or math.isinf(t):
            raise ValueError(f"timeout={self.timeout!r}: give a number of seconds >= 0 (0: no limit)")
        if not isinstance(self.variants, str):
            raise ValueError(f"variants={self.variants!r}: give encodings separated by commas, such as 'mdl,cuts>=4'")
        variants = [v.strip() for v in self.variants.split(",") if v.strip()]
        s = {
            "semantics": self.semantics,
            "iterations": whole("iterations"),
            "timeout": float(t),
            "candidates": whole("candidates"),
            "grow": whole("grow"),
            "tally": flag("tally"),
            "patience": whole("patience"),
            "seed": whole("seed"),
            "threads": whole("threads"),
            "folds": whole("folds"),
            "validation": share("validation"),
            "validation_patience": whole("validation_patience"),
            "choose": self.choose,
            "restarts": whole("restarts"),
            "prune": flag("prune"),
            "variants": variants,
        }
        selects = s["folds"] >= 2 or s["folds"] == 1 and s["validation"] > 0
        if s["prune"] and not selects:
            raise ValueError("prune=True chooses its threshold on held-out rows: give folds >= 2, or folds=1 with validation > 0")
        if len(variants) > 1 and not selects:
            raise ValueError("several variants are chosen among on held-out rows: give folds >= 2, or folds=1 with validation > 0")
        return s

    # Tables.

    def _names(self, X, reset):
        """The column names of X: a DataFrame's (as strings), else x0, x1, …"""
        if _table.is_dataframe(X):
            names = [str(c) for c in X.columns]
        else:
            names = [f"x{j}" for j in range(X.shape[1])]
        if reset:
            _check_feature_names(self, X, reset=True)
            _check_n_features(self, X, reset=True)
        else:
            _check_feature_names(self, X, reset=False)
            _check_n_features(self, X, reset=False)
        return names

    def _check_X(self, X):
        if _table.is_dataframe(X):
            if X.shape[1] == 0:
                raise ValueError(f"0 feature(s) (shape={X.shape}) while a minimum of 1 is required.")
            if X.shape[0] == 0:
                raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
            return X
        return check_array(X, dtype=None, accept_sparse=False, **_FINITE)

    def _csv(self, X, names, label=None, labels=None):
        cols, categorical = _table.columns(X, names)
        text = _table.write(cols, names, label, labels)
        if label is not None:
            categorical = categorical + [label]
        return text, categorical

    def _request(self, X, names, label=None, labels=None):
        text, categorical = self._csv(X, names, label, labels)
        return {"table": text, "name": "X", "categorical": categorical}, text

    def _call(self, method, request, text):
        try:
            return _native.call(method, request)
        except _native.ParseError as e:
            row = _table.row_of_line(text, e.line)
            where = f"row {row}: " if row is not None else ""
            raise ValueError(f"X: {where}{e.detail}") from e

    # Learning.

    def fit(self, X, y):
        """Learns a theory from the rows of X (an array or a DataFrame) and
        their classes y (strings or integers, two classes or more)."""
        settings = self._settings()
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        X = self._check_X(X)
        y_name = getattr(y, "name", None)
        y = column_or_1d(np.asarray(y) if not hasattr(y, "dtype") else y, warn=True)
        check_classification_targets(y)
        if len(y) != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows and y {len(y)} labels")
        names = self._names(X, reset=True)
        classes = np.unique(y)
        if len(classes) < 2:
            raise ValueError(f"{type(self).__name__} learns to tell classes apart: y has 1 class ({classes[0]!r}); give two or more")
        keys = [_label_text(c) for c in classes]
        if len(set(keys)) != len(keys):
            raise ValueError(f"the classes {list(classes)} do not have distinct texts")
        label = _label_name(y_name, names)
        by_key = dict(zip(keys, range(len(classes))))
        idx = np.searchsorted(classes, y)
        labels = [keys[i] for i in idx.tolist()]
        request, text = self._request(X, names, label, labels)
        counted = None
        if len(labels) > _COUNTED_ROWS:
            counted = np.sort(np.random.default_rng(settings["seed"]).choice(len(labels), _COUNTED_ROWS, replace=False))
        request.update(label=label, features=names, settings=settings, answers=True,
                       answer_rows=None if counted is None else counted.tolist())
        res = self._call("table.learn", request, text)
        for note in res["notes"]:
            warnings.warn(f"strata: {note}", UserWarning, stacklevel=2)
        self.classes_ = classes
        self.label_ = label
        self.theory_ = res["theory"]
        self.features_ = list(res["features"])
        self.learning_ = {k: res[k] for k in ("stop", "iterations", "seconds", "train_accuracy", "formulas", "levels", "literals", "variant")}
        self._class_index = by_key
        self.rules_ = self._rules()
        answer, necessity = self._read_answers(res["answers"])
        self._count_frequencies(answer, necessity, idx if counted is None else idx[counted])
        return self

    def _rules(self):
        rules = _native.call("table.rules", {"theory": self.theory_, "label": self.label_})
        out = []
        for r in rules:
            conds = [tuple(c) for c in r["conditions"]] if r["conditions"] is not None else None
            concl = [tuple(c) for c in r["conclusion"]] if r["conclusion"] is not None else None
            out.append(Rule(r["level"], r["weight"], conds, concl, r["formula"]))
        return out

    # Predicting.

    def _predict_request(self, X, **extra):
        check_is_fitted(self, "theory_")
        X = self._check_X(X)
        names = self._names(X, reset=False)
        request, text = self._request(X, names)
        request.update(theory=self.theory_, label=self.label_, semantics=self.semantics, **extra)
        return request, text

    def predict_proba(self, X):
        """The probability of each class (in the order of classes_) for
        every row of X: the frequencies of the classes among the training
        rows that the theory answers as it answers the row (the same class
        at the same necessity; of a table of more than 5,000 rows, among
        5,000 drawn with the seed), smoothed by 8 rows toward the classes'
        frequencies; the class the theory entails is the most probable (it
        trades places with a more probable one), so that predict answers
        it (see docs/python.md)."""
        answer, necessity = self._answers(X)
        return self._frequency_proba(answer, necessity, consistent=True)

    def _answers(self, X):
        """The class the theory entails for every row of X (an index into
        classes_, -1 for none or several) and its necessity."""
        request, text = self._predict_request(X)
        return self._read_answers(self._call("table.answers", request, text))

    def _read_answers(self, res):
        answer = np.array([self._class_index[c] if c is not None else -1 for c in res["classes"]], dtype=int)
        return answer, np.asarray(res["necessity"], dtype=float)

    def _count_frequencies(self, answer, necessity, y_index):
        k = len(self.classes_)
        prior = np.bincount(y_index, minlength=k).astype(float)
        by_answer, by_level = {}, {}
        for a, w, c in zip(answer.tolist(), _level_key(necessity), y_index.tolist()):
            by_answer.setdefault(a, [0] * k)[c] += 1
            by_level.setdefault((a, w), [0] * k)[c] += 1
        self._frequencies = {"prior": prior.tolist(), "by_answer": by_answer, "by_level": by_level}

    def _frequency_proba(self, answer, necessity, consistent, m=_SMOOTHING, parent=_PARENT):
        """Frequencies among the training rows answered alike, smoothed by
        m rows toward the parent: the rows answered the same class
        ("answer", themselves smoothed toward the prior) or the prior
        ("prior")."""
        f = self._frequencies
        k = len(self.classes_)
        prior = np.asarray(f["prior"])
        prior = prior / prior.sum()
        out = np.empty((len(answer), k))
        cache = {}
        for i, (a, w) in enumerate(zip(answer.tolist(), _level_key(necessity))):
            p = cache.get((a, w))
            if p is None:
                up = _smooth(f["by_answer"].get(a), prior, m) if parent == "answer" else prior
                p = _smooth(f["by_level"].get((a, w)), up, m)
                if consistent and a >= 0:
                    p = _prefer(p, a)
                cache[(a, w)] = p
            out[i] = p
        return out

    def predict_log_proba(self, X):
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The class of every row of X: the one the theory entails, or,
        when it entails none or several, predict_proba's most probable: the
        most frequent class of the training rows it leaves so (the first of
        classes_ on a tie)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def explain(self, X):
        """For every row of X, an Explanation: the rules that decide it and
        those it sets aside, as strata predict --explain gives them."""
        request, text = self._predict_request(X, explain=True)
        res = self._call("table.predict", request, text)
        pred = self.predict(X)
        out = []
        for p, c, w in zip(pred, res["classes"], res["why"]):
            entailed = self.classes_[self._class_index[c]] if c is not None else None
            rules = w["rules"] if c is not None else w["entailed"]
            out.append(Explanation(p, entailed, w["level"], rules, w["against"]))
        return out

    # Pickling: the theory's text is the state.

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("rules_", None)  # rebuilt from theory_
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        if "theory_" in state:
            self.rules_ = self._rules()


def _level_key(necessity):
    """Necessities as keys: rounded, so that a level's weight read back from
    the theory's text is the same key."""
    return [round(float(w), 9) for w in necessity]


def _smooth(counts, parent, m):
    """Class frequencies smoothed by m rows distributed as parent."""
    if counts is None:
        return parent
    n = np.asarray(counts, dtype=float)
    return (n + m * parent) / (n.sum() + m)


def _prefer(p, a):
    """p with class a the most probable: when another class is more probable
    (or as probable), a takes its probability and it takes a's, and a tie
    is broken for a by a hair."""
    j = int(np.argmax(p))
    if j != a and p[j] >= p[a]:
        p = p.copy()
        p[a], p[j] = p[j], p[a]
    if np.count_nonzero(p == p[a]) > 1:
        p = p.copy()
        p[a] += 1e-9
        p = p / p.sum()
    return p


def _label_text(c):
    """The text of a class in the table: as Python writes it, stripped."""
    if isinstance(c, (bytes, np.bytes_)):
        c = c.decode("utf-8", "replace")
    if isinstance(c, (float, np.floating)) and float(c).is_integer():
        s = repr(float(c))
    else:
        s = str(c)
    s = s.strip()
    if s in ("", "?"):
        raise ValueError(f"class {c!r} reads as a missing value in a table ('' and '?' are missing)")
    return s


def _label_name(name, features):
    """The class column's name: y's name, else 'class', unlike any feature."""
    base = str(name).strip() if name is not None and str(name).strip() else "class"
    out, i = base, 1
    while out in features:
        out, i = f"{base}_{i}", i + 1
    return out


def _check_feature_names(est, X, reset):
    f = getattr(est, "_check_feature_names", None)
    if f is not None:
        return f(X, reset=reset)
    from sklearn.utils.validation import _check_feature_names as g  # scikit-learn >= 1.6

    return g(est, X, reset=reset)


def _check_n_features(est, X, reset):
    f = getattr(est, "_check_n_features", None)
    if f is not None:
        return f(X, reset=reset)
    from sklearn.utils.validation import _check_n_features as g  # scikit-learn >= 1.6

    return g(est, X, reset=reset)
