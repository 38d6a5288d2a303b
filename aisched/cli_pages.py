"""``aisched report`` and ``aisched pages``: the report of a sweep folder, the reproduction pages and their records."""

from __future__ import annotations

import argparse

from aisched.errors import InvalidScenarioError

__all__ = ["pages", "report"]


def report(args: argparse.Namespace) -> int:
    """``aisched report DIR``: the folder's report, and with ``--reproduction`` its records and pages."""
    if not args.directory.is_dir():
        what = "is not a folder" if args.directory.exists() else "does not exist"
        raise InvalidScenarioError("directory", f"{str(args.directory)!r} {what} (give the --out folder of a sweep)")
    from aisched.experiments.pages import report as report_page

    if args.refresh_metrics:
        from aisched.experiments.run.refresh import refresh_metrics

        done = refresh_metrics(args.directory)
        print(f"refreshed the metrics of {done.cells} cells in {done.folders} sweeps ({done.kept} left as they were)")
    path = report_page.report(args.directory, figures=not args.no_figures)
    print(f"wrote {path}")
    if args.reproduction is not None:
        from aisched.experiments.pages import reproduction

        page = reproduction.write(args.directory, args.reproduction, readings=args.readings,
                                  figures=not args.no_figures, families=args.family, records=args.records)
        print(f"wrote {page}")
    return 0


def pages(args: argparse.Namespace) -> int:
    """``aisched pages``: the reproduction pages rendered again from the committed verdict records."""
    from aisched.experiments.pages import reproduction

    if not args.records.is_dir():
        raise InvalidScenarioError("--records", f"= {str(args.records)!r} is not a folder of verdict records")
    print(f"wrote {reproduction.render_pages(args.records, args.out, claims=args.claims)}")
    return 0
