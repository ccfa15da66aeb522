/**
 * Builds the portal's downloads (src/lib/downloads.ts): the local sandbox and the MCP server, each one ES
 * module file that runs with Node.js and nothing else, plus SHA256SUMS. esbuild bundles every dependency;
 * the one module that reads api/ (src/sandbox/hosts/server/repoFiles.ts) is replaced by the contract, engine spec
 * and test keys as checked now, so the file needs nothing beside it. plugins/content/downloads runs this
 * in the site build; the tests run it directly when there is no build.
 */
import {createHash} from 'node:crypto';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {build, type Plugin} from 'esbuild';
import {checksumsFile, downloads, type Download} from '../../src/lib/downloads';
import {readSandboxFiles} from '../../src/sandbox/hosts/server/repoFiles';
import {snapshotOf} from '../../src/sandbox/hosts/server/sandboxFiles';

const sandboxFilesModule = path.resolve(__dirname, '..', '..', 'src', 'sandbox', 'hosts', 'server', 'sandboxFiles.ts');

/** The Node.js version the files are built for: the portal's engines field (>= 20). */
const nodeTarget = 'node20';

export interface BuiltDownload extends Download {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** Replaces repoFiles.ts with a module that returns the snapshot; read once per build. */
function embeddedSandboxFiles(snapshotJson: string): Plugin {
  return {
    name: 'embedded-sandbox-files',
    setup(pluginBuild) {
      pluginBuild.onResolve({filter: /[\\/]repoFiles$/}, (args) =>
        args.importer.endsWith(`${path.sep}loadEngine.ts`) ? {path: 'embedded-sandbox-files', namespace: 'embedded'} : undefined,
      );
      pluginBuild.onLoad({filter: /.*/, namespace: 'embedded'}, () => ({
        resolveDir: path.dirname(sandboxFilesModule),
        loader: 'ts',
        contents: [
          `import {filesFromSnapshot, type SandboxFiles, type SandboxSnapshot} from ${JSON.stringify(sandboxFilesModule)};`,
          // A bundle has no repository; nothing in it reads files relative to this.
          'export const repoRoot = process.cwd();',
          `const snapshot: SandboxSnapshot = JSON.parse(${JSON.stringify(snapshotJson)});`,
          'export function readSandboxFiles(): SandboxFiles { return filesFromSnapshot(snapshot); }',
        ].join('\n'),
      }));
    },
  };
}

/** The entry module of each download. */
const entries = {
  sandbox: path.join(__dirname, 'sandboxEntry.ts'),
  mcp: path.join(__dirname, 'mcpEntry.ts'),
} as const satisfies Record<keyof typeof downloads, string>;

/** Bundles one download into `file`. */
async function bundleDownload(download: Download, entry: string, file: string, snapshotJson: string): Promise<BuiltDownload> {
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: nodeTarget,
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
    plugins: [embeddedSandboxFiles(snapshotJson)],
    // CommonJS dependencies call require(); __dirname is read by modules that are never run here.
    banner: {
      js: [
        `// ${download.title}: ${download.file}. Run it with Node.js 20 or later: node ${download.file} --help`,
        "import {createRequire as __createRequire} from 'node:module';",
        "import {dirname as __pathDirname} from 'node:path';",
        "import {fileURLToPath as __fileURLToPath} from 'node:url';",
        'const require = __createRequire(import.meta.url);',
        'const __filename = __fileURLToPath(import.meta.url);',
        'const __dirname = __pathDirname(__filename);',
      ].join('\n'),
    },
  });
  const bytes = await readFile(file);
  return {...download, path: file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex')};
}

/** Builds the sandbox download alone into `file` (the tests run their sandbox processes from it). */
export async function buildSandboxDownload(file: string): Promise<BuiltDownload> {
  return bundleDownload(downloads.sandbox, entries.sandbox, file, JSON.stringify(snapshotOf(readSandboxFiles())));
}

/** Builds both downloads into `outDir` (created when missing) and writes their checksums. */
export async function buildDownloads(outDir: string): Promise<BuiltDownload[]> {
  await mkdir(outDir, {recursive: true});
  const snapshotJson = JSON.stringify(snapshotOf(readSandboxFiles()));
  const built = await Promise.all(
    (['sandbox', 'mcp'] as const).map((name) =>
      bundleDownload(downloads[name], entries[name], path.join(outDir, downloads[name].file), snapshotJson),
    ),
  );
  await writeFile(path.join(outDir, checksumsFile), built.map((download) => `${download.sha256}  ${download.file}\n`).join(''));
  return built;
}
