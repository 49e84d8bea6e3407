"""Native extensions: every ``src/atril/_*.c`` file becomes the module ``atril._*`` (built by pip);
and the message catalogs, compiled for gettext."""

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
setup(ext_modules=extensions)
