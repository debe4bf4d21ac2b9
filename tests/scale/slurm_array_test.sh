#!/usr/bin/env bash
# The Slurm array example (examples/slurm_array.sbatch) under a real Slurm:
# a single-node cluster on this machine (munged with a key made here,
# slurmctld and slurmd with a minimal slurm.conf, all in a temporary folder,
# on localhost ports), 4 array tasks over a few dozen photos:
#   1. every input processed exactly once, the outputs byte-identical to a
#      single-process run, the reports merging into a complete manifest;
#   2. a task killed midway (scancel) leaves whole outputs only, and run
#      again (scontrol requeue) it completes the set.
# Stops every daemon it started. Exit 77 (CTest: skipped, with the reason on
# stdout) where Slurm is not installed or cannot start here.
#
#   tests/scale/slurm_array_test.sh path/to/imgpar [PHOTOS]
set -euo pipefail

IMGPAR=$(realpath "${1:?usage: slurm_array_test.sh IMGPAR}")
PHOTOS=${2:-36}  # more for a timing run; the FIFO check needs 20 or more
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SAMPLES=$ROOT/samples
SCRIPT=$ROOT/examples/slurm_array.sbatch
# shellcheck source=tests/scale/common.sh
. "$ROOT/tests/scale/common.sh"
export IMGPAR

for cmd in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$cmd" >/dev/null 2>&1 || skip "$cmd not found (Debian: apt-get install slurm-wlm munge)"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/imgpar-slurm.XXXXXX")
daemons=()  # PIDs of what this test started, stopped in reverse order

stop_daemon() {
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
    local i
    set +e
    if ((${#daemons[@]} > 1)); then
        # Jobs first: their steps would outlive slurmd.
        scancel --user="$(id -un)" >/dev/null 2>&1
        for ((i = 0; i < 100; i++)); do
            [[ -z $(squeue -h 2>/dev/null) ]] && break
            sleep 0.1
        done
    fi
    for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do stop_daemon "${daemons[i]}"; done
    wait 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

# --- a one-node cluster -----------------------------------------------------
user=$(id -un)
node=$(hostname -s)
cpus=$(nproc)
port=$((20000 + RANDOM % 20000))
mkdir -m 700 "$WORK/munge"
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/logs"
head -c 1024 /dev/urandom >"$WORK/munge/munge.key"
chmod 400 "$WORK/munge/munge.key"
munged --foreground --force --key-file="$WORK/munge/munge.key" --socket="$WORK/munge/socket" \
    --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/seed" \
    >"$WORK/munge/out.log" 2>&1 &
daemons+=($!)
wait_for "$WORK/munge/socket" 10 || skip "munged did not start: $(tail -n 3 "$WORK/munge/out.log")"

export SLURM_CONF=$WORK/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=imgpartest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/socket
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
slurmctld -D -i >"$WORK/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D -N "$node" >"$WORK/slurmd.out" 2>&1 &
daemons+=($!)
for ((i = 0; i < 150; i++)); do
    [[ $(sinfo -h -o %t 2>/dev/null) == idle ]] && break
    sleep 0.2
done
[[ $(sinfo -h -o %t 2>/dev/null) == idle ]] ||
    skip "Slurm did not start here: $(tail -n 2 "$WORK/slurmctld.log" "$WORK/slurmd.log" "$WORK/slurmd.out" 2>&1 | tr '\n' ' ')"
note "Slurm $(sinfo -V | cut -d' ' -f2): node $node, $cpus CPUs, controller on port $port"

# --- the photos and the single-process reference ------------------------------
cd "$WORK"
make_photos photos "$PHOTOS"
find photos -type f >list.txt
t0=$(now_ms)
"$IMGPAR" blur --files-from list.txt --out-dir ref --json-file ref.jsonl -q
single_ms=$(($(now_ms) - t0))
check_manifest list.txt ref.jsonl

# submit ARGS...: submits the example as an array of 4 tasks on 1 CPU each,
# without the GPU request (this node has no gres); prints the job id.
submit() {
    sbatch --parsable --array=0-3 --gres=none --cpus-per-task=1 --open-mode=append \
        --output="$WORK/logs/task-%A_%a.log" --chdir="$WORK" "$SCRIPT" "$@"
}

# wait_job JOB SECONDS: until none of the job's tasks is pending or running.
wait_job() {
    local end=$(($(date +%s) + $2))
    while [[ -n $(squeue -h -j "$1" 2>/dev/null) ]]; do
        (($(date +%s) < end)) || fail "job $1 still running after $2 s: $(squeue -j "$1")"
        sleep 0.1
    done
}

# task_state JOB ID: COMPLETED, CANCELLED, FAILED... of one array task.
task_state() { scontrol -o show job "$1_$2" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }

# --- 1. four tasks split the list -------------------------------------------------
note "1. sbatch --array=0-3 over $(wc -l <list.txt) photos"
t0=$(now_ms)
job=$(submit list.txt out)
wait_job "$job" 300
array_ms=$(($(now_ms) - t0))
for id in 0 1 2 3; do
    state=$(task_state "$job" "$id")
    [[ $state == COMPLETED ]] || fail "task $id: $state: $(cat "$WORK"/logs/task-"$job"_"$id".log)"
done
reports=(out.reports/report-{1,2,3,4}-of-4.jsonl)
check_manifest list.txt "${reports[@]}"
check_outputs ref out
for id in 0 1 2 3; do
    # The share the task reported is the one --shard K/4 names.
    diff <(share_of list.txt $((id + 1)) 4) <(json_inputs "${reports[id]}" | LC_ALL=C sort) >/dev/null ||
        fail "task $id did not process share $((id + 1))/4"
done
note "timing: single process (all cores) $single_ms ms; 4-task array $array_ms ms, submission to last task's end"
tasks_line "  task" "${reports[@]}"
grep -h -o 'blur: [0-9]* written.*' logs/task-"$job"_*.log | sed 's/^/  /'

# --- 2. a task killed midway, then run again ----------------------------------
# A FIFO among the inputs holds the task whose share it is, after the files
# before it: it is killed there, with part of its share written.
note "2. a task killed midway and requeued"
mkfifo photos/p17_hold.png
# Sorted, so the task works through its share in the order share_of gives.
{ cat list.txt; echo photos/p17_hold.png; } | LC_ALL=C sort >list2.txt
k=$(LC_ALL=C sort list2.txt | grep -n -x photos/p17_hold.png | cut -d: -f1)
k=$(((k - 1) % 4 + 1))  # the shard it falls in
mapfile -t share < <(share_of list2.txt "$k" 4)
before=()
for f in "${share[@]}"; do
    [[ $f == photos/p17_hold.png ]] && break
    before+=("$f")
done
((${#before[@]} > 0 && ${#before[@]} < ${#share[@]} - 1)) || fail "the FIFO is not midway in share $k"
job=$(submit list2.txt out2 --jobs 1)
last=out2/$(basename "${before[-1]}")
wait_for "$last" 120 || fail "task $((k - 1)) never wrote $last: $(cat "$WORK"/logs/task-"$job"_$((k - 1)).log)"
[[ $(task_state "$job" $((k - 1))) == RUNNING ]] || fail "task $((k - 1)) is not running"
scancel "${job}_$((k - 1))"
wait_job "$job" 120
[[ $(task_state "$job" $((k - 1))) == CANCELLED ]] || fail "task $((k - 1)) was not cancelled"
check_killed "$k"
written=$(find out2 -type f | wc -l)
note "  killed task $((k - 1)) (share $k/4) after ${#before[@]} of its ${#share[@]} files; $written of $(wc -l <list2.txt) outputs written"

check_whole_after_kill
scontrol requeue "${job}_$((k - 1))"
scontrol update jobid="${job}_$((k - 1))" StartTime=now  # a requeued job waits 2 minutes otherwise
for ((i = 0; i < 600; i++)); do
    [[ $(task_state "$job" $((k - 1))) == COMPLETED ]] && break
    sleep 0.2
done
[[ $(task_state "$job" $((k - 1))) == COMPLETED ]] ||
    fail "the requeued task: $(task_state "$job" $((k - 1))): $(cat "$WORK"/logs/task-"$job"_$((k - 1)).log)"
check_outputs ref2 out2
check_manifest list2.txt out2.reports/report-{1,2,3,4}-of-4.jsonl
tasks_line "  after the requeue" "out2.reports/report-$k-of-4.jsonl"
note "PASSED"
