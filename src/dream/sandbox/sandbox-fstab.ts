import { join } from "node:path";
import { SANDBOX_DEVICES } from "./build-sandbox-root.js";

/** The tmpfs that becomes the program's /work: its caps. */
export interface SandboxFstabOptions {
  /** The root buildSandboxRoot laid out (host path). */
  root: string;
  /** Host folders bound read-only at the same path inside the root, besides /usr. */
  binds: readonly string[];
  /** `size=` in bytes. */
  diskBytes: number;
  /** `nr_inodes=`. */
  maxFiles: number;
}

/** fstab(5) escapes space, tab, newline and backslash in a field as octal. */
const field = (value: string): string => value.replace(/[ \t\n\\]/g, (character) => `\\${character.charCodeAt(0).toString(8).padStart(3, "0")}`);

/**
 * The mounts of the sandbox's view as one fstab, for a single `mount -a -T`
 * inside the namespaces (one process instead of one per mount). Order is
 * mount order: the root bound onto itself read-only first (pivot_root needs a
 * mount point, and everything under it is then read-only unless mounted
 * over), /usr and the system folders read-only, the three devices, the capped
 * tmpfs at /work (nosuid, nodev; mode 0755, owned by the namespace's root),
 * and /proc for the new pid namespace (nosuid, nodev, noexec).
 */
export function sandboxFstab(options: SandboxFstabOptions): string {
  const { root } = options;
  const lines: [string, string, string, string][] = [
    [root, root, "none", "bind,ro"],
    ["/usr", join(root, "usr"), "none", "rbind,ro"],
    ...options.binds.map((folder): [string, string, string, string] => [folder, join(root, folder), "none", "rbind,ro"]),
    ...SANDBOX_DEVICES.map((device): [string, string, string, string] => [`/dev/${device}`, join(root, "dev", device), "none", "bind"]),
    ["tmpfs", join(root, "work"), "tmpfs", `size=${options.diskBytes},nr_inodes=${options.maxFiles},mode=0755,nosuid,nodev`],
    ["proc", join(root, "proc"), "proc", "nosuid,nodev,noexec"],
  ];
  return lines.map((entry) => `${entry.map(field).join(" ")} 0 0\n`).join("");
}
