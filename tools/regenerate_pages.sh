#!/usr/bin/env bash
# Regenerate the reproduction pages (docs/records/, docs/reproduction*.md, docs/claims.md) from scratch,
# from one results root, so every page names the same run:
#
#   1. `aisched reproduce all --seeds N`: every named scenario of the four families at full size;
#      then, per family in AUTO_SEEDS, `aisched reproduce FAMILY --seeds auto --max-seeds MAX_SEEDS`
#      on the same root: seeds added (to 6, 12, 20) only where a claim is still undecided;
#   2. per family with regime targets, `aisched calibrate`: the silent parameters fitted to the paper's
#      baseline-only relations on seeds no figure uses, refit and confirmed on held-out seeds (the pages'
#      "Regime fidelity"); where the headline rule picks the fit, `aisched sensitivity FAMILY --full --regimes
#      --seeds SEEDS`: the default and the fit at the figures' sizes and seeds (the page counts the fit's);
#   3. per family with silent parameters, `aisched sensitivity` at the reduced sizes, and, where
#      SENSITIVITY_FULL names the family, `--full --points claims` (the paper's sizes at the claims'
#      points, which the reduced forms lack);
#   4. `aisched report ROOT --reproduction docs/reproduction.md`: the verdict records (docs/records/), the
#      figures (docs/figures/), each family's page and the index; then `aisched pages` renders them again
#      with docs/claims.md (the pages' only source is the records).
#
# Every step resumes where an earlier call stopped (the sweeps keep their finished cells), so the script
# can be stopped and called again; a resumed `reproduce` is not counted against the time budget (the
# page's budget table says so). Costs measured on 2 cores (CHANGELOG.md, 2026-12-05 and before): step 1's `reproduce all
# --seeds 3` 72.7 min from scratch on 2026-12-04 (3,921 cells), its `--seeds auto` spot 3.7 min,
# genai none (no claim open), tenants about 25, lora to at most 6 seeds 25 (AUTO_SEEDS, MAX_SEEDS=6);
# step 2 under 7 min a family; step 3 reduced 1-10 min a family.
#
# Usage (from the repository root, after `make install`):
#   tools/regenerate_pages.sh ROOT [SEEDS]
# Environment: AUTO_SEEDS="spot genai tenants" (default: none), MAX_SEEDS (default 20),
# SENSITIVITY_FULL="genai lora tenants" (default: none), AISCHED (default .venv/bin/aisched),
# PYTHON (default .venv/bin/python: reads the registered families).
set -euo pipefail

root=${1:?usage: tools/regenerate_pages.sh ROOT [SEEDS]}
seeds=${2:-3}
aisched=${AISCHED:-.venv/bin/aisched}
full=${SENSITIVITY_FULL:-}
auto=${AUTO_SEEDS:-}
max_seeds=${MAX_SEEDS:-20}
python=${PYTHON:-.venv/bin/python}
# the registered families, from the one registry (a family added to aisched joins without editing this script)
read -r -a families <<< "$("$python" -c 'import aisched; print(" ".join(aisched.FAMILIES))')"

"$aisched" reproduce all --seeds "$seeds" --out "$root" --no-progress --no-figures
for family in $auto; do
    "$aisched" reproduce "$family" --seeds auto --max-seeds "$max_seeds" --out "$root" --no-progress --no-figures
done
for family in "${families[@]}"; do
    "$aisched" calibrate "$family" --out "$root" --no-progress
    "$aisched" sensitivity "$family" --out "$root" --no-progress
    regime=$("$python" -c 'import sys; from aisched.experiments.pages.fidelity import headline_of; h = headline_of(sys.argv[1], sys.argv[2]); print(h["regime"] if h else "default")' "$root" "$family")
    if [ "$regime" = fit ]; then
        "$aisched" sensitivity "$family" --out "$root" --full --regimes --seeds "$seeds" --no-progress
    fi
done
for family in $full; do
    "$aisched" sensitivity "$family" --out "$root" --full --points claims --no-progress
done
# the verdict records (docs/records/<family>.json), each family's page, the index, then the claims page
"$aisched" report "$root" --reproduction docs/reproduction.md --readings docs/readings
"$aisched" pages --records docs/records --out docs/reproduction.md --claims docs/claims.md
