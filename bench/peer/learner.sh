#!/usr/bin/env bash
# Runs the paper's Java learner and strata's learner on the same example
# files and prints both summaries: wall time, train and test accuracy.
#
#   bench/peer/learner.sh JAVA_SRC [DATA_DIR] [ITERATIONS]
#
# JAVA_SRC is a directory holding the Java learner's sources (the package
# trees supertweety/ and ida/ of github.com/supertweety/learning-from-defaults
# and Kuželka's ida library); they are public but not part of strata, so you
# assemble them yourself. DATA_DIR holds train/test .defaults and
# .nondefaults in strata's format (default out/bench-map/nltcs, written by
# `strata bench map --datasets nltcs`); ITERATIONS defaults to 20. Installs
# SAT4j (Debian package sat4j) and a JDK if needed. The Java run takes tens
# of minutes: its iterations grow from seconds to minutes.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 JAVA_SRC [DATA_DIR] [ITERATIONS]  (JAVA_SRC: the Java learner's sources)" >&2
	exit 2
fi
src=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
data=${2:-$root/out/bench-map/nltcs}
iter=${3:-20}
for f in train.defaults train.nondefaults test.defaults test.nondefaults; do
	if [ ! -r "$data/$f" ]; then
		echo "$0: $data/$f is missing; run 'go run ./cmd/strata bench map --datasets nltcs' first or name another DATA_DIR" >&2
		exit 1
	fi
done
cp="/usr/share/java/org.sat4j.core.jar:/usr/share/java/org.ow2.sat4j.maxsat.jar:/usr/share/java/org.ow2.sat4j.pb.jar"
if [ ! -r /usr/share/java/org.ow2.sat4j.maxsat.jar ] || ! command -v javac >/dev/null 2>&1; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -q
	$sudo apt-get install -y -q --no-install-recommends sat4j default-jdk-headless
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/classes" "$work/data"
find "$src" -name '*.java' >"$work/sources"
javac -nowarn -encoding UTF-8 -d "$work/classes" -cp "$cp" @"$work/sources"
# The Java parser reads atoms as nullary predicates: a1, !a3 -> a5 becomes a1(), !a3() -> a5().
for f in train.defaults train.nondefaults test.defaults test.nondefaults; do
	sed -E 's/([A-Za-z_][A-Za-z0-9_]*)(\(\))?/\1()/g' "$data/$f" >"$work/data/$f"
done
echo "== the paper's Java learner, $iter iterations (-method incremental -ruleSubsampling true)"
start=$(date +%s%N)
java -cp "$work/classes:$cp" supertweety.possibilistic.learning.Main \
	-pos "$work/data/train.defaults" -neg "$work/data/train.nondefaults" \
	-testpos "$work/data/test.defaults" -testneg "$work/data/test.nondefaults" \
	-ruleSubsampling true -iterations "$iter" -method incremental >"$work/java.out"
end=$(date +%s%N)
grep -E '^(Accuracy|train_lc|Finished in)' "$work/java.out"
echo "wall time: $(( (end - start) / 1000000 )) ms"
echo "== strata learn, $iter iterations, seed 1"
(cd "$root" && go build -o "$work/strata" ./cmd/strata)
start=$(date +%s%N)
"$work/strata" learn --pos "$data/train.defaults" --neg "$data/train.nondefaults" \
	--test-pos "$data/test.defaults" --test-neg "$data/test.nondefaults" \
	--iterations "$iter" --seed 1 -o "$work/strata.theory"
end=$(date +%s%N)
echo "wall time: $(( (end - start) / 1000000 )) ms"
