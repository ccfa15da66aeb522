/**
 * The first step of `npm test`: installs, in one apt-get run, every Debian package the later steps need and this
 * machine lacks (tooling/testPackages.ts). It runs beside the type-check and lint, outside their two slots: an
 * install waits on the network and the disk, not the processor. The steps that use the packages wait for it.
 * Without root or apt-get it installs nothing and passes: each step then names what it misses.
 */
import {canInstallDebianPackages, installDebianPackages} from '../tooling/debianPackages';
import {missingTestPackages} from '../tooling/testPackages';

const {plain, withRecommends} = missingTestPackages();
const all = [...plain, ...withRecommends];
if (all.length === 0) {
  console.log('Every Debian package the tests use is present.');
} else if (!canInstallDebianPackages()) {
  console.log(`Missing, and not installable here (needs root and apt-get): ${all.join(' ')}. The steps that use them say so.`);
} else {
  console.log(`Installing from Debian for the tests: ${all.join(' ')}`);
  try {
    if (plain.length > 0) installDebianPackages(plain);
    if (withRecommends.length > 0) installDebianPackages(withRecommends, {withRecommends: true, update: plain.length === 0});
  } catch (error) {
    // Each step still makes sure of its own tools (scripts/ensure-*.ts, tests/support): it installs or names them.
    console.log(`The install failed (${String(error)}); the steps that need these packages try again, one by one.`);
  }
  const still = missingTestPackages();
  const left = [...still.plain, ...still.withRecommends];
  console.log(left.length === 0 ? 'Installed.' : `Still missing: ${left.join(' ')}`);
}
