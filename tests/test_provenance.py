"""Every result says where it came from: code, libraries, machine, date, command."""

from __future__ import annotations

import json

from aisched import provenance as prov
from aisched.cli import main


def test_a_provenance_record_names_code_libraries_machine_and_command() -> None:
    record = prov.provenance(["/somewhere/bin/aisched", "sweep", "spot/fig5-deadline"], seeds=3)
    assert record["command"] == ["aisched", "sweep", "spot/fig5-deadline"] and record["seeds"] == 3
    for key in ("aisched", "commit", "python", "highs", "pyomo", "jax", "numpy", "date"):
        assert isinstance(record[key], str) and record[key], key
    assert record["highs"] != "not installed" and record["numpy"] != "not installed"
    assert record["host"]["cpus"] >= 1 and record["host"]["memory_gib"] > 0
    text = prov.provenance_text(record)
    assert text.startswith(f"aisched {record['aisched']} (") and "HiGHS" in text and "`aisched sweep " in text


def test_a_folder_outside_git_says_so(tmp_path) -> None:
    assert prov.git_commit(tmp_path) == "not a git checkout"


def test_compare_records_its_provenance(tmp_path) -> None:
    small = ["compare", "lora", "--nodes", "2", "--slots", "8", "--tasks", "5", "--seed", "1", "--out", str(tmp_path),
             "--algorithms", "eft", "--no-offline", "--no-figures"]
    assert main(small) == 0
    record = json.loads((tmp_path / "comparison.json").read_text())["provenance"]
    assert record["seeds"] == 1 and record["python"] and record["highs"] != "not installed"


def test_the_line_for_a_page_names_no_machine_path() -> None:
    record = prov.provenance(["aisched", "reproduce", "spot", "--out", "/home/me/runs/spot", "--out=/srv/x/y"])
    text = prov.provenance_text(record)
    assert "/home/me" not in text and "/srv" not in text
    assert "`aisched reproduce spot --out .../spot --out=.../y`" in text
    assert record["command"][4] == "/home/me/runs/spot"  # the record keeps the path
