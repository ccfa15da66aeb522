/**
 * The published files name no folder of the machine that built them (scripts/checkHtml.ts, after the test build).
 * Docusaurus ships the site config, plugin options included, in the start-up script, so an option holding a path
 * (`{siteDir: __dirname}`) put the checkout's absolute path there: it tells every reader where the site was built and
 * makes the bundle's bytes depend on where the repository was cloned. docusaurus.config.ts closes such options over.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

/** Files a reader is sent as text; their .br and .gz copies are made from them. */
const textFile = /\.(html|js|mjs|css|json|xml|txt|md|svg|map)$/;

/** The build's text files (paths relative to buildDir) that contain the absolute path of siteDir. */
export function filesNamingPath(buildDir: string, siteDir: string): string[] {
  const needle = path.resolve(siteDir);
  return readdirSync(buildDir, {recursive: true, encoding: 'utf8'})
    .filter((file) => textFile.test(file))
    .filter((file) => readFileSync(path.join(buildDir, file), 'utf8').includes(needle))
    .sort();
}
