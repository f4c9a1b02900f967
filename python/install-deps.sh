#!/usr/bin/env bash
# Installs what the Python package's build and tests need from Debian:
# scikit-learn, pandas, pytest, venv, pip and wheel for /usr/bin/python3
# (Go and a C compiler are the repository's own needs). Safe to run again.
set -euo pipefail

if /usr/bin/python3 -c 'import sklearn, pandas, pytest, venv, ensurepip, pip, wheel' >/dev/null 2>&1; then
	echo "Python packages already installed: scikit-learn $(/usr/bin/python3 -c 'import sklearn; print(sklearn.__version__)')"
	exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends python3-sklearn python3-pandas python3-pytest python3-venv python3-pip python3-wheel python3-setuptools
/usr/bin/python3 -c 'import sklearn, pandas; print("scikit-learn", sklearn.__version__, "pandas", pandas.__version__, "installed")'
