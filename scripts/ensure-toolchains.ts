/**
 * Installs what the code-sample checks need when it is missing: Python's
 * cryptography package, a JDK, PHP and Go, and the libraries the samples use
 * (Jackson, PDO SQLite, jq), from Debian's packages (as root). Elsewhere it
 * says what is missing, and the checks fail naming it.
 */
import {installDebianPackages} from '../tooling/debianPackages';
import {missingSampleLibraryPackages} from '../tooling/sampleLibraries';
import {toolchains} from '../tooling/toolchains';

const packages: Record<keyof typeof toolchains, string> = {
  python: 'python3-cryptography',
  java: 'default-jdk-headless',
  php: 'php-cli',
  go: 'golang-go',
  bash: 'openssl curl',
};

const missing = (Object.keys(toolchains) as Array<keyof typeof toolchains>).filter((name) => !toolchains[name]());
const wanted = [...missing.flatMap((name) => packages[name].split(' '))];
if (wanted.length === 0) {
  // Libraries are checked once the toolchains exist (PDO SQLite's check runs php).
  wanted.push(...missingSampleLibraryPackages());
} else {
  wanted.push('libjackson2-databind-java', 'php-sqlite3', 'jq');
}
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
