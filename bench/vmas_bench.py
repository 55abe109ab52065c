#!/usr/bin/env python3
"""VMAS's `navigation` scenario next to its ubot twin: env-steps/s on the CPU, in one process.

    VENV/bin/python bench/vmas_bench.py [--sizes 1,64,1024,8192] [--steps S] [--seconds T]
                                        [--rounds R] [--json FILE]

VENV has ubot (with its extra `gym`) and vmas==1.5.2 with torch (CPU build). For each number of
parallel envs N: each simulator is warmed up (at least 5 steps and 1 s), then, in rounds
alternating the two (VMAS, ubot, VMAS, ubot, ...), steps random actions for `--steps` steps, or
for about `--seconds` of wall clock when `--steps` is not given; the figure is the median over
the rounds of N x steps / wall time, and the ratio is ubot's over VMAS's. Actions come from a
pool of 8 batches drawn before timing (the random-number draws are not timed, on either side).

- VMAS: ``vmas.make_env("navigation", num_envs=N, device="cpu", continuous_actions=True,
  seed=0, max_steps=100)`` with the scenario's defaults, then ``env.step(actions)`` (a list of
  4 tensors of shape (N, 2), uniform in [-1, 1]). Each step computes every agent's
  observation (position, velocity, goal offset, 12 lidar ranges), reward, the dones and the
  infos. VMAS does not reset ended envs by itself (a caller resets them); none are reset here,
  as in VMAS's own throughput figures. torch runs with its default threads
  (torch.get_num_threads(), printed; 2 on this 2-core machine) unless --torch-threads says
  otherwise. On a machine busy with other work, torch's 2 OpenMP threads (which spin while
  they wait) lose far more than ubot does: compare with --torch-threads 1 before trusting a
  loaded run.
- ubot: ``ubot.VectorEnv("bench/worlds/vmas_navigation.yaml", num_envs=N, seed=0, threads=0,
  max_steps=100, randomize=RANDOMIZE)`` (threads=0: every core; RANDOMIZE: new starts and goals
  at every episode, as VMAS draws them; ``--fixed-starts``: the world's one draw), then ``envs.step(actions)`` (an (N, 4, 2) array,
  uniform in the robots' velocity limits [-0.4, 0.4]). Each step computes the lidar, state,
  goal and flags observations, the reward, terminated / truncated, and resets the envs that
  ended (same-step auto-reset: its cost is in ubot's figure).

How the two tasks correspond (VMAS 1.5.2 navigation's defaults, vmas/scenarios/navigation.py):
4 agents, circles of radius 0.1 m; each has its own goal; starts and goals uniform in
[-1, 1]^2, at least 0.25 m apart; a full-circle lidar of 12 rays reaching 0.35 m that sees the
other agents (VMAS filters its rays to agents; the twin has nothing else to see); no obstacles
(VMAS's navigation has none, although issue 23 says "among obstacles"); no walls (VMAS's world
is unbounded by default); a step of 0.1 s; holonomic agents (VMAS's default dynamics, ubot's
`omni`); an agent is at its goal within 0.1 m (VMAS's done; ubot's goal_threshold); agents that
meet collide (VMAS: collisions=True; ubot: the collision flags of collision_mode stop);
horizon 100 steps.

Where they differ:
- Dynamics: VMAS integrates forces (the action is a force, 1 kg, drag 0.25 per step, 2
  substeps of 0.05 s: a terminal speed of 0.4 m/s per axis) and collisions are penalty forces
  between overlapping spheres (its own tensor physics); ubot's action is the velocity (omni
  kinematics, [vx, vy] within +-0.4 m/s, no inertia) and a collision is an exact overlap test.
- Episodes: ubot.VectorEnv ends an episode on the step an agent collides (or all arrive, or
  after 100 steps) and resets it inside step, so what happens after contact never plays out:
  the world's `stop` mode (kinematic, IR-SIM's default) is timed; `--collision-mode contact`
  times Box2D's contact solver instead (closer to VMAS's physics, a few times the cost).
  VMAS's episode ends only when all agents are on their goals (or after 100 steps), a
  collision costs a reward of -1, and nothing resets here.
- Resets: both redraw starts and goals at every reset, uniform in [-1, 1]^2: VMAS keeps every
  entity 0.25 m from the others (centres); ubot keeps robots 0.05 m apart (surfaces: the same
  0.25 m between centres), each goal 0.25 m from its start and 0.25 m from the other goals
  (ubot's randomize, placed by the C++ core at each auto-reset).
- Observations: VMAS returns per agent a float32 vector (pos, vel, goal offset, 12 x (0.35 -
  range)); ubot returns arrays of lidar ranges, state (x, y, yaw), goal and flags.
  Reward: VMAS's shared distance shaping + 0.01 when all are on goal - 1 per collision, per
  agent; ubot's sum over robots of distance gained + 1 on arrival - 1 on a collision, per env.
- VMAS is differentiable (torch tensors); ubot is not.

A size ubot.VectorEnv cannot make (before its scenes shared one Embree device it stopped at
about 1,020 envs) is reported with the error in its row, and VMAS is still timed there.
"""

import argparse
import atexit
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORLD = os.path.join(ROOT, "bench", "worlds", "vmas_navigation.yaml")
DEFAULT_SIZES = (1, 64, 1024, 8192)
MAX_STEPS = 100  # both horizons (BenchMARL's for navigation)
POOL = 8  # action batches drawn before timing, cycled
WARMUP_S = 1.0  # warm-up per simulator and size, at least (torch's first steps are slow)
WARMUP_STEPS = 5  # and at least this many steps


def machine():
    """CPU model, cores, AVX-512 flags (from /proc/cpuinfo), load average."""
    model, flags = platform.processor() or "?", []
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model in ("?", "", "x86_64"):
                    model = value.strip()
                if key.strip() == "flags" and not flags:
                    flags = value.split()
    except OSError:
        pass
    avx512 = sorted(f for f in flags if f.startswith("avx512"))
    hypervisor = "hypervisor" in flags
    return {"cpu": model, "cores": os.cpu_count(), "avx512": avx512, "virtual": hypervisor,
            "load_average_start": os.getloadavg()[0]}


def machine_busy_s():
    """CPU seconds every process on the machine has run so far (/proc/stat, all cores)."""
    try:
        with open("/proc/stat", encoding="utf-8") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    busy = sum(fields[:8]) - fields[3] - fields[4]  # all but idle and iowait (guest is in user)
    return busy / os.sysconf("SC_CLK_TCK")


class Others:
    """How many cores the machine's other processes kept busy between start and stop."""

    def __init__(self):
        self.wall, self.busy, self.own = time.perf_counter(), machine_busy_s(), time.process_time()

    def cores(self):
        wall = time.perf_counter() - self.wall
        other = (machine_busy_s() - self.busy) - (time.process_time() - self.own)
        return max(other, 0.0) / wall


class Vmas:
    def __init__(self, num_envs, max_steps=MAX_STEPS):
        import torch
        import vmas
        self.env = vmas.make_env("navigation", num_envs=num_envs, device="cpu",
                                 continuous_actions=True, seed=0, max_steps=max_steps)
        self.env.reset()
        gen = torch.Generator().manual_seed(0)
        n_agents = self.env.n_agents
        self.pool = [[torch.rand((num_envs, 2), generator=gen) * 2 - 1 for _ in range(n_agents)]
                     for _ in range(POOL)]
        self.k = 0

    def step(self):
        self.env.step(list(self.pool[self.k % POOL]))  # step() may rewrite the list it gets
        self.k += 1

    def ended(self, steps):
        """From a reset, the share of env-steps after which the env was done (all agents on
        their goals; the env was made without a horizon, and nothing is reset), and of those
        in which some agent collided (a collision penalty)."""
        done = collided = 0
        for _ in range(steps):
            _, _, dones, infos = self.env.step(list(self.pool[self.k % POOL]))
            self.k += 1
            done += int(dones.sum())
            hit = sum((info["agent_collisions"] < 0) for info in infos)
            collided += int(np.count_nonzero(hit.numpy()))
        n = steps * self.env.num_envs
        return {"done": done / n, "collided": collided / n}


# VMAS navigation's spawning (min_distance_between_entities 0.25 m between centres, agents of
# radius 0.1 m) in ubot's randomize terms.
RANDOMIZE = {"robots": True, "goals": True, "region": [-1.0, 1.0, -1.0, 1.0], "margin": 0.05,
             "min_goal_distance": 0.25, "yaw": False}


class Ubot:
    def __init__(self, num_envs, world, randomize=RANDOMIZE):
        import ubot
        self.envs = ubot.VectorEnv(world, num_envs=num_envs, seed=0, threads=0,
                                   max_steps=MAX_STEPS, randomize=randomize)
        self.envs.reset()
        rng = np.random.default_rng(0)
        low, high = self.envs.action_low, self.envs.action_high
        self.pool = rng.uniform(low, high, size=(POOL, num_envs) + low.shape)
        self.k = 0

    def step(self):
        self.envs.step(self.pool[self.k % POOL])
        self.k += 1

    def ended(self, steps):
        """The share of env-steps after which the env ended (and was reset inside step): by
        termination (a collision, or every robot arrived) and by truncation (max_steps)."""
        terminated = truncated = 0
        for _ in range(steps):
            _, _, term, trunc, _ = self.envs.step(self.pool[self.k % POOL])
            self.k += 1
            terminated += int(np.count_nonzero(term))
            truncated += int(np.count_nonzero(trunc))
        n = steps * self.envs.num_envs
        return {"terminated": terminated / n, "truncated": truncated / n}


def timed(sim, steps, seconds, min_steps=3):
    """One round: steps per second by wall clock, the steps timed, and the process's CPU
    seconds per wall second (how many cores it kept busy)."""
    n, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        sim.step()
        n += 1
        if steps:
            if n >= steps:
                break
        elif n >= min_steps and time.perf_counter() - start >= seconds:
            break
    wall = time.perf_counter() - start
    return n / wall, n, (time.process_time() - cpu) / wall


def bench_size(num_envs, args):
    """Median env-steps/s over the rounds, VMAS and ubot alternating."""
    t0, others = time.perf_counter(), Others()
    sims, row = {}, {"num_envs": num_envs}
    if not args.no_vmas:
        sims["vmas"] = Vmas(num_envs)
    try:
        sims["ubot"] = Ubot(num_envs, args.world, None if args.fixed_starts else RANDOMIZE)
    except Exception as error:  # noqa: BLE001 - ubot.Error and the like: reported in the row
        row["ubot_error"] = f"{type(error).__name__}: {error}"
    setup = time.perf_counter() - t0
    rates = {name: [] for name in sims}
    steps = {name: [] for name in sims}
    busy = {name: [] for name in sims}
    for sim in sims.values():
        timed(sim, 0, WARMUP_S, min_steps=WARMUP_STEPS)
    for _ in range(args.rounds):
        for name, sim in sims.items():
            rate, n, cores = timed(sim, args.steps, args.seconds)
            rates[name].append(rate * num_envs)
            steps[name].append(n)
            busy[name].append(cores)
    row["setup_s"] = setup
    row["others_cores"] = others.cores()
    for name in sims:
        row[name] = statistics.median(rates[name])
        row[f"{name}_rounds"] = rates[name]
        row[f"{name}_steps"] = steps[name]
        row[f"{name}_cpu_per_wall"] = busy[name]
    if "vmas" in sims and "ubot" in sims:
        row["ratio"] = row["ubot"] / row["vmas"]
    return row


def world_with_mode(world, mode):
    """A temporary copy of the world file with world.collision_mode set to `mode`."""
    with open(world, encoding="utf-8") as f:
        text = f.read()
    text, n = re.subn(r"(?m)^(\s+collision_mode:\s*)\S+", lambda m: m.group(1) + mode, text)
    if n != 1:
        raise SystemExit(f"{world}: no single world.collision_mode line to change")
    out = tempfile.NamedTemporaryFile("w", suffix=".yaml", prefix="vmas_navigation_",
                                      delete=False, encoding="utf-8")
    with out:
        out.write(text)
    atexit.register(os.unlink, out.name)
    return out.name


def versions():
    import ubot
    out = {"python": platform.python_version(), "numpy": np.__version__,
           "ubot": ubot.__version__}
    try:
        import torch
        import vmas
        out.update(vmas=vmas.__version__, torch=torch.__version__,
                   torch_threads=torch.get_num_threads(),
                   torch_interop_threads=torch.get_num_interop_threads(),
                   torch_cpu_capability=torch.backends.cpu.get_cpu_capability())
    except ImportError:
        pass
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)),
                        help="numbers of parallel envs, comma-separated (default %(default)s)")
    parser.add_argument("--steps", type=int, default=0,
                        help="timed steps per round (default: as many as fit in --seconds)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="wall time per round and simulator when --steps is not given")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per size (median)")
    parser.add_argument("--world", default=WORLD, help="the ubot twin world")
    parser.add_argument("--collision-mode",
                        help="time the world with this collision_mode (e.g. contact)")
    parser.add_argument("--no-vmas", action="store_true", help="time ubot only")
    parser.add_argument("--fixed-starts", action="store_true",
                        help="ubot's episodes all start from the world's one draw")
    parser.add_argument("--torch-threads", type=int, default=0,
                        help="torch.set_num_threads(T) first (default: torch's own, 2 here)")
    parser.add_argument("--ended-steps", type=int, default=100,
                        help="untimed steps at the smallest size >= 64 measuring how often "
                             "episodes end (0: skip)")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.torch_threads > 0 and not args.no_vmas:
        import torch
        torch.set_num_threads(args.torch_threads)
    world_name = os.path.relpath(args.world, ROOT)
    if args.collision_mode:
        world_name += f" (collision_mode: {args.collision_mode})"
        args.world = world_with_mode(args.world, args.collision_mode)

    info = {"machine": machine(), "versions": versions(),
            "conditions": {"steps": args.steps, "seconds": args.seconds, "rounds": args.rounds,
                           "warmup_s": WARMUP_S, "warmup_steps": WARMUP_STEPS,
                           "max_steps": MAX_STEPS, "ubot_threads": 0,
                           "world": world_name}}
    m, v = info["machine"], info["versions"]
    print(f"machine: {m['cpu']}{' (virtual)' if m['virtual'] else ''}, {m['cores']} cores, "
          f"AVX-512: {' '.join(m['avx512']) or 'no'}; load average {m['load_average_start']:.1f}"
          " at start")
    print("versions: " + ", ".join(f"{k} {val}" for k, val in v.items()))
    print(f"ubot world: {world_name}")
    rows, run_others = [], Others()
    for n in sizes:
        row = bench_size(n, args)
        rows.append(row)
        vm = f"{row['vmas']:>14,.0f}" if "vmas" in row else f"{'-':>14}"
        ub = f"{row['ubot']:>14,.0f}" if "ubot" in row else f"{'fails':>14}"
        ratio = f"{row['ratio']:>8.1f}x" if "ratio" in row else ""
        print(f"N={n:>6}  VMAS {vm}  ubot {ub} env-steps/s  {ratio}"
              f"   (steps per round: {row.get('vmas_steps', '-')} / {row.get('ubot_steps', '-')};"
              f" setup {row['setup_s']:.1f} s; other processes: {row['others_cores']:.2f} cores)",
              flush=True)
        if "ubot_error" in row:
            print(f"          ubot.VectorEnv({n} envs): {row['ubot_error']}", flush=True)
    ended = {}
    probe = min([n for n in sizes if 64 <= n <= 1000] or [64])
    if args.ended_steps > 0:
        ended = {"num_envs": probe, "steps": args.ended_steps,
                 "ubot": Ubot(probe, args.world, None if args.fixed_starts else RANDOMIZE)
                 .ended(args.ended_steps)}
        if not args.no_vmas:
            ended["vmas"] = Vmas(probe, max_steps=None).ended(args.ended_steps)
    m["load_average_end"] = os.getloadavg()[0]
    m["other_processes_cores"] = run_others.cores()

    print()
    print("| parallel envs | VMAS (CPU) env-steps/s | ubot env-steps/s | ubot / VMAS |")
    print("|---:|---:|---:|---:|")
    for row in rows:
        vm = f"{row['vmas']:,.0f}" if "vmas" in row else "-"
        ub = f"{row['ubot']:,.0f}" if "ubot" in row else "fails (see above)"
        ratio = f"{row['ratio']:.1f}x" if "ratio" in row else "-"
        print(f"| {row['num_envs']:,} | {vm} | {ub} | {ratio} |")
    if ended:
        u = ended["ubot"]
        print(f"\nepisode ends per env-step, N={probe}, {args.ended_steps} steps from a reset: "
              f"ubot {u['terminated']:.4f} terminated (collision / all arrived) + "
              f"{u['truncated']:.4f} truncated, each reset inside step"
              + (f"; VMAS {ended['vmas']['done']:.4f} done (all on goal; not reset), "
                 f"{ended['vmas']['collided']:.4f} with a collision" if "vmas" in ended else ""))
    print(f"load average {m['load_average_end']:.1f} at the end; other processes kept "
          f"{m['other_processes_cores']:.2f} of the {m['cores']} cores busy during the run")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({**info, "rows": rows, "ended_per_env_step": ended,
                       "argv": sys.argv[1:]}, f, indent=2)


if __name__ == "__main__":
    main()
