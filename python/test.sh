#!/usr/bin/env bash
# The Python package's tests (issue 27), as CI runs them after `cargo test --release` (.ci/run):
# a venv under target/ with the package installed by `pip install .` (maturin builds the wheel from python/),
# pytest, numpy, and the adapters' packages (open_spiel, pettingzoo, gymnasium) from PyPI; then pytest on
# python/tests. The speed test runs target/release/dagaz, which `cargo build --release` (or `cargo test
# --release`) builds. PYTHON picks the interpreter (default python3); extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/pyvenv
if [ ! -x "$venv/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q ".[test,openspiel,pettingzoo]"
cargo build --release --quiet
cd python/tests
exec ../../"$venv"/bin/python -m pytest -q "$@"
