# Sourced by the whole-run benchmarks (run.sh, compare.sh, chain.sh,
# resize.sh, tiff_vips.sh, blur16.sh), after they set `repeats` (and
# TIMEFORMAT=%R for median).
#
# Median wall seconds of `repeats` runs of "$@" (output discarded), or
# "failed (exit N)" when a run fails: a tool that gives up (ImageMagick's
# resource limits on 8192x8192 images, say) must not be timed as if it had
# done the job.
median() { median_into "" "$@"; }

# The same, each run into the emptied folder $1 (not timed); the last run's
# outputs stay there.
batch_median() { median_into "$@"; }

median_into() {
    local dir=$1 times=() t status
    shift
    for ((i = 0; i < repeats; i++)); do
        [[ -z $dir ]] || { rm -rf "$dir"; mkdir -p "$dir"; }
        status=0
        t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || status=$?
        if ((status != 0)); then
            echo "failed (exit $status)"
            return
        fi
        times+=("$t")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# Images per second (N files in SECONDS) and the ratio A / B, or "-" where a
# time is a failure.
number() { [[ $1 =~ ^[0-9.]+$ ]]; }
rate() { number "$2" && awk "BEGIN {printf \"%.1f\", $1 / $2}" || echo "-"; }      # N SECONDS
ratio() { number "$1" && number "$2" && awk "BEGIN {printf \"%.2f\", $1 / $2}" || echo "-"; }  # A B

# "CPU / wall" medians (user+sys seconds, wall seconds) of `repeats` runs of
# "$@" in the current folder, or "failed". Each run starts without the
# previous run's out.* files: overwriting in place (vips) frees the old file's
# pages before writing, a rename (imgpar) after.
cpu_wall_median() {
    local i log
    log=$(mktemp)
    for ((i = 0; i < repeats; i++)); do
        rm -f out.*
        /usr/bin/time -f "%e %U %S" "$@" >/dev/null 2>"$log" || { echo "failed"; rm -f "$log"; return; }
        tail -1 "$log"
    done | sort -n | awk '{w[NR] = $1; c[NR] = $2 + $3} END {
        n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
        printf "%.3f / %.3f", c[int((n + 1) / 2)], w[int((n + 1) / 2)] }'
    rm -f "$log"
}
