"""Shapely's array constructors with array types: its stubs type each as "one geometry or an
array", so these wrappers say which (always an array here)."""

from __future__ import annotations

from typing import cast

import numpy as np
import numpy.typing as npt
import shapely

__all__ = ["Geometries", "linestrings", "multipolygons", "polygons"]

Geometries = npt.NDArray[np.object_]
"""A numpy array of Shapely geometries."""


def polygons(corners: npt.NDArray[np.float64]) -> Geometries:
    """Polygons from corner arrays of shape (n, k, 2)."""
    return cast(Geometries, np.asarray(shapely.polygons(corners), dtype=object).reshape(-1))


def linestrings(points: npt.NDArray[np.float64]) -> Geometries:
    """Lines from point arrays of shape (n, k, 2)."""
    return cast(Geometries, np.asarray(shapely.linestrings(points), dtype=object).reshape(-1))


def multipolygons(parts: Geometries) -> object:
    """One multipolygon from an array of polygons."""
    return shapely.multipolygons(parts)
