/**
 * Installs what the code-sample checks need when it is missing: Python's
 * cryptography package, a JDK, PHP and Go, from Debian's packages (as root).
 * Elsewhere it says what is missing, and the checks fail naming it.
 */
import {execSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {toolchains} from '../tests/support/toolchains';

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
  const wanted = missing.map((name) => packages[name]).join(' ');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`Installing sample toolchains from Debian: ${wanted}`);
    execSync(`apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${wanted}`, {stdio: 'inherit'});
  } else {
    console.error(`Missing sample toolchains (${missing.join(', ')}); install: ${wanted}`);
    process.exit(1);
  }
}
