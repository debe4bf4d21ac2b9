#!/bin/bash
# Blurs every image named in a list with N jobs of GNU parallel, on this
# machine or over ssh on hosts that share the folder. Every job takes its
# share of the sorted list (--shard K/N) and writes its own report. Run it
# again with the same arguments after a failure: parallel runs only the jobs
# that failed or were killed (--resume-failed, from the job log), and
# --skip-existing makes them resume where they stopped.
#
#   examples/gnu_parallel.sh photos.txt out/ 4                         # here
#   examples/gnu_parallel.sh photos.txt out/ 16 node1,node2,node3,node4 --sigma 3
#
# LIST: the input names, one per line or NUL-separated (find -print0).
# OUT:  the folder the outputs go to; reports and the job log go to OUT.reports/.
# N:    the number of jobs (shares); HOSTS: parallel's -S list (default ':', this machine).
# What follows is passed to `imgpar blur`. parallel takes more options from
# the PARALLEL variable, e.g. PARALLEL='-j 1' for one job per host at a time
# (its default: one per CPU core). IMGPAR names the binary when it is not on PATH.
set -euo pipefail

usage="usage: examples/gnu_parallel.sh LIST OUT N [HOSTS] [blur options]"
list=${1:?$usage}
out=${2:?$usage}
out=${out%/}  # its reports go beside it, not into it
shards=${3:?$usage}
shift 3
hosts=:
if [[ $# -gt 0 && $1 != -* ]]; then
    hosts=$1
    shift
fi
mkdir -p "$out.reports"
# {} is parallel's (the job's K); {shard} is imgpar's, passed through as is.
exec parallel -S "$hosts" --workdir . --joblog "$out.reports/jobs.log" --resume-failed \
    "${IMGPAR:-imgpar}" blur --files-from "$list" --out-dir "$out" --shard "{}/$shards" --skip-existing \
    --json-file "$out.reports/report-{shard}.jsonl" "$@" ::: $(seq "$shards")
