#!/bin/bash
# `xs12 sweep --slurm` against a real one-node Slurm cluster, started here.
#
#   slurm.sh XS12 KERNEL_DIR
#
# Starts slurmctld and slurmd (Debian's slurm-wlm, scripts/bootstrap) on
# localhost in a temporary folder, runs the same sweep locally and as a
# Slurm job array, and checks:
#   * the two tables are the same bytes, with a --slurm-dir whose name
#     holds '%' (sbatch -o patterns: xs12 escapes it);
#   * a task that cannot write its row is reported by its index (and the
#     command exits 1), the other rows still printed.
# Needs root (the daemons run as root, SlurmUser=root) and the packages; when
# either is missing it FAILS under CI (CI set) and is skipped (exit 77)
# otherwise.
#
# What makes a one-node cluster work here, without systemd (Slurm 22.05 of
# Debian 12; docs/cli.md has the same in prose):
#   * both daemons run in the foreground (-D) from a plain `cmd &`, so $! is
#     the daemon itself; nothing is written outside the temporary folder
#     because every state, spool, PID and log path in slurm.conf points into it;
#   * AuthType=auth/none with CredType=cred/none: no munge daemon needed;
#   * ProctrackType=proctrack/linuxproc and TaskPlugin=task/none: no cgroups
#     (proctrack/cgroup fails silently here: jobs "complete" without running);
#   * no accounting (accounting_storage/none): squeue/scontrol, not sacct;
#   * the node line comes from `slurmd -C` (its NodeName is the hostname,
#     which slurmd must find), with RealMemory lowered (more than the real
#     memory puts the node in "inval");
#   * SchedulerParameters=batch_sched_delay=0 and SelectTypeParameters=CR_Core
#     let tasks start each second, two at once (CR_Core_Memory would give each
#     task the whole node's memory, one at a time);
#   * clients find the cluster only through SLURM_CONF (there is no
#     /etc/slurm/slurm.conf), so it is exported for them and for xs12;
#   * a fresh port pair (slurmctld P, slurmd P+1), never Debian's 6817/6818;
#   * clients block for many seconds when slurmctld is down, so each runs
#     under `timeout`, and the wait for readiness checks the daemons live;
#   * teardown order: cancel and drain the jobs (a job still running at
#     shutdown survives it, reparented), then `scontrol shutdown` stops both
#     daemons; SIGKILL by PID only after 5 s.
set -u
XS12=$(realpath "$1")
KDIR=$(realpath "$2")
K=$KDIR/private_spill.O2.w32.hsaco
T0=$(date +%s.%N)

cannot() {
	if [ -n "${CI:-}" ]; then
		echo "FAIL: cannot start Slurm: $1 (CI=$CI: this test must run in CI)"
		exit 1
	fi
	echo "SKIP: cannot start Slurm: $1"
	exit 77
}
[ "$(id -u)" = 0 ] || cannot "not root (slurmctld and slurmd run as root here)"
for c in slurmctld slurmd sbatch sinfo squeue scancel scontrol python3 timeout; do
	command -v "$c" >/dev/null 2>&1 || cannot "'$c' is not installed (scripts/bootstrap installs slurm-wlm)"
done

B=$(mktemp -d /tmp/xs12-slurm.XXXXXX)
chmod 755 "$B"
CTLD=
SLURMD=
cleanup() {
	if [ -n "$CTLD" ] && kill -0 "$CTLD" 2>/dev/null; then
		timeout 5 scancel --user=root >/dev/null 2>&1
		for _ in $(seq 50); do
			[ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ] && break
			sleep 0.1
		done
		timeout 5 scontrol shutdown >/dev/null 2>&1
	fi
	for p in $CTLD $SLURMD; do
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rm -rf "$B"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Two free ports in a row: bind both to check.
P=$(python3 - <<'EOF'
import random, socket
for _ in range(200):
    p = random.randrange(20000, 60000)
    try:
        ss = [socket.socket() for _ in range(2)]
        for i, s in enumerate(ss):
            s.bind(("127.0.0.1", p + i))
        for s in ss:
            s.close()
        print(p)
        break
    except OSError:
        pass
EOF
)
[ -n "$P" ] || cannot "no free port pair"
mkdir -p "$B/state" "$B/spool" "$B/log" "$B/work"
NODE=$(slurmd -C 2>/dev/null | head -1 | sed 's/RealMemory=[0-9]*/RealMemory=500/')
case "$NODE" in NodeName=*) ;; *) cannot "slurmd -C gave no node line" ;; esac
H=$(echo "$NODE" | sed 's/^NodeName=\([^ ]*\).*/\1/')
cat >"$B/slurm.conf" <<EOF
ClusterName=xs12t$P
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$P
SlurmdPort=$((P + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$B/state
SlurmdSpoolDir=$B/spool
SlurmctldPidFile=$B/slurmctld.pid
SlurmdPidFile=$B/slurmd.pid
SlurmctldLogFile=$B/log/slurmctld.log
SlurmdLogFile=$B/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
$NODE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=xs12 Nodes=$H Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$B/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$B/log/ctld.out" 2>&1 &
CTLD=$!
slurmd -D -f "$SLURM_CONF" >"$B/log/d.out" 2>&1 &
SLURMD=$!
up=
for _ in $(seq 150); do
	if ! kill -0 "$CTLD" 2>/dev/null || ! kill -0 "$SLURMD" 2>/dev/null; then
		tail -5 "$B"/log/*
		cannot "a daemon exited at start-up (its log is above)"
	fi
	[ "$(timeout 5 sinfo -h -o %t 2>/dev/null)" = idle ] && up=1 && break
	sleep 0.1
done
[ -n "$up" ] || { tail -5 "$B"/log/*; cannot "the node did not become idle in 15 s"; }
echo "slurm up on port $P after $(python3 -c "import time; print(f'{time.time() - $T0:.1f}')") s"

fails=0
check() { # check OK-CONDITION-RC MESSAGE
	if [ "$1" = 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi
}
cd "$B/work" || exit 1
python3 -c "import struct; n=65536; open('in.bin','wb').write(struct.pack(f'<{n}I', *range(n)))"
# a relative in: file: the tasks run in this folder, as the local points do
SW=(sweep "$K" --groups 64 --block 256 --arg in:in.bin --arg out:o.bin:65536 --arg u32:65536
    --vary scratch-waves=8,208,416,5000)
"$XS12" "${SW[@]}" --jobs 2 >local.txt 2>local.err
check $? "local sweep ran (exit 0)"
# --slurm-args reach sbatch: the test's partition and a time limit
# The shared folder's name has '%', which sbatch's -o would expand (%j the job id)
SH="$B/shared%j%%a"
"$XS12" "${SW[@]}" --slurm --slurm-dir "$SH" --slurm-args "--partition=xs12 --time=5" >slurm.txt 2>slurm.err
rc=$?
cat slurm.err
check $rc "slurm sweep ran (exit 0)"
cmp -s local.txt slurm.txt
check $? "the Slurm table is the local one, byte for byte ($(wc -c <local.txt) bytes)"
grep -q '^\*.* 416 ' slurm.txt
check $? "the table marks scratch-waves=416 best"
grep -q 'error: --scratch-waves 5000: at most' slurm.txt
check $? "the point that breaks S1.13 is a row with its error"
[ "$(ls "$SH"/row.* | wc -l)" = 4 ]
check $? "4 row files in the shared folder"
[ "$(ls "$SH"/task.*.log | wc -l)" = 4 ]
check $? "4 task logs in the shared folder, its '%' kept"
cat slurm.txt

# A task that cannot write its row (row.1 is a folder, so the rename fails)
# is named by its index; the other rows still print.
rm -f "$SH/row.1" && mkdir "$SH/row.1"
"$XS12" "${SW[@]}" --slurm --slurm-dir "$SH" >miss.txt 2>miss.err
rc=$?
cat miss.err
[ "$rc" = 1 ]
check $? "a missing task: exit 1 (got $rc)"
grep -q '^xs12 sweep: task 1 of job [0-9]* wrote no row' miss.err
check $? "stderr names task 1"
grep -q 'missing: no result for point 1' miss.txt && grep -q '^\*.* 416 ' miss.txt
check $? "the table shows point 1 missing and the other points"

echo "$(python3 -c "import time; print(f'{time.time() - $T0:.1f}')") s in all; $fails failed"
[ "$fails" = 0 ]
