/**
 * The sandbox's command line as the tests run it in child processes: the bundled download (veloxa-sandbox.mjs),
 * which is also what the hosted deployment's service unit starts (hosting/sandbox/veloxa-sandbox@.service). Started
 * through tsx instead, each process spent about 1.6 processor-seconds more before it listened (tsx compiling every
 * module, the contract read from YAML), and the sandbox tests start a dozen. `npm run sandbox` itself, the script,
 * keeps its own tests (tests/sandbox/server.test.ts).
 *
 * The file is built once for a given state of the sources and kept in node_modules/.cache, named by a hash of
 * everything it is built from, so a changed engine, contract or dependency gets a new build and never a stale one.
 */
import {createHash} from 'node:crypto';
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync} from 'node:fs';
import path from 'node:path';
import {repoRoot} from '../../src/sandbox/hosts/server/loadEngine';
import {buildSandboxDownload} from '../../tooling/bundles/bundle';

/** What the bundle is made of: the sources, the contract and its files, the bundler's entry, and the locked dependencies. */
const inputs = ['src', 'api', path.join('tooling', 'bundles'), 'package-lock.json'];

function filesUnder(relative: string): string[] {
  const absolute = path.join(repoRoot, relative);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute, {withFileTypes: true, recursive: true})
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
}

/** A hash of every input file's path and content. */
function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesUnder).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(repoRoot, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let bundle: Promise<string> | undefined;

/** The path of the bundled sandbox for the sources as they are now, built when there is none yet. */
export function sandboxBundle(): Promise<string> {
  bundle ??= (async () => {
    const directory = path.join(repoRoot, 'node_modules', '.cache', 'portal-tests');
    const file = path.join(directory, `sandbox-${sourceHash()}.mjs`);
    if (existsSync(file)) return file;
    mkdirSync(directory, {recursive: true});
    // Test files run in parallel processes and may build it at the same time: each writes its own file, and the
    // rename puts a whole one in place.
    const partial = `${file}.${process.pid}.partial`;
    await buildSandboxDownload(partial);
    renameSync(partial, file);
    // Builds of earlier sources are not needed again.
    for (const old of readdirSync(directory)) {
      if (/^sandbox-\w+\.mjs$/.test(old) && path.join(directory, old) !== file) rmSync(path.join(directory, old), {force: true});
    }
    return file;
  })();
  return bundle;
}
