#!/usr/bin/env python3
"""The Python tests' fixture: this interpreter's ubot is the pip-installed copy of SOURCE_DIR.

usage: venv_check.py SOURCE_DIR (run with the test venv's interpreter, tests/python/CMakeLists.txt)

Fails, saying what to run, when the venv is missing ubot, when ubot would be imported from the
source or build tree instead of site-packages, or when an installed file differs from the
source (an install older than the checkout): the tests must test this checkout as pip
installed it.
"""

import filecmp
import os
import re
import sys

FIX = "run `make venv` (scripts/test-venv.sh) to install this checkout into the test venv"


def main():
    source = os.path.abspath(sys.argv[1])
    try:
        import ubot
    except ImportError as e:
        sys.exit(f"{sys.executable}: cannot import ubot ({e}); {FIX}")
    package = os.path.dirname(os.path.abspath(ubot.__file__))
    if "site-packages" not in package.split(os.sep):
        sys.exit(f"ubot imported from {package}, not from the venv's site-packages; {FIX}")
    with open(os.path.join(source, "CMakeLists.txt")) as f:
        version = re.search(r"project\(ubot VERSION ([0-9.]+)", f.read()).group(1)
    if ubot.__version__ != version:
        sys.exit(f"the venv's ubot is {ubot.__version__}, the checkout {version}; {FIX}")
    tree = os.path.join(source, "python", "ubot")
    stale = []
    for folder, _, files in os.walk(tree):
        for name in files:
            if not name.endswith(".py"):
                continue
            mine = os.path.join(folder, name)
            installed = os.path.join(package, os.path.relpath(mine, tree))
            if not os.path.exists(installed) or not filecmp.cmp(mine, installed, shallow=False):
                stale.append(os.path.relpath(mine, source))
    if stale:
        sys.exit(f"the venv's ubot differs from the checkout in {', '.join(sorted(stale))}; {FIX}")
    print(f"ubot {ubot.__version__} from {package} (Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
