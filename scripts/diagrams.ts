/**
 * Draws every Mermaid diagram of the site into static/diagrams (light and dark)
 * and removes files no diagram uses any more. The build draws missing diagrams
 * by itself; run this after editing diagrams to tidy the store before a commit.
 *
 * Usage: npm run diagrams
 */
import {readdirSync, rmSync} from 'node:fs';
import path from 'node:path';
import {collectDiagrams} from '../plugins/content/mermaid-diagrams/collectDiagrams';
import {diagramDirectory, diagramFileName, diagramThemes, storeDiagrams} from '../plugins/content/mermaid-diagrams/diagramStore';

async function main(): Promise<void> {
  const siteDir = process.cwd();
  const diagrams = collectDiagrams(siteDir);
  await storeDiagrams(siteDir, diagrams);
  const used = new Set(diagrams.flatMap(({source}) => diagramThemes.map((theme) => diagramFileName(source, theme))));
  const directory = path.join(siteDir, diagramDirectory);
  const unused = readdirSync(directory).filter((file) => !used.has(file));
  for (const file of unused) rmSync(path.join(directory, file));
  console.log(`${diagrams.length} diagrams, ${used.size} files in ${diagramDirectory}; removed ${unused.length} unused.`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
