"""tables.py: the reconstructed tables load, validate, and can be replaced by a user's copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from smoothbore.core import InvalidValueError, odds
from smoothbore.mckie_acw.firing import casualties, figures_lost
from smoothbore.mckie_acw.tables import (
    DEFAULT_TABLES,
    TABLE_FILES,
    Cell,
    MoraleResult,
    load_tables,
    with_table,
)
from smoothbore.mckie_acw.units import Weapon

DATA = Path(__file__).parents[2] / "src" / "smoothbore" / "mckie_acw" / "data"


def test_every_file_is_marked_as_a_reconstruction() -> None:
    for file in TABLE_FILES.values():
        assert "RECONSTRUCTION" in (DATA / file).read_text()


def test_casualty_table_encodes_two_per_cent_per_figure_per_point() -> None:
    table = DEFAULT_TABLES.casualties
    for factor in table.factors:
        for n in table.columns:
            assert table.cell(factor, n) == Cell(*divmod(2 * n * factor, 100))


def test_casualty_table_reading() -> None:
    table = DEFAULT_TABLES.casualties
    assert table.cell(0, 8) == Cell(0, 0)  # below the table: nothing
    assert table.cell(20, 8) == table.cell(14, 8)  # above: the last row
    assert table.cell(5, 22) == table.cell(5, 20)  # largest column not above
    assert table.cell(8, 20) == Cell(3, 20)  # a Napoleon battery's canister: 3/20


def test_weapons_and_the_text_scale() -> None:
    musket = DEFAULT_TABLES.weapon(Weapon.SMOOTHBORE_MUSKET)
    assert musket.factor(20) == 4 and musket.factor(41) is None
    assert DEFAULT_TABLES.weapon(Weapon.SNIPER_RIFLE).optional
    assert DEFAULT_TABLES.weapon(Weapon.SNIPER_RIFLE).reach >= 200  # over 1,000 yards
    assert DEFAULT_TABLES.rate("general-mounted") == 600  # the text's own number


def test_bragg_is_the_texts_example() -> None:
    bragg = DEFAULT_TABLES.rating("Bragg")
    assert (bragg.initiative, bragg.activation) == (3, 5)


def test_morale_bands_cover_every_total() -> None:
    assert [DEFAULT_TABLES.morale_result(t) for t in (-9, -1, 0, 1, 2, 3, 4, 12)] == [
        MoraleResult.ROUT, MoraleResult.ROUT, MoraleResult.RETREAT, MoraleResult.RETREAT,
        MoraleResult.HALT, MoraleResult.HALT, MoraleResult.CARRY_ON, MoraleResult.CARRY_ON]


def test_load_is_the_default() -> None:
    assert load_tables() == DEFAULT_TABLES


def test_a_user_table_changes_the_results(tmp_path: Path) -> None:
    own = tmp_path / "my_casualties.csv"
    own.write_text("factor,1,10\n1,0/50,1/0\n2,1/0,2/50\n")
    tables = with_table(DEFAULT_TABLES, "casualties", own)
    assert DEFAULT_TABLES.casualties.cell(2, 10) == Cell(0, 40)
    assert tables.casualties.cell(2, 10) == Cell(2, 50)
    assert tables.weapons == DEFAULT_TABLES.weapons  # the rest untouched
    cell = casualties(2, 10, tables)
    assert odds(figures_lost, cell).probability(3) == odds(figures_lost, cell).probability(2)


@pytest.mark.parametrize(
    ("name", "text", "field"),
    [
        ("casualties", "factor,1\n1,0/100\n", "my.csv [casualties] row 1 field 1"),
        ("casualties", "factor,1,1\n1,0/1,0/2\n", "my.csv [casualties] row header field columns"),
        ("morale", '[[band]]\nresult = "carry-on"\nlow = 4\n', "my.toml [band] row - field"),
        ("weapons", '[[weapon]]\nname = "pike"\nbands = []\n', "my.toml [weapon] row 1 field name"),
        ("melee", "[basic]\ninfantry = 4\n", "my.toml [basic] row dismounted-cavalry"),
        ("generals", '[[general]]\nname = "Lee"\nside = "C"\ninitiative = 11\nactivation = 1\n',
         "my.toml [general] row 1 field initiative"),
        ("weapons", "[[weapon]\n", "my.toml"),
        ("weapons", 'weapon = 3\n', "my.toml [weapon] row - field weapon"),
        ("weapons", 'weapon = [3]\n', "my.toml [weapon] row 1 field weapon"),
        ("weapons", '[[weapon]]\nname = "repeating-rifle"\nbands = [{to = 100, factor = 1}]\n'
         '[[weapon]]\nname = "repeating-rifle"\nbands = [{to = 100, factor = 1}]\n',
         "my.toml [weapon] row 2 field name"),
        ("weapons", '[[weapon]]\nname = "repeating-rifle"\nbands = 3\n',
         "my.toml [weapon] row 1 field bands"),
        ("weapons", '[[weapon]]\nname = "repeating-rifle"\nbands = [3]\n',
         "my.toml [weapon] row 1 field bands"),
        ("weapons", '[[weapon]]\nname = "repeating-rifle"\n'
         'bands = [{to = 100, factor = 1}, {to = 50, factor = 0}]\n',
         "my.toml [weapon] row 1 field bands.to"),
        ("weapons", '[[weapon]]\nname = "repeating-rifle"\nbands = [{to = 100, factor = 1}]\n'
         'optional = "yes"\n', "my.toml [weapon] row 1 field optional"),
        ("weapons", '[[weapon]]\nname = "repeating-rifle"\nbands = [{to = 100, factor = 1}]\n',
         "my.toml [weapon] row - field name"),
        ("casualties", "range,1\n1,0/100\n", "my.csv [casualties] row header field factor"),
    ],
)
def test_bad_tables_name_file_table_row_and_field(tmp_path: Path, name: str, text: str,
                                                  field: str) -> None:
    suffix = ".csv" if name == "casualties" else ".toml"
    path = tmp_path / f"my{suffix}"
    path.write_text(text)
    with pytest.raises(InvalidValueError) as error:
        with_table(DEFAULT_TABLES, name, path)
    assert error.value.field.startswith(field)


def test_unknown_table_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidValueError, match="table"):
        with_table(DEFAULT_TABLES, "ratings", tmp_path / "x.toml")
    with pytest.raises(InvalidValueError, match="path"):
        with_table(DEFAULT_TABLES, "morale", tmp_path / "missing.toml")
