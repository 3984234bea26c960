/** The uid and gid the program runs as on the host when the host user is root: `nobody`, which owns nothing. */
export const SANDBOX_HOST_UID = 65534;

/**
 * The shell script every sandboxed run goes through.
 *
 * Stage `host` (the host's user) joins the run's cgroups first, so every
 * descendant is counted. In `plain` mode (no namespaces, allowed by the
 * caller) it sets RLIMIT_DATA where asked and execs Node in the work
 * directory. In `namespaces` mode it drops to uid/gid 65534 with `setpriv`
 * when the host user is root — before the namespaces exist, so the user
 * namespace maps its root to 65534, never to the host's root — and re-enters
 * itself inside fresh user, mount, network, pid and UTS namespaces
 * (`unshare -rmnpuf`; `--kill-child`: if the host side dies, the namespace
 * dies with it).
 *
 * Stage `inner` is the supervisor, pid 1 of the new pid namespace. It lays the
 * view on the root buildSandboxRoot made, all in one `mount -a` over the run's
 * fstab (sandboxFstab: one process for every mount): the root read-only, /usr
 * and the system folders read-only, three devices, a tmpfs at /work capped in
 * bytes and inodes, a fresh /proc; fills the tmpfs with a copy of the staged
 * inputs; sets
 * the hostname; then `pivot_root . .` and a lazy unmount of the old root, so
 * no path leads back to the host's tree. It starts the program in its own
 * session (`setsid`: a signal the program sends to its group reaches only its
 * own processes), without capabilities and with no_new_privs, stdin from
 * /dev/null and the report channel (fd 3) closed; the supervisor's own
 * messages from then on (a shell's "Killed") go to /dev/null, so stderr is
 * the program's alone. When the program ends it
 * kills whatever the program left in the namespace, reports `ended <status>`
 * on fd 3 (`wait`'s status: 128 + n for signal n) and waits on stdin while
 * the host reads the counters, the tmpfs's statfs and copies the results out
 * through /proc/<pid>/root (a tmpfs dies with its mount namespace). EOF on
 * stdin lets it exit.
 *
 * Arguments: stage, cgroup folders (colon-separated, `-` for none), mode
 * (`namespaces`/`plain`), drop uid (`1`/`0`), root, staged inputs folder (the
 * work directory itself in plain mode), the fstab, RLIMIT_DATA in KiB (`-`
 * for none), then the Node command line. Each process start costs 3–5 ms on
 * a small VM (util-linux's mount parses the mount table each time), so there
 * are as few as the protections allow.
 */
export const SANDBOX_WRAPPER_SCRIPT = `set -e
stage=$1; cgroups=$2; mode=$3; drop=$4; root=$5; inputs=$6; fstab=$7; data_kb=$8
shift 8
if [ "$stage" = host ]; then
  if [ "$cgroups" != - ]; then IFS=:; for cgroup in $cgroups; do echo $$ > "$cgroup/cgroup.procs"; done; unset IFS; fi
  if [ "$mode" = plain ]; then
    cd "$inputs"
    if [ "$data_kb" != - ]; then ulimit -d "$data_kb"; fi
    exec "$@"
  fi
  if [ "$drop" = 1 ]; then
    exec setpriv --reuid=${SANDBOX_HOST_UID} --regid=${SANDBOX_HOST_UID} --clear-groups unshare -rmnpuf --kill-child sh "$0" inner "$cgroups" "$mode" "$drop" "$root" "$inputs" "$fstab" "$data_kb" "$@"
  fi
  exec unshare -rmnpuf --kill-child sh "$0" inner "$cgroups" "$mode" "$drop" "$root" "$inputs" "$fstab" "$data_kb" "$@"
fi
mount -a -T "$fstab"
cp -R "$inputs/." "$root/work/"
hostname sandbox
cd "$root"
PATH="$PATH:/usr/sbin:/sbin" pivot_root . .
umount -l .
cd /work
unset OLDPWD
set +e
if [ "$data_kb" != - ]; then ulimit -d "$data_kb"; fi
exec 4>&2 2>/dev/null
setsid setpriv --no-new-privs --inh-caps=-all --bounding-set=-all "$@" 2>&4 3>&- 4>&- </dev/null &
wait $!
status=$?
kill -KILL -1 2>/dev/null
echo "ended $status" >&3
read -r _ || true
`;
