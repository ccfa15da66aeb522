import {after, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {filesNamingPath} from '../../tooling/buildPathLeaks';
import {repoRoot} from '../support/routeContract';

describe('no published file names the folder the site was built in', () => {
  const buildDir = mkdtempSync(path.join(tmpdir(), 'build-paths-'));
  after(() => rmSync(buildDir, {recursive: true, force: true}));

  test('a script or page that holds the checkout path is named; other files and compressed copies are not read', () => {
    const siteDir = '/home/someone/checkouts/portal';
    mkdirSync(path.join(buildDir, 'assets', 'js'), {recursive: true});
    writeFileSync(path.join(buildDir, 'assets', 'js', 'main.1234abcd.js'), `var c={plugins:[[null,{siteDir:"${siteDir}"}]]};`);
    writeFileSync(path.join(buildDir, 'assets', 'js', 'other.5678abcd.js'), 'var d={siteDir:"/elsewhere"};');
    writeFileSync(path.join(buildDir, 'index.html'), `<p>Built in ${siteDir}/build</p>`);
    writeFileSync(path.join(buildDir, 'index.html.br'), siteDir);
    assert.deepEqual(filesNamingPath(buildDir, siteDir), ['assets/js/main.1234abcd.js', 'index.html']);
    assert.deepEqual(filesNamingPath(buildDir, '/home/someone/other'), []);
  });

  test('the site config Docusaurus ships to the browser holds no path of this checkout', async () => {
    const {default: config} = await import('../../docusaurus.config');
    // Docusaurus serialises it as JSON, leaving functions out: what the browser gets.
    const shipped = JSON.stringify(config);
    assert.ok(shipped.includes('beforeDefaultRemarkPlugins'), 'the serialised config lists the remark plugins');
    assert.equal(shipped.includes(repoRoot), false, `the config names ${repoRoot}`);
  });
});
