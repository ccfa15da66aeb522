/**
 * Installs missing test tools from Debian's packages, when this process may: as root, on a
 * system with apt-get (a CI container or this development machine). The scripts that make sure
 * the tools exist (scripts/ensure-browser.ts, scripts/ensure-toolchains.ts) decide what to do
 * otherwise: another installer, or a message naming the packages.
 */
import {execSync} from 'node:child_process';
import {existsSync} from 'node:fs';

function run(command: string): void {
  console.log(`$ ${command}`);
  execSync(command, {stdio: 'inherit'});
}

/**
 * Installs the packages with apt-get and returns true; returns false, installing nothing, when
 * this process is not root or there is no apt-get. Recommended packages are left out unless asked
 * for (a browser wants its fonts).
 */
export function installDebianPackages(packages: readonly string[], {withRecommends = false, update = true} = {}): boolean {
  if (!canInstallDebianPackages()) return false;
  if (update) run('apt-get update');
  // Another step may be installing too (a test file run on its own beside npm test): wait for its lock, not fail.
  run(
    `DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 ${withRecommends ? '' : '--no-install-recommends '}${packages.join(' ')}`,
  );
  return true;
}

export function canInstallDebianPackages(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot && existsSync('/usr/bin/apt-get');
}
