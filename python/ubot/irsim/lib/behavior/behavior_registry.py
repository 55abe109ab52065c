"""Registries of custom behaviours, with IR-SIM's decorator names and keys.

A behaviour is registered under ``(kinematics, name)``; the world's ``behavior: {name: ...}``
(or ``group_behavior``) picks it. ubot runs its built-in behaviours (dash, rvo, ...) in C++;
the names registered here are looked up in Python each step (see ``_behaviors.py``).
"""

from collections.abc import Callable
from typing import Any

behaviors_map: dict[tuple[str, str], Callable[..., Any]] = {}
behaviors_class_map: dict[tuple[str, str], Callable[..., Any]] = {}
group_behaviors_map: dict[tuple[str, str], Callable[..., Any]] = {}
group_behaviors_class_map: dict[tuple[str, str], Callable[..., Any]] = {}


def _registrar(target: dict, what: str) -> Callable[[str, str], Callable[[Any], Any]]:
    def register(kinematics: str, action: str):
        def decorator(obj: Any) -> Any:
            key = (kinematics, action)
            if key in target:
                raise ValueError(
                    f"{what} for category '{kinematics}' and action '{action}' is already registered."
                )
            target[key] = obj
            return obj

        return decorator

    return register


register_behavior = _registrar(behaviors_map, "Method")
register_behavior_class = _registrar(behaviors_class_map, "Class")
register_group_behavior = _registrar(group_behaviors_map, "Method")
register_group_behavior_class = _registrar(group_behaviors_class_map, "Class")
