#!/usr/bin/env bash
# examples/gnu_parallel.sh and docs/batch.md's --xargs line on this host (-S :
# is the local host through parallel's remote-host machinery, without ssh)
# over a few dozen photos:
#   1. --shard {}/4 in 4 jobs: every input processed exactly once, outputs
#      byte-identical to a single-process run, the reports merging into a
#      complete manifest;
#   2. --xargs, parallel handing out the names: the same outputs;
#   3. a job killed midway leaves whole outputs only, and the example run
#      again (--resume-failed) completes the set.
# Exit 77 (CTest: skipped) where GNU parallel is not installed.
#
#   tests/scale/gnu_parallel_test.sh path/to/imgpar [PHOTOS]
set -euo pipefail

IMGPAR=$(realpath "${1:?usage: gnu_parallel_test.sh IMGPAR}")
PHOTOS=${2:-36}  # more for a timing run; the FIFO check needs 20 or more
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SAMPLES=$ROOT/samples
# shellcheck source=tests/scale/common.sh
. "$ROOT/tests/scale/common.sh"
export IMGPAR  # for the example

command -v parallel >/dev/null 2>&1 || skip "parallel not found (Debian: apt-get install parallel)"
parallel --version 2>/dev/null | grep -q 'GNU parallel' || skip "the parallel found is not GNU parallel (moreutils?)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/imgpar-parallel.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
export HOME=$WORK  # parallel keeps its state under ~/.parallel

make_photos photos "$PHOTOS"
find photos -type f >list.txt
t0=$(now_ms)
"$IMGPAR" blur --files-from list.txt --out-dir ref -q
single_ms=$(($(now_ms) - t0))

# shard_jobs LIST OUT [blur options]: the example, 4 jobs at once.
shard_jobs() { PARALLEL='-j 4' "$ROOT/examples/gnu_parallel.sh" "$@"; }

note "1. examples/gnu_parallel.sh, 4 jobs, over $(wc -l <list.txt) photos"
t0=$(now_ms)
shard_jobs list.txt out 4 -q
parallel_ms=$(($(now_ms) - t0))
reports=(out.reports/report-{1,2,3,4}-of-4.jsonl)
check_manifest list.txt "${reports[@]}"
check_outputs ref out
note "timing: single process (all cores) $single_ms ms; 4 parallel jobs $parallel_ms ms"
tasks_line "  job" "${reports[@]}"

note "2. parallel --xargs"
LC_ALL=C sort list.txt | parallel -S : --xargs -n 10 "$IMGPAR" blur --out-dir out3 --skip-existing \
    --json-file 'out3.reports/report-{#}.jsonl' -q {}
check_manifest list.txt out3.reports/report-*.jsonl
check_outputs ref out3

# A FIFO among the inputs holds the job whose share it is (one file at a
# time: --jobs 1), after the files before it; that job's imgpar is killed
# there.
note "3. a job killed midway, then the example again"
mkfifo photos/p17_hold.png
{ cat list.txt; echo photos/p17_hold.png; } | LC_ALL=C sort >list2.txt
k=$(grep -n -x photos/p17_hold.png list2.txt | cut -d: -f1)
k=$(((k - 1) % 4 + 1))
mapfile -t share < <(share_of list2.txt "$k" 4)
before=()
for f in "${share[@]}"; do
    [[ $f == photos/p17_hold.png ]] && break
    before+=("$f")
done
((${#before[@]} > 0 && ${#before[@]} < ${#share[@]} - 1)) || fail "the FIFO is not midway in share $k"
shard_jobs list2.txt out2 4 -q --jobs 1 >parallel.log 2>&1 &
parallel_pid=$!
wait_for "out2/$(basename "${before[-1]}")" 60 || fail "job $k never wrote its first files"

# descendants PID: the processes below PID (parallel runs each job through a shell).
descendants() {
    local child
    for child in $(ps -o pid= --ppid "$1"); do
        echo "$child"
        descendants "$child"
    done
}
victim=
for pid in $(descendants "$parallel_pid"); do
    if { tr '\0' '\n' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -q -x -- "$k/4" &&
        [[ $(readlink "/proc/$pid/exe") == "$IMGPAR" ]]; then
        victim=$pid
    fi
done
[[ -n $victim ]] || fail "no imgpar process of job $k/4 under parallel"
kill -TERM "$victim"
if wait "$parallel_pid"; then fail "parallel did not see the job fail"; fi
check_killed "$k"
note "  killed job $k/4 after ${#before[@]} of its ${#share[@]} files; $(find out2 -type f | wc -l) of $(wc -l <list2.txt) outputs written"

check_whole_after_kill
shard_jobs list2.txt out2 4 -q --jobs 1  # the same line: --resume-failed
check_outputs ref2 out2
check_manifest list2.txt out2.reports/report-{1,2,3,4}-of-4.jsonl
for j in 1 2 3 4; do
    # Only the killed job ran again: the others' reports are their first.
    [[ $j == "$k" ]] || ! grep -q '"skipped":true' "out2.reports/report-$j-of-4.jsonl" || fail "job $j ran again"
done
tasks_line "  after --resume-failed" "out2.reports/report-$k-of-4.jsonl"
note "PASSED"
