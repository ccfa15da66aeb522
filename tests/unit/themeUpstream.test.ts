/**
 * The theme components this site ejects are copies of @docusaurus/theme-classic's own sources, with
 * the site's changes fenced by "BEGIN portal change: <why>" ... "END portal change" comments
 * (src/theme/README.md). This test keeps them that way:
 * - it stores the sha256 of each upstream file as it was when the copy was taken, and fails,
 *   naming the copy to redo, when an upgrade changes that file;
 * - outside its fences a copy is the upstream file line for line (licence header included), so
 *   `diff -u` against the upstream file shows the site's changes and nothing else;
 * - every file in src/theme that shadows an upstream file without wrapping it is listed here.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {readFileSync, readdirSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

const siteDir = path.resolve(__dirname, '../..');
const themeDir = path.join(siteDir, 'src/theme');
const upstreamPackageDir = path.dirname(
  createRequire(path.join(siteDir, 'package.json')).resolve('@docusaurus/theme-classic/package.json'),
);
const upstreamThemeDir = path.join(upstreamPackageDir, 'src/theme');
const installedVersion = (JSON.parse(readFileSync(path.join(upstreamPackageDir, 'package.json'), 'utf8')) as {version: string}).version;

/** The theme-classic version every copy below was taken from (also in src/theme/README.md). */
const sourceVersion = '3.10.2';

interface Override {
  /** Path under src/theme, the same under theme-classic's src/theme. */
  readonly file: string;
  /** copy: upstream file plus fenced changes. replacement: the site's own code in its place. */
  readonly kind: 'copy' | 'replacement';
  /** sha256 of the upstream file at sourceVersion. */
  readonly upstreamSha256: string;
}

const overrides: readonly Override[] = [
  {file: 'AnnouncementBar/index.tsx', kind: 'copy', upstreamSha256: '0dac58189eb682694234f3c56159a407961f8671b95625926f9758cdf957d05c'},
  {
    file: 'AnnouncementBar/styles.module.css',
    kind: 'copy',
    upstreamSha256: 'caf6d3e8e258302f23455679af9bef151c228038aee4a86dfcc143480a2a0bda',
  },
  {file: 'BlogArchivePage/index.tsx', kind: 'copy', upstreamSha256: '42fb9f651c21b4f6a6161bb8ee6726ab3a4e3c35779bf278039c4e79c67758d1'},
  {file: 'CodeBlock/index.tsx', kind: 'copy', upstreamSha256: '02872fb480f9cfba3bf6fb26683dfc2a7b4b8d43a2f56f7f72911482028d8a2b'},
  {file: 'CodeBlock/Content/index.tsx', kind: 'copy', upstreamSha256: 'b82ef1f4c49f4e2c5f5474c0076d0e1caa18cf1fd1d5efd99e442e4546d1e5ec'},
  {
    file: 'CodeBlock/Content/styles.module.css',
    kind: 'copy',
    upstreamSha256: '26dba21a9e8eb53810a03017513a07ac613288682addf075f186ed52b1b5e07f',
  },
  {
    file: 'ErrorPageContent.tsx',
    kind: 'copy',
    upstreamSha256: '94a807f761167b966e44a9b3a26cd69f085ff00ddd7ce585189f5365300ac236',
  },
  {
    file: 'DocItem/Footer/index.tsx',
    kind: 'replacement',
    upstreamSha256: 'e66cb95f8e068ca27ab2d2ac0ac2b0b27d65a2bcd45933aa47d246d0a8fc19af',
  },
  {
    file: 'DocVersionBadge/index.tsx',
    kind: 'replacement',
    upstreamSha256: 'f48d0878297735e434d6fae1a31b60b47ac8e47199b1bdc5322e04a1fb49b762',
  },
  {
    file: 'DocVersionBanner/index.tsx',
    kind: 'replacement',
    upstreamSha256: '4cbfaa11f966ce242de021f0934df85b1a3517de31bb05fe2364add5b2f040fe',
  },
  {file: 'NotFound/Content/index.tsx', kind: 'copy', upstreamSha256: '44b71ba528b17c08eba546b6462ee97c05b5780a0caf7a297560e3c063cfa9f4'},
  {file: 'Tabs/index.tsx', kind: 'copy', upstreamSha256: '4346b7b003462cd328481ef3377e90ee131745ee17132666b863a50ac3e32ef8'},
  {file: 'Tabs/styles.module.css', kind: 'copy', upstreamSha256: '8beb34df100a7916b71f23af7a88f8df7efdcb06c60beb49513e37dc9c1bd4eb'},
  {
    file: 'prism-include-languages.ts',
    kind: 'replacement',
    upstreamSha256: 'ae4f25b4ca4dc254b47b072626e15a25e63dc23d4891e8b9e45f8257ea301770',
  },
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const readLines = (file: string) => readFileSync(file, 'utf8').split('\n');

/**
 * For each line, whether it lies inside a fence (the BEGIN and END lines included). Throws on a
 * fence without a reason, an unclosed or nested fence, or an END without a BEGIN.
 */
function fencedLines(lines: readonly string[]): boolean[] {
  let openedAt: number | undefined;
  const fenced = lines.map((line, index) => {
    if (line.includes('BEGIN portal change')) {
      if (openedAt !== undefined) throw new Error(`line ${index + 1}: a fence opens inside the fence of line ${openedAt + 1}`);
      if (!/BEGIN portal change: \S/.test(line)) throw new Error(`line ${index + 1}: a fence says why, "BEGIN portal change: <why>"`);
      openedAt = index;
      return true;
    }
    if (line.includes('END portal change')) {
      if (openedAt === undefined) throw new Error(`line ${index + 1}: END portal change without a BEGIN`);
      openedAt = undefined;
      return true;
    }
    return openedAt !== undefined;
  });
  if (openedAt !== undefined) throw new Error(`line ${openedAt + 1}: the fence is never closed`);
  return fenced;
}

/** A run of lines where the two files differ: upstream lines [upstreamStart, upstreamEnd) became copy lines [copyStart, copyEnd). */
interface Hunk {
  readonly upstreamStart: number;
  readonly upstreamEnd: number;
  readonly copyStart: number;
  readonly copyEnd: number;
}

/** The differing runs between two line lists, from their longest common subsequence. */
function lineHunks(upstream: readonly string[], copy: readonly string[]): Hunk[] {
  // common(i, j): length of the longest common subsequence of upstream[i..] and copy[j..].
  const width = copy.length + 1;
  const table = new Uint32Array((upstream.length + 1) * width);
  const common = (i: number, j: number) => table[i * width + j] ?? 0;
  for (let i = upstream.length - 1; i >= 0; i -= 1) {
    for (let j = copy.length - 1; j >= 0; j -= 1) {
      table[i * width + j] = upstream[i] === copy[j] ? common(i + 1, j + 1) + 1 : Math.max(common(i + 1, j), common(i, j + 1));
    }
  }
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < upstream.length || j < copy.length) {
    if (i < upstream.length && j < copy.length && upstream[i] === copy[j]) {
      i += 1;
      j += 1;
      continue;
    }
    const start = {i, j};
    while ((i < upstream.length || j < copy.length) && !(i < upstream.length && j < copy.length && upstream[i] === copy[j])) {
      if (j >= copy.length || (i < upstream.length && common(i + 1, j) >= common(i, j + 1))) i += 1;
      else j += 1;
    }
    hunks.push({upstreamStart: start.i, upstreamEnd: i, copyStart: start.j, copyEnd: j});
  }
  return hunks;
}

/**
 * Whether the lines a hunk adds all lie in fences. A hunk that only adds lines may slide along
 * runs of equal lines (a blank line just inside or just outside a fence matches the same
 * upstream line either way), so each place it can slide to is tried.
 */
function addedLinesFenced(hunk: Hunk, copy: readonly string[], fenced: readonly boolean[]): boolean {
  const allFenced = (start: number, end: number) => fenced.slice(start, end).every(Boolean);
  if (allFenced(hunk.copyStart, hunk.copyEnd)) return true;
  if (hunk.upstreamEnd > hunk.upstreamStart) return false;
  for (const step of [-1, 1]) {
    let start = hunk.copyStart;
    let end = hunk.copyEnd;
    while (step < 0 ? start > 0 && copy[start - 1] === copy[end - 1] : end < copy.length && copy[start] === copy[end]) {
      start += step;
      end += step;
      if (allFenced(start, end)) return true;
    }
  }
  return false;
}

/** The hunks a fence does not account for: added lines outside a fence, or lines removed away from one. */
function unfencedHunks(upstream: readonly string[], copy: readonly string[]): Hunk[] {
  const fenced = fencedLines(copy);
  return lineHunks(upstream, copy).filter((hunk) => {
    if (hunk.copyEnd > hunk.copyStart) {
      return !addedLinesFenced(hunk, copy, fenced);
    }
    // Lines only removed: a fence must touch the place they were removed from.
    return !(fenced[hunk.copyStart - 1] ?? false) && !(fenced[hunk.copyStart] ?? false);
  });
}

describe('the fence check', () => {
  const upstream = ['header', 'import a;', 'body();', 'end'];
  test('accepts changes inside fences, including a fence that only marks removed lines', () => {
    const copy = [
      'header',
      '// BEGIN portal change: no a',
      '// END portal change',
      '// BEGIN portal change: other body',
      'other();',
      '// END portal change',
      'end',
    ];
    assert.deepEqual(unfencedHunks(upstream, copy), []);
  });
  test('lets a hunk that only adds lines slide along equal lines into its fence', () => {
    const copy = [
      'header',
      'import a;',
      '// BEGIN portal change: helper',
      'import b;',
      '',
      'helper();',
      '// END portal change',
      '',
      'body();',
      'end',
    ];
    assert.deepEqual(unfencedHunks(['header', 'import a;', '', 'body();', 'end'], copy), []);
    // One blank line more than upstream outside the fence is a change all the same.
    const spaced = ['header', 'import a;', '', '// BEGIN portal change: helper', 'helper();', '// END portal change', '', 'body();', 'end'];
    assert.equal(unfencedHunks(['header', 'import a;', '', 'body();', 'end'], spaced).length, 1);
  });
  test('reports a line changed outside a fence, and lines removed away from one', () => {
    assert.equal(unfencedHunks(upstream, ['header', 'import a;', 'other();', 'end']).length, 1);
    assert.equal(unfencedHunks(upstream, ['import a;', 'body();', 'end']).length, 1);
  });
  test('rejects a fence without a reason or without an end', () => {
    assert.throws(() => unfencedHunks(upstream, ['header', '// BEGIN portal change', '// END portal change', 'end']), /says why/);
    assert.throws(() => unfencedHunks(upstream, ['header', '// BEGIN portal change: x', 'end']), /never closed/);
  });
});

describe(`theme components taken from @docusaurus/theme-classic ${sourceVersion}`, () => {
  for (const {file, kind, upstreamSha256} of overrides) {
    const upstreamFile = path.join(upstreamThemeDir, file);
    const copyFile = path.join('src/theme', file);

    test(`${copyFile}: the upstream file is still the one it was taken from`, () => {
      const actual = sha256(readFileSync(upstreamFile, 'utf8'));
      const redo =
        kind === 'copy'
          ? `Redo the copy: \`diff -u ${path.relative(siteDir, upstreamFile)} ${copyFile}\` shows the portal's changes, fenced by BEGIN/END portal change; ` +
            `copy the new upstream file over ${copyFile}, re-apply each fenced change where it still applies, ` +
            `run the e2e specs that cover it (src/theme/README.md), then set its sha256 here to ${actual}.`
          : `${copyFile} replaces it with the site's own code: read the new upstream file, make sure the replacement still does what the theme expects of it, ` +
            `then set its sha256 here to ${actual}.`;
      assert.equal(
        actual,
        upstreamSha256,
        `${path.relative(siteDir, upstreamFile)} (@docusaurus/theme-classic ${installedVersion}) is not the file ${copyFile} was taken from at ${sourceVersion}. ${redo} ` +
          `Update the source version in src/theme/README.md too.`,
      );
    });

    if (kind === 'copy') {
      test(`${copyFile}: differs from upstream only inside BEGIN/END portal change fences`, () => {
        const upstream = readLines(upstreamFile);
        const copy = readLines(path.join(siteDir, copyFile));
        const lines = (start: number, end: number) =>
          end === start ? 'none' : end - start === 1 ? `line ${end}` : `lines ${start + 1}-${end}`;
        const stray = unfencedHunks(upstream, copy).map(
          (hunk) =>
            `  upstream ${lines(hunk.upstreamStart, hunk.upstreamEnd)}, copy ${lines(hunk.copyStart, hunk.copyEnd)}: ` +
            JSON.stringify((hunk.copyEnd > hunk.copyStart ? copy[hunk.copyStart] : upstream[hunk.upstreamStart])?.trim()),
        );
        assert.deepEqual(
          stray,
          [],
          `${copyFile} changes the upstream file outside a fence. Keep upstream lines as they are (formatting and licence header included) ` +
            `and put each change between "// BEGIN portal change: <why>" and "// END portal change" ({/* ... */} inside JSX):\n${stray.join('\n')}`,
        );
      });
    }
  }

  test('every file in src/theme that stands in for an upstream file without wrapping it is listed here', () => {
    const listed = new Set(overrides.map(({file}) => file));
    const unlisted = (readdirSync(themeDir, {recursive: true, encoding: 'utf8'}) as string[])
      .map((file) => file.split(path.sep).join('/'))
      .filter((file) => /\.(tsx?|css)$/.test(file) && !listed.has(file))
      .filter((file) => {
        try {
          readFileSync(path.join(upstreamThemeDir, file));
        } catch {
          return false;
        }
        // A wrapper renders the original, so it does not copy it.
        return !readFileSync(path.join(themeDir, file), 'utf8').includes('@theme-original/');
      });
    assert.deepEqual(
      unlisted,
      [],
      'List these in tests/unit/themeUpstream.test.ts (and src/theme/README.md) with the sha256 of the upstream file they came from.',
    );
  });
});
