"""effort.py: earning effort points and resting."""

from __future__ import annotations

from smoothbore.mckie_acw import effort

from .support import foot


def test_points_for_each_task_and_rest() -> None:
    assert (effort.CHARGE_OR_DOUBLE_MOVE, effort.FIRING, effort.MELEE, effort.REST) == (2, 1, 2, 2)
    assert effort.earn(foot("x", effort=5), 2).effort == 7
    assert effort.rest(foot("x", effort=1)).effort == 0
    resting = effort.rest(foot("x", effort=13, resting=True))
    assert (resting.effort, resting.resting) == (11, False)  # below 12: duty to rest ends
    still = effort.rest(foot("x", effort=15, resting=True))
    assert (still.effort, still.resting) == (13, True)
