/**
 * The blog: Docusaurus's own blog plugin, wrapped so that its feeds name their own URL once it has
 * written them. The plugin builds its feeds with the `feed` package without `feedLinks`, so atom.xml
 * lacks the `<link rel="self">` RFC 4287 asks for (and rss.xml the matching `<atom:link>`), and no
 * feed option reaches it: `createFeedItems` only shapes the entries. The classic preset's `blog` is
 * off and this plugin takes its options (docusaurus.config.ts). Patching in the blog's own postBuild,
 * after it, avoids racing it: Docusaurus runs the plugins' postBuild hooks concurrently.
 */
import {existsSync, readFileSync} from 'node:fs';
import {readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import pluginContentBlog, {validateOptions, type PluginOptions} from '@docusaurus/plugin-content-blog';
import type {LoadContext, Plugin, PluginModule} from '@docusaurus/types';

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** An Atom feed with `<link rel="self">` to selfUrl, added after its alternate link (or as its first child). */
export function withAtomSelfLink(xml: string, selfUrl: string): string {
  if (/<link\b[^>]*\brel="self"/.test(xml)) return xml;
  const link = `<link rel="self" type="application/atom+xml" href="${escapeAttribute(selfUrl)}"/>`;
  const alternate = /^([ \t]*)<link\b[^>]*\brel="alternate"[^>]*\/>\n/m.exec(xml);
  if (alternate) {
    const end = alternate.index + alternate[0].length;
    return `${xml.slice(0, end)}${alternate[1]}${link}\n${xml.slice(end)}`;
  }
  const feed = /<feed\b[^>]*>\n?/.exec(xml);
  if (!feed) throw new Error('not an Atom feed: no <feed> element');
  const end = feed.index + feed[0].length;
  return `${xml.slice(0, end)}    ${link}\n${xml.slice(end)}`;
}

/** An RSS feed with `<atom:link rel="self">` to selfUrl as the channel's first child, and the Atom namespace it needs. */
export function withRssSelfLink(xml: string, selfUrl: string): string {
  if (/<atom:link\b[^>]*\brel="self"/.test(xml)) return xml;
  const rss = /<rss\b[^>]*>/.exec(xml);
  const channel = /^([ \t]*)<channel>\n/m.exec(xml);
  if (!rss || !channel) throw new Error('not an RSS feed: no <rss> or <channel> element');
  const namespaced = rss[0].includes('xmlns:atom=') ? xml : xml.replace(rss[0], rss[0].replace(/>$/, ' xmlns:atom="http://www.w3.org/2005/Atom">'));
  const at = /^([ \t]*)<channel>\n/m.exec(namespaced) ?? channel;
  const end = at.index + at[0].length;
  return `${namespaced.slice(0, end)}${at[1]}    <atom:link href="${escapeAttribute(selfUrl)}" rel="self" type="application/rss+xml"/>\n${namespaced.slice(end)}`;
}

const feedFiles = {atom: {file: 'atom.xml', patch: withAtomSelfLink}, rss: {file: 'rss.xml', patch: withRssSelfLink}} as const;

/** The built blog feeds of blogDir that lack a self link to their own URL (scripts/checkHtml.ts, after the build). */
export function feedSelfLinkProblems(blogDir: string, blogUrl: string): string[] {
  const selfLink = {
    atom: (url: string) => `<link rel="self" type="application/atom+xml" href="${escapeAttribute(url)}"/>`,
    rss: (url: string) => `<atom:link href="${escapeAttribute(url)}" rel="self" type="application/rss+xml"/>`,
  };
  return (['atom', 'rss'] as const).flatMap((type) => {
    const {file} = feedFiles[type];
    const local = path.join(blogDir, file);
    if (!existsSync(local)) return [`${file} is missing`];
    return readFileSync(local, 'utf8').includes(selfLink[type](`${blogUrl}/${file}`)) ? [] : [`${file} has no self link to ${blogUrl}/${file}`];
  });
}

export default async function blogPlugin(context: LoadContext, rawOptions: unknown): Promise<Plugin> {
  // Docusaurus passes the options through validateOptions (below) first: defaults applied, shape checked.
  const options = rawOptions as PluginOptions;
  // Typed for the blog's own content, which Docusaurus hands back only to the plugin that loaded it.
  const blog = (await pluginContentBlog(context, options)) as unknown as Plugin;
  return {
    ...blog,
    async postBuild(props) {
      await blog.postBuild?.(props);
      const {url, baseUrl} = context.siteConfig;
      const blogPath = `${baseUrl.replace(/\/$/, '')}/${options.routeBasePath.replace(/^\/|\/$/g, '')}`;
      for (const type of options.feedOptions.type ?? []) {
        if (type !== 'atom' && type !== 'rss') continue;
        const {file, patch} = feedFiles[type];
        const local = path.join(props.outDir, blogPath, file);
        if (!existsSync(local)) continue; // no posts, no feed
        await writeFile(local, patch(await readFile(local, 'utf8'), `${url.replace(/\/$/, '')}${blogPath}/${file}`));
      }
    },
  };
}

// The blog plugin's own option validation and defaults. PluginModule types it generically, the blog
// plugin for its own options only: the same function, so the cast only widens its declared type.
blogPlugin.validateOptions = validateOptions as unknown as NonNullable<PluginModule['validateOptions']>;
