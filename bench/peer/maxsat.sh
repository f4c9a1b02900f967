#!/usr/bin/env bash
# Compares strata's exact MAP engine with SAT4j's MaxSAT solver (Debian
# package sat4j) on the same instances: MAP queries on a learned network,
# each written as weighted CNF (the network plus the evidence as hard unit
# clauses) by bench/peer/maxsat. Both solvers must find the same optimum
# cost; the script prints both costs and times per instance and the totals.
#
# Usage: bench/peer/maxsat.sh [NET.mln [QUERIES [SECONDS]]]
# Without NET, it learns the Plants network of ../shared/data/debd. The
# instances are the two queries that took minutes before bucket elimination
# (evidence a33, a65, a57 and a55, a49, !a9, a11 on Plants), then QUERIES
# (default 40) evidence formulas drawn as `strata mln examples` draws them.
# SAT4j gets SECONDS (default 60) per instance, its start-up included.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
jars=/usr/share/java/org.ow2.sat4j.core.jar:/usr/share/java/org.ow2.sat4j.pb.jar:/usr/share/java/org.ow2.sat4j.maxsat.jar
if [ ! -r /usr/share/java/org.ow2.sat4j.maxsat.jar ] || ! command -v java >/dev/null 2>&1; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -q
	$sudo apt-get install -y -q --no-install-recommends sat4j default-jre-headless
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
net=${1:-}
queries=${2:-40}
limit=${3:-60}
given=()
if [ -z "$net" ]; then
	net="$work/plants.mln"
	(cd "$root" && go run ./cmd/strata mln learn ../shared/data/debd/plants/plants.train.data -o "$net" >/dev/null)
	given=(-given 'a33, a65, a57' -given 'a55, a49, !a9, a11')
fi
(cd "$root" && go run ./bench/peer/maxsat -net "$net" -o "$work/wcnf" -n "$queries" -seed 97 "${given[@]}")
printf '%-10s %-28s %12s %10s %12s %10s\n' instance evidence strata-cost strata-s sat4j-cost sat4j-s
agree=0 differ=0 timeouts=0 st=0 jt=0
while read -r file cost secs ev; do
	start=$(date +%s.%N)
	out=$(timeout "$limit" java -cp "$jars" org.sat4j.maxsat.GenericOptLauncher "$work/wcnf/$file" 2>/dev/null || true)
	end=$(date +%s.%N)
	js=$(echo "$end - $start" | bc)
	jc=$(echo "$out" | sed -n 's/^c objective function=//p' | tail -1)
	if ! echo "$out" | grep -q '^s OPTIMUM FOUND'; then
		jc="timeout"
		timeouts=$((timeouts + 1))
	elif [ "$jc" = "$cost" ]; then
		agree=$((agree + 1))
	else
		differ=$((differ + 1))
	fi
	st=$(echo "$st + $secs" | bc)
	jt=$(echo "$jt + $js" | bc)
	printf '%-10s %-28s %12s %10.4f %12s %10.2f\n' "${file%.wcnf}" "$ev" "$cost" "$secs" "$jc" "$js"
done <"$work/wcnf/strata.txt"
echo "optimum agrees on $agree instances, differs on $differ; SAT4j out of time on $timeouts (limit ${limit}s)"
echo "total time: strata $st s, SAT4j $jt s (JVM start-up included)"
[ "$differ" = 0 ]
