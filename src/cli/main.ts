#!/usr/bin/env node
import { processIo } from "./cli-io.js";
import { main } from "./program.js";

process.exitCode = await main(process.argv.slice(2), { io: processIo });
