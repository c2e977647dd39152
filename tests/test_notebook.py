"""The walkthrough notebook runs top to bottom (its asserts pin every claim it makes)."""

from __future__ import annotations

import pytest

from conftest import ROOT

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("matplotlib")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_walkthrough_executes_without_error(tmp_path):
    """From a working directory that is not the notebook's: it finds its data through the package."""
    path = ROOT / "notebooks" / "walkthrough.ipynb"
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    asserts = sum("assert " in cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert asserts >= 10
