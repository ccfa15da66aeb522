/**
 * Installs what the code-sample checks need when it is missing: Python's
 * cryptography package, a JDK, PHP and Go, and the libraries the samples use
 * (Jackson, PDO SQLite, jq), from Debian's packages (as root). Elsewhere it
 * says what is missing, and the checks fail naming it.
 */
import {installDebianPackages} from '../tooling/debianPackages';
import {missingSamplePackages} from '../tooling/testPackages';

const wanted = missingSamplePackages();
if (wanted.length === 0) {
  console.log(
    'Sample toolchains present: python3 with cryptography, javac with Jackson, php with PDO SQLite, go, bash with openssl, curl and jq.',
  );
} else {
  console.log(`Missing for the sample checks: installing from Debian: ${wanted.join(' ')}`);
  if (!installDebianPackages(wanted)) {
    console.error(`Cannot install them here (needs root and apt-get). Install: ${wanted.join(' ')}`);
    process.exit(1);
  }
}
