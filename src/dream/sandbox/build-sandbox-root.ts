import { lstat, mkdir, readlink, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Host folders the program needs read-only, beside /usr: /lib, /lib64 … where they are folders rather than links into /usr. */
const SYSTEM_FOLDERS = ["bin", "sbin", "lib", "lib64", "lib32"];
/** Device files bound into the view; nothing else of /dev is visible. */
export const SANDBOX_DEVICES = ["null", "zero", "urandom"];

/**
 * Lays out the sandbox's root on the host, empty, before the namespaces exist:
 * mount points (usr, proc, work, the devices), the same /bin → usr/bin links
 * the host has, and folders for whatever else must be bound. Doing this here
 * rather than in the wrapper saves a dozen process starts per run. Returns the
 * host folders the wrapper binds read-only at the same path (besides /usr).
 */
export async function buildSandboxRoot(root: string, nodePrefix: string): Promise<string[]> {
  await Promise.all(["usr", "proc", "dev", "work", "etc"].map((name) => mkdir(join(root, name))));
  await Promise.all(SANDBOX_DEVICES.map((name) => writeFile(join(root, "dev", name), "")));
  const binds: string[] = [];
  for (const name of SYSTEM_FOLDERS) {
    const found = await lstat(`/${name}`).catch(() => undefined);
    if (found?.isSymbolicLink()) await symlink(await readlink(`/${name}`), join(root, name));
    else if (found?.isDirectory()) binds.push(`/${name}`);
  }
  // Node installed outside /usr (nvm, /opt) must be visible too, read-only.
  if (nodePrefix !== "/usr" && !nodePrefix.startsWith("/usr/") && !binds.some((folder) => nodePrefix === folder || nodePrefix.startsWith(`${folder}/`))) binds.push(nodePrefix);
  for (const folder of binds) await mkdir(join(root, folder), { recursive: true });
  return binds;
}
