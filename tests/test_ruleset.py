"""Rulesets as data (docs/RULES.md §8), checked against the articles."""

import dataclasses

import pytest

from atril.errors import AtrilError
from atril.ruleset import DEFAULT, Ruleset


def test_default_is_fise_2009():
    assert DEFAULT == "FISE2009"
    assert Ruleset.get() is Ruleset.get("FISE2009")


def test_names_and_lookup_ignore_case_and_separators():
    assert Ruleset.names() == ("FISE2004", "FISE2009", "FILE2018", "FILE2024", "LIBRE")
    assert Ruleset.get("fise-2009") is Ruleset.get("FISE 2009") is Ruleset.get("fise_2009")
    rs = Ruleset.get("FILE2024")
    assert Ruleset.get(rs) is rs


def test_unknown_ruleset_is_a_clear_error():
    with pytest.raises(AtrilError, match="reglamento desconocido «FISE1999».*FISE2009"):
        Ruleset.get("FISE1999")


def test_records_are_frozen_and_print_as_code():
    rs = Ruleset.get("FISE2009")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.max_passes = 6  # type: ignore[misc]
    assert repr(rs) == "Ruleset.get('FISE2009')"
    assert eval(repr(rs)) is rs


@pytest.mark.parametrize("name", Ruleset.names())
def test_common_rules(name):
    rs = Ruleset.get(name)
    if name != "FILE2024":  # FILE 2024: six scoreless turns, no separate passes rule
        assert rs.max_passes == 4        # art. 45.2 (2004: 40.2): both pass twice
    assert rs.withdrawn_is_pass          # art. 45.2 (2004: 40.2; 2018: 25.a)
    assert rs.exchange_min_bag == 1      # art. 25: n tiles when the bag holds n
    assert rs.overtime_penalty == 10     # art. 35 (2004: 32): per minute or fraction
    assert rs.lexicon == "ES09"          # the 2018/2024 official list is not bundled


def test_twelve_scoreless_turns_only_where_written():
    assert Ruleset.get("FISE2004").max_scoreless_turns is None  # 2004 art. 40 has no such rule
    assert Ruleset.get("FISE2009").max_scoreless_turns == 12    # art. 45.3
    assert Ruleset.get("FILE2018").max_scoreless_turns == 12
    assert Ruleset.get("FILE2024").max_scoreless_turns == 6  # FILE 2024 practice: 3 each


def test_overtime_limit_only_in_2024():
    assert [Ruleset.get(n).overtime_limit for n in Ruleset.names()] == [None, None, None, 8,
                                                                         None]
