/**
 * Libraries the code samples use beyond the toolchains of tooling/toolchains.ts: Jackson for the Java samples
 * (they parse JSON with a real parser), PDO SQLite for the PHP notification handlers (deduplication and the
 * state change in one transaction) and jq for the curl samples (they read the verified answer with it).
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import {works} from './toolchains';

/** Where Debian's libjackson2-databind-java puts the jars. */
const javaLibraries = '/usr/share/java';

/** Class path of Jackson's three jars, or undefined when they are missing. */
export function jacksonClassPath(): string | undefined {
  const jars = ['jackson-databind.jar', 'jackson-core.jar', 'jackson-annotations.jar'].map((jar) => path.join(javaLibraries, jar));
  return jars.every((jar) => existsSync(jar)) ? jars.join(path.delimiter) : undefined;
}

export const sampleLibraries = {
  jackson: {debianPackage: 'libjackson2-databind-java', present: () => jacksonClassPath() !== undefined},
  pdoSqlite: {debianPackage: 'php-sqlite3', present: () => works('php', ['-r', 'exit(extension_loaded("pdo_sqlite") ? 0 : 1);'])},
  jq: {debianPackage: 'jq', present: () => works('jq', ['--version'])},
} as const;

/** Debian packages to install for the sample libraries that are missing. */
export function missingSampleLibraryPackages(): string[] {
  return Object.values(sampleLibraries)
    .filter((library) => !library.present())
    .map((library) => library.debianPackage);
}
