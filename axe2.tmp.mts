import {chromium} from '@playwright/test';
import {chromiumArgs, findTestChromium} from './tooling/browser';
import {axeViolations} from './tests/support/axe';
const b = await chromium.launch({executablePath: findTestChromium()!.executablePath, args: [...chromiumArgs]});
const page = await (await b.newContext({viewport: {width: 1280, height: 800}})).newPage();
const faults: Record<string, string> = {
  none: '',
  token: '.token.keyword, .token.string { color: #ccc !important }',
  cell: 'table td code { color: #bbb !important }',
  oneParagraph: '',
};
for (const url of ['/docs/createorder', '/docs/integration-guide', '/blog', '/']) {
  for (const [name, css] of Object.entries(faults)) {
    await page.goto('http://127.0.0.1:3160' + url);
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    if (css) await page.addStyleTag({content: css});
    if (name === 'oneParagraph') await page.evaluate(() => { const ps = document.querySelectorAll('article p'); const p = ps[Math.floor(ps.length / 2)] as HTMLElement | undefined; if (p) p.style.color = '#c8c8c8'; });
    const scan = {tags: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'], exclude: ['.navbar', '.theme-layout-footer']};
    let t = Date.now(); const full = await axeViolations(page, {...scan, everyTextElement: true}); const tf = Date.now() - t;
    t = Date.now(); const sampled = await axeViolations(page, scan); const ts = Date.now() - t;
    const cc = (v: string[]) => v.filter((x) => x.startsWith('color-contrast')).map((x) => x.replace(/ at .*/, '')).join(';') || '-';
    console.log(url, name, `full ${tf}ms sampled ${ts}ms`, 'full:', full.length, cc(full), '| sampled:', sampled.length, cc(sampled));
  }
}
await b.close();
