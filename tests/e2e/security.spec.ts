import {expect, test} from '@playwright/test';

// Every page of the route contract is also loaded in both colour modes under these headers by
// routes.spec.ts, which fails on any console error, Content-Security-Policy violations included.

test.describe('served with the production hosting configuration', () => {
  test('pages carry the security headers and are compressed', async ({request}) => {
    const response = await request.get('/docs/createorder', {headers: {'Accept-Encoding': 'gzip'}});
    const headers = response.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self' 'sha256-");
    expect(headers['strict-transport-security']).toContain('max-age=');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['content-encoding']).toBe('gzip');
  });

  test('a browser that accepts Brotli gets the precompressed copy, others gzip or the file itself, all with the same content', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const script = (await page.locator('script[src*="/assets/js/main."]').getAttribute('src')) ?? '';
    expect(script).toMatch(/^\/assets\/js\/main\.[0-9a-f]+\.js$/);
    const plain = await request.get(script, {headers: {'Accept-Encoding': 'identity'}});
    expect(plain.headers()['content-encoding']).toBeUndefined();
    const original = await plain.body();
    for (const [accepted, sent] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await request.get(script, {headers: {'Accept-Encoding': accepted}});
      const headers = response.headers();
      expect(headers['content-encoding'], accepted).toBe(sent);
      expect(headers.vary).toContain('Accept-Encoding');
      expect(headers['content-type']).toContain('javascript');
      expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(headers['content-length']), accepted).toBeLessThan(original.length / 3);
      // The request context decodes the body: it must be the same file.
      expect((await response.body()).equals(original), accepted).toBe(true);
    }
    const missing = await request.get('/docs/no-such-page', {headers: {'Accept-Encoding': 'br'}});
    expect(missing.status()).toBe(404);
    expect(missing.headers()['content-encoding']).toBe('br');
    expect(await missing.text()).toContain('<html');
  });

  test('old URLs answer 301', async ({request}) => {
    const response = await request.get('/docs/A_SDKs/inapp', {maxRedirects: 0});
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe('/docs/sdks/inapp');
  });
});
