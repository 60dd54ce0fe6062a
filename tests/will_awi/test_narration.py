"""How the referee says things (narration): distances, angles, lists, points, fire scores."""

from __future__ import annotations

from fractions import Fraction

from smoothbore.will_awi.narration import degrees, inches, listed, points, score_text


def test_distances_angles_and_lists_read_as_spoken() -> None:
    """The narration says 12" not 12.0", 22.5° as it is, and joins names with "and"."""
    assert inches(12.0) == '12"' and inches(10.5) == '10.5"' and inches(Fraction(16, 3)) == '5.3"'
    assert degrees(90.0) == "90°" and degrees(22.5) == "22.5°"
    assert listed(["A"]) == "A" and listed(["A", "B"]) == "A and B"
    assert listed(("A", "B", "C")) == "A, B and C"
    assert score_text(8, True) == "scoring 8: 1 strength point lost"
    assert score_text(5, False) == "scoring 5: no loss"
    assert points(1) == "1 point" and points(0) == "0 points"
    assert points(3, "defence point") == "3 defence points"
