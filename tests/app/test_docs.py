#!/usr/bin/env python3
"""The documentation runs: every world and every command in README.md and docs/*.md, and every link.

usage: test_docs.py --ubot PATH/TO/ubot [--python VENV/bin/python] [unittest args]   (Python standard library only)

What runs (conventions in docs/development.md, "Code blocks in the docs"):
- ```yaml: a whole world, unless the line before the fence is a marker
  `<!-- fragment: top-level -->` (top-level sections: media, mapping, obstacle, ...) or
  `<!-- fragment: robot -->` (keys of one robot entry, e.g. its `sensors:`), which are embedded in
  a minimal world built here. Either way the world is checked with `ubot validate` and run for
  3 steps. A yaml block cannot be skipped.
- ```sh: every `ubot ...` / `build/ubot ...` line (and the `export` lines before it) runs in a
  temporary directory holding `build/ubot`, `examples/`, `config/` and `tests/` of this tree.
  `make ...` lines do not run. `<!-- no-run: reason -->` before the fence skips a block (ROS 2
  networking, real-time runs); skipped blocks are counted and printed.
- ```python: runs in the same kind of scratch tree (build/ubot included) with --python (the
  pinned test venv's interpreter, whose ubot pip installed: docs/testing.md); without --python, with
  /usr/bin/python3 and the build tree's module (build/python next to the ubot binary) on
  PYTHONPATH, when it was built. `<!-- no-run: reason -->` skips a block.
- every other block names its language (json, cpp, csv, text); a `text` block with a `ubot`
  line must be a synopsis (hold a placeholder such as WORLD), or it should be an sh block.
- links: every relative link resolves to a file, every #anchor to a heading of that file.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UBOT = None
PYTHON = None  # --python: an interpreter with ubot installed; None: Debian's + the build tree

KNOWN_LANGUAGES = {"yaml", "sh", "python", "json", "cpp", "csv", "text"}
MARKER = re.compile(r"^\s*<!--\s*(fragment|no-run)\s*:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)\s*$")

# The world a fragment is embedded in: one diff robot with a lidar (so `mapping:` has a scanner),
# named robot_0 (so `attach: robot_0` finds it). A fragment's own keys replace these.
MINIMAL_TOP = {
    "world": "world:\n  width: 20\n  height: 20\n  step_time: 0.1\n",
}
MINIMAL_ROBOT = {
    "name": "name: robot_0",
    "kinematics": "kinematics: {name: diff}",
    "shape": "shape: {name: circle, radius: 0.2}",
    "state": "state: [5, 5, 0]",
    "goal": "goal: [15, 15, 0]",
    "sensors": "sensors:\n  - name: lidar2d\n    range_max: 5\n    number: 36",
}


class Block:
    def __init__(self, path, line, lang, text, marker):
        self.path, self.line, self.lang, self.text, self.marker = path, line, lang, text, marker

    def where(self):
        return f"{os.path.relpath(self.path, ROOT)}:{self.line}"


def read(path):
    with open(path) as f:
        return f.read()


def doc_files(root=ROOT):
    docs = os.path.join(root, "docs")
    return [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))


def code_blocks(path, text=None):
    """Every fenced block of a markdown file, dedented by its fence's indentation."""
    lines = (read(path) if text is None else text).split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m.group(1)), m.group(2), m.group(3)
        prev = next((l for l in reversed(lines[:i]) if l.strip()), "")
        pm = MARKER.match(prev)
        marker = (pm.group(1), pm.group(2)) if pm else None
        body, j = [], i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        if j == len(lines):
            raise AssertionError(f"{path}:{i + 1}: unclosed code block")
        blocks.append(Block(path, i + 1, lang, "\n".join(body) + "\n", marker))
        i = j + 1
    return blocks


def without_code(text, inline=True):
    """The markdown with fenced blocks blanked and (inline) inline code removed."""
    out, fence = [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if m and (fence is None or line.strip() == fence):
            fence = m.group(2) if fence is None else None
            out.append("")
            continue
        out.append("" if fence else re.sub(r"`[^`]*`", "", line) if inline else line)
    return "\n".join(out)


def github_slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for line in without_code(read(path), inline=False).split("\n"):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = github_slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f"{slug}-{n}")
    return result


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def link_errors(path, root=ROOT):
    """Relative links of one markdown file that point nowhere, as 'file:line: message'."""
    errors = []
    for n, line in enumerate(without_code(read(path)).split("\n"), 1):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part \
                else path
            where = f"{os.path.relpath(path, root)}:{n}"
            if not os.path.exists(dest):
                errors.append(f"{where}: link to {target}: no such file")
                continue
            if anchor and not dest.endswith(".md"):
                errors.append(f"{where}: link to {target}: anchors only into markdown files")
            elif anchor and anchor not in anchors(dest):
                errors.append(f"{where}: link to {target}: no heading with anchor #{anchor}")
    return errors


def top_level_keys(yaml_text):
    return {m.group(1) for m in re.finditer(r"^([A-Za-z_][\w]*)\s*:", yaml_text, re.M)}


def world_for(block):
    """The world file a yaml block stands for (the block itself, or a fragment embedded)."""
    if block.marker is None:
        return block.text
    kind, where = block.marker
    if kind != "fragment" or where not in ("top-level", "robot"):
        raise AssertionError(f"{block.where()}: a yaml block is a world or a fragment "
                             f"(top-level or robot), not {kind}: {where}")
    own = top_level_keys(block.text)
    if where == "top-level":
        parts = [v for k, v in MINIMAL_TOP.items() if k not in own]
        if "robot" not in own:
            parts.append(robot_entry(""))
        return "".join(parts) + block.text
    return MINIMAL_TOP["world"] + robot_entry(block.text, own)


def robot_entry(extra, own=()):
    keys = [v for k, v in MINIMAL_ROBOT.items() if k not in own]
    body = "\n".join(keys) + "\n" + extra
    return "robot:\n  - " + "\n".join("    " + l if l else l for l in body.split("\n"))[4:] + "\n"


def run_ubot(*args, cwd=None):
    return subprocess.run([UBOT, *args], capture_output=True, text=True, cwd=cwd)


def in_the_doc(block, world, message):
    """A whole world's error names the markdown line (a fragment's names the embedded world)."""
    if block.marker is not None:
        return message
    rel = os.path.relpath(block.path, ROOT)
    return re.sub(re.escape(world) + r":(\d+):",
                  lambda m: f"{rel}:{block.line + int(m.group(1))}:", message)


def check_world_block(block):
    """None when the block's world validates and runs 3 steps, else what went wrong."""
    with tempfile.TemporaryDirectory() as tmp:
        world = os.path.join(tmp, "world.yaml")
        with open(world, "w") as f:
            f.write(world_for(block))
        for args in (["validate", world],
                     ["run", world, "--steps", "3", "--out", os.path.join(tmp, "out"), "--quiet"]):
            r = run_ubot(*args, cwd=tmp)
            if r.returncode != 0:
                return f"{block.where()}: ubot {args[0]} exited {r.returncode}: " + \
                    in_the_doc(block, world, r.stderr.strip())
        with open(os.path.join(tmp, "out", "frames.jsonl")) as f:
            steps = sum(1 for _ in f) - 1
        if not 1 <= steps <= 3:
            return f"{block.where()}: the run recorded {steps} steps, not 1 to 3"
    return None


def command_lines(block):
    """(lines to run, count of make lines, other lines) of an sh block."""
    joined = block.text.replace("\\\n", " ")
    run, makes, other = [], 0, []
    for line in joined.split("\n"):
        code = re.sub(r"(^|\s)#.*$", "", line).strip()
        if not code:
            continue
        words = [w for w in code.split() if not re.match(r"^[A-Z_][A-Z0-9_]*=", w)]
        if words and words[0] == "make":
            makes += 1
        elif words and words[0] in ("ubot", "build/ubot"):
            run.append(code)
        elif words and words[0] == "export":
            run.append(code)
        else:
            other.append(code)
    return run, makes, other


def check_sh_block(block):
    """None when every ubot line of the block exits 0 in a scratch tree, else what went wrong."""
    lines, _, _ = command_lines(block)
    if not any(not l.startswith("export") for l in lines):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "build"))
        os.symlink(UBOT, os.path.join(tmp, "build", "ubot"))
        for name in ("examples", "config", "tests"):
            os.symlink(os.path.join(ROOT, name), os.path.join(tmp, name))
        script = "set -e\nubot() { \"$PWD/build/ubot\" \"$@\"; }\n" + "\n".join(
            f"echo '+ {l}' >&2\n{l}" for l in lines) + "\n"
        try:
            r = subprocess.run(["bash", "-c", script], cwd=tmp, capture_output=True, text=True,
                               timeout=60)
        except subprocess.TimeoutExpired:
            return f"{block.where()}: still running after 60 s (mark it no-run with a reason)"
        if r.returncode != 0:
            return f"{block.where()}: exited {r.returncode}:\n{r.stderr.strip()[-2000:]}"
    return None


def python_module_dir():
    """build/python next to the ubot binary when the module was built there, else None."""
    d = os.path.join(os.path.dirname(os.path.realpath(UBOT)), "python")
    return d if os.path.isdir(os.path.join(d, "ubot")) else None


def check_python_block(block):
    """None when the block exits 0 in a scratch tree with the module importable."""
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("examples", "config", "tests"):
            os.symlink(os.path.join(ROOT, name), os.path.join(tmp, name))
        # A block may run the command line too (docs/outputs.md writes Parquet with it).
        os.makedirs(os.path.join(tmp, "build"))
        os.symlink(UBOT, os.path.join(tmp, "build", "ubot"))
        if PYTHON:
            python, env = PYTHON, {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        else:
            python, env = "/usr/bin/python3", dict(os.environ, PYTHONPATH=python_module_dir())
        try:
            r = subprocess.run([python, "-c", block.text], cwd=tmp, env=env,
                               capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return f"{block.where()}: still running after 60 s (mark it no-run with a reason)"
        if r.returncode != 0:
            return f"{block.where()}: exited {r.returncode}:\n{r.stderr.strip()[-2000:]}"
    return None


def check_text_block(block):
    """A text block with ubot lines is a synopsis: some line holds a placeholder (WORLD, [...])."""
    lines = [l.strip() for l in block.text.split("\n") if re.match(r"^\s*(build/)?ubot\s", l)]
    if lines and not any(re.search(r"\b[A-Z]{2,}\b|\[", l) for l in lines):
        return f"{block.where()}: '{lines[0]}' is a runnable command: make the block sh"
    return None


class Docs(unittest.TestCase):
    def test_every_code_block_runs_or_is_marked(self):
        counts = {"world": 0, "fragment": 0, "sh blocks run": 0, "ubot lines run": 0,
                  "python blocks run": 0, "make lines": 0, "no-run blocks": 0, "other": 0}
        skipped, failures = [], []
        for path in doc_files():
            for block in code_blocks(path):
                if block.lang not in KNOWN_LANGUAGES:
                    failures.append(f"{block.where()}: code block language '{block.lang}' is "
                                    f"not one of {sorted(KNOWN_LANGUAGES)}")
                elif block.lang == "yaml":
                    counts["fragment" if block.marker else "world"] += 1
                    failures.append(check_world_block(block))
                elif block.lang in ("sh", "python") and block.marker and \
                        block.marker[0] == "no-run":
                    counts["no-run blocks"] += 1
                    skipped.append(f"{block.where()}: {block.marker[1]}")
                elif block.lang == "sh":
                    if block.marker:
                        failures.append(f"{block.where()}: an sh block takes only no-run")
                    lines, makes, _ = command_lines(block)
                    ubot_lines = [l for l in lines if not l.startswith("export")]
                    counts["make lines"] += makes
                    counts["ubot lines run"] += len(ubot_lines)
                    counts["sh blocks run"] += 1 if ubot_lines else 0
                    failures.append(check_sh_block(block))
                elif block.lang == "python":
                    if block.marker:
                        failures.append(f"{block.where()}: a python block takes only no-run")
                    elif PYTHON is None and python_module_dir() is None:
                        skipped.append(f"{block.where()}: the Python module was not built")
                    else:
                        counts["python blocks run"] += 1
                        failures.append(check_python_block(block))
                else:
                    counts["other"] += 1
                    if block.marker:
                        failures.append(f"{block.where()}: markers apply to yaml and sh blocks")
                    if block.lang == "text":
                        failures.append(check_text_block(block))
        print("\ndocs code blocks: " + ", ".join(f"{v} {k}" for k, v in counts.items()),
              file=sys.stderr)
        for s in skipped:
            print(f"  no-run {s}", file=sys.stderr)
        failures = [f for f in failures if f]
        self.assertEqual(failures, [], "\n" + "\n".join(failures))
        self.assertGreater(counts["world"] + counts["fragment"], 10)
        self.assertGreater(counts["ubot lines run"], 3)

    def test_every_relative_link_and_anchor_resolves(self):
        errors = [e for path in doc_files() for e in link_errors(path)]
        self.assertEqual(errors, [], "\n" + "\n".join(errors))

    def test_readme_is_a_landing_page(self):
        with open(os.path.join(ROOT, "README.md")) as f:
            self.assertLessEqual(len(f.read().split("\n")), 250)


class TheCheckerCatches(unittest.TestCase):
    """The checks above must be able to fail: each broken sample is reported."""

    def sample(self, markdown):
        with tempfile.NamedTemporaryFile("w", suffix=".md", dir=os.path.join(ROOT, "docs"),
                                         delete=False) as f:
            f.write(markdown)
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_a_broken_world(self):
        path = self.sample("```yaml\nrobot:\n  - sensors:\n      - {name: lidar2d, "
                           "range_max: far}\n```\n")
        error = check_world_block(code_blocks(path)[0])
        self.assertIn(f"{os.path.relpath(path, ROOT)}:4:", error)   # the line in the markdown
        self.assertIn("range_max: expected a number", error)

    def test_a_broken_fragment(self):
        path = self.sample("<!-- fragment: robot -->\n```yaml\nsensors:\n  - name: imu\n"
                           "    update_rate: 100\n```\n")
        self.assertIn("update_rate", check_world_block(code_blocks(path)[0]))

    def test_a_fragment_that_runs(self):
        path = self.sample("<!-- fragment: top-level -->\n```yaml\nmedia:\n  - attach: robot_0\n"
                           "    cells: [{position: [1, 0, 0], density: 0.5}]\n```\n")
        self.assertIsNone(check_world_block(code_blocks(path)[0]))

    def test_a_failing_command(self):
        path = self.sample("```sh\nmake demo\nbuild/ubot run examples/nowhere.yaml\n```\n")
        block = code_blocks(path)[0]
        self.assertEqual(command_lines(block)[:2], (["build/ubot run examples/nowhere.yaml"], 1))
        self.assertIn("nowhere.yaml", check_sh_block(block))

    def test_a_runnable_command_in_a_text_block(self):
        path = self.sample("```text\nubot validate examples/a.yaml\n```\n"
                           "```text\nubot run WORLD [--steps N]\nubot --version\n```\n")
        synopsis_too = code_blocks(path)
        self.assertIn("make the block sh", check_text_block(synopsis_too[0]))
        self.assertIsNone(check_text_block(synopsis_too[1]))

    def test_broken_links_and_anchors(self):
        path = self.sample("# Title\n\n[a](nowhere.md) [b](fov.md#no-such-heading) [c](#title) "
                           "`[d](inline-code.md)`\n")
        errors = link_errors(path)
        self.assertEqual(len(errors), 2, errors)
        self.assertIn("nowhere.md: no such file", errors[0])
        self.assertIn("no heading with anchor #no-such-heading", errors[1])

    def test_github_anchors(self):
        self.assertEqual(github_slug("Cameras (`depth_camera`, `rgb_camera`)"),
                         "cameras-depth_camera-rgb_camera")
        self.assertEqual(github_slug("ROS 2 bridge (`--ros2`)"), "ros-2-bridge---ros2")
        self.assertEqual(github_slug("`points.bin`"), "pointsbin")


def main():
    global UBOT, PYTHON
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    parser.add_argument("--python")
    args, rest = parser.parse_known_args()
    UBOT = os.path.abspath(args.ubot)
    PYTHON = args.python
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == "__main__":
    main()
