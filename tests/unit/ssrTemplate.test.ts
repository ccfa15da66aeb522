/**
 * The page template (ssrTemplate in docusaurus.config.ts) is a copy of Docusaurus core's, with
 * core's `<script defer>` loop replaced by the page-scripts data block that
 * plugins/performance/page-script-loader reads. A change core makes to its own template (a new meta tag, a
 * preload, module scripts) would otherwise be missing from every page without a sound: with the
 * two script parts masked, the templates must match line for line.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

const siteDir = path.resolve(__dirname, '../..');
const siteRequire = createRequire(path.join(siteDir, 'package.json'));
const coreTemplateFile = siteRequire.resolve('@docusaurus/core/lib/ssg/ssgTemplate.html.js');
const coreVersion = (JSON.parse(readFileSync(siteRequire.resolve('@docusaurus/core/package.json'), 'utf8')) as {version: string}).version;

/** Core's loop that writes one `<script defer>` per page script. */
const coreScriptLoop =
  /^[ \t]*<% it\.scripts\.forEach\(\(script\) => \{ %>\n[ \t]*<script src="<%= it\.baseUrl %><%= script %>" defer><\/script>\n[ \t]*<% \}\); %>\n/m;
/** The site's data block listing the page scripts for the loader. */
const pageScriptsBlock = /^[ \t]*<script type="application\/json" id="page-scripts">.*<\/script>\n/m;

/** The template's lines without indentation (Docusaurus compiles it with Eta's rmWhitespace), the script part taken out. */
function maskedLines(template: string, scriptPart: RegExp, name: string): string[] {
  assert.match(template, scriptPart, `${name} no longer has the script part this test masks (${scriptPart.source})`);
  return template
    .replace(scriptPart, '')
    .trim()
    .split('\n')
    .map((line) => line.trim());
}

describe('page template (ssrTemplate)', () => {
  test("is core's template but for the script tags", async () => {
    const {default: config} = await import('../../docusaurus.config');
    assert.ok(typeof config.ssrTemplate === 'string', 'docusaurus.config.ts sets no ssrTemplate (is PORTAL_WITHOUT set?)');
    const coreTemplate = (siteRequire(coreTemplateFile) as {default: string}).default;
    assert.deepEqual(
      maskedLines(config.ssrTemplate, pageScriptsBlock, 'ssrTemplate in docusaurus.config.ts'),
      maskedLines(coreTemplate, coreScriptLoop, path.relative(siteDir, coreTemplateFile)),
      `Docusaurus ${coreVersion}'s page template (${path.relative(siteDir, coreTemplateFile)}) and ssrTemplate in docusaurus.config.ts differ ` +
        `outside their script tags: bring core's change into ssrTemplate, keeping the page-scripts data block where core has its <script defer> loop.`,
    );
  });
});
