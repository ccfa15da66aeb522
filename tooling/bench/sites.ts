/**
 * The builds a benchmark compares, and serving them: the portal (optionally without some groups of
 * first-load mechanisms, PORTAL_WITHOUT) and the stock Docusaurus classic template, created once in
 * a cache outside the repository. Every build is precompressed and served by
 * scripts/serve-production.ts, so all are sent alike.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {existsSync, mkdirSync} from 'node:fs';
import {homedir} from 'node:os';
import path from 'node:path';
import {precompressBuild} from '../precompress';

export const stockVersion = '3.10.2';
export const cacheDir = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'veloxa-bench');
const stockDir = path.join(cacheDir, `stock-${stockVersion}`);

/**
 * Page types, each with the portal's page and the closest page of the stock template. The stock
 * template has one doc with code blocks and tables of content, `markdown-features`, its longest; it
 * stands in for the portal's three long reference pages.
 */
/** A path no build has: both servers answer it with their not-found page (404.html). */
export const notFoundPath = '/this-page-does-not-exist';

export const pageTypes: Record<string, {portal: string; stock: string}> = {
  home: {portal: '/', stock: '/'},
  guide: {portal: '/docs/integration-guide', stock: '/docs/intro'},
  'API reference': {portal: '/docs/createorder', stock: '/docs/tutorial-basics/markdown-features'},
  notification: {portal: '/docs/payment/payment-result-notification', stock: '/docs/tutorial-basics/markdown-features'},
  demo: {portal: '/demos/dynqr', stock: '/docs/tutorial-basics/markdown-features'},
  'blog post': {portal: '/blog/long-blog-post', stock: '/blog/long-blog-post'},
  // The console is a docs page laid out as a tool; stock's first doc is its plainest docs page.
  console: {portal: '/docs/sandbox-console', stock: '/docs/intro'},
  '404': {portal: notFoundPath, stock: notFoundPath},
};

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, {cwd, env, stdio: ['ignore', 'inherit', 'inherit']});
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status}).`);
}

/** A build ready to serve, and how long building it took (undefined when reused). */
export interface Build {
  dir: string;
  seconds?: number;
}

/** The stock classic template, TypeScript flavour: created and installed once, built once. */
export async function stockBuild(): Promise<Build> {
  const buildDir = path.join(stockDir, 'build');
  if (existsSync(path.join(buildDir, 'index.html'))) return {dir: buildDir};
  if (!existsSync(path.join(stockDir, 'node_modules'))) {
    mkdirSync(cacheDir, {recursive: true});
    if (!existsSync(path.join(stockDir, 'package.json'))) {
      run('npx', ['--yes', `create-docusaurus@${stockVersion}`, path.basename(stockDir), 'classic', '--typescript', '--skip-install'], cacheDir);
    }
    run('npm', ['install', '--no-audit', '--no-fund'], stockDir);
  }
  const started = Date.now();
  run('npx', ['docusaurus', 'build'], stockDir);
  await precompressBuild(buildDir);
  return {dir: buildDir, seconds: (Date.now() - started) / 1000};
}

/**
 * A production build of the portal into the cache, without the given groups of first-load
 * mechanisms (PORTAL_WITHOUT, read by docusaurus.config.ts). Reused as it is with `reuse`.
 */
export async function portalBuild(without: readonly string[], reuse: boolean): Promise<Build> {
  const dir = path.join(cacheDir, without.length ? `portal-without-${without.join('+')}` : 'portal');
  if (reuse && existsSync(path.join(dir, 'index.html'))) return {dir};
  const started = Date.now();
  // No persistent Rspack cache: its key covers the theme's aliases but not a plugin's, so a build
  // without the highlighting group reused the other builds' resolution of @portal/highlighter and
  // shipped the lazy highlighter it was meant to leave out (hydration errors, wrong figures).
  const env = {...process.env, PORTAL_TEST_ROUTES: '', PORTAL_WITHOUT: without.join(','), DOCUSAURUS_NO_PERSISTENT_CACHE: 'true'};
  run('npx', ['docusaurus', 'build', '--out-dir', dir], process.cwd(), env);
  await precompressBuild(dir);
  return {dir, seconds: (Date.now() - started) / 1000};
}

let nextPort = 4300 + Math.floor(Math.random() * 500);

/** Serves a build with the production server on a free-ish port until `stop`. */
export async function serve(buildDir: string): Promise<{baseUrl: string; stop: () => void}> {
  const port = nextPort++;
  // Node with tsx's loader, not npx: killing npx left the server it started running.
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/serve-production.ts'), buildDir, String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await fetch(baseUrl);
      return {baseUrl, stop: () => server.kill()};
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  server.kill();
  throw new Error(`The server for ${buildDir} did not answer at ${baseUrl}.`);
}
