/**
 * The files the portal publishes for download (built with the site by plugins/content/downloads): the
 * local sandbox and the MCP server, each one JavaScript file that runs with Node.js alone, and a
 * checksum file. Pages, llms.txt and the tools' own --help name them from here.
 */
import {brand} from '../brand';

/** The brand's first word, lower case: "veloxa". */
const prefix = (brand.name.split(/\s+/)[0] ?? 'portal').toLowerCase();

export interface Download {
  /** The file name under /downloads/. */
  readonly file: string;
  /** What it is, as --version and --help print it. */
  readonly title: string;
}

export const downloadsPath = '/downloads/';

export const downloads = {
  sandbox: {file: `${prefix}-sandbox.mjs`, title: `${brand.name} local sandbox`},
  mcp: {file: `${prefix}-mcp.mjs`, title: `${brand.name} MCP server`},
} as const satisfies Record<string, Download>;

/** SHA-256 of each download, in the format `sha256sum -c` reads. */
export const checksumsFile = 'SHA256SUMS.txt';

/** The full URL of a download on the published portal. */
export const downloadUrl = (file: string): string => `https://${brand.hosts.portal}${downloadsPath}${file}`;

/** What `--version` prints: the file's name, what it is, and the API contract version it carries. */
export const versionLine = (download: Download, contractVersion: string): string =>
  `${download.file} (${download.title}), API contract ${contractVersion}`;
