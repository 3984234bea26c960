import { probeSandboxNamespaces } from "../../../src/dream/sandbox/probe-sandbox-namespaces.js";

/**
 * The sandbox's namespaces for its tests. Where `unshare` is refused (many containers) the tests that need them skip
 * and say why in their names — except under SELFPLAY_REQUIRE_SANDBOX=1, as CI sets it: there refused namespaces are a
 * failure, so CI cannot pass having isolated nothing.
 */
export const sandboxNamespaces = await probeSandboxNamespaces();

/** Appended to the name of a test that needs the namespaces: empty when they are here, else the reason it skips. */
export const SANDBOX_SKIP_REASON = sandboxNamespaces.available ? "" : ` (skipped: unshare refused here: ${sandboxNamespaces.detail})`;

if (!sandboxNamespaces.available) {
  if (process.env.SELFPLAY_REQUIRE_SANDBOX === "1") {
    throw new Error(`SELFPLAY_REQUIRE_SANDBOX=1 but the sandbox's namespaces are refused here (${sandboxNamespaces.detail}): run where unprivileged user namespaces are allowed (user.max_user_namespaces > 0, kernel.unprivileged_userns_clone=1, kernel.apparmor_restrict_unprivileged_userns=0; in Docker, --security-opt seccomp=unconfined), with util-linux installed`);
  }
  console.warn(`sandbox namespace tests skipped: ${sandboxNamespaces.detail}`);
}
