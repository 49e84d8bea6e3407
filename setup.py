"""Native extensions: every ``src/atril/_*.c`` file becomes the module ``atril._*`` (built by pip)."""

import platform
from pathlib import Path

from setuptools import Extension, setup

# Every x86-64 chip since 2008 counts bits in one instruction (the move generator's child
# lookup); elsewhere the compiler's own popcount is used.
FLAGS = ["-O3", "-std=c11"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])
# Shared by every extension: an edit rebuilds them all.
HEADERS = [str(path) for path in sorted(Path("src/atril").glob("*.h"))]

extensions = [
    Extension(f"atril.{path.stem}", [str(path)], depends=HEADERS, extra_compile_args=FLAGS)
    for path in sorted(Path("src/atril").glob("_*.c"))
]

setup(ext_modules=extensions)
