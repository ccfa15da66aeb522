/**
 * Makes sure a Chromium exists before the end-to-end suite runs, installing one
 * when none is found: Debian's package as root, otherwise Playwright's build.
 * As root, Debian's headless shell is added beside a full Chromium (the suite
 * prefers it: tooling/browser.ts findTestChromium); when it cannot be installed
 * the suite runs on the full browser. Says what it found or installed, so a CI
 * log shows which browser was used.
 */
import {execSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {installDebianPackages} from '../tooling/debianPackages';
import {debianHeadlessShellPath, findChromium, findTestChromium} from '../tooling/browser';

function install(): void {
  console.log("No Chromium found: installing Debian's chromium package.");
  if (installDebianPackages(['chromium'], {withRecommends: true})) return;
  console.log("Cannot install Debian packages here (needs root and apt-get): installing Playwright's Chromium.");
  const command = 'npx playwright install chromium';
  console.log(`$ ${command}`);
  execSync(command, {stdio: 'inherit'});
}

if (!findChromium()) install();
if (!process.env.CHROME_PATH && !existsSync(debianHeadlessShellPath)) {
  try {
    if (installDebianPackages(['chromium-headless-shell'])) console.log("Installed Debian's chromium-headless-shell for the suite.");
  } catch (error) {
    console.log(`Could not install chromium-headless-shell (${String(error)}): the suite uses the full Chromium.`);
  }
}
const found = findTestChromium();
if (!found) {
  console.error('No Chromium could be found or installed. Set CHROME_PATH to a Chromium or Chrome executable.');
  process.exit(1);
}
console.log(`End-to-end tests use Chromium at ${found.executablePath} (${found.source}).`);
