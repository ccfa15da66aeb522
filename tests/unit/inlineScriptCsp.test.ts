import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {allowedScriptHashes, checkInlineScripts, cspHash, inlineScripts} from '../../plugins/checks/inline-script-csp';
import {pageScriptLoaderSource} from '../../plugins/performance/page-script-loader';
import {headersFor, loadHosting} from '../../tooling/hosting';

describe('inline scripts against the Content-Security-Policy', () => {
  test('finds inline JavaScript only: not script files, not data blocks', () => {
    const html = [
      '<head><script src="/assets/js/main.js"></script>',
      '<script type="application/json" id="page-scripts">["/a.js"]</script>',
      '<script type="application/ld+json">{}</script>',
      '<script>first()</script><SCRIPT type="text/javascript">second()</SCRIPT>',
      '<script type=module>third()</script></head>',
    ].join('');
    assert.deepEqual(inlineScripts(html), ['first()', 'second()', 'third()']);
  });

  test('hashes as browsers do (base64 SHA-256 of the exact text)', () => {
    // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
    assert.equal(cspHash('alert(1)'), "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });

  test('reads hashes from script-src, falling back to default-src', () => {
    assert.deepEqual(
      [...allowedScriptHashes("default-src 'self'; script-src 'self' 'sha256-abc=' 'sha512-def='")],
      ["'sha256-abc='", "'sha512-def='"],
    );
    assert.deepEqual([...allowedScriptHashes("default-src 'self' 'sha256-xyz='")], ["'sha256-xyz='"]);
    assert.deepEqual([...allowedScriptHashes("style-src 'sha256-abc='")], []);
  });

  test('reports a blocked script with the hash to add, and an allowance no page uses', () => {
    const allowed = cspHash('kept()');
    const stale = "'sha256-stale='";
    const policy = `script-src 'self' ${allowed} ${stale}`;
    const pages = [
      {route: '/a', html: '<script>kept()</script><script>added()</script>'},
      {route: '/b', html: '<script>added()</script>'},
    ];
    const report = checkInlineScripts(pages, () => policy);
    assert.equal(report.blocked.length, 1, 'one line per script, not per page');
    assert.match(report.blocked[0] ?? '', new RegExp(`^${cspHash('added()').replace(/[+/=]/g, '\\$&')} \\(first on /a: "added\\(\\)"`));
    assert.deepEqual(report.unused, [stale]);
    assert.deepEqual(
      checkInlineScripts(pages, () => `script-src ${allowed} ${cspHash('added()')}`),
      {blocked: [], unused: []},
    );
  });

  test('the production policy allows inline scripts by hash only', () => {
    const policy = headersFor(loadHosting().headers, '/docs/createorder').get('Content-Security-Policy') ?? '';
    assert.ok(allowedScriptHashes(policy).size > 0);
    assert.doesNotMatch(policy, /script-src[^;]*('unsafe-inline'|'unsafe-eval'|\*)/);
  });
});

describe('page-script loader', () => {
  test("is safe to inline and reads the page template's script list", () => {
    const source = pageScriptLoaderSource();
    assert.match(source, /getElementById\('page-scripts'\)/);
    assert.doesNotThrow(() => new Function(source));
  });

  test('refuses source that would end the script element or open a comment', () => {
    assert.throws(() => pageScriptLoaderSource('var a = "</script>";'), /cannot appear/);
    assert.throws(() => pageScriptLoaderSource('var a = "<!--";'), /cannot appear/);
  });
});
