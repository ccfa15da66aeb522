/**
 * Installs what the code-sample checks need when it is missing: Python's
 * cryptography package, a JDK, PHP and Go, from Debian's packages (as root).
 * Elsewhere it says what is missing, and the checks fail naming it.
 */
import {installDebianPackages} from '../tooling/debianPackages';
import {toolchains} from '../tooling/toolchains';

const packages: Record<keyof typeof toolchains, string> = {
  python: 'python3-cryptography',
  java: 'default-jdk-headless',
  php: 'php-cli',
  go: 'golang-go',
  bash: 'openssl curl',
};

const missing = (Object.keys(toolchains) as Array<keyof typeof toolchains>).filter((name) => !toolchains[name]());
if (missing.length === 0) {
  console.log('Sample toolchains present: python3 with cryptography, javac, php, go, bash with openssl and curl.');
} else {
  const wanted = missing.flatMap((name) => packages[name].split(' '));
  console.log(`Missing sample toolchains (${missing.join(', ')}): installing from Debian: ${wanted.join(' ')}`);
  if (!installDebianPackages(wanted)) {
    console.error(`Cannot install them here (needs root and apt-get). Install: ${wanted.join(' ')}`);
    process.exit(1);
  }
}
