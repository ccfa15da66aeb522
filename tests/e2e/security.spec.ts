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

  test('hashed assets are cached for a year', async ({page, request}) => {
    await page.goto('/');
    const script = await page.locator('script[src*="/assets/js/main."]').getAttribute('src');
    expect(script).toBeTruthy();
    const response = await request.get(script ?? '');
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('old URLs answer 301', async ({request}) => {
    const response = await request.get('/docs/A_SDKs/inapp', {maxRedirects: 0});
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe('/docs/sdks/inapp');
  });
});
