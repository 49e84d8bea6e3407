"""Native extensions: every ``src/atril/_*.c`` file becomes the module ``atril._*`` (built by pip)."""

from pathlib import Path

from setuptools import Extension, setup

extensions = [
    Extension(f"atril.{path.stem}", [str(path)], extra_compile_args=["-O3", "-std=c11"])
    for path in sorted(Path("src/atril").glob("_*.c"))
]

setup(ext_modules=extensions)
