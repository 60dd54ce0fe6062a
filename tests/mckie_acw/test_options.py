"""options.py: the defaults are the text's plainest readings; tables travel with a battle."""

from __future__ import annotations

from pathlib import Path

from smoothbore.mckie_acw import TURN
from smoothbore.mckie_acw.actions import Fire
from smoothbore.mckie_acw.options import DEFAULT_OPTIONS, Options, PlusOrMinus
from smoothbore.mckie_acw.phases import FIRING
from smoothbore.mckie_acw.tables import DEFAULT_TABLES, Cell, with_table

from .support import at, battle


def test_defaults() -> None:
    assert Options(DEFAULT_TABLES, False, PlusOrMinus.ADD, True) == DEFAULT_OPTIONS
    assert str(PlusOrMinus.CHOOSE) == "choose"


def test_a_users_casualty_table_changes_a_battles_fire(tmp_path: Path) -> None:
    rows = ["factor,1,8"] + [f"{f},0/0,{f}/0" for f in range(1, 15)]
    own = tmp_path / "casualties.csv"
    own.write_text("\n".join(rows) + "\n")
    options = Options(tables=with_table(DEFAULT_TABLES, "casualties", own))
    mine = at(battle(options=options), FIRING)
    after, _ = TURN.step(mine, Fire("a1", "b1"))
    assert after.extra.pending == (("b1", Cell(5, 0)),)  # factor 5, 8 figures: 5 certain
    plain, _ = TURN.step(at(battle(), FIRING), Fire("a1", "b1"))
    assert plain.extra.pending == (("b1", Cell(0, 80)),)
    assert TURN.load(after.to_json()).options.tables == options.tables


def test_couriers_at_once_with_the_option_off() -> None:
    from smoothbore.mckie_acw.actions import ChangeOrders
    from smoothbore.mckie_acw.phases import ACTIVATION
    from smoothbore.mckie_acw.units import OrderKind

    state = at(battle(options=Options(courier_next_period=False)), ACTIVATION)
    after, _ = TURN.step(state, ChangeOrders("a-chief", "a-div", OrderKind.HOLD, courier=True))
    assert after.commander("a-div").order.kind is OrderKind.HOLD
