/**
 * Validates every page of a build with tooling/htmlCheck.ts, and its Markdown twins with
 * tooling/markdownTwinsCheck.ts, and that every sitemap URL is linked from some page (tooling/sitemapLinks.ts), and that what was
 * moved out of pages' first load stays out (tooling/firstLoadCheck.ts), and that no published file names the checkout's
 * folder (tooling/buildPathLeaks.ts), that each page type links its own stylesheets and that no page renders a Markdown
 * feature whose rules the stylesheet leaves out (plugins/performance/configured-out-css), and exits non-zero, listing the problems, when any page breaks a rule.
 * The pages are validated in a process per core while this one checks the twins and the sitemap.
 *
 * Usage: tsx scripts/checkHtml.ts [BUILD_DIR]   (default build-test)
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import config from '../docusaurus.config';
import {checkHtmlFilesInParallel} from '../tooling/htmlCheck';
import {checkMarkdownTwins} from '../tooling/markdownTwinsCheck';
import {feedSelfLinkProblems} from '../plugins/content/blog';
import {contentSections} from '../src/contentSections';
import {loadRouteContract} from '../tooling/routeContract';
import {checkSitemapLinks} from '../tooling/sitemapLinks';
import {firstLoadProblems, pageSheetProblems} from '../tooling/firstLoadCheck';
import {contentFeatureProblems} from '../plugins/performance/configured-out-css';
import {filesNamingPath} from '../tooling/buildPathLeaks';

async function main(): Promise<number> {
  const buildDir = path.resolve(process.argv[2] ?? 'build-test');
  const files = readdirSync(buildDir, {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.html'))
    .map((file) => path.join(buildDir, file));
  if (files.length === 0) {
    console.error(`No HTML files in ${buildDir}: build the site first (npm run build:test).`);
    return 1;
  }
  const started = Date.now();
  const pages = checkHtmlFilesInParallel(files);

  const twinsStarted = Date.now();
  const siteUrl = `${config.url.replace(/\/$/, '')}${config.baseUrl.replace(/\/$/, '')}`;
  const twinProblems = checkMarkdownTwins(buildDir, path.resolve(__dirname, '..'), loadRouteContract(), siteUrl);
  const twinsSeconds = (Date.now() - twinsStarted) / 1000;
  const unlinked = checkSitemapLinks(buildDir, siteUrl);

  const {checked, problems} = await pages;
  for (const problem of problems) {
    console.error(
      `${path.relative(buildDir, problem.file)}: ${problem.rule}: ${problem.message}${problem.selector ? ` at ${problem.selector}` : ''}`,
    );
  }
  console.log(`[check:html] ${checked} pages, ${problems.length} problems, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const problem of twinProblems) console.error(`${problem.page}: markdown twin: ${problem.message}`);
  console.log(`[check:html] Markdown twins: ${twinProblems.length} problems, in ${twinsSeconds.toFixed(1)} s`);
  for (const url of unlinked) console.error(`sitemap.xml: ${url} is linked from no page of the build`);
  console.log(`[check:html] sitemap: ${unlinked.length} URLs linked from no page`);
  const feedProblems = feedSelfLinkProblems(
    path.join(buildDir, contentSections.blog.routeBasePath),
    `${siteUrl}${contentSections.blog.routeBasePath}`,
  );
  for (const problem of feedProblems) console.error(`blog feed: ${problem}`);
  console.log(`[check:html] blog feeds: ${feedProblems.length} problems`);
  const firstLoad = firstLoadProblems(buildDir);
  for (const problem of firstLoad) console.error(`first load: ${problem}`);
  console.log(`[check:html] first load: ${firstLoad.length} problems`);
  const sheets = [
    ...pageSheetProblems(buildDir),
    ...files.flatMap((file) => contentFeatureProblems(path.relative(buildDir, file), readFileSync(file, 'utf8'))),
  ];
  for (const problem of sheets) console.error(`stylesheets: ${problem}`);
  console.log(`[check:html] stylesheets: ${sheets.length} problems`);
  const siteDir = path.resolve(__dirname, '..');
  const leaks = filesNamingPath(buildDir, siteDir);
  for (const file of leaks) console.error(`${file}: names the folder the site was built in (${siteDir})`);
  console.log(`[check:html] build paths: ${leaks.length} files name the checkout's folder`);
  return problems.length > 0 ||
    twinProblems.length > 0 ||
    unlinked.length > 0 ||
    feedProblems.length > 0 ||
    firstLoad.length > 0 ||
    sheets.length > 0 ||
    leaks.length > 0
    ? 1
    : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
