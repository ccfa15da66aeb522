/**
 * Writes a Brotli (.br) and a gzip (.gz) copy next to every compressible file of a build
 * (tooling/precompress.ts), so the server sends them as they are.
 *
 * Usage: tsx scripts/precompress.ts [build-dir]
 */
import {stat} from 'node:fs/promises';
import path from 'node:path';
import {precompressBuild, type Compressed} from '../tooling/precompress';

async function main(): Promise<void> {
  const root = path.resolve(process.argv[2] ?? 'build');
  const index = path.join(root, 'index.html');
  if (!(await stat(index).catch(() => undefined))?.isFile()) {
    throw new Error(`${root} has no index.html: build the site first (docusaurus build).`);
  }
  const started = Date.now();
  const results = await precompressBuild(root);
  const sum = (pick: (result: Compressed) => number | undefined) =>
    results.reduce((total, result) => total + (pick(result) ?? result.raw), 0);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `[precompress] ${results.length} files in ${path.relative(process.cwd(), root) || '.'}: ${mb(sum((r) => r.raw))} raw, ${mb(sum((r) => r.gz))} gzip, ${mb(sum((r) => r.br))} brotli, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

main().catch((error: unknown) => {
  console.error(`[precompress] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
