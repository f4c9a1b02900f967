# Trains XGBoost's classifier with XGBClassifier's default settings on a training
# matrix and prints the predicted class number of every test row, one a
# line. Run by package xgboost (the benchmarks' gradient-boosting baseline):
#   python3 classify.py TRAIN.csv TEST.csv CLASSES THREADS
# TRAIN.csv: class number, then the features, comma-separated, one row a
# line; TEST.csv: the features alone; "nan" is a missing value.
import sys

import numpy as np
import xgboost as xgb


def load(path, width=None):
    m = np.genfromtxt(path, delimiter=",", dtype=np.float64, ndmin=2)
    if width is not None and m.size == 0:
        m = m.reshape(0, width)
    return m


def main():
    train_path, test_path, classes, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    train = load(train_path)
    y, x = train[:, 0].astype(int), train[:, 1:]
    test = load(test_path, x.shape[1])
    # XGBClassifier's defaults (100 rounds, eta 0.3, depth 6) through the
    # core API, which needs no scikit-learn.
    params = {"nthread": threads, "seed": 1}
    if classes == 2:
        params["objective"] = "binary:logistic"
    else:
        params.update(objective="multi:softprob", num_class=classes)
    model = xgb.train(params, xgb.DMatrix(x, label=y, missing=np.nan), num_boost_round=100)
    p = model.predict(xgb.DMatrix(test, missing=np.nan))
    pred = (p > 0.5).astype(int) if classes == 2 else p.argmax(axis=1)
    for k in pred:
        print(int(k))


if __name__ == "__main__":
    main()
