"""Worlds the Python layers parse with PyYAML (ubot.irsim's preparation, a sweep's parameters):
a file PyYAML cannot read is a ubot.WorldError with file, line and column, as the native loader
gives for the files it refuses, never yaml.YAMLError (found by fuzz_python: a control character
escaped as yaml.ReaderError)."""
import os

import yaml

import ubot


def parse_world(text, path):
    """``yaml.safe_load(text)`` of the world file ``path`` (its text), or ubot.WorldError."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise world_error(err, text, path) from None


def world_error(err, text, path):
    """The native loader's WorldError when it refuses the text too, else one made from
    PyYAML's position."""
    try:
        if os.path.isfile(path):
            ubot.Simulation(path)
        else:
            ubot.Simulation.from_yaml(text)
    except ubot.WorldError as native:
        return native
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
    if isinstance(err, yaml.reader.ReaderError):  # its position is a character index
        before = text[:err.position]
        line, column = before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1
    reason = getattr(err, "problem", None) or str(err).splitlines()[0]
    error = ubot.WorldError(f"{path}:{line}:{column}: {reason}")
    error.file, error.line, error.column, error.key = path, line, column, ""
    error.reason, error.message = reason, str(error)
    return error
