/** Reads the docs and demos content folders for the unit tests. */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {DocSource} from '../../src/lib/docRoutes';
import {repoRoot} from './routeContract';

export function readContentFolder(folder: string): DocSource[] {
  const root = path.join(repoRoot, folder);
  return readdirSync(root, {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.mdx?$/.test(file) && !path.basename(file).startsWith('_'))
    .map((file) => ({
      relativePath: file.split(path.sep).join('/'),
      text: readFileSync(path.join(root, file), 'utf8'),
    }))
    .sort((a, b) => a.relativePath.localeCompare(b.relativePath));
}
