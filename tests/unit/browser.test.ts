import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {debianChromiumPath, debianHeadlessShellPath, findChromium, findTestChromium} from '../../tooling/browser';
import {existsSync} from 'node:fs';

describe('findChromium', () => {
  test('CHROME_PATH comes first when it exists', () => {
    const found = findChromium({CHROME_PATH: process.execPath});
    assert.deepEqual(found, {executablePath: process.execPath, source: 'CHROME_PATH'});
  });

  test('a CHROME_PATH that does not exist is an error, not a silent fallback', () => {
    assert.throws(() => findChromium({CHROME_PATH: '/nowhere/chromium'}), /CHROME_PATH is set to \/nowhere\/chromium/);
  });

  test('without CHROME_PATH, Debian Chromium is used when installed', {skip: !existsSync(debianChromiumPath)}, () => {
    assert.equal(findChromium({})?.source, 'debian');
  });
});

describe('findTestChromium', () => {
  test("Debian's headless shell comes first when it is installed and CHROME_PATH is not set", () => {
    const found = findTestChromium({}, (path) => path === debianHeadlessShellPath);
    assert.deepEqual(found, {executablePath: debianHeadlessShellPath, source: 'debian-headless-shell'});
  });

  test('CHROME_PATH still wins over the headless shell', () => {
    assert.equal(findTestChromium({CHROME_PATH: process.execPath}, () => true)?.source, 'CHROME_PATH');
  });

  test('without the headless shell, the suite takes what findChromium finds', () => {
    assert.deepEqual(
      findTestChromium({}, () => false),
      findChromium({}),
    );
  });
});
