#!/usr/bin/env bash
# Compares strata's reasoning core with a SAT4j implementation of the same
# queries (the paper's Java tool is built on SAT4j and builds a new solver
# for every query): both answer the queries of BenchmarkEntailsGiven, the
# peer checks its answers against strata's, and both report time per query.
# Installs SAT4j (Debian package sat4j) and a JDK if needed.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
jar=/usr/share/java/org.sat4j.core.jar
if [ ! -r "$jar" ] || ! command -v javac >/dev/null 2>&1; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -q
	$sudo apt-get install -y -q --no-install-recommends sat4j default-jdk-headless
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go run ./bench/peer -o "$work/peer.txt")
javac -d "$work" -cp "$jar" PossQuery.java
echo "strata (go test -bench EntailsGiven -cpu 1):"
(cd "$root" && go test -run XXX -bench EntailsGiven -cpu 1 -count 5 ./possibilistic | grep Benchmark)
java -cp "$work:$jar" PossQuery "$work/peer.txt" 5
