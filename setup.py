"""Builds the extension ubot._core with the project's CMake for `pip install .` (pyproject.toml).

The CMake tree: $UBOT_CMAKE_BUILD_DIR when set, else build-pip/ in the checkout (beside the usual
build/, at the same depth, so ccache finds that build's objects); it is kept between installs,
so a second install only rebuilds what changed. setuptools' own files go to build-pip/setuptools.
Only the module and the libraries it links are built (no tests, benchmarks or CLI); ccache is
used when installed.
"""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("UBOT_CMAKE_BUILD_DIR") or os.path.join(ROOT, "build-pip")
        os.makedirs(build_dir, exist_ok=True)
        configure = [
            "cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython3_EXECUTABLE={sys.executable}", "-DUBOT_PYTHON=ON",
            "-DUBOT_BUILD_TESTS=OFF", "-DUBOT_BUILD_BENCH=OFF", "-DUBOT_BUILD_APPS=OFF",
        ]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
                          "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", build_dir, "--target", "ubot_python", "-j", jobs],
                       check=True)
        built = os.path.join(build_dir, "python", "ubot", os.path.basename(self.get_ext_filename(ext.name)))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[CMakeExtension("ubot._core")], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": os.path.join("build-pip", "setuptools")}})
