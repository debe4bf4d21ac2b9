# Sourced by the whole-run benchmarks (run.sh, compare.sh), after they set
# `repeats` and TIMEFORMAT=%R.
#
# Median wall seconds of `repeats` runs of "$@" (output discarded), or
# "failed (exit N)" when a run fails: a tool that gives up (ImageMagick's
# resource limits on 8192x8192 images, say) must not be timed as if it had
# done the job.
median() {
    local times=() t status
    for ((i = 0; i < repeats; i++)); do
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
