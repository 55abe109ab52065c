"""Issue 51: an object of the native module made without __init__ (`Cls.__new__(Cls)`) used to
crash the interpreter (SIGSEGV) or read uninitialised memory; every use of it is now a TypeError,
and pickling a class that does not pickle is a TypeError at every protocol (protocols 0 and 1
aborted the interpreter)."""
import inspect
import pickle

import pytest
from conftest import WALL_WORLD

import ubot
import ubot._core as core


def native_classes():
    found = []

    def walk(module):
        for value in vars(module).values():
            if isinstance(value, type) and type(value).__name__ == "pybind11_type":
                found.append(value)
            elif inspect.ismodule(value) and value.__name__.startswith(module.__name__ + "."):
                walk(value)

    walk(core)
    return found


OPERATORS = {
    "==": lambda o: o == o,
    "hash": hash,
    "len": len,
    "iter": iter,
    "[0]": lambda o: o[0],
    "bool": bool,
}


@pytest.mark.parametrize("cls", native_classes(), ids=lambda c: c.__name__)
def test_an_object_without_init_refuses_every_use(cls):
    obj = cls.__new__(cls)
    names = [n for n in dir(cls) if not n.startswith("_")]
    assert names, cls
    for name in names:
        with pytest.raises(TypeError, match="made without __init__"):
            value = getattr(obj, name)
            if callable(value):
                value()
    for what, op in OPERATORS.items():
        special = {"==": "__eq__", "hash": "__hash__", "len": "__len__", "iter": "__iter__",
                   "[0]": "__getitem__", "bool": "__bool__"}[what]
        if special in vars(cls):
            with pytest.raises(TypeError):
                op(obj)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError):
            pickle.dumps(obj, protocol)
    if "__repr__" in vars(cls):  # a repr of the contents is refused; the default names the type
        with pytest.raises(TypeError, match="made without __init__"):
            repr(obj)
    else:
        assert cls.__name__ in repr(obj)


def test_the_guarded_classes_still_work_and_pickle_as_before(tmp_path):
    world = tmp_path / "w.yaml"
    world.write_text(WALL_WORLD)
    sim = ubot.Simulation(world)
    sim.step()
    robot = sim.object(0)
    assert robot.name == "robot_0"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError, match="cannot pickle"):
            pickle.dumps(robot, protocol)
        back = pickle.loads(pickle.dumps(sim, protocol))
        assert back.snapshot() == sim.snapshot()
    # Unpickling builds the object through __new__ + __setstate__: still allowed.
    snap = pickle.loads(pickle.dumps(sim.snapshot(), 0))
    assert snap == sim.snapshot()


def test_the_python_vector_env_without_init_is_a_type_error():
    env = ubot.VectorEnv.__new__(ubot.VectorEnv)
    with pytest.raises(TypeError, match="made without __init__"):
        env.reset(seed=0)
