/**
 * Makes sure a Chromium exists before the end-to-end suite runs, installing one
 * when none is found: Debian's package as root, otherwise Playwright's build.
 * Says what it found or installed, so a CI log shows which browser was used.
 */
import {execSync} from 'node:child_process';
import {installDebianPackages} from '../tooling/debianPackages';
import {findChromium} from '../tooling/browser';

function install(): void {
  console.log("No Chromium found: installing Debian's chromium package.");
  if (installDebianPackages(['chromium'], {withRecommends: true})) return;
  console.log("Cannot install Debian packages here (needs root and apt-get): installing Playwright's Chromium.");
  const command = 'npx playwright install chromium';
  console.log(`$ ${command}`);
  execSync(command, {stdio: 'inherit'});
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
