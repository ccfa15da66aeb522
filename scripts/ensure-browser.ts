/**
 * Makes sure a Chromium exists before the end-to-end suite runs, installing one
 * when none is found: Debian's package as root, otherwise Playwright's build.
 * Says what it found or installed, so a CI log shows which browser was used.
 */
import {execSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {findChromium} from './browser';

function run(command: string): void {
  console.log(`$ ${command}`);
  execSync(command, {stdio: 'inherit'});
}

function install(): void {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('No Chromium found: installing Debian\'s chromium package.');
    run('apt-get update');
    run('DEBIAN_FRONTEND=noninteractive apt-get install -y chromium');
    return;
  }
  console.log('No Chromium found: installing Playwright\'s Chromium.');
  run('npx playwright install chromium');
}

let found = findChromium();
if (!found) {
  install();
  found = findChromium();
}
if (!found) {
  console.error('No Chromium could be found or installed. Set CHROME_PATH to a Chromium or Chrome executable.');
  process.exit(1);
}
console.log(`End-to-end tests use Chromium at ${found.executablePath} (${found.source}).`);
