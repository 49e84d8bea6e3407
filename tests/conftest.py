"""Every test runs with an empty user data folder of its session: the word lists someone
installed on this machine (``atril lexicon install``) never change what a test's rulesets play.
Server processes the tests start inherit it."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def empty_data_dir(tmp_path_factory):
    before = os.environ.get("ATRIL_DATA_DIR")
    os.environ["ATRIL_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
    yield
    if before is None:
        del os.environ["ATRIL_DATA_DIR"]
    else:
        os.environ["ATRIL_DATA_DIR"] = before
