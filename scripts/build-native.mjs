// Builds the native generation loop (native/, binding.gyp) during `npm install`.
//
// The addon is compiled against the headers of the llama.cpp release that
// node-llama-cpp ships (a git bundle in node-llama-cpp/llama/) and calls the
// libllama node-llama-cpp already loaded, so the process holds one llama.cpp.
// The build is optional: on any problem this prints one line and exits 0, and
// selfplay decodes through node-llama-cpp instead.
//
//   node scripts/build-native.mjs             build (SELFPLAY_NATIVE=skip skips it)
//   node scripts/build-native.mjs --headers   print the headers folder (binding.gyp asks for it)
import { spawnSync } from "node:child_process";
import console from "node:console";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cacheFolder = join(root, ".cache");
const logPath = join(cacheFolder, "native-build.log");
// Far above a normal build (~1 minute on 2 cores): a stuck compiler must not hang an install.
const BUILD_TIMEOUT_MILLISECONDS = 10 * 60 * 1000;

/** A reason not to build that is not a failure (unsupported platform, opted out). */
class BuildSkipped extends Error {}

function main() {
  if (process.env.SELFPLAY_NATIVE === "skip") throw new BuildSkipped("SELFPLAY_NATIVE=skip");
  if (process.platform !== "linux" && process.platform !== "darwin") {
    throw new BuildSkipped(`no native decoder for ${process.platform} yet`);
  }
  const llamaPackage = findPackage("node-llama-cpp");
  const release = readJson(join(llamaPackage, "llama", "llama.cpp.info.json")).tag;
  checkPrebuiltRelease(release);
  // Extracted here, so that a missing git reads as one line; binding.gyp then finds them cached.
  extractHeaders(join(llamaPackage, "llama", "gitRelease.bundle"), release);
  compile();
  return release;
}

/** The folder of an installed package, looked up the way Node resolves it (this package's node_modules, then its parents'). */
function findPackage(name) {
  for (let folder = root; ; folder = dirname(folder)) {
    const candidate = join(folder, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(folder) === folder) throw new Error(`${name} is not installed`);
  }
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/**
 * The headers must describe the prebuilt libraries' ABI (struct layouts of
 * llama_context_params, llama_batch...): both come from the same node-llama-cpp
 * release, and the prebuilt binaries record which llama.cpp release they were built from.
 */
function checkPrebuiltRelease(release) {
  const binaries = join(dirname(findPackage("node-llama-cpp")), "@node-llama-cpp");
  if (!existsSync(binaries)) return;
  for (const platformPackage of readdirSync(binaries)) {
    const bins = join(binaries, platformPackage, "bins");
    if (!existsSync(bins)) continue;
    for (const build of readdirSync(bins)) {
      const metadataPath = join(bins, build, "_nlcBuildMetadata.json");
      if (!existsSync(metadataPath)) continue;
      const built = readJson(metadataPath).buildOptions?.llamaCpp?.release;
      if (built !== undefined && built !== release) {
        throw new Error(`node-llama-cpp's bundle is llama.cpp ${release} but ${platformPackage} was built from ${built}`);
      }
    }
  }
}

function git(args, options = {}) {
  const result = spawnSync("git", args, { encoding: options.encoding ?? "utf8", maxBuffer: 64 * 2 ** 20 });
  if (result.error) throw new Error(`git is needed to read node-llama-cpp's llama.cpp bundle (${result.error.message})`);
  if (result.status !== 0) throw new Error(`git ${args[0]} failed: ${String(result.stderr).trim().split("\n")[0]}`);
  return result.stdout;
}

/**
 * Only the public headers (include/, ggml/include/) are taken out of the
 * bundle: the addon compiles against them and links nothing at build time.
 * Cached per release; `commit.txt` is written last, so a torn extraction is redone.
 */
function extractHeaders(bundle, release) {
  const commit = git(["bundle", "list-heads", bundle]).trim().split(/\s+/)[0];
  const folder = join(cacheFolder, "llama.cpp", release);
  if (existsSync(join(folder, "commit.txt")) && readFileSync(join(folder, "commit.txt"), "utf8").trim() === commit) return folder;
  rmSync(folder, { recursive: true, force: true });
  const repository = mkdtempSync(join(tmpdir(), "selfplay-llama-bundle-"));
  try {
    git(["init", "--quiet", "--bare", repository]);
    git([`--git-dir=${repository}`, "fetch", "--quiet", bundle, commit]);
    const files = git([`--git-dir=${repository}`, "ls-tree", "-r", "--name-only", commit, "include", "ggml/include"])
      .split("\n")
      .filter((file) => file.endsWith(".h"));
    if (!files.includes("include/llama.h")) throw new Error(`the bundle at ${bundle} has no include/llama.h`);
    for (const file of files) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      writeFileSync(join(folder, file), git([`--git-dir=${repository}`, "cat-file", "blob", `${commit}:${file}`], { encoding: "buffer" }));
    }
  } finally {
    rmSync(repository, { recursive: true, force: true });
  }
  // The addon reports what it was compiled against; the loader compares it with the library it finds.
  writeFileSync(
    join(folder, "selfplay-llama-release.h"),
    `#pragma once\n#define SELFPLAY_LLAMA_CPP_RELEASE "${release}"\n#define SELFPLAY_LLAMA_CPP_COMMIT "${commit}"\n`,
  );
  writeFileSync(join(folder, "commit.txt"), `${commit}\n`);
  return folder;
}

/** npm's own node-gyp: npm names it to lifecycle scripts, else it sits beside npm in Node's installation. */
function findNodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"),
    join(dirname(process.execPath), "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"),
  ];
  const found = candidates.find((candidate) => candidate !== undefined && existsSync(candidate));
  if (found === undefined) throw new Error("node-gyp not found (it comes with npm)");
  return found;
}

function compile() {
  const nodeGyp = findNodeGyp();
  const options = ["--jobs=2"];
  // Node's own headers, when installed beside it, keep node-gyp offline.
  const prefix = dirname(dirname(process.execPath));
  if (process.env.npm_config_nodedir === undefined && existsSync(join(prefix, "include", "node", "node_api.h"))) {
    options.push(`--nodedir=${prefix}`);
  }
  const run = (command, extra = []) => {
    const result = spawnSync(process.execPath, [nodeGyp, command, ...options, ...extra], {
      cwd: root,
      encoding: "utf8",
      timeout: BUILD_TIMEOUT_MILLISECONDS,
      maxBuffer: 64 * 2 ** 20,
    });
    writeFileSync(logPath, `${result.stdout ?? ""}${result.stderr ?? ""}`, { flag: "a" });
    if (result.error) throw new Error(`node-gyp ${command}: ${result.error.message}`);
    if (result.status !== 0) {
      const lastError = `${result.stderr ?? ""}`.split("\n").find((line) => /error/i.test(line));
      throw new Error(`node-gyp ${command} failed${lastError === undefined ? "" : `: ${lastError.trim()}`}`);
    }
  };
  run("rebuild");
}

if (process.argv.includes("--headers")) {
  // binding.gyp's question: here a failure must fail the build.
  const llamaPackage = findPackage("node-llama-cpp");
  console.log(extractHeaders(join(llamaPackage, "llama", "gitRelease.bundle"), readJson(join(llamaPackage, "llama", "llama.cpp.info.json")).tag));
  process.exit(0);
}

try {
  mkdirSync(cacheFolder, { recursive: true });
  writeFileSync(logPath, "");
  const release = main();
  console.log(`selfplay: built the native decoder against llama.cpp ${release}`);
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  const tail = error instanceof BuildSkipped ? "" : ` (log: ${logPath})`;
  console.log(`selfplay: native decoder not built: ${reason}${tail}; generation uses node-llama-cpp's decoder`);
}
process.exit(0);
