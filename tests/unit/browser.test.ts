import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {debianChromiumPath, findChromium} from '../../tooling/browser';
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
