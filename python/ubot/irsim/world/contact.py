"""IR-SIM's ``obj.contact`` (collision_mode 'contact') over a ``ubot.ContactReading``.

The reading is the native one of the last step (docs/contact.md), given IR-SIM's shapes: points,
normals and the net force are column vectors (2, 1), and ``other`` / ``partners`` are the
touched objects themselves (their ``ObjectBase``), so a script can print or compare them; a
contact with the grid map (``world.obstacle_map``, no object) has ``other`` None.
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ContactReport:
    """One contact seen from the object's side."""

    other: object  # the ObjectBase touched, None for the grid map
    point: np.ndarray  # (2, 1) world frame, m
    normal: np.ndarray  # (2, 1) unit, from ``other`` toward the object
    depth: float  # m of overlap
    force: float  # N along ``normal``, average over the step

    def __str__(self) -> str:
        px, py = self.point.ravel()
        nx, ny = self.normal.ravel()
        name = "obstacle_map" if self.other is None else self.other.name
        return (f"{name}: point ({px:.3f}, {py:.3f}), normal ({nx:.3f}, {ny:.3f}), "
                f"depth {self.depth:.4f} m, force {self.force:.3f} N")


class ContactSensor:
    """The contact sensor of one object, read from the native simulation when accessed."""

    def __init__(self, reading, objects: list):
        self._reading = reading
        self._objects = objects  # the env's objects, indexed by id

    def _object(self, i: int):
        return self._objects[i] if i >= 0 else None  # native id -1: the grid map

    @property
    def in_contact(self) -> bool:
        return bool(self._reading.in_contact)

    @property
    def partners(self) -> list:
        return [self._object(i) for i in self._reading.partners]

    @property
    def reports(self) -> list:
        return [ContactReport(self._object(r.other), np.asarray(r.point).reshape(2, 1),
                              np.asarray(r.normal).reshape(2, 1), float(r.depth), float(r.force))
                for r in self._reading.reports]

    @property
    def force(self) -> np.ndarray:
        return np.asarray(self._reading.force, dtype=float).reshape(2, 1)

    @property
    def contact_time(self) -> float:
        return float(self._reading.contact_time)

    @property
    def air_time(self) -> float:
        return float(self._reading.air_time)

    @property
    def started(self) -> bool:
        return bool(self._reading.started)

    @property
    def ended(self) -> bool:
        return bool(self._reading.ended)

    def __repr__(self) -> str:
        names = ", ".join("obstacle_map" if o is None else o.name for o in self.partners)
        return f"ContactSensor(in_contact={self.in_contact}, partners=[{names}])"
