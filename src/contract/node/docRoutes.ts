/**
 * Where a Markdown/MDX source file is published, following the Docusaurus
 * docs plugin's rules as this site uses them: URL = route base + file path
 * without extension, unless front matter sets `slug`. Pure: callers read the
 * files. Used by the unit tests that hold the content tree to the route contract.
 */

export interface DocSource {
  /** Path relative to the plugin's content folder, with forward slashes: "transfer/transfer.md". */
  readonly relativePath: string;
  /** The file's text (only the front matter is read). */
  readonly text: string;
}

const frontMatterPattern = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/** Reads one top-level scalar field of YAML front matter (quoted or plain). */
export function frontMatterField(text: string, field: string): string | undefined {
  const block = frontMatterPattern.exec(text)?.[1];
  if (block === undefined) return undefined;
  const line = block.split(/\r?\n/).find((candidate) => candidate.startsWith(`${field}:`));
  if (line === undefined) return undefined;
  const value = line.slice(field.length + 1).trim();
  const quoted = /^(['"])(.*)\1$/.exec(value);
  return quoted ? quoted[2] : value;
}

/** The doc id Docusaurus gives a file: its path without extension. */
export function docId(relativePath: string): string {
  return relativePath.replace(/\.mdx?$/, '');
}

/** The URL path a docs file is served at under `routeBasePath`. */
export function docUrl(routeBasePath: string, source: DocSource): string {
  const base = `/${routeBasePath.replace(/^\/|\/$/g, '')}`;
  const slug = frontMatterField(source.text, 'slug');
  if (slug !== undefined) {
    if (!slug.startsWith('/')) {
      throw new Error(`${source.relativePath}: relative slugs are not used on this site; start "${slug}" with "/".`);
    }
    return `${base}${slug}`.replace(/\/$/, '');
  }
  return `${base}/${docId(source.relativePath)}`;
}
