#!/usr/bin/env bash
# Installs XGBoost for Python (Debian package python3-xgboost, which brings
# numpy) for the gradient-boosting baseline of strata bench tabular, crowd and
# map. Package internal/xgboost runs it with /usr/bin/python3 (override with
# STRATA_PYTHON). Safe to run again.
set -euo pipefail

if /usr/bin/python3 -c 'import xgboost' >/dev/null 2>&1; then
	echo "xgboost already installed: $(/usr/bin/python3 -c 'import xgboost; print(xgboost.__version__)')"
	exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends python3-xgboost
/usr/bin/python3 -c 'import xgboost; print("xgboost installed:", xgboost.__version__)'
