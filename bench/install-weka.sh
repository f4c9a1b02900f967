#!/usr/bin/env bash
# Installs Weka (Debian package weka, which brings a Java runtime) for the
# paper's baselines: J48 (C4.5), JRip (RIPPER) and RandomForest -I 100.
# The package puts the jar at /usr/share/java/weka.jar, where package weka
# looks for it (override with WEKA_JAR). Safe to run again.
set -euo pipefail

jar=${WEKA_JAR:-/usr/share/java/weka.jar}
if [ -r "$jar" ] && command -v java >/dev/null 2>&1; then
	echo "weka already installed: $jar"
	exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends weka default-jre-headless
if [ ! -r "$jar" ]; then
	echo "install-weka: the weka package did not provide $jar" >&2
	exit 1
fi
echo "weka installed: $jar"
