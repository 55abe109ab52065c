"""IR-SIM's ``EnvBase`` over ``ubot.Simulation``: the loop ``step(); render(); done()``.

Motion, sensors, collisions and the built-in behaviours run in C++; this class keeps IR-SIM's
names, argument orders and return shapes. See docs/irsim-python.md for what differs.
"""

import os
import sys
import time
import warnings
from types import SimpleNamespace

import numpy as np

from ubot._quote import quote

from .. import _render, _world_prep
from .._behaviors import BehaviorRunner
from ..util import random as irsim_random
from ..util.util import file_check, to_numpy
from ..world.object_base import ObjectBase

# IR-SIM's draws per obstacle in random_obstacle_position(non_overlapping=True).
_RANDOM_POSE_TRIES = 100

# Set by `python3 -m ubot.irsim --max-steps N` (None: no limit).
MAX_STEPS = None


class EnvBase:
    def __init__(self, world_name=None, display: bool = True, disable_all_plot: bool = False,
                 save_ani: bool = False, ani_kwargs=None, full: bool = False, log_file=None,
                 log_level: str = "INFO", seed=None, step_mode=None, headless: bool = False):
        path = file_check(world_name)
        if path is None:
            raise FileNotFoundError(f"world file {world_name!r} not found")
        # IR-SIM 2.12's `headless` (no figure, window or keyboard); `disable_all_plot` is its
        # older name, which 2.12 keeps as an alias.
        self.headless = bool(headless or disable_all_plot)
        self.display = display and not self.headless
        self.disable_all_plot = self.headless
        self.save_ani = save_ani
        self.ani_kwargs = dict(ani_kwargs or {})
        self.full = full
        # IR-SIM's step_mode: make()'s overrides the world's (checked as IR-SIM does: stripped,
        # lower case). `external`: the caller places the objects (set_state, set_velocity) and
        # env.step() only runs the sensors and the flags at those poses.
        self._step_mode_override = None
        if step_mode is not None:
            self._step_mode_override = str(step_mode).strip().lower()
            if self._step_mode_override not in ("internal", "external"):
                raise ValueError(f"step_mode must be 'internal' or 'external', got {quote(step_mode)}")
        irsim_random.set_seed(seed)
        self._seed = seed
        self._world_file = path
        self._viewer = _render.Viewer() if self.display else None
        # With UBOT_LIVE (or `python3 -m ubot.irsim --live ADDR`), display=True shows the run in
        # the live page and in Foxglove instead of (or beside) a matplotlib window.
        self._live = os.environ.get("UBOT_LIVE") if self.display else None
        self._title = None
        self._status = "None"
        self._drawings = []
        self.pause_flag = self.quit_flag = self.debug_flag = False
        self.reset_flag = self.reload_flag = self.save_figure_flag = False
        self._load(path, seed)

    # --- loading -------------------------------------------------------------------------
    def _load(self, path: str, seed) -> None:
        loaded = _world_prep.load(path, seed=seed, step_mode=self._step_mode_override)
        self._step_mode = _world_prep.world_step_mode({"world": loaded.world}) \
            if self._step_mode_override is None else self._step_mode_override
        if self._live and getattr(self, "_sim", None) is not None:
            self._sim.close()  # frees the live view's port for the new world's
        self._sim = loaded.sim
        if loaded.behaviors:
            # The native simulation holds the world without them: a pickle of it alone would
            # drop them (docs/python.md, "Snapshots, state files and pickling").
            names = sorted({plan.config.get("name", "?") for plan in loaded.behaviors})
            self._sim._forbid_pickling(
                f"its world's behaviours {', '.join(map(repr, names))} run in Python "
                "(ubot.irsim), outside the native simulation a pickle holds")
        if self._live:
            print(f"live view at {self._sim.serve(self._live)}", flush=True)
        self._world_cfg = loaded.world
        self._config = loaded.sections
        configs = self._object_configs(loaded)
        self._objects = [ObjectBase(self, native, configs.get(native.name, {}))
                         for native in self._sim.objects]
        self._robots = [o for o in self._objects if o.role == "robot"]
        self._obstacles = [o for o in self._objects if o.role == "obstacle"]
        self._by_role = {"robot": self._robots, "obstacle": self._obstacles}
        self._behaviors = BehaviorRunner(loaded.behaviors, lambda plan: self._members(loaded, plan))
        self._initial_states = {}
        sample = float(self._world_cfg.get("sample_time", self.step_time) or self.step_time)
        # IR-SIM 2.12.0 renders every int(round(sample_time / step_time, 9))-th step
        # (World.sample_steps; 2.10.2 truncated the quotient: 0.3 / 0.1 gave 2, now 3)
        self._sample_every = max(1, int(round(sample / self.step_time, 9)))

    @property
    def config(self) -> dict:
        """The world file's sections as written (IR-SIM 2.12.0's ``env.config``): ``world``,
        ``gui``, ``robot``, ``obstacle`` and ``custom``, the scenario's own values."""
        return self._config

    def _object_configs(self, loaded) -> dict:
        """Each object's YAML entry, by object name (entries with ``number`` cover several)."""
        configs = {}
        names = {"robot": self._sim.robot_names, "obstacle": self._sim.obstacle_names}
        for role, counts in loaded.entry_counts.items():
            start = 0
            for entry, count in zip(loaded.entries[role], counts):
                for name in names[role][start:start + count]:
                    configs[name] = entry if isinstance(entry, dict) else {}
                start += count
        return configs

    def _members(self, loaded, plan) -> list:
        counts = loaded.entry_counts[plan.role]
        start = sum(counts[:plan.entry])
        return self._by_role[plan.role][start:start + counts[plan.entry]]

    # --- the loop ------------------------------------------------------------------------
    def step(self, action=None, action_id=None) -> None:
        """One step. ``action``: one command (an ndarray, or a flat list of numbers such as
        ``[1.0, 0.5]``) for object ``action_id``, a list of commands for objects ``action_id,
        action_id + 1, ...`` (or for the ids in a list ``action_id``), or a dict ``{name:
        command}``. ``action_id`` is an object id or name (IR-SIM 2.12's forms), by default the
        first robot (id 0). Objects without a command follow their behaviour."""
        if self.quit_flag:
            self.quit()
        if self.pause_flag:
            return
        if self._step_mode == "external":
            if self._has_action(action):
                raise ValueError(
                    "env.step(action=...) is unavailable when step_mode='external'. Update "
                    "object states with set_state()/set_velocity(), then call env.step() "
                    "without an action.")
            self._sim.step(None)  # sensors and flags at the poses set; nothing moves
        elif action is None and not self._behaviors:
            self._sim.step(None)
        else:
            commands = self._commands(action, action_id)
            self._behaviors.fill(commands)
            self._sim.step(commands or None)
        self._status = "Running"

    @staticmethod
    def _has_action(action) -> bool:
        """IR-SIM's test: some item of the action (a list of them, or one) is not None."""
        if action is None:
            return False
        if isinstance(action, dict):
            return any(v is not None for v in action.values())
        if isinstance(action, (list, tuple)):
            return any(item is not None for item in action)
        return True

    def _commands(self, action, action_id) -> dict:
        commands = {}
        if action is None:
            return commands
        if isinstance(action, dict):  # {name: command}
            pairs = list(action.items())
        else:
            if action_id is None:
                action_id = 0
            one = isinstance(action, np.ndarray) or (
                isinstance(action, (list, tuple)) and len(action) > 0
                and all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
                        for v in action))
            if one:  # a single command, for one object or each of the objects listed
                ids = action_id if isinstance(action_id, (list, tuple)) else [action_id]
                pairs = [(i, action) for i in ids]
            elif isinstance(action_id, (list, tuple)):
                pairs = list(zip(action_id, action))
            else:
                start = self._object_of(action_id).id
                count = min(len(action), len(self._objects) - start)
                if count < len(action):
                    warnings.warn(f"env.step: {len(action)} actions for the {count} objects from "
                                  f"id {start} on; the rest are ignored (as IR-SIM does)",
                                  stacklevel=3)
                pairs = [(start + k, action[k]) for k in range(count)]
        for key, command in pairs:
            if command is None:
                continue
            values = np.asarray(command, dtype=float).reshape(-1)
            commands[self._object_of(key).name] = [float(values[0]), float(values[1])]
        return commands

    def _object_of(self, key):
        """The object with id or name ``key`` (ValueError naming it when there is none)."""
        if isinstance(key, str):
            obj = self.get_object_by_name(key)
        else:
            index = int(key)
            obj = self._objects[index] if 0 <= index < len(self._objects) else None
        if obj is None:
            raise ValueError(f"env.step: no object {quote(key)} (objects: {', '.join(self.names)})")
        return obj

    def done(self, mode: str = "all"):
        """Robots done (arrived or stopped): all of them (``mode='all'``) or any; also true after
        ``MAX_STEPS`` steps when ``python3 -m ubot.irsim --max-steps N`` set it."""
        if MAX_STEPS is not None and self._sim.step_count >= MAX_STEPS:
            return True
        if not self._robots:
            return False
        if mode == "all":
            return bool(self._sim.done())
        if mode == "any":
            return any(r.done() for r in self._robots)
        return None

    def render(self, interval: float = 0.01, figure_kwargs=None, mode: str = "dynamic", **kwargs) -> None:
        """Keeps a frame when ``save_ani`` is on and shows it when a display is available;
        headless without ``save_ani`` it draws nothing."""
        if self.disable_all_plot or self._sim.step_count % self._sample_every:
            return
        if self.save_ani:
            self.save_figure(save_gif=True)
        if self._viewer:
            self._viewer.show(self._sim, interval)
        elif self._live:
            time.sleep(max(float(interval), 0.0))  # IR-SIM's plt.pause: the script's pace

    def show(self) -> None:
        if self._viewer:
            self._viewer.show(self._sim, 0.001)

    def end(self, ending_time: float = 3.0, **kwargs) -> None:
        """Finishes: joins the saved frames into ``animation/animation_<world>.gif`` when
        ``save_ani`` is on (Pillow; without it the PNG frames stay in animation_buffer/)."""
        if self.disable_all_plot:
            return
        if self.save_ani:
            options = {**self.ani_kwargs, **kwargs}
            dirs = _render.output_dirs()
            name = options.get("ani_name", f"animation_{self.world_name}")
            suffix = options.get("suffix", ".gif")
            self.animation_file = _render.assemble_animation(
                dirs["buffer"], os.path.join(dirs["animation"], name + suffix),
                remove_frames=options.get("rm_fig_path", True))
        if self._viewer:
            self._viewer.close()

    def close(self, ending_time: float = 3.0, **kwargs) -> None:
        self.end(ending_time, **kwargs)

    def quit(self) -> None:
        self.quit_flag = True
        self.end(ending_time=1.0)
        raise SystemExit(0)

    def pause(self) -> None:
        self.pause_flag = True

    def resume(self) -> None:
        self.pause_flag = False

    # --- resetting -----------------------------------------------------------------------
    def reset(self, random: bool = False) -> None:
        """Back to the initial states. ``random=True`` rebuilds the world with a seed drawn
        from ``irsim.util.random.rng`` (as IR-SIM rebuilds from the cached YAML), so random
        distributions are drawn anew; ``set_random_seed`` makes that reproducible."""
        if random:
            self._sim.close()
            self._load(self._world_file, int(irsim_random.rng.integers(0, 2**31 - 1)))
        else:
            self._sim.reset()
            for obj_id, state in self._initial_states.items():
                self._sim.set_state(obj_id, state)
        self._status = "Reset"
        self.reset_flag = False

    def reload(self, world_name=None) -> None:
        path = file_check(world_name) if world_name else self._world_file
        if path is None:
            raise FileNotFoundError(f"world file {world_name!r} not found")
        self._sim.close()
        self._world_file = path
        self._load(path, self._seed)
        self.reload_flag = False

    def set_random_seed(self, seed=None, reload: bool = False) -> None:
        irsim_random.set_seed(seed)
        self._seed = seed
        if reload:
            self.reload()

    def random_obstacle_position(self, range_low=None, range_high=None, ids=None,
                                 non_overlapping: bool = False) -> None:
        """Places obstacles (ids, default all) at uniform random poses from
        ``irsim.util.random.rng``; they stay there on ``reset``. ``non_overlapping`` draws a
        pose again (up to 100 times, as IR-SIM) while the obstacle touches or overlaps an object
        placed before or left where it was (IR-SIM's exact shapes, not bounding circles); an
        obstacle that finds no free pose is left at its last draw, as in IR-SIM, and one
        ``UserWarning`` names every such obstacle (IR-SIM says nothing, IR-SIM #125)."""
        low = to_numpy(range_low, np.array([0, 0, -3.14]), (3, 1))
        high = to_numpy(range_high, np.array([10, 10, 3.14]), (3, 1))
        if ids is None:
            ids = [obs.id for obs in self._obstacles]
        chosen = [obs for obs in self._obstacles if obs.id in ids]
        placed = [obj for obj in self._objects if obj.id not in ids]
        unplaced = []
        for obj in chosen:
            if not non_overlapping:
                obj.set_state(irsim_random.rng.uniform(low, high, (3, 1)), init=True)
                continue
            for _ in range(_RANDOM_POSE_TRIES):
                obj.set_state(irsim_random.rng.uniform(low, high, (3, 1)), init=True)
                if not any(self._overlap(obj, other) for other in placed):
                    placed.append(obj)  # as IR-SIM: only a free obstacle bars later ones
                    break
            else:
                unplaced.append(obj.name)
        if unplaced:
            warnings.warn(
                f"random_obstacle_position: {len(unplaced)} of {len(chosen)} obstacles found no "
                f"pose free of the others in {_RANDOM_POSE_TRIES} draws each and overlap: "
                f"{', '.join(unplaced[:10])}{' ...' if len(unplaced) > 10 else ''} (range "
                f"{low[:2, 0].tolist()} to {high[:2, 0].tolist()}); give them a wider range, or "
                "fewer or smaller obstacles", UserWarning, stacklevel=2)

    def _overlap(self, a, b) -> bool:
        """Whether two objects' shapes touch or overlap now (IR-SIM's check_collision)."""
        return self._sim.clearance(a._native, b._native) == 0.0

    # --- information ---------------------------------------------------------------------
    @property
    def robot(self):
        return self._robots[0] if self._robots else None

    @property
    def robot_list(self) -> list:
        return list(self._robots)

    @property
    def obstacle_list(self) -> list:
        return list(self._obstacles)

    @property
    def objects(self) -> list:
        return list(self._objects)

    @property
    def static_objects(self) -> list:
        return [o for o in self._objects if o.static]

    @property
    def dynamic_objects(self) -> list:
        return [o for o in self._objects if not o.static]

    @property
    def robot_number(self) -> int:
        return len(self._robots)

    @property
    def obstacle_number(self) -> int:
        return len(self._obstacles)

    @property
    def names(self) -> list:
        return [o.name for o in self._objects]

    @property
    def step_time(self) -> float:
        return float(self._sim.step_time)

    @property
    def step_mode(self) -> str:
        return self._step_mode

    @property
    def time(self) -> float:
        return float(self._sim.time)

    @property
    def world_name(self) -> str:
        return os.path.basename(self._world_file).split(".")[0]

    @property
    def status(self) -> str:
        """IR-SIM's status words: 'Arrived', 'Collision', 'Running', 'Reset', 'None'."""
        if self._status in ("Running",) and self._robots:
            if all(r.arrive for r in self._robots):
                return "Arrived"
            if any(r.collision for r in self._robots):
                return "Collision"
        return self._status

    def set_status(self, status: str) -> None:
        self._status = status

    def set_title(self, title: str) -> None:
        self._title = title

    @property
    def simulation(self):
        """The underlying ``ubot.Simulation`` (for sensors IR-SIM has no getter for)."""
        return self._sim

    # keyboard and mouse do not exist in a headless run
    @property
    def key_vel(self):
        """IR-SIM 2.12.0's keyboard command [[linear], [lateral], [angular]]: zeros without a
        keyboard, as always here (2.10.2 gave None)."""
        return np.zeros((3, 1))

    key_id = 0
    mouse_pos = None
    mouse_left_pos = None
    mouse_right_pos = None

    def get_robot_state(self) -> np.ndarray:
        return self.robot.state

    def get_lidar_scan(self, id: int = 0) -> dict:
        return self._robots[id].get_lidar_scan()

    def get_lidar_offset(self, id: int = 0) -> list:
        return self._robots[id].get_lidar_offset()

    def get_robot_info(self, id: int = 0):
        return self._robots[id].get_info()

    def get_robot_info_list(self) -> list:
        return [r.get_info() for r in self._robots]

    def get_obstacle_info_list(self) -> list:
        return [o.get_obstacle_info() for o in self._obstacles]

    def get_group_by_name(self, group_name: str) -> list:
        return [o for o in self._objects if o.group_name == group_name]

    def get_object_by_name(self, name: str):
        return next((o for o in self._objects if o.name == name), None)

    def get_object_by_id(self, target_id: int):
        return next((o for o in self._objects if o.id == target_id), None)

    def get_map(self, resolution: float = 0.1):
        """The world's extent and obstacles (IR-SIM's ``Map`` fields), its grid map as IR-SIM's
        ``grid`` (occupancy 0..100 indexed ``[ix, iy]``, a copy; None without
        ``world.obstacle_map``) and ``seed`` (the world's, for the sampling planners)."""
        world = self._world_cfg
        offset = world.get("offset", [0, 0])
        grid_map = self._sim.grid_map
        grid = None if grid_map is None else grid_map["occupancy"]
        return SimpleNamespace(width=float(world.get("width", 10)),
                               height=float(world.get("height", 10)), resolution=resolution,
                               obstacle_list=list(self._obstacles), grid=grid,
                               world_offset=(float(offset[0]), float(offset[1])),
                               seed=int(self._sim.seed))

    def get_msg(self, id: int = 0, use_inf: bool = False) -> dict:
        """A ROS ``sensor_msgs/LaserScan``-shaped dict of robot ``id``'s lidar; beams without a
        return read ``inf`` with ``use_inf`` (REP 117), else ``range_max`` as IR-SIM's scan."""
        scan = self._scan_dict(self._robots[id])
        msg = {k: scan[k] for k in ("angle_min", "angle_max", "angle_increment",
                                    "time_increment", "scan_time", "range_min", "range_max")}
        ranges = np.array(scan["ranges"], dtype=float)
        if use_inf:
            ranges[~self._robots[id].lidar.valid] = np.inf
        msg["ranges"] = ranges
        msg["intensities"] = []
        msg["header"] = {"stamp": self.time, "frame_id": f"{self._robots[id].name}/lidar"}
        return msg

    def _scan_dict(self, obj) -> dict:
        """IR-SIM 2.12.0's ``Lidar2D.get_scan`` dict (``FMCWLidar2D``'s keys for an FMCW lidar):
        ``angle_increment`` is the beam spacing, span / (number - 1) (0 for one beam; 2.10.2
        reported span / number), ``time_increment`` 0 (one instantaneous snapshot), and the
        lidar2d dict ends with ``valid`` as the FMCW one does."""
        lidar = obj._require_lidar()
        config = obj._lidar_config()
        ranges = np.asarray(lidar.ranges, dtype=float)
        valid = np.asarray(lidar.valid, dtype=bool)
        number = ranges.size
        span = float(lidar.angle_max - lidar.angle_min)
        scan_time = float(config.get("scan_time", 0.1))
        # The native ranges are IR-SIM's: a miss reads range_max, a hit inside the blind zone
        # range_min (IR-SIM 2.12.0's lidar2d and fmcw_lidar2d; both invalid).
        scan = {
            "angle_min": float(lidar.angle_min), "angle_max": float(lidar.angle_max),
            "angle_increment": span / (number - 1) if number > 1 else 0.0,
            "time_increment": 0.0,
            "scan_time": scan_time, "range_min": float(lidar.range_min),
            "range_max": float(lidar.range_max),
            "ranges": ranges.copy(), "intensities": None,
        }
        if config.get("type") == "fmcw_lidar2d":
            radial = np.asarray(lidar.velocities, dtype=float)
            scan["radial_velocity"] = radial if radial.size == number else np.zeros(number)
        else:
            scan["velocity"] = np.zeros((2, number))
        scan["valid"] = valid.copy()
        return scan

    # --- drawing and pictures ------------------------------------------------------------
    def draw_trajectory(self, traj, traj_type: str = "g-", label: str = "trajectory", show_direction=False, refresh=False, **kwargs) -> None:
        """Recorded only: ubot's pictures do not draw overlays (see docs/irsim-python.md)."""
        self._drawings.append(("trajectory", traj, traj_type))

    def draw_points(self, points, s: int = 30, c: str = "b", refresh: bool = True, **kwargs) -> None:
        self._drawings.append(("points", points, c))

    def draw_box(self, vertices, refresh: bool = False, color: str = "b-") -> None:
        self._drawings.append(("box", vertices, color))

    def draw_quiver(self, point, refresh: bool = False, **kwargs) -> None:
        self._drawings.append(("quiver", point, None))

    def draw_quivers(self, points, refresh: bool = False, **kwargs) -> None:
        self._drawings.append(("quivers", points, None))

    def save_figure(self, save_name=None, include_index: bool = False, save_gif: bool = False, **kwargs) -> str:
        """Writes the world's picture: ``figure/NAME.FORMAT`` beside the script (an animation
        frame ``animation_buffer/NAME_NNNN.png`` with ``save_gif``). Returns the path."""
        file_save_name = save_name or self.world_name + ".png"
        name, fmt = file_save_name.rsplit(".", 1) if "." in file_save_name else (file_save_name, "png")
        dirs = _render.output_dirs()
        folder = dirs["buffer"] if save_gif else dirs["figure"]
        if include_index or save_gif:
            name = f"{name}_{self._sim.step_count:04d}"
        path = os.path.join(folder, f"{name}.{fmt}")
        _render.write_picture(self._sim, path)
        return path

    def load_behavior(self, behaviors: str = "behavior_methods") -> None:
        """Imports a module of ``register_behavior`` functions (beside the script) and makes
        the objects pick up what it registered."""
        import importlib

        importlib.import_module(behaviors)
        self._behaviors.reinit()

    def __del__(self):
        sim = getattr(self, "_sim", None)
        if sim is not None:
            try:
                sim.close()
            except Exception:
                pass


