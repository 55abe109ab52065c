"""Runs the behaviours registered in Python and turns their output into native commands.

IR-SIM steps objects one after another, so a behaviour there may see earlier objects already
moved this step. Here every Python behaviour is called before the native step, so all of them
see the states of the previous step (as ubot's own behaviours do).
"""

import numpy as np

from .lib.behavior import behavior_registry as registry


class _Individual:
    """A per-object behaviour: ``func(ego_object, external_objects, **config)``."""

    def __init__(self, obj, config: dict):
        self.obj = obj
        self.config = config
        self.key = (obj.kinematics, config["name"])
        self._handler = None

    def reinit(self) -> None:
        self._handler = None

    def _resolve(self):
        init = registry.behaviors_class_map.get(self.key)
        if init is not None:
            return init(self.obj.info, **self.config)
        func = registry.behaviors_map.get(self.key)
        if func is None:
            raise ValueError(
                f"No method found for category '{self.key[0]}' and action '{self.key[1]}'. "
                "Register it with irsim.lib.register_behavior and env.load_behavior(module).")
        return func

    def velocity(self):
        if self._handler is None:
            self._handler = self._resolve()
        others = self.obj.external_objects
        roles = self.config.get("target_roles", "all")
        if roles in ("robot", "obstacle"):
            others = [o for o in others if o.role == roles]
        return self._handler(ego_object=self.obj, external_objects=others, **self.config)


class _Group:
    """A group behaviour: ``func(members, **config)`` returns one velocity per member."""

    def __init__(self, members: list, config: dict):
        self.members = members
        self.config = config
        self.key = (members[0].kinematics if members else None, config["name"])
        self._handler = None

    def reinit(self) -> None:
        self._handler = None

    def _resolve(self):
        init = registry.group_behaviors_class_map.get(self.key)
        if init is not None:
            return init(self.members, **self.config)
        func = registry.group_behaviors_map.get(self.key)
        if func is None:
            raise ValueError(
                f"No group behavior method found for category '{self.key[0]}' and action "
                f"'{self.key[1]}'. Register it with irsim.lib.register_group_behavior and "
                "env.load_behavior(module).")
        return func

    def velocities(self) -> list:
        if not self.members:
            return []
        if self._handler is None:
            self._handler = self._resolve()
        return list(self._handler(self.members, **self.config))


class BehaviorRunner:
    def __init__(self, plans: list, members_of):
        """``members_of(plan)`` gives the ObjectBase list of a plan's YAML entry."""
        self.groups = []
        self.individuals = []
        for plan in plans:
            members = members_of(plan)
            if plan.group:
                self.groups.append(_Group(members, plan.config))
            else:
                configs = plan.per_object or [plan.config]
                for i, obj in enumerate(members):
                    self.individuals.append(_Individual(obj, configs[min(i, len(configs) - 1)]))

    def __bool__(self) -> bool:
        return bool(self.groups or self.individuals)

    def reinit(self) -> None:
        for handler in self.groups + self.individuals:
            handler.reinit()

    def fill(self, commands: dict) -> None:
        """Adds a command for every Python-driven object that has none in ``commands``."""
        for group in self.groups:
            if all(m.name in commands for m in group.members):
                continue
            for member, vel in zip(group.members, group.velocities()):
                if vel is not None and member.name not in commands:
                    commands[member.name] = _command(vel)
        for ind in self.individuals:
            if ind.obj.name not in commands:
                commands[ind.obj.name] = _command(ind.velocity())


def _command(vel) -> list:
    values = np.asarray(vel, dtype=float).reshape(-1)
    if values.size < 2:
        raise ValueError(f"a behaviour returned {values.size} value(s); expected 2")
    return [float(values[0]), float(values[1])]
