"""Tables for the Go library: a numpy array or a pandas DataFrame written
as the CSV text that strata learn --table reads.

Numbers are written as Python writes a float (the shortest text that reads
back as the same number), NaN and None as an empty field (a missing value);
pandas columns of dtype category and bool are named categorical, and every
other column's type is inferred by the library as strata learn --table
infers it: numeric when every value is a number.
"""

import numbers

import numpy as np

try:  # pandas is optional
    import pandas as pd
except ImportError:  # pragma: no cover - pandas is installed where tested
    pd = None


def is_dataframe(X):
    return pd is not None and isinstance(X, pd.DataFrame)


def _quote(s):
    if any(c in s for c in ',"\n\r') or s != s.strip():
        return '"' + s.replace('"', '""') + '"'
    return s


def _missing(v):
    if v is None:
        return True
    if pd is not None and v is pd.NA:
        return True
    return isinstance(v, numbers.Real) and not isinstance(v, numbers.Integral) and np.isnan(v)


def _numeric_fields(values, name):
    """The fields of a numeric column; infinity is an error naming the row."""
    x = np.asarray(values)
    if x.dtype.kind == "b":
        x = x.astype(np.int64)
    if x.dtype.kind == "f":
        bad = np.isinf(x)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise ValueError(f"Input X contains infinity: column {name!r}, row {row} (a missing value is NaN or None)")
        nan = np.isnan(x)
        fields = [repr(float(v)) for v in x.tolist()]
        for i in np.flatnonzero(nan).tolist():
            fields[i] = ""
        return fields
    return [str(v) for v in x.tolist()]


def _text_fields(values, name):
    out = []
    for i, v in enumerate(values):
        if _missing(v):
            out.append("")
            continue
        if isinstance(v, (float, np.floating)):
            if np.isinf(v):
                raise ValueError(f"Input X contains infinity: column {name!r}, row {i} (a missing value is NaN or None)")
            out.append(repr(float(v)))
        elif isinstance(v, (bytes, np.bytes_)):
            out.append(_quote(v.decode("utf-8", "replace")))
        else:
            out.append(_quote(str(v)))
    return out


def columns(X, names):
    """The fields of every column of X (in the order of names) and the names
    of the columns that are categorical whatever their values."""
    cols, categorical = [], []
    if is_dataframe(X):
        for name, (_, s) in zip(names, X.items()):
            dt = s.dtype
            if isinstance(dt, pd.CategoricalDtype) or dt == bool or pd.api.types.is_bool_dtype(dt):
                categorical.append(name)
                cols.append(_text_fields(s.astype(object).tolist(), name))
            elif pd.api.types.is_numeric_dtype(dt):
                cols.append(_numeric_fields(s.to_numpy(dtype=float, na_value=np.nan) if s.hasnans else s.to_numpy(), name))
            else:
                cols.append(_text_fields(s.tolist(), name))
        return cols, categorical
    X = np.asarray(X)
    for j, name in enumerate(names):
        col = X[:, j]
        if col.dtype.kind in "biuf":
            cols.append(_numeric_fields(col, name))
        else:
            cols.append(_text_fields(col.tolist(), name))
    return cols, categorical


def write(cols, names, label=None, labels=None):
    """The CSV text of the columns, with the class column label last."""
    header = [_quote(n) for n in names]
    if label is not None:
        header.append(_quote(label))
        cols = cols + [[_quote(v) for v in labels]]
    lines = [",".join(header)]
    if cols:
        lines.extend(",".join(row) for row in zip(*cols))
    return "\n".join(lines) + "\n"


def row_of_line(text, line):
    """The row (from 0) of the table text that line (from 1) of it belongs
    to, as the CSV reader counts lines; None for the header."""
    if line is None or line < 2:
        return None
    if "\r" not in text and '"' not in text:
        return line - 2
    import csv
    import io

    r = csv.reader(io.StringIO(text, newline=""))
    next(r, None)
    start = r.line_num + 1
    for i, _ in enumerate(r):
        if start <= line <= r.line_num:
            return i
        start = r.line_num + 1
    return None
