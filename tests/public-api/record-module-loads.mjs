// Preloaded with `node --import`: appends every module this process resolves (ESM imports and CommonJS requires) and
// every native library it opens to the file named by RECORD_MODULE_LOADS, one "kind what" line each.
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";
import process from "node:process";
import { URL } from "node:url";

const log = process.env.RECORD_MODULE_LOADS;
if (!log) throw new Error("record-module-loads.mjs: set RECORD_MODULE_LOADS to the file to append to");
register(new URL("./record-module-loads-hooks.mjs", import.meta.url), { data: { log } });

const load = Module._load;
Module._load = function (request, ...rest) {
  appendFileSync(log, `require ${request}\n`);
  return load.call(this, request, ...rest);
};
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  appendFileSync(log, `dlopen ${filename}\n`);
  return dlopen.call(this, module, filename, ...rest);
};
