/**
 * Runs every `*.test.ts` of the folders given, in this one process, in file-name order:
 * `node --import tsx --test-reporter=spec scripts/test-in-one-process.ts tests/unit`.
 *
 * `node --test` starts a process per file, and each one transforms and loads its whole import graph
 * again (the contract, its validators, the engine): for the unit tests that was about three quarters of
 * their CPU time (104 s against 25 s for the same 546 tests, measured on this machine). The files share
 * nothing but the module cache: a test that changes the environment puts it back (diagrams.test.ts).
 * One file on its own still runs with `node --import tsx --test <file>`.
 */
import {readdirSync} from 'node:fs';
import path from 'node:path';

const folders = process.argv.slice(2);
if (folders.length === 0) {
  console.error('usage: scripts/test-in-one-process.ts <folder>...');
  process.exit(2);
}
for (const folder of folders) {
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
  if (files.length === 0) {
    console.error(`${folder}: no *.test.ts files`);
    process.exit(2);
  }
  // require, not import(): the repository's TypeScript runs as CommonJS under tsx, so the node:test calls of
  // each file register synchronously, in order, before the runner starts.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: synchronous, in order
  for (const name of files) require(path.resolve(folder, name));
}
