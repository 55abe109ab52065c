#!/usr/bin/env python3
"""ubot's random shapes and random placement have IR-SIM's distributions (issue 13, item 6).

ubot draws from its own seeded streams, not numpy's generator, so the numbers differ; what must
agree is their distribution. tests/data/irsim_random/random_shapes_world.yaml holds 1500 random
polygons, 1000 random circles and 400 objects placed by `distribution: random` with a
min_distance; samples.json is what IR-SIM 2.12.0 drew for it (make_samples.py). For each
quantity below, a two-sample Kolmogorov-Smirnov test must not reject "same distribution" at
alpha = 0.001 (both sides are fixed by their seeds, so the test is deterministic), and, to show
the test has the power to notice, it must reject the same comparison with ubot's values scaled
by 15 % (POWER_CHECKED: the continuous quantities that scale with a wrong parameter; areas spread
over a factor of 50 and 400 placements uniform over a range are too few to tell 15 % apart).

usage: test_irsim_random.py --ubot PATH/TO/ubot
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "irsim_random")
ALPHA = 0.001
POWER_CHECKED = ("polygon vertex count", "polygon vertex distance from the body origin",
                 "circle radius", "placement nearest-neighbour distance")


def ks_p_value(a, b):
    """Two-sample Kolmogorov-Smirnov test: the asymptotic p-value of max |F_a - F_b|."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    n = len(a) * len(b) / (len(a) + len(b))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    p = 2.0 * sum((-1) ** (k - 1) * math.exp(-2.0 * k * k * lam * lam) for k in range(1, 101))
    return min(1.0, max(0.0, p))


def area(vertices):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in
                   zip(vertices, vertices[1:] + vertices[:1]))) / 2.0


def is_envelope(vertices):
    """IR-SIM's repair of an invalid polygon: its axis-aligned bounding box."""
    if len(vertices) != 4:
        return False
    xs = sorted({round(v[0], 9) for v in vertices})
    ys = sorted({round(v[1], 9) for v in vertices})
    return len(xs) == 2 and len(ys) == 2


def nearest_neighbour(points):
    return [min(math.dist(p[:2], q[:2]) for k, q in enumerate(points) if k != i)
            for i, p in enumerate(points)]


def quantities(polygons, radii, placements):
    """The compared quantities, each a list of samples."""
    return {
        "polygon vertex count": [len(p) for p in polygons],
        "polygon vertex distance from the body origin": [math.hypot(*v) for p in polygons
                                                         for v in p if not is_envelope(p)],
        "polygon area": [area(p) for p in polygons],
        "circle radius": radii,
        "placement x": [p[0] for p in placements],
        "placement y": [p[1] for p in placements],
        "placement heading": [p[2] for p in placements],
        "placement nearest-neighbour distance": nearest_neighbour(placements),
    }


def ubot_draws(ubot):
    out = os.path.join("/tmp", f"ubot_irsim_random_{os.getpid()}")
    try:
        subprocess.run([ubot, "run", os.path.join(DATA, "random_shapes_world.yaml"), "--steps",
                        "0", "--quiet", "--out", out], check=True)
        with open(os.path.join(out, "frames.jsonl")) as f:
            header = json.loads(f.readline())
    finally:
        shutil.rmtree(out, ignore_errors=True)
    objects = header["objects"]
    polygons = [o["shape"]["vertices"] for o in objects[:1500]]
    radii = [o["shape"]["radius"] for o in objects[1500:2500]]
    placements = [o["state"] for o in objects[2500:]]
    return polygons, radii, placements


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ubot", required=True)
    args = parser.parse_args()
    with open(os.path.join(DATA, "samples.json")) as f:
        irsim = json.load(f)
    assert irsim["irsim_version"] == "2.12.0"
    assert len(irsim["polygons"]) == 1500 and len(irsim["circle_radii"]) == 1000
    assert len(irsim["placements"]) == 400
    polygons, radii, placements = ubot_draws(args.ubot)
    theirs = quantities(irsim["polygons"], irsim["circle_radii"], irsim["placements"])
    ours = quantities(polygons, radii, placements)
    failures = []
    for name, samples in ours.items():
        p = ks_p_value(samples, theirs[name])
        scaled = ks_p_value([1.15 * s for s in samples], theirs[name])
        print(f"{name}: KS p = {p:.3g} (n = {len(samples)}, IR-SIM {len(theirs[name])}); "
              f"scaled by 15 %: p = {scaled:.3g}")
        if p < ALPHA:
            failures.append(f"{name}: ubot's distribution differs from IR-SIM's (p = {p:.3g})")
        if scaled >= ALPHA and name in POWER_CHECKED:
            failures.append(f"{name}: the test cannot tell a 15 % scaling apart (p = {scaled:.3g})")
    # IR-SIM replaces invalid (self-touching) random polygons by their bounding box; so does ubot,
    # about as often (binomial, 4 standard deviations).
    ours_env = sum(map(is_envelope, polygons)) / len(polygons)
    theirs_env = sum(map(is_envelope, irsim["polygons"])) / len(irsim["polygons"])
    sigma = math.sqrt(2 * theirs_env * (1 - theirs_env) / len(polygons))
    print(f"bounding-box repairs: ubot {ours_env:.3%}, IR-SIM {theirs_env:.3%}")
    if abs(ours_env - theirs_env) > 4 * sigma:
        failures.append(f"bounding-box repairs: ubot {ours_env:.3%}, IR-SIM {theirs_env:.3%}")
    if min(ours["placement nearest-neighbour distance"]) < 0.8:
        failures.append("a random placement is closer than min_distance 0.8 to another")
    if failures:
        print("\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
