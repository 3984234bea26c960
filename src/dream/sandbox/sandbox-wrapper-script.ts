/**
 * The shell script every sandboxed run goes through. Stage `host` joins the
 * pids cgroup (before anything forks, so every descendant is counted), then
 * either re-enters itself inside fresh namespaces (`unshare -rmnpf`: user,
 * mount, network, pid) or, without namespaces, applies RLIMIT_DATA and execs
 * Node directly. Stage `inner` builds the view: a tmpfs root holding /usr
 * (read-only), the symlinks or folders /bin, /lib, /lib64 point at, four
 * device files, a fresh /proc for the new pid namespace, and the work directory
 * at /work; it remounts that root read-only so /work is the only writable
 * place, sets RLIMIT_DATA (not RLIMIT_AS: V8 reserves far more address space
 * than it uses) and execs Node chrooted there. The pid namespace means the
 * program is its init: when it dies every process it started dies with it.
 *
 * Arguments: stage, cgroup folder (`-` for none), namespaces (`1`/`0`), root
 * mount point, work directory, RLIMIT_DATA in KiB (`-` for none), Node's
 * install prefix, then the Node command line.
 */
export const SANDBOX_WRAPPER_SCRIPT = `set -e
stage=$1; cgroup=$2; namespaces=$3; root=$4; work=$5; data_kb=$6; node_prefix=$7
shift 7
if [ "$stage" = host ]; then
  if [ "$cgroup" != - ]; then echo $$ > "$cgroup/cgroup.procs"; fi
  if [ "$namespaces" = 1 ]; then exec unshare -rmnpf sh "$0" inner "$cgroup" "$namespaces" "$root" "$work" "$data_kb" "$node_prefix" "$@"; fi
  cd "$work"
  if [ "$data_kb" != - ]; then ulimit -d "$data_kb"; fi
  exec "$@"
fi
mount -t tmpfs -o size=1m,mode=755 sandbox-root "$root"
mkdir "$root/usr" "$root/proc" "$root/dev" "$root/work" "$root/etc"
mount --rbind /usr "$root/usr"
mount -o remount,bind,ro "$root/usr"
for name in bin sbin lib lib64 lib32; do
  if [ -L "/$name" ]; then ln -s "$(readlink "/$name")" "$root/$name"
  elif [ -d "/$name" ]; then mkdir "$root/$name"; mount --rbind "/$name" "$root/$name"; mount -o remount,bind,ro "$root/$name"; fi
done
case "$node_prefix" in
  /usr|/usr/*) ;;
  *) mkdir -p "$root$node_prefix"; mount --rbind "$node_prefix" "$root$node_prefix"; mount -o remount,bind,ro "$root$node_prefix" ;;
esac
for device in null zero random urandom; do touch "$root/dev/$device"; mount --bind "/dev/$device" "$root/dev/$device"; done
mount --bind "$work" "$root/work"
mount -t proc proc "$root/proc"
mount -o remount,bind,ro "$root"
if [ "$data_kb" != - ]; then ulimit -d "$data_kb"; fi
chroot_command=$(PATH="/usr/sbin:/sbin:$PATH" command -v chroot)
cd "$root"
exec "$chroot_command" "$root" /bin/sh -c 'cd /work && exec "$@"' sandbox "$@"
`;
