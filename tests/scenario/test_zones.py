"""Deployment zones (issue 30): a side may name zones (``[[side.zone]]``: a rectangle and a
facing) and a unit be placed in one (``zone = "..."``) instead of at a point: the zone's
units stand abreast on its centre line, evenly across its width, in the file's order, facing
its way. ``to_toml`` writes where each unit then stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from smoothbore.scenario import ScenarioError, read_scenario

VALID = (Path(__file__).parent / "valid.toml").read_text("utf-8")
ZONED = VALID.replace('home = "near edge"\n', 'home = "near edge"\n\n[[side.zone]]\n'
                      'id = "front"\nrectangle = [24.0, 8.0, 28.0, 4.0]\n'
                      'facing = 0.0\n', 1).replace(
    "at = [18.0, 8.0]\nfacing = 0.0", 'zone = "front"').replace(
    "at = [32.0, 8.0]\nfacing = 0.0", 'zone = "front"')


def test_units_in_a_zone_stand_abreast_across_it() -> None:
    assert ZONED.count('zone = "front"') == 2
    scenario = read_scenario(ZONED)
    assert scenario.table is not None
    feet = {f.unit_id: (f.x, f.y, f.facing) for f in scenario.table.footprints}
    # 28" wide, two units: the first a quarter of the way across, the second three quarters
    assert feet["b1"] == (17.0, 8.0, 0.0)
    assert feet["b2"] == (31.0, 8.0, 0.0)
    written = scenario.to_toml()
    assert "at = [17.0, 8.0]" in written and "zone" not in written
    assert read_scenario(written).start(3) == scenario.start(3)


def test_an_unknown_zone_is_refused_with_the_zones_the_side_has() -> None:
    with pytest.raises(ScenarioError) as caught:
        read_scenario(ZONED.replace('zone = "front"', 'zone = "frnot"', 1), "z.toml")
    fault = caught.value.faults[0]
    assert fault.field == 'side["british"].unit["b1"].zone'
    assert fault.allowed == "one of the side's zones: front (did you mean 'front'?)"
    assert fault.line is not None


def test_a_unit_given_both_a_zone_and_a_place_is_refused() -> None:
    text = ZONED.replace('zone = "front"', 'zone = "front"\nat = [18.0, 8.0]', 1)
    with pytest.raises(ScenarioError, match="a zone or a place"):
        read_scenario(text)


def test_a_zone_that_puts_its_units_off_the_table_names_them() -> None:
    text = ZONED.replace("rectangle = [24.0, 8.0, 28.0, 4.0]", "rectangle = [46.0, 8.0, 28.0, 4.0]")
    with pytest.raises(ScenarioError) as caught:
        read_scenario(text)
    assert any('unit["b2"]' in f.field for f in caught.value.faults)
