import { SANDBOX_DEVICES } from "./build-sandbox-root.js";

/**
 * The shell script every sandboxed run goes through. Stage `host` joins the
 * pids cgroup (before anything forks, so every descendant is counted), then
 * either re-enters itself inside fresh namespaces (`unshare -rmnpf`: user,
 * mount, network, pid) or, without namespaces, applies RLIMIT_DATA and execs
 * Node directly. Stage `inner` completes the view on the root buildSandboxRoot
 * laid out: the root itself read-only, /usr and the other system folders
 * read-only, three device files, a fresh /proc for the new pid namespace, and
 * the work directory at /work — the only writable place. It sets RLIMIT_DATA
 * (not RLIMIT_AS: V8 reserves far more address space than it uses) and execs
 * Node with that root and /work as cwd. The pid namespace makes the program its
 * init: when it dies every process it started dies with it.
 *
 * Arguments: stage, cgroup folder (`-` for none), namespaces (`1`/`0`), root,
 * work directory, RLIMIT_DATA in KiB (`-` for none), folders to bind read-only
 * (colon-separated, may be empty), then the Node command line. One process
 * start per mount: each costs a millisecond or two, so there are few.
 */
export const SANDBOX_WRAPPER_SCRIPT = `set -e
stage=$1; cgroup=$2; namespaces=$3; root=$4; work=$5; data_kb=$6; binds=$7
shift 7
if [ "$stage" = host ]; then
  if [ "$cgroup" != - ]; then echo $$ > "$cgroup/cgroup.procs"; fi
  if [ "$namespaces" = 1 ]; then exec unshare -rmnpf sh "$0" inner "$cgroup" "$namespaces" "$root" "$work" "$data_kb" "$binds" "$@"; fi
  cd "$work"
  if [ "$data_kb" != - ]; then ulimit -d "$data_kb"; fi
  exec "$@"
fi
mount -o bind,ro "$root" "$root"
mount -o rbind,ro /usr "$root/usr"
IFS=:
for folder in $binds; do mount -o rbind,ro "$folder" "$root$folder"; done
unset IFS
for device in ${SANDBOX_DEVICES.join(" ")}; do mount --bind "/dev/$device" "$root/dev/$device"; done
mount --bind "$work" "$root/work"
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
if [ "$data_kb" != - ]; then ulimit -d "$data_kb"; fi
exec unshare --root="$root" --wd=/work "$@"
`;
