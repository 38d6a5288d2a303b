"""Data outside the repository: `aisched data list|fetch` and the loaders' search order.

Fetching is tested against a local HTTP server on 127.0.0.1 that serves the
files of ``../shared/data`` (skipped when that folder is absent): no outside
network is used.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import SHARED_DATA

from aisched import _paths, cli, data
from aisched.errors import InvalidScenarioError

SPOT = data.DATASETS["spot-traces"]


class _Counting(SimpleHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        type(self).requests.append(self.path)
        super().do_GET()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A folder served on 127.0.0.1, filled with the spot traces (skips without ../shared/data)."""
    if not all((SHARED_DATA / f.name).is_file() for f in SPOT.files):
        pytest.skip(f"spot traces absent from {SHARED_DATA}")
    root = tmp_path / "served"
    for f in SPOT.files:
        (root / f.name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SHARED_DATA / f.name, root / f.name)
    _Counting.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Counting, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


def test_registry_is_consistent() -> None:
    names = [f.name for d in data.DATASETS.values() for f in d.files]
    assert len(names) == len(set(names))
    for d in data.DATASETS.values():
        assert d.downloadable != bool(d.how), d.name  # a derived dataset says how to get it
        for f in d.files:
            assert len(f.sha256) == 64 and int(f.sha256, 16) >= 0
            assert f.url is None or f.url.startswith("https://raw.githubusercontent.com/")


def test_shared_extracts_match_the_registered_hashes() -> None:
    rows = [r for r in data.status() if r["found"].startswith(str(SHARED_DATA))]
    if not rows:
        pytest.skip(f"{SHARED_DATA} absent")
    assert {r["sha256_ok"] for r in rows} == {"yes"}


def test_fetch_downloads_checks_and_caches(served: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = served
    cache = tmp_path / "cache"
    paths = data.fetch("spot-traces", mirror=url, cache=cache)
    assert [p.relative_to(cache).as_posix() for p in paths] == [f.name for f in SPOT.files]
    for f, path in zip(SPOT.files, paths, strict=True):
        assert path.read_bytes() == (SHARED_DATA / f.name).read_bytes()
    assert len(_Counting.requests) == len(SPOT.files)
    data.fetch("spot-traces", mirror=url, cache=cache)  # already there with the right hash
    assert len(_Counting.requests) == len(SPOT.files)


def test_a_corrupted_download_is_an_error_and_leaves_nothing(served: tuple[str, Path], tmp_path: Path) -> None:
    url, root = served
    first = SPOT.files[0].name
    (root / first).write_bytes(b'{"metadata": {}, "data": [1, 2, 3]}')
    cache = tmp_path / "cache"
    with pytest.raises(data.FetchError, match=f"^spot-traces: {first}: .*(hash|SHA256)") as info:
        data.fetch("spot-traces", mirror=url, cache=cache)
    assert isinstance(info.value, InvalidScenarioError)
    assert not (cache / first).exists()


def test_an_unreachable_source_is_an_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(data.FetchError, match="download from http://127.0.0.1:.* failed"):
        data.fetch("hugginggpt", mirror=f"http://127.0.0.1:{port}", cache=tmp_path)


def test_unknown_and_derived_datasets_say_what_to_do() -> None:
    with pytest.raises(InvalidScenarioError, match="unknown dataset 'nope' .*spot-traces"):
        data.fetch("nope")
    with pytest.raises(InvalidScenarioError, match="'philly' is not a verbatim copy .*adaptdl"):
        data.fetch("philly")


def test_search_order_env_then_cache_then_shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "hugginggpt_demo_parse_task.json"
    env, cache = tmp_path / "env", tmp_path / "cache"
    monkeypatch.setenv("AISCHED_CACHE", str(cache))
    monkeypatch.delenv("AISCHED_DATA", raising=False)
    assert _paths.search_path() == [cache, _paths.SHARED_DATA]
    monkeypatch.setattr(_paths, "SHARED_DATA", tmp_path / "no-shared")
    with pytest.raises(InvalidScenarioError, match=f"'{name}' not found in .*aisched data fetch hugginggpt"):
        data.data_file(name)
    (cache / name).parent.mkdir(parents=True)
    (cache / name).write_text("[]")
    assert data.data_file(name) == cache / name
    monkeypatch.setenv("AISCHED_DATA", str(env))
    (env).mkdir()
    (env / name).write_text("[]")
    assert data.data_file(name) == env / name
    with pytest.raises(InvalidScenarioError, match="derived data: .*philly.csv"):
        data.data_file("philly_pollux_2017-10-09.csv")
    assert data.data_file("nope.csv", required=False) is None


def test_cli_data_list_and_fetch(served: tuple[str, Path], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    url, _ = served
    assert cli.main(["data", "list"]) == 0
    out = capsys.readouterr().out
    for name, d in data.DATASETS.items():
        assert f"\n{name}: {d.what}" in out and d.license in out
    assert cli.main(["data", "fetch", "spot-traces", "--mirror", url, "--cache", str(tmp_path / "c")]) == 0
    assert f"{len(SPOT.files)} file(s) in place" in capsys.readouterr().out
    assert cli.main(["data", "fetch", "nope"]) == 2
    assert "unknown dataset 'nope'" in capsys.readouterr().err
