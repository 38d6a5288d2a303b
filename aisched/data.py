"""The real-data files the scenarios read: where each comes from, where it is found, how to get it.

aisched ships no data. Its trace loaders read files by name (:func:`data_file`)
from the first of:

1. ``$AISCHED_DATA`` (a folder you fill yourself);
2. the user cache (``$AISCHED_CACHE``, else the platform's cache folder for
   ``aisched``), where :func:`fetch` puts downloads;
3. ``../shared/data`` beside a source checkout of aisched.

:data:`DATASETS` lists every file with its source, licence and sha256. Files
that are *verbatim copies* of a public file (the Alibaba and Helios traces,
the AWS spot traces, the HuggingGPT / TaskBench JSON) are downloaded by
:func:`fetch` from a pinned commit of their source repository and checked
by sha256 (``pooch`` does the download, retry and hash check). The others are
*derived* (a day cut out of a longer trace, a table compiled from many pages);
for those :func:`fetch` explains how to obtain them instead of downloading.

``aisched data list`` and ``aisched data fetch NAME|all`` are the command-line
face of this module.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aisched._paths import cache_dir, search_path
from aisched.errors import InvalidScenarioError

__all__ = ["DATASETS", "DataFile", "Dataset", "FetchError", "data_file", "dataset_of", "fetch", "provenance_page",
           "search_path", "status"]

_RAW = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class DataFile:
    """One file: its name under the data folder, its sha256, and its URL when it is a verbatim copy."""

    name: str
    sha256: str
    url: str | None = None


@dataclass(frozen=True)
class Dataset:
    """A group of files from one source.

    Attributes
    ----------
    name
        What ``aisched data fetch NAME`` takes.
    what
        One line: what the data are and which scenarios read them.
    source
        Repository, commit and path (from ``PROVENANCE.md``).
    license
        The source's licence and what to cite.
    files
        The files, each with its sha256 (and URL when downloadable).
    how
        For derived data: how to obtain the files (empty for verbatim copies).
    """

    name: str
    what: str
    source: str
    license: str
    files: tuple[DataFile, ...]
    how: str = ""

    @property
    def downloadable(self) -> bool:
        """Whether every file is a verbatim copy that :func:`fetch` can download."""
        return all(f.url is not None for f in self.files)


def _raw(repo: str, commit: str, path: str) -> str:
    return f"{_RAW}/{repo}/{commit}/{path.replace(' ', '%20')}"


_SPOT = ("skypilot-org/spot-traces", "221da1ab9bdfe7966da296265d7694d52dc0c5a6")
_SPOT_FILES = (
    ("availability/1-node/aws-02-15-2023/us-east-1c_v100_1.json",
     "4d272fad5eb7141a5a2053598ae3dace4bad61413f5efe2aa16ad59c25c8197b"),
    ("availability/1-node/aws-10-26-2022/us-west-2a_v100_8.json",
     "41971ffc4be92abc945b42e10edd8489f7ecbb59806e69c329b703b9b8d3b831"),
    ("availability/16-node/aws-08-27-2023/us-west-2a_v100_1.json",
     "0aae822d720585aa435b6a04248d2bd21ec1cdaab112e6cbfb23b12f5f664078"),
    ("preemption/1-node/aws-04-22-2023/us-west-2b_v100_1.json",
     "6e9b7f7fec8be121ce94cc0e0e9d9a14dd57a5dcf6911388f49641f47a2bb064"),
    ("preemption/4-node/aws-08-03-2023/us-east-2a_v100_1.json",
     "ce9eb00a1c6f49a77c5258e12363a5acc10a2180a793e99c10457fe47d0d7f47"),
)


def _spot_name(path: str) -> str:
    """``availability/1-node/aws-02-15-2023/us-east-1c_v100_1.json`` -> ``spot_traces/availability_1-node_aws-...``."""
    kind, nodes, day, rest = path.split("/")
    return f"spot_traces/{kind}_{nodes}_{day}_{rest}"


_ALIBABA = ("alibaba/clusterdata", "7a6c496e4f4b6ce6150be8f881cb051bf2abff42")
_HELIOS = ("S-Lab-System-Group/HeliosArtifact", "bdaae109c21f8038a2331e6a23a582d5ae78ab5b")
_JARVIS = ("microsoft/JARVIS", "c62e0faac76c4a2907cabe2cfe4bbe5f2e613400")

#: Every data file aisched's scenarios read, by dataset name.
DATASETS: dict[str, Dataset] = {d.name: d for d in (
    Dataset(
        "openb", "Alibaba GPU cluster 2023: 8,152 pods and 1,213 nodes (lora/tenants trace arrivals)",
        f"{_ALIBABA[0]} @ {_ALIBABA[1][:7]} : cluster-trace-gpu-v2023/csv/",
        "no LICENSE for v2023; the repository README allows research or study use; cite Weng et al., ATC'23",
        (DataFile("openb_pod_list_default.csv",
                  "1ee7ed79c27a3b0861cda8ddba86a004c6aba904caafa329a76ae93ca63834a8",
                  _raw(*_ALIBABA, "cluster-trace-gpu-v2023/csv/openb_pod_list_default.csv")),
         DataFile("openb_node_list_gpu_node.csv",
                  "2beca64b4d3dfa342036a34b56a495c6cef9225db836c81f541282cb1df320b5",
                  _raw(*_ALIBABA, "cluster-trace-gpu-v2023/csv/openb_node_list_gpu_node.csv"))),
    ),
    Dataset(
        "helios-gpus", "SenseTime Helios (Earth): GPUs per virtual cluster, daily (tenants quotas)",
        f"{_HELIOS[0]} @ {_HELIOS[1][:7]} : analysis/2_cluster characterization/Earth_vcs/Earth_gpu_number.csv",
        "repository MIT; Helios data CC-BY-4.0; cite Hu et al., SC'21",
        (DataFile("helios_earth_vc_gpu_number_daily.csv",
                  "cd85b21f9b2651a64ed7ecb86f2c5dea771a3bd55d41537eea976b61aa00642f",
                  _raw(*_HELIOS, "analysis/2_cluster characterization/Earth_vcs/Earth_gpu_number.csv")),),
    ),
    Dataset(
        "spot-traces", "AWS V100 spot availability and preemption traces (spot markets)",
        f"{_SPOT[0]} @ {_SPOT[1][:7]} : availability/..., preemption/...",
        "no licence file (all rights reserved by default): ask the authors; cite Wu et al., NSDI'24",
        tuple(DataFile(_spot_name(p), sha, _raw(*_SPOT, p)) for p, sha in _SPOT_FILES),
    ),
    Dataset(
        "hugginggpt", "HuggingGPT request -> task plans (genai DAGs)",
        f"{_JARVIS[0]} @ {_JARVIS[1][:7]} : hugginggpt/server/demos/demo_parse_task.json",
        "MIT (microsoft/JARVIS)",
        (DataFile("hugginggpt_demo_parse_task.json",
                  "693a810c5622934e0d18f8f15447ffe8d4410a8e1c0003abc42f9ee25a8652c8",
                  _raw(*_JARVIS, "hugginggpt/server/demos/demo_parse_task.json")),),
    ),
    Dataset(
        "taskbench-graph", "TaskBench tool graph: 23 tools, 225 typed links (genai DAGs)",
        f"{_JARVIS[0]} @ {_JARVIS[1][:7]} : taskbench/data_huggingface/graph_desc.json",
        "MIT (microsoft/JARVIS)",
        (DataFile("taskbench_huggingface_graph_desc.json",
                  "48f774a01d1452ddf918ced6f04218fe311863725a0d6624d6e191e7ea6c4694",
                  _raw(*_JARVIS, "taskbench/data_huggingface/graph_desc.json")),),
    ),
    Dataset(
        "philly", "Microsoft Philly GPU jobs, one day and one week from 2017-10-09 (lora/tenants arrivals)",
        "petuum/adaptdl @ osdi21-artifact (c793c70) : simulator/traces/philly.csv",
        "repository Apache-2.0; Philly trace CC-BY-4.0; cite Jeon et al., ATC'19",
        (DataFile("philly_pollux_2017-10-09.csv",
                  "e2f9ba058b9831728c361ed0d84ecc752045034436832e54f21d565602641882"),
         DataFile("philly_pollux_week_2017-10-09_15.csv",
                  "793135749062b2f1bfc5901cbb3cde3e6b91eb1469874b71000d6e9825ae9cb0")),
        how="derived: the jobs of 2017-10-09 (and of 10-09..10-15) cut out of the Pollux artifact's "
            "philly.csv, timestamps shifted by the extract's maker; any CSV with columns "
            "timestamp,duration,num_gpus,gpu_time,cluster works (pass its path as `trace`)",
    ),
    Dataset(
        "helios-day", "Helios virtual cluster vchbv, one day per minute (tenants)",
        f"{_HELIOS[0]} @ {_HELIOS[1][:7]} : analysis/2_cluster characterization/Earth_vcs/vchbv/"
        "cluster_sequence_vc.csv",
        "repository MIT; Helios data CC-BY-4.0; cite Hu et al., SC'21",
        (DataFile("helios_earth_vchbv_sequence_2020-05-15.csv",
                  "7f5e3ecba566f42edbebdc8b21992884d5ac538b6f1e66fc979f6e7d3785cab0"),),
        how="derived: the rows of 2020-05-15 from the source file above (header kept)",
    ),
    Dataset(
        "gpu-market", "GPU cloud market 2025-10-19..11-16: offers, availability, price percentiles (spot)",
        "tugot17/gpu-price-tracker @ 718a831 : data/summary/*.jsonl",
        "MIT",
        (DataFile("gpu_market_price_availability_2025.csv",
                  "bc08b9baf0ea4d71d3840990295591750582eb6a3772291029153b5febd3e07e"),),
        how="derived: the summary JSONL records flattened to one CSV row per (timestamp, gpu_type, "
            "socket_type) with the columns listed in the data README",
    ),
    Dataset(
        "gcp-prices", "GCP on-demand vs spot price per GPU machine type, weekly 2022-2026 (spot prices)",
        "Cyclenerd/google-cloud-pricing-cost-calculator : pricing.yml (git history)",
        "Apache-2.0",
        (DataFile("gcp_gpu_price_weekly.csv",
                  "0ef224ecb6c748035dc841a3d0539fcee615238e25d1c1abffe6231bf33839e1"),),
        how="derived: one row per weekly version of pricing.yml and GPU machine type "
            "(commit_time,machine_type,region,hour,hour_spot), read from the repository's git history",
    ),
    Dataset(
        "lora-throughput", "measured LoRA fine-tuning throughputs on A100 and A40 (lora)",
        "compiled by hand from the sources listed in its columns", "facts with citations",
        (DataFile("lora_throughput_reference.csv",
                  "6d770eaa4981912e3ea4e9ecd54319c8c1ddad493326bec07cec46521ca3c430"),),
        how="compiled: ask the aisched maintainers for the file, or write your own with the same columns",
    ),
    Dataset(
        "taskbench-dags", "342 AI task DAGs sampled from TaskBench (genai workloads)",
        "microsoft/JARVIS TaskBench data_huggingface/data.json (through laminair/JARVIS @ 59cd0fd)",
        "MIT (microsoft/JARVIS)",
        (DataFile("taskbench_dags.jsonl",
                  "03b42580d28f523079461f11750fb71801b226698e40b6cf81ca3715c1d8fae3"),
         DataFile("taskbench_dags.README.md",
                  "2ab4986fe4488752f5f3f266e926186200ea0c11a952375ddcae0313f57af803")),
        how="derived: records of TaskBench's data.json transcribed to one JSON object per line "
            "(id, domain, type, nodes, edges); see taskbench_dags.README.md",
    ),
)}


def provenance_page() -> str:
    """The data page (``docs/data.md``) rendered from :data:`DATASETS`: what each file is, its source, licence
    and what to cite, and how to get it.

    The page is this function's output, never edited by hand (``tests/test_data.py`` checks that the committed
    page is current), so the repository carries the provenance without copying any data file.

    Returns
    -------
    str
        The Markdown page.
    """
    lines = [
        "# The data aisched reads",
        "",
        "Rendered from `aisched.data.DATASETS` by `aisched.data.provenance_page()`; do not edit by hand. aisched "
        "ships no data: its loaders find each file by name in `$AISCHED_DATA`, then in the user cache that "
        "`aisched data fetch NAME` fills, then in a `shared/data` folder beside a source checkout "
        "(`aisched data list` says where each file was found). Cite the source named below when a scenario "
        "uses its file.",
        "",
        "| dataset | what it is (who reads it) | source (repository @ commit : path) | licence, citation | "
        "files | how to get it |",
        "|---|---|---|---|---|---|",
    ]
    for data in DATASETS.values():
        files = ", ".join(f"`{f.name}`" for f in data.files)
        how = (f"`aisched data fetch {data.name}` (pinned commit, sha256 checked)" if data.downloadable
               else data.how)
        cells = (f"`{data.name}`", data.what, data.source, data.license, files, how)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    lines.append("")
    return "\n".join(lines)


class FetchError(InvalidScenarioError):
    """A download failed or its sha256 did not match (names the dataset and file)."""


def dataset_of(filename: str) -> Dataset | None:
    """The dataset a data file belongs to (None for a file aisched does not know)."""
    for d in DATASETS.values():
        if any(f.name == filename for f in d.files):
            return d
    return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def status() -> list[dict[str, str]]:
    """One row per file: dataset, file, where found (or "missing"), sha256 match, source, licence, how to get it."""
    rows = []
    for d in DATASETS.values():
        for f in d.files:
            found = data_file(f.name, required=False)
            ok = "" if found is None else ("yes" if _sha256(found) == f.sha256 else "no")
            rows.append({
                "dataset": d.name, "file": f.name, "found": str(found) if found else "missing", "sha256_ok": ok,
                "what": d.what, "source": d.source, "license": d.license,
                "get": f"aisched data fetch {d.name}" if f.url else d.how,
            })
    return rows


def fetch(name: str, *, mirror: str | None = None, cache: Path | None = None) -> list[Path]:
    """Download the files of dataset ``name`` (or ``"all"``) into the cache, checked by sha256.

    Parameters
    ----------
    name
        A key of :data:`DATASETS`, or ``"all"`` for every downloadable dataset.
    mirror
        Fetch from ``<mirror>/<file name>`` instead of each file's source URL (a
        local copy, a proxy; the tests serve files on 127.0.0.1).
    cache
        Target folder (default: :func:`aisched._paths.cache_dir`).

    Returns
    -------
    list of Path
        The cached files. A file already cached with the right hash is not
        downloaded again.

    Raises
    ------
    InvalidScenarioError
        ``name`` is unknown, or names derived data (the message says how to get it).
    FetchError
        A download failed or its hash did not match; nothing is left under the file's name.
    """
    import pooch

    if name == "all":
        chosen = [d for d in DATASETS.values() if d.downloadable]
    elif name in DATASETS:
        chosen = [DATASETS[name]]
        if not chosen[0].downloadable:
            raise InvalidScenarioError("dataset", f"{name!r} is not a verbatim copy aisched can download; "
                                       f"{chosen[0].how} (source: {chosen[0].source})")
    else:
        raise InvalidScenarioError("dataset", f"unknown dataset {name!r} (known: {', '.join(DATASETS)}, all)")
    target = Path(cache) if cache is not None else cache_dir()
    logger = pooch.get_logger()  # its "Downloading data from ..." lines on stderr: the caller reports instead
    level = logger.level
    logger.setLevel("WARNING")
    try:
        return _retrieve(pooch, chosen, target, mirror)
    finally:
        logger.setLevel(level)


def _retrieve(pooch: Any, chosen: list[Any], target: Path, mirror: str | None) -> list[Path]:
    """Download (or find, hash-checked) every file of ``chosen`` into ``target``."""
    paths = []
    for d in chosen:
        for f in d.files:
            url = f"{mirror.rstrip('/')}/{f.name}" if mirror else str(f.url)
            dest = target / f.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                got = pooch.retrieve(url, known_hash=f"sha256:{f.sha256}", fname=dest.name,
                                     path=dest.parent, progressbar=False)
            except ValueError as exc:  # pooch: hash mismatch (the download is removed)
                raise FetchError(d.name, f"{f.name}: {exc}") from None
            except Exception as exc:  # requests' connection / HTTP errors
                raise FetchError(d.name, f"{f.name}: download from {url} failed ({exc})") from None
            paths.append(Path(got))
    return paths


def data_file(name: str, *, required: bool = True) -> Path | None:
    """The path of data file ``name`` (e.g. ``"spot_traces/availability_...json"``).

    Parameters
    ----------
    name
        The file's name relative to a data folder.
    required
        Raise when the file is nowhere (default); else return None.

    Raises
    ------
    InvalidScenarioError
        ``name`` is in none of the folders; the message lists them and says how
        to get the file (``aisched data fetch NAME``, or how derived data are made).
    """
    for folder in search_path():
        path = folder / name
        if path.is_file():
            return path
    if not required:
        return None
    dataset = dataset_of(name)
    if dataset is None:
        hint = "it is not one of aisched's datasets (`aisched data list`)"
    elif dataset.downloadable:
        hint = f"fetch it with `aisched data fetch {dataset.name}`"
    else:
        hint = f"it is derived data: {dataset.how}; then put it in $AISCHED_DATA"
    searched = ", ".join(str(p) for p in search_path())
    raise InvalidScenarioError("data", f"file {name!r} not found in {searched}: {hint}")
