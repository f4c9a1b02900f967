#!/usr/bin/env bash
# Installs headless Chromium (Debian package chromium) for the explorer page's
# browser test in package server, driven by github.com/chromedp/chromedp.
# Safe to run again.
set -euo pipefail

for b in chromium chromium-browser; do
	if command -v "$b" >/dev/null 2>&1; then
		echo "chromium already installed: $(command -v "$b")"
		exit 0
	fi
done
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
if ! command -v chromium >/dev/null 2>&1; then
	echo "install-chromium: the chromium package did not provide the chromium command" >&2
	exit 1
fi
echo "chromium installed: $(command -v chromium)"
