#!/usr/bin/env node
// The CLI runs the TypeScript core directly: nothing has to be built before `lathe run` or `lathe serve`.
import { register } from 'tsx/esm/api';

register();
const { runCli, processIo } = await import('../electron/core/cli/main.ts');
const io = processIo();
process.exitCode = await runCli(process.argv.slice(2), io);
io.dispose();
