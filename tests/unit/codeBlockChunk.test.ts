import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import {codeBlockChunkTest} from '../../plugins/performance/deferred-highlighting';

const root = path.resolve(import.meta.dirname, '../..');
const highlighterDir = path.join(root, 'plugins/performance/deferred-highlighting/highlighter');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

describe('the code-block chunk (deferred-highlighting)', () => {
  test('takes every file of the theme code block and the browser highlighter, and not the server one or the start-up facade', () => {
    for (const file of sourceFiles(path.join(root, 'src/theme/CodeBlock'))) assert.ok(codeBlockChunkTest.test(file), file);
    assert.ok(codeBlockChunkTest.test(path.join(highlighterDir, 'client.tsx')));
    // The facade stands in for prism-react-renderer in the theme's start-up code, so it must stay there.
    for (const file of ['server.tsx', 'prismFacade.ts']) assert.ok(!codeBlockChunkTest.test(path.join(highlighterDir, file)), file);
    assert.ok(!codeBlockChunkTest.test(path.join(root, 'src/components/api/CodeSamples/index.tsx')));
  });

  test('only the code block imports the highlighter, so moving it into the code block chunk adds it to no other page', () => {
    const importers = sourceFiles(path.join(root, 'src'))
      .filter((file) => readFileSync(file, 'utf8').includes("'@portal/highlighter'"))
      .map((file) => path.relative(root, file));
    assert.ok(importers.length > 0, 'the code block imports @portal/highlighter');
    assert.deepEqual(
      importers.filter((file) => !codeBlockChunkTest.test(path.join(root, file))),
      [],
    );
  });
});
