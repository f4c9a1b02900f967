#!/usr/bin/env bash
# Runs FOLD-R++ (github.com/hwd404/FOLD-R-PP, pure Python) and strata on the
# same fold of a binary table of the public suite, one core each, and
# prints both: learning time (CPU and wall), test accuracy and rules.
#
#   bench/peer/foldrpp.sh FOLD_R_PP_DIR [TABLE] [FOLD]
#
# FOLD_R_PP_DIR is a checkout of FOLD-R++ (its foldrpp.py is imported, not
# copied); TABLE (default adult) is a binary table of ../shared/data/tabular,
# FOLD (default 0) the fold of strata bench tabular's 10-fold
# cross-validation whose rows are the test rows (bench/peer/fold writes the
# fold). strata learns the fold as BenchmarkAdultFold does (bench tabular's
# defaults: the iterations chosen on held-out training rows, the final run,
# restarts), under each semantics. Needs python3 (Debian's; FOLD-R++ uses
# the standard library only).
set -euo pipefail
if [ $# -lt 1 ] || [ ! -r "$1/foldrpp.py" ]; then
	echo "usage: $0 FOLD_R_PP_DIR [TABLE] [FOLD]  (FOLD_R_PP_DIR: a checkout of FOLD-R++, with foldrpp.py)" >&2
	exit 2
fi
peer=$(cd "$1" && pwd)
name=${2:-adult}
fold=${3:-0}
root=$(cd "$(dirname "$0")/../.." && pwd)
suite=$root/../shared/data/tabular
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go run ./bench/peer/fold -suite "$suite" -table "$name" -fold "$fold" -o "$work")
line=$(awk -F'\t' -v n="$name" '$1 == n' "$suite/datasets.tsv")
if [ -z "$line" ]; then
	echo "$0: no table $name in $suite/datasets.tsv" >&2
	exit 1
fi
echo "== FOLD-R++ ($peer), $name, fold $fold, one core"
taskset -c 0 python3 - "$peer" "$work" "$line" <<'PY'
import sys, time
peer, work, line = sys.argv[1], sys.argv[2], sys.argv[3].split('\t')
sys.path.insert(0, peer)
from foldrpp import Foldrpp, get_scores
name, kind, files, label, positive, features, numeric = line
features, numeric = features.split(','), [c for c in numeric.split(',') if c]
model = Foldrpp([c for c in features if c not in numeric], numeric, label, positive)
train = model.load_data(work + '/train.csv')
test = model.load_data(work + '/test.csv')
cpu, wall = time.process_time(), time.perf_counter()
model.fit(train)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
predicted = model.predict(test)
acc = sum(1 for p, x in zip(predicted, test) if p == x['label']) / len(test)
rules = len(model.asp())
print(f'{name} fold: {len(train)} training rows; FOLD-R++ fit {cpu:.2f} s CPU, {wall:.2f} s wall; test accuracy {100 * acc:.2f}%; {rules} rules')
PY
echo "== strata, the same fold, one core (BenchmarkAdultFold's settings)"
if [ "$name" != adult ] || [ "$fold" != 0 ]; then
	echo "(BenchmarkAdultFold learns adult's fold 0: give no TABLE and FOLD to compare with it)"
	exit 0
fi
cd "$root/table/tabular"
go test -run XXX -bench AdultFold -benchtime 1x -cpu 1 .
