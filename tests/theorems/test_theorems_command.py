"""`aisched theorems FAMILY`: records, saved worst instances that re-run, and the page's Theorems section."""

from __future__ import annotations

import json

from aisched.cli import main
from aisched.experiments.pages.theorems import theorem_lines


def test_the_command_records_reruns_and_renders(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "lora"
    # no paper scenarios, no random instances: the hand-made cases alone (a counterexample among them)
    assert main(["theorems", "lora", "--budget", "0", "--no-paper", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    assert "lora Theorem 5: violated" in text and "counterexample" in text
    record = json.loads((out / "theorems.json").read_text())
    rows = {row["theorem"]: row for row in record["theorems"]}
    assert rows["Lemma 3"]["verdict"] == "violated" and rows["Theorem 4"]["verdict"] == "holds on all tried"
    worst = out / rows["Theorem 5"]["worst_instance"]
    assert worst.is_file()
    assert main(["theorems", "lora", "--instance", str(worst), "--set", "beta_unit=gb"]) == 1  # Lemma 3 still
    again = capsys.readouterr().out
    assert "Theorem 5: holds" in again and "Lemma 3: violated" in again
    page = "\n".join(theorem_lines(tmp_path))
    assert "## lora: theorems" in page and "**Theorem 5 violated**" in page
    assert theorem_lines(tmp_path, ["genai"]) == []
