# Shared by the scale-out tests (tests/scale/*_test.sh): the photos, the
# single-process reference run and the checks that a split run matches it.
# Sourced with `set -euo pipefail`; IMGPAR is the binary under test, WORK
# the test's temporary folder.

# CTest counts exit code 77 as a skip (SKIP_RETURN_CODE in tests/CMakeLists.txt).
skip() {
    echo "SKIPPED: $*"
    exit 77
}

fail() {
    echo "FAILED: $*" >&2
    exit 1
}

note() { echo "== $*"; }

# now_ms: wall clock in milliseconds.
now_ms() { date +%s%3N; }

# make_photos DIR COUNT: COUNT real photos, the samples re-encoded as JPEG at
# different qualities and copied as PNG, each file's bytes different, names
# p00_... so their sorted order is known.
make_photos() {
    local dir=$1 count=$2 samples i=0 q src name
    samples=("$SAMPLES"/camera.png "$SAMPLES"/chelsea.png "$SAMPLES"/chelsea_alpha.png "$SAMPLES"/rocket.jpg)
    mkdir -p "$dir"
    while ((i < count)); do
        src=${samples[i % 4]}
        name=$(printf 'p%02d_%s' "$i" "$(basename "${src%.*}")")
        if ((i % 3 == 2)); then
            "$IMGPAR" convert -q "$src" "$dir/$name.png"
        else
            q=$((60 + i % 40))
            "$IMGPAR" convert -q --quality "$q" "$src" "$dir/$name.jpg"
        fi
        i=$((i + 1))
    done
}

# json_inputs REPORT...: the "input" of every line, one per line.
json_inputs() { sed -n 's/.*"input":"\([^"]*\)".*/\1/p' "$@"; }

# check_manifest LIST REPORT...: every name of LIST has exactly one line in
# the reports, each with "ok":true, and nothing else is there.
check_manifest() {
    local list=$1
    shift
    local lines dups r
    for r in "$@"; do [[ -f $r ]] || fail "no report $r"; done
    lines=$(cat "$@" | wc -l)
    [[ $lines -eq $(wc -l <"$list") ]] || fail "the reports hold $lines lines for $(wc -l <"$list") inputs"
    dups=$(json_inputs "$@" | LC_ALL=C sort | uniq -d)
    [[ -z $dups ]] || fail "processed more than once: $dups"
    diff <(LC_ALL=C sort "$list") <(json_inputs "$@" | LC_ALL=C sort) >/dev/null ||
        fail "the reports' inputs are not the list's: $(diff <(LC_ALL=C sort "$list") <(json_inputs "$@" | LC_ALL=C sort))"
    if grep -h -v '"ok":true' "$@"; then fail "a file failed (above)"; fi
}

# check_outputs REF OUT: OUT holds exactly REF's files, byte for byte (no
# temporary file left, nothing missing).
check_outputs() {
    local ref=$1 out=$2 f
    diff <(ls -A "$ref") <(ls -A "$out") >&2 || fail "$out does not hold the files of $ref"
    for f in "$ref"/*; do
        cmp -s "$f" "$out/$(basename "$f")" || fail "$out/$(basename "$f") differs from the single-process run"
    done
}

# share_of LIST K N: the names of shard K/N as --shard splits them (the
# sorted names, every N-th from the K-th), for checking what a killed task
# left.
share_of() { LC_ALL=C sort -u "$1" | awk -v k="$2" -v n="$3" '(NR - 1) % n == k - 1'; }

# check_killed K: share K/4, killed while it read the hold (photos/p17_hold.png,
# a FIFO), left no report in out2.reports and no temporary file in out2.
check_killed() {
    [[ ! -e out2.reports/report-$1-of-4.jsonl ]] || fail "the killed share $1/4 left a report"
    local leftovers
    leftovers=$(find out2 -name '.*imgpar-*')
    [[ -z $leftovers ]] || fail "temporary files left: $leftovers"
}

# check_whole_after_kill: the hold becomes a photo; a single run over
# list2.txt into ref2 is the reference, and every output written before the
# kill equals its file there.
check_whole_after_kill() {
    local f
    rm photos/p17_hold.png
    cp photos/p02_chelsea_alpha.png photos/p17_hold.png
    "$IMGPAR" blur --files-from list2.txt --out-dir ref2 -q
    for f in out2/*; do
        cmp -s "$f" "ref2/$(basename "$f")" || fail "$f, written before the kill, is not whole"
    done
}

# wait_for FILE SECONDS: until FILE exists.
wait_for() {
    local end=$(($(date +%s) + $2))
    until [[ -e $1 ]]; do
        (($(date +%s) < end)) || return 1
        sleep 0.1
    done
}

# tasks_line LABEL REPORT...: per-task counts for the log.
tasks_line() {
    local label=$1 r
    shift
    for r in "$@"; do
        printf '%s %s: %d files (%d written, %d skipped)\n' "$label" "$(basename "$r")" "$(wc -l <"$r")" \
            "$(grep -c -v '"skipped":true' "$r" || true)" "$(grep -c '"skipped":true' "$r" || true)"
    done
}
