"""What the tests that read ubot's files with independent npm readers share: installing the
pinned packages into a build-tree folder (once) and running a reader script under node."""
import json
import os
import shutil
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def install(npm_dir, packages, script_path, purpose):
    """Installs `packages` ("name@version"; the first one tells whether a previous install is
    current) into `npm_dir`, copies the reader script next to node_modules (for ESM module
    resolution) and returns (node, script)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        fail(f"node and npm are needed to {purpose}; install them "
             "(scripts/install-deps.sh test installs nodejs and npm)")
    name, version = packages[0].rsplit("@", 1)
    marker = os.path.join(npm_dir, "node_modules", *name.split("/"), "package.json")
    if not os.path.exists(marker) or json.load(open(marker))["version"] != version:
        os.makedirs(npm_dir, exist_ok=True)
        r = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix",
                            npm_dir, *packages], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"npm install {' '.join(packages)} failed:\n{r.stdout}\n{r.stderr}")
    script = os.path.join(npm_dir, os.path.basename(script_path))
    shutil.copyfile(script_path, script)
    return node, script


def run_reader(node, script, args, reader, timeout=120):
    """Runs the reader script on `args` and returns what it printed (JSON); a rejection or a
    reader that does not finish in `timeout` s fails the test, naming `reader`."""
    try:
        r = subprocess.run([node, script, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"{reader} did not finish reading {args[0]} within {timeout} s")
    if r.returncode != 0:
        fail(f"{reader} rejected {args[0]}:\n{r.stderr}")
    return json.loads(r.stdout)
