/**
 * `npm run check:content`: prints the content problems (tooling/contentLint) of every page source,
 * or of the files under the path prefixes given as arguments, and exits non-zero if there are any.
 *
 * Usage: tsx scripts/contentCheck.ts [PATH_PREFIX...]
 */
import {checkContent} from '../tooling/contentLint/contentCheck';

const only = process.argv.slice(2);
const problems = checkContent(process.cwd()).filter(
  (problem) => only.length === 0 || only.some((prefix) => problem.file.startsWith(prefix)),
);
for (const problem of problems) console.log(`${problem.file}:${problem.line}: ${problem.message}`);
console.log(problems.length === 0 ? 'Content checks: no problems.' : `Content checks: ${problems.length} problems.`);
process.exit(problems.length === 0 ? 0 : 1);
