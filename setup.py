"""Native extensions: every ``src/atril/_*.c`` file becomes the module ``atril._*`` (built by pip;
the exact endgame from a profile of its own run where the compiler is GCC); and the message
catalogs, compiled for gettext."""

import copy
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Every x86-64 chip since 2008 counts bits in one instruction (the move generator's child
# lookup); elsewhere the compiler's own popcount is used.
FLAGS = ["-O3", "-std=c11"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])
# Shared by every extension: an edit rebuilds them all.
HEADERS = [str(path) for path in sorted(Path("src/atril").glob("*.h"))]

extensions = [
    Extension(f"atril.{path.stem}", [str(path)], depends=HEADERS, extra_compile_args=FLAGS)
    for path in sorted(Path("src/atril").glob("_*.c"))
]


# The exact endgame is built twice: once counting its branches, run on tools/pgo_workload.py,
# then from the counts (GCC's -fprofile-use lays the code out for the branches taken and inlines
# where it pays): a tenth less time for the same search (docs/BENCH.md; the simulation gained
# 1 to 2 %, within the noise, and is built once). ATRIL_PGO=0 builds it once too.
PROFILED = ("_endgame",)
WORKLOAD = Path("tools/pgo_workload.py")


class BuildExt(build_ext):
    """``build_ext`` with the profile-guided second build of ``PROFILED``; without GCC, without
    the workload, or where a step of it fails, the plain build. The module says which
    (``_endgame.PROFILED``: 1 from the profile, 0 the profile failed, -1 not tried)."""

    def build_extensions(self) -> None:
        profiled = [ext for ext in self.extensions if ext.name.rpartition(".")[2] in PROFILED]
        tried = os.environ.get("ATRIL_PGO", "1") != "0" and self._gcc() and WORKLOAD.is_file()
        if not tried:
            for ext in profiled:
                ext.extra_compile_args = [*FLAGS, "-DATRIL_PROFILED=-1"]
        super().build_extensions()
        if not tried or not profiled:
            return
        with tempfile.TemporaryDirectory(prefix="atril-pgo-") as tmp:
            try:
                self._profile_guided(profiled, Path(tmp))
            except Exception as error:  # the build must not fail for want of a profile
                print(f"atril: compilado sin perfil: {error}", file=sys.stderr)
                self._rebuild(profiled, [], [])

    def _profile_guided(self, profiled: list[Extension], tmp: Path) -> None:
        """Build counting, run the workload, build from the counts (in ``tmp``); raises where a
        step fails, the counting build then still in place."""
        counts = tmp / "counts"
        self._rebuild(profiled, [f"-fprofile-generate={counts}"], ["-fprofile-generate"])
        # The package as it will run: its Python and data, the extensions just built.
        package = tmp / "atril"
        shutil.copytree("src/atril", package,
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.c", "*.h"))
        for ext in self.extensions:
            shutil.copy(self.get_ext_fullpath(ext.name), package)
        # Ahead of the path pip gives the build (its isolated environment: platformdirs).
        path = os.pathsep.join(filter(None, [str(tmp), os.environ.get("PYTHONPATH")]))
        env = dict(os.environ, PYTHONPATH=path, ATRIL_CACHE_DIR=str(tmp / "cache"))
        run = subprocess.run([sys.executable, str(WORKLOAD)], env=env, capture_output=True,
                             text=True, timeout=900)
        if run.returncode:
            raise RuntimeError(f"{WORKLOAD} falló:\n{run.stderr[-2000:]}")
        self._rebuild(profiled, [f"-fprofile-use={counts}", "-fprofile-correction",
                                 "-DATRIL_PROFILED=1"], [])

    def _gcc(self) -> bool:
        """Whether the C compiler is GCC (clang's profiles take other flags and a merge step)."""
        try:
            version = subprocess.run([self.compiler.compiler_so[0], "--version"],
                                     capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError, AttributeError, IndexError):
            return False
        gnu = "gcc" in version or "Free Software Foundation" in version
        return gnu and "clang" not in version

    def _rebuild(self, extensions: list[Extension], compile_args: list[str],
                 link_args: list[str]) -> None:
        """Build ``extensions`` again with these extra flags, to the same objects and paths."""
        force, self.force = self.force, True
        try:
            for ext in extensions:
                ext = copy.copy(ext)
                ext.extra_compile_args = [*FLAGS, *compile_args]
                ext.extra_link_args = link_args
                self.build_extension(ext)
        finally:
            self.force = force


def compile_catalogs() -> None:
    """Compile every message catalog (``src/atril/locale/*/LC_MESSAGES/*.po``, committed) to the
    ``.mo`` file gettext reads (not committed), before any build: a wheel ships them as package
    data, an editable install reads them where they are."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(Path("src/atril/locale").glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as source:
            catalog = read_po(source)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog)


compile_catalogs()
setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
