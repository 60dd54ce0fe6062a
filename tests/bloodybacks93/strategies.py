"""Hypothesis strategies for Bloodybacks values."""

from __future__ import annotations

from hypothesis import strategies as st

from smoothbore.bloodybacks93.units import (
    AMERICAN,
    BRITISH,
    Commander,
    Formation,
    Troops,
    Unit,
    UnitType,
    Weapon,
)

qualities = st.integers(1, 5)
densities = st.integers(3, 8)
disruptions = st.integers(0, 3)


@st.composite
def units(draw: st.DrawFn, side: str | None = None, kind: UnitType | None = None) -> Unit:
    """Any valid unit."""
    unit_kind = kind or draw(st.sampled_from(list(UnitType)))
    formation = (
        draw(st.sampled_from([Formation.LIMBERED, Formation.UNLIMBERED]))
        if unit_kind.is_artillery
        else draw(st.sampled_from([Formation.DEPLOYED, Formation.COLUMN]))
    )
    weapon = Weapon.CANNON if unit_kind.is_artillery else draw(
        st.sampled_from([Weapon.MUSKET, Weapon.RIFLE, Weapon.CARBINE]))
    return Unit(
        id=draw(st.sampled_from(["a", "b", "c"])),
        name="unit",
        side=side or draw(st.sampled_from([BRITISH, AMERICAN])),
        kind=unit_kind,
        quality=draw(qualities),
        density=draw(densities),
        size=draw(st.integers(1, 60)),
        formation=formation,
        weapon=weapon,
        disruption=draw(disruptions),
        stamina_losses=draw(st.integers(0, 20)),
        troops=draw(st.sampled_from(list(Troops))),
        heavy_cavalry=draw(st.booleans()),
        bayonets=draw(st.booleans()),
        sections=draw(st.integers(1, 4)),
    )


def infantry(side: str = BRITISH) -> st.SearchStrategy[Unit]:
    """Deployed infantry of any quality, density and state."""
    return units(side=side, kind=UnitType.INFANTRY).map(
        lambda u: u if u.formation is Formation.DEPLOYED else Unit(
            u.id, u.name, u.side, quality=u.quality, density=u.density, size=u.size,
            disruption=u.disruption, stamina_losses=u.stamina_losses, troops=u.troops))


@st.composite
def commanders(draw: st.DrawFn, side: str = BRITISH) -> Commander:
    """Any valid commander."""
    return Commander(
        "k", "commander", side,
        command_quality=draw(qualities),
        activity_rating=draw(st.integers(2, 5)),
        constitution=draw(st.integers(1, 12)),
    )
