"""Cross-validation folds as strata bench tabular draws them."""

import numpy as np
from sklearn.model_selection import BaseCrossValidator

from . import _native, _table

__all__ = ["TableFolds"]


class TableFolds(BaseCrossValidator):
    """K folds stratified by class, drawn with seed by the Go library as
    strata bench tabular draws its test folds (table.Folds): the rows of
    each class, in byte order of the class texts, shuffled and dealt to the
    folds in turn. cross_val_score(est, X, y, cv=TableFolds(10, seed=1))
    scores on the folds of strata bench tabular --seed 1."""

    def __init__(self, n_splits=10, seed=1):
        self.n_splits = n_splits
        self.seed = seed

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def _draw(self, y):
        if y is None:
            raise ValueError("TableFolds stratifies by class: give y")
        from .classifier import _label_text

        labels = [_label_text(v) for v in np.asarray(y).ravel().tolist()]
        text = _table.write([], [], "class", labels)
        return _native.call(
            "table.folds",
            {"table": text, "name": "y", "categorical": ["class"], "label": "class", "k": int(self.n_splits), "seed": int(self.seed)},
        )

    def _iter_test_indices(self, X=None, y=None, groups=None):
        for fold in self._draw(y)["folds"]:
            yield np.asarray(fold, dtype=int)

    def split_seeds(self):
        """The learner's seed of each split, as strata bench tabular --seed
        learns them: StrataClassifier(seed=s) on split i with the i-th
        learns the theory bench tabular learns there."""
        return list(self._draw(["a", "b"] * self.n_splits)["seeds"])
