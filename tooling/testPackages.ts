/**
 * Every program from Debian's packages that the test command uses, found where Debian puts it, and the packages
 * to install for what is missing: the code samples' toolchains and libraries, Chromium and its headless shell,
 * PostgreSQL and nginx. `npm test` installs them all in one apt-get run as its first step (scripts/provision.ts),
 * beside the type-check and lint, instead of each step installing its own part in the middle of the run.
 */
import {existsSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {debianHeadlessShellPath, findChromium} from './browser';
import {sampleLibraries} from './sampleLibraries';
import {toolchains} from './toolchains';

/** The Debian packages that provide each sample toolchain of tooling/toolchains.ts. */
export const toolchainPackages: Record<keyof typeof toolchains, readonly string[]> = {
  python: ['python3-cryptography'],
  java: ['default-jdk-headless'],
  php: ['php-cli'],
  go: ['golang-go'],
  bash: ['openssl', 'curl'],
};

/** The folder of PostgreSQL's initdb and postgres: PG_BIN, else the newest version under /usr/lib/postgresql. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env['PG_BIN']) return env['PG_BIN'];
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

export function findNginx(): string | undefined {
  return ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate));
}

/** The sample checks' packages that are missing: toolchains first, then the libraries (PDO SQLite's check runs php). */
export function missingSamplePackages(): string[] {
  const missing = (Object.keys(toolchains) as Array<keyof typeof toolchains>).flatMap((name) =>
    toolchains[name]() ? [] : toolchainPackages[name],
  );
  const libraries = Object.values(sampleLibraries)
    .filter((library) => !library.present())
    .map((library) => library.debianPackage);
  return [...missing, ...libraries];
}

export interface MissingPackages {
  /** Installed without their recommended packages. */
  readonly plain: readonly string[];
  /** Installed with them: a browser wants its fonts. */
  readonly withRecommends: readonly string[];
}

/** What the whole test command needs from Debian and this machine lacks. */
export function missingTestPackages(env: NodeJS.ProcessEnv = process.env): MissingPackages {
  const plain = missingSamplePackages();
  if (!findPostgresBin(env)) plain.push('postgresql');
  if (!findNginx()) plain.push('nginx');
  // The suite prefers the headless shell (tooling/browser.ts findTestChromium); CHROME_PATH overrides both.
  if (!env['CHROME_PATH'] && !existsSync(debianHeadlessShellPath)) plain.push('chromium-headless-shell');
  const withRecommends = findChromium(env) ? [] : ['chromium'];
  return {plain, withRecommends};
}
