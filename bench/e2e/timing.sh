# Sourced by the whole-run benchmarks (run.sh, compare.sh, chain.sh,
# resize.sh), after they set `repeats` and TIMEFORMAT=%R.
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
