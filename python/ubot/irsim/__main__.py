"""``python3 -m ubot.irsim SCRIPT.py [ARGS]``: runs an IR-SIM script on ubot.

``irsim`` and every ``irsim.X`` the script (or a module it imports) asks for resolve to
``ubot.irsim.X``; a module this layer does not provide raises ImportError naming it. When
pyrvo (RVO2's binding, ``pip install pyrvo``) is not installed, ``pyrvo`` resolves to
``ubot.pyrvo``, its API over ubot's ORCA; an installed pyrvo is left alone, unless
``--ubot-pyrvo`` asks for ubot's even so.
"""

import importlib
import importlib.abc
import importlib.util
import os
import runpy
import sys


class _IrsimAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``irsim[.X]`` as the module object ``ubot.irsim[.X]``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "irsim" and not fullname.startswith("irsim."):
            return None
        target_name = "ubot." + fullname
        if importlib.util.find_spec(target_name) is None:
            raise ImportError(f"{fullname} is not provided by ubot.irsim "
                              "(see docs/irsim-python.md)", name=fullname)
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec):
        module = importlib.import_module("ubot." + spec.name)
        self._own_spec = module.__spec__  # the import system overwrites it with the alias's
        return module

    def exec_module(self, module):
        module.__spec__ = self._own_spec  # already executed as ubot.irsim.X


class _PyrvoStandIn(importlib.abc.MetaPathFinder):
    """Finds ``pyrvo`` as ``ubot.pyrvo``; placed last, so an installed pyrvo comes first
    (first with ``--ubot-pyrvo``)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "pyrvo":
            return None
        return importlib.util.spec_from_loader(fullname, _IrsimAlias(), is_package=False)


def install(ubot_pyrvo: bool = False) -> None:
    """Makes ``import irsim`` resolve to ubot.irsim, and a missing pyrvo (any pyrvo, with
    ``ubot_pyrvo``) to ubot.pyrvo."""
    if not any(isinstance(f, _IrsimAlias) for f in sys.meta_path):
        sys.meta_path.insert(0, _IrsimAlias())
    if not any(isinstance(f, _PyrvoStandIn) for f in sys.meta_path):
        if ubot_pyrvo:
            sys.meta_path.insert(0, _PyrvoStandIn())
        else:
            sys.meta_path.append(_PyrvoStandIn())


USAGE = ("usage: python3 -m ubot.irsim [--max-steps N] [--ubot-pyrvo] [--live [HOST:]PORT] "
         "SCRIPT.py [ARGS...]")


def main(argv) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if argv else 2
    ubot_pyrvo = False
    while argv and argv[0].startswith("--"):
        if argv[0] == "--max-steps":
            # For scripts that loop `while not env.done()` over robots that never arrive (`loop`
            # goals, as in IR-SIM, where they run forever too): done() is also true after N
            # steps.
            if len(argv) < 3 or not argv[1].isdigit() or int(argv[1]) < 1:
                print("ubot.irsim: --max-steps needs a whole number >= 1 and a script",
                      file=sys.stderr)
                return 2
            from ubot.irsim.env import env_base

            env_base.MAX_STEPS = int(argv[1])
            argv = argv[2:]
        elif argv[0] == "--ubot-pyrvo":  # ubot's ORCA as pyrvo, even where pyrvo is installed
            ubot_pyrvo = True
            argv = argv[1:]
        elif argv[0] == "--live":
            # The live view (docs/live.md) for every env made with display=True: what
            # UBOT_LIVE=[HOST:]PORT does too.
            if len(argv) < 3:
                print(f"ubot.irsim: --live needs [HOST:]PORT and a script\n{USAGE}",
                      file=sys.stderr)
                return 2
            os.environ["UBOT_LIVE"] = argv[1]
            argv = argv[2:]
        else:
            print(f"ubot.irsim: unknown option {argv[0]}\n{USAGE}", file=sys.stderr)
            return 2
    if not argv:
        print(f"ubot.irsim: no script\n{USAGE}", file=sys.stderr)
        return 2
    script = os.path.abspath(argv[0])
    if not os.path.isfile(script):
        print(f"ubot.irsim: {argv[0]}: no such script", file=sys.stderr)
        return 2
    install(ubot_pyrvo)
    sys.argv = [script, *argv[1:]]
    sys.path.insert(0, os.path.dirname(script))  # as `python3 SCRIPT.py` would
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
