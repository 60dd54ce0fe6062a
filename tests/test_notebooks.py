"""The notebooks of docs/notebooks execute without error (nbclient, a Python kernel), and
show what they promise: plots as images, results as HTML views."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "docs" / "notebooks"
RULE_BOOKS = ("bloodybacks93", "will_awi", "boltaction_acw", "mckie_acw")


def test_one_notebook_per_rule_book() -> None:
    names = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))
    assert [n.split("-")[0] for n in names] == sorted(RULE_BOOKS)


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebook_executes_and_shows_plots_and_views(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    # committed executed (issue 31: the docs show their plots and maps without running them)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.get("execution_count") for cell in code] == list(range(1, len(code) + 1))
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    outputs = [out for cell in notebook.cells if cell.cell_type == "code"
               for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    kinds = {kind for out in outputs for kind in out.get("data", {})}
    assert "image/png" in kinds  # every notebook draws
    assert "text/html" in kinds  # and shows a result as a notebook view
