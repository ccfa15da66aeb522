/** Finds the interpreters and compilers the sample checks use. */
import {spawnSync} from 'node:child_process';

export function works(command: string, args: readonly string[]): boolean {
  const result = spawnSync(command, args, {stdio: 'ignore', timeout: 30_000});
  return result.status === 0;
}

/** A Python 3 that can import the cryptography package (Debian's, then whatever is on PATH). */
export function findPython(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((candidate) => works(candidate, ['-c', 'import cryptography']));
}

export const toolchains = {
  python: findPython,
  java: () => (works('javac', ['-version']) ? 'javac' : undefined),
  php: () => (works('php', ['-v']) ? 'php' : undefined),
  go: () => (works('go', ['version']) ? 'go' : undefined),
  bash: () => (works('bash', ['-c', 'command -v openssl && command -v curl']) ? 'bash' : undefined),
} as const;
