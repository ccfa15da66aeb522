/**
 * The signature debugger's engine: given a signed request, response or notification and a key, it builds
 * the canonical string exactly as the contract specifies, says whether the signature verifies and, when it
 * does not, finds the likely cause by trying the mistakes signers make (a re-serialised body, a trailing
 * line feed, CRLF, the path without /v1, a re-encoded query, bytes that are not UTF-8, base64url, another
 * key) and seeing which one the signature matches. It also checks what verification alone does not: the
 * timestamp's format and window, a reused nonce, the key version. Pure TypeScript on WebCrypto: it runs in
 * the reader's browser, and nothing leaves it.
 */
import {base64ToBytes, bytesToBase64, timestampPattern, timestampWindowSeconds} from '../signing';
import type {ReadKey} from './pem';

export {generateKeyPair, readKey, KeyInputError, type ReadKey} from './pem';
export {parseRawRequest, parseRawResponse, MessageInputError, type RawRequest, type RawResponse} from './httpMessage';

export type MessageKind = 'request' | 'response' | 'notification';

/** What the signature covers, as read from the message (no check made yet). */
export interface SignedParts {
  readonly kind: MessageKind;
  readonly method: string;
  /** The request target (for a notification, the path of the notifyUrl). */
  readonly target: string;
  readonly clientId: string;
  /** The message's own X-Timestamp and X-Nonce (a response's, for a response). */
  readonly timestamp: string;
  readonly nonce: string;
  /** Responses: the X-Nonce of the request answered, and the HTTP status. */
  readonly requestNonce?: string;
  readonly status?: number;
  readonly body: string;
}

export type CauseId =
  | 'signature-header'
  | 'base64url'
  | 'body-reserialised'
  | 'trailing-newline'
  | 'crlf'
  | 'path-without-v1'
  | 'query-reencoded'
  | 'not-utf8'
  | 'wrong-key'
  | 'key-version'
  | 'timestamp-format'
  | 'timestamp-window'
  | 'nonce-format'
  | 'nonce-reused'
  | 'key-format'
  | 'message';

export interface Finding {
  readonly cause: CauseId;
  /**
   * error: the signature or what it covers is wrong, so no verifier accepts it; warning: the signature is
   * right but a verifier would refuse the message as it stands (an old timestamp, a nonce seen before) or
   * another one may (a key that had to be converted); info: worth knowing.
   */
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
}

export interface DiagnoseInput {
  readonly parts: SignedParts;
  /** The X-Signature header as received. */
  readonly signatureHeader: string;
  readonly key: ReadKey;
  /** The version of the pasted key, when the reader knows it. */
  readonly keyVersion?: number;
  /** Other keys a signer may have used by mistake, such as the published test keys. */
  readonly otherKeys?: readonly {readonly label: string; readonly publicKey: CryptoKey}[];
  readonly now: Date;
  /** Nonces already checked in this session, with where they were seen. */
  readonly seenNonces?: ReadonlyMap<string, string>;
}

export interface Diagnosis {
  /** The canonical string as the contract defines it, for this message. */
  readonly canonical: string;
  readonly keyVersion?: number;
  /** Whether the given signature verifies over the canonical string with the key. */
  readonly verified: boolean;
  /** With a private key: the signature and header the message should carry. */
  readonly expectedSignature?: string;
  readonly expectedHeader?: string;
  /** Most likely cause first (see `orderFindings`); the cause found, if any, is among them. */
  readonly findings: readonly Finding[];
}

const rsa = 'RSASSA-PKCS1-v1_5';

/**
 * Causes from the most to the least likely reason a message is refused. A cause the signature itself
 * proves (it verifies over the mistaken bytes) comes first: it explains the mismatch; then what breaks the
 * header or the key; then what verification alone does not check (timestamp, nonce), which a reader who
 * re-checks an old message meets without any fault in the signer.
 */
const likelihood: readonly CauseId[] = [
  'body-reserialised',
  'trailing-newline',
  'crlf',
  'path-without-v1',
  'query-reencoded',
  'not-utf8',
  'base64url',
  'signature-header',
  'key-version',
  'wrong-key',
  'timestamp-format',
  'nonce-format',
  'timestamp-window',
  'nonce-reused',
  'key-format',
  'message',
];

/** Findings ordered by likelihood (`likelihood`), the most likely cause first; stable for equal causes. */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  const rank = (finding: Finding) => likelihood.indexOf(finding.cause);
  return [...findings].sort((a, b) => rank(a) - rank(b));
}

/** The canonical string's lines, in the contract's order. */
function lines(parts: SignedParts): string[] {
  return parts.kind === 'response'
    ? [
        parts.method,
        parts.target,
        parts.clientId,
        parts.timestamp,
        parts.nonce,
        parts.requestNonce ?? '',
        String(parts.status ?? ''),
        parts.body,
      ]
    : [parts.method, parts.target, parts.clientId, parts.timestamp, parts.nonce, parts.body];
}

/** The canonical string: the lines joined by "\n", no line feed after the last. */
export function canonicalOf(parts: SignedParts): string {
  return lines(parts).join('\n');
}

/** A mistake a signer can make, as the bytes it would then have signed. */
interface Variant {
  readonly cause: CauseId;
  readonly message: string;
  readonly bytes: Uint8Array<ArrayBuffer>;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Latin-1 bytes, or undefined when a character does not fit in one byte. */
function latin1(text: string): Uint8Array<ArrayBuffer> | undefined {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0xff) return undefined;
    bytes[index] = code;
  }
  return bytes;
}

function utf16le(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index += 1) {
    bytes[index * 2] = text.charCodeAt(index) & 0xff;
    bytes[index * 2 + 1] = text.charCodeAt(index) >> 8;
  }
  return bytes;
}

/** JSON text of a value with object members sorted by name. */
function sortedJson(value: unknown, indent?: number): string {
  const sort = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(sort)
      : item !== null && typeof item === 'object'
        ? Object.fromEntries(
            Object.entries(item)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([key, inner]) => [key, sort(inner)]),
          )
        : item;
  return JSON.stringify(sort(value), null, indent);
}

/** Ways a JSON body gets re-serialised between signing and sending (or the other way round). */
function reserialisedBodies(body: string): {text: string; how: string}[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const compact = JSON.stringify(parsed);
  const candidates = [
    {text: compact, how: 'compact JSON (whitespace removed)'},
    {text: JSON.stringify(parsed, null, 2), how: 'pretty-printed JSON, 2 spaces'},
    {text: JSON.stringify(parsed, null, 4), how: 'pretty-printed JSON, 4 spaces'},
    {text: sortedJson(parsed), how: 'JSON with its members sorted by name'},
    {text: sortedJson(parsed, 2), how: 'pretty-printed JSON with its members sorted by name'},
    {
      text: compact.replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
      how: 'JSON with non-ASCII characters escaped as \\uXXXX',
    },
    {text: compact.replace(/\//g, '\\/'), how: 'JSON with "/" escaped as "\\/" (PHP json_encode without JSON_UNESCAPED_SLASHES)'},
    {text: compact.replace(/":/g, '": ').replace(/,"/g, ', "'), how: 'JSON with a space after ":" and "," (Python json.dumps defaults)'},
  ];
  return candidates.filter(
    (candidate, index) => candidate.text !== body && candidates.findIndex((other) => other.text === candidate.text) === index,
  );
}

/** Ways a request target gets changed between signing and sending. */
function targetVariants(target: string): {text: string; cause: CauseId; message: string}[] {
  const variants: {text: string; cause: CauseId; message: string}[] = [];
  if (target.startsWith('/v1/')) {
    variants.push({
      text: target.slice(3),
      cause: 'path-without-v1',
      message: `The signer left /v1 out of the path: it signed ${target.slice(3)}. Sign the full request target, ${target}, with the server's /v1.`,
    });
  } else {
    variants.push({
      text: `/v1${target}`,
      cause: 'path-without-v1',
      message: `The request was signed as /v1${target} but sent to ${target}: the two must be the same, with /v1.`,
    });
  }
  const question = target.indexOf('?');
  if (question >= 0) {
    const path = target.slice(0, question);
    const pairs = target
      .slice(question + 1)
      .split('&')
      .map((pair) => pair.split('='));
    const decode = (text: string) => {
      try {
        return decodeURIComponent(text.replace(/\+/g, ' '));
      } catch {
        return text;
      }
    };
    const rebuild = (map: (text: string) => string, sort = false) => {
      const list = pairs.map(([name = '', value]) => (value === undefined ? map(name) : `${map(name)}=${map(value)}`));
      if (sort) list.sort();
      return `${path}?${list.join('&')}`;
    };
    const query = [
      {text: rebuild(decode), message: 'the query decoded (for example ":" instead of %3A)'},
      {
        text: rebuild((text) => encodeURIComponent(decode(text)).replace(/%20/g, '+')),
        message: 'the query re-encoded as a form (spaces as "+", ":" as %3A)',
      },
      {
        text: rebuild((text) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())),
        message: 'the query with lower-case percent escapes',
      },
      {text: rebuild((text) => text, true), message: 'the query parameters sorted by name'},
      {
        text: rebuild((text) => encodeURIComponent(decode(text))),
        message: "the query re-encoded by encodeURIComponent (which leaves !'()* as they are)",
      },
    ];
    for (const variant of query) {
      if (variant.text !== target)
        variants.push({
          text: variant.text,
          cause: 'query-reencoded',
          message: `The signer signed ${variant.message}: ${variant.text}. Sign the query exactly as it is sent, ${target.slice(question)}.`,
        });
    }
  }
  return variants;
}

function variants(parts: SignedParts): Variant[] {
  const canonical = canonicalOf(parts);
  const found: Variant[] = [];
  const add = (cause: CauseId, message: string, text: string) => found.push({cause, message, bytes: utf8(text)});
  if (parts.body.endsWith('\n')) {
    add(
      'trailing-newline',
      'The body you pasted ends with a line feed that was not signed: the signer signed it without, or something (a file, a heredoc, an HTTP library) added one on sending.',
      canonicalOf({...parts, body: parts.body.replace(/\r?\n$/, '')}),
    );
  }
  add(
    'trailing-newline',
    'The signer signed the body with a line feed at the end that was not sent.',
    canonicalOf({...parts, body: `${parts.body}\n`}),
  );
  add(
    'trailing-newline',
    'The signer put a line feed after the last line of the canonical string. There is none after the body (and for an empty body the string ends with the line feed after the nonce).',
    `${canonical}\n`,
  );
  add(
    'crlf',
    'The signer joined the lines of the canonical string with CRLF ("\\r\\n"); the contract joins them with LF ("\\n") only.',
    lines(parts).join('\r\n'),
  );
  if (parts.body.includes('\n') && !parts.body.includes('\r\n')) {
    add(
      'crlf',
      'The body was signed with CRLF line ends and sent with LF (or the other way round): a text-mode file or a Windows tool changed them.',
      canonicalOf({...parts, body: parts.body.replace(/\n/g, '\r\n')}),
    );
  }
  if (parts.body.includes('\r\n')) {
    add(
      'crlf',
      'The body was sent with CRLF line ends that were not signed.',
      canonicalOf({...parts, body: parts.body.replace(/\r\n/g, '\n')}),
    );
  }
  // After the line-end mistakes, which a re-serialisation (that drops a final line feed) would mask.
  for (const body of reserialisedBodies(parts.body)) {
    add(
      'body-reserialised',
      `The body was re-serialised between signing and sending: the signature matches ${body.how}. Sign the exact bytes you send, and send the string you signed (never serialise the object a second time).`,
      canonicalOf({...parts, body: body.text}),
    );
  }
  for (const target of targetVariants(parts.target)) add(target.cause, target.message, canonicalOf({...parts, target: target.text}));
  const asLatin1 = latin1(canonical);
  if (asLatin1 && /[^ -~\t\n\r]/.test(canonical)) {
    found.push({
      cause: 'not-utf8',
      message:
        'The signer encoded the canonical string as Latin-1 (ISO-8859-1 or Windows-1252), not UTF-8: in Java, getBytes() with the platform charset; in PHP, utf8_decode. Sign its UTF-8 bytes.',
      bytes: asLatin1,
    });
  }
  if (/[^ -~\t\n\r]/.test(canonical)) {
    found.push({
      cause: 'not-utf8',
      message:
        'The signer signed the UTF-16 code units of the string, not its UTF-8 bytes (in .NET, Encoding.Unicode). Sign its UTF-8 bytes.',
      bytes: utf16le(canonical),
    });
    const doubled = new TextDecoder('latin1').decode(utf8(canonical));
    add(
      'not-utf8',
      'The text was encoded to UTF-8 twice (mojibake such as "Ã©" for "é"): somewhere a UTF-8 string was read as Latin-1 before signing.',
      doubled,
    );
  }
  return found;
}

async function verifyBytes(publicKey: CryptoKey, signature: Uint8Array<ArrayBuffer>, bytes: Uint8Array<ArrayBuffer>): Promise<boolean> {
  try {
    return await crypto.subtle.verify(rsa, publicKey, signature, bytes);
  } catch {
    return false;
  }
}

/** Reads the X-Signature header leniently, so that a base64url signature or an odd separator can be diagnosed. */
function readHeader(value: string): {keyVersion?: number; algorithm?: string; signature?: string; problems: string[]} {
  const problems: string[] = [];
  const parts = new Map<string, string>();
  for (const part of value.split(/[,;]/)) {
    const separator = part.indexOf('=');
    if (separator < 1) {
      if (part.trim() !== '') problems.push(`"${part.trim().slice(0, 40)}" is not a name=value pair.`);
      continue;
    }
    parts.set(part.slice(0, separator).trim(), part.slice(separator + 1).trim());
  }
  if (value.includes(';')) problems.push('The parts of X-Signature are separated by ", " (a comma and a space), not ";".');
  const algorithm = parts.get('algorithm');
  if (algorithm !== 'RSA-SHA256') problems.push(`algorithm must be RSA-SHA256, got "${algorithm ?? ''}".`);
  const version = parts.get('keyVersion');
  const keyVersion = version !== undefined && /^[1-9][0-9]*$/.test(version) ? Number(version) : undefined;
  if (keyVersion === undefined) problems.push(`keyVersion must be a positive whole number, got "${version ?? ''}".`);
  const signature = parts.get('signature');
  if (!signature) problems.push('The header has no signature=...');
  return {
    ...(keyVersion === undefined ? {} : {keyVersion}),
    ...(algorithm === undefined ? {} : {algorithm}),
    ...(signature === undefined ? {} : {signature}),
    problems,
  };
}

/** Checks a message and its signature; see the module comment. */
export async function diagnose(input: DiagnoseInput): Promise<Diagnosis> {
  const {parts, key} = input;
  const findings: Finding[] = [];
  const canonical = canonicalOf(parts);
  const header = readHeader(input.signatureHeader);
  for (const problem of header.problems) findings.push({cause: 'signature-header', severity: 'error', message: `X-Signature: ${problem}`});
  for (const note of key.notes) findings.push({cause: 'key-format', severity: 'warning', message: note});

  // What verification does not check: the timestamp, the nonce, the key version.
  if (!timestampPattern.test(parts.timestamp) || Number.isNaN(Date.parse(parts.timestamp))) {
    const offset = /[+-]\d{2}:?\d{2}$/.test(parts.timestamp)
      ? ' It carries a UTC offset: convert to UTC and write Z.'
      : /\.\d+Z$/.test(parts.timestamp)
        ? ' It has fractions of a second: drop them.'
        : '';
    findings.push({
      cause: 'timestamp-format',
      severity: 'error',
      message: `X-Timestamp "${parts.timestamp}" is not UTC in the one format the API takes, YYYY-MM-DDTHH:MM:SSZ.${offset}`,
    });
  } else {
    const skew = Math.round((input.now.getTime() - Date.parse(parts.timestamp)) / 1000);
    if (Math.abs(skew) > timestampWindowSeconds) {
      findings.push({
        cause: 'timestamp-window',
        severity: 'warning',
        message: `X-Timestamp is ${Math.abs(skew).toLocaleString('en')} s ${skew > 0 ? 'behind' : 'ahead of'} this browser's clock, outside the ${timestampWindowSeconds} s window: it would be refused (TIMESTAMP_OUT_OF_WINDOW). Make a new timestamp for every request and retry, and keep the clock in sync (NTP).`,
      });
    }
  }
  if (!/^[A-Za-z0-9-]{16,64}$/.test(parts.nonce)) {
    findings.push({
      cause: 'nonce-format',
      severity: 'error',
      message: `X-Nonce must be 16 to 64 letters, digits or hyphens, such as a UUID; got "${parts.nonce.slice(0, 70)}".`,
    });
  }
  const seen = input.seenNonces?.get(parts.nonce);
  if (seen !== undefined) {
    findings.push({
      cause: 'nonce-reused',
      severity: 'warning',
      message: `X-Nonce ${parts.nonce} was already used (${seen}). A verifier refuses a nonce it has seen in the last ${2 * timestampWindowSeconds} s: make a new one for every message, including retries.`,
    });
  }
  if (header.keyVersion !== undefined && input.keyVersion !== undefined && header.keyVersion !== input.keyVersion) {
    findings.push({
      cause: 'key-version',
      severity: 'error',
      message: `X-Signature names keyVersion ${header.keyVersion}, but the key you gave is version ${input.keyVersion}: a verifier looks the key up by the header's version, so it uses another key (or none).`,
    });
  }

  // The signature, as sent and then as the usual mistakes would have made it.
  let verified = false;
  if (header.signature !== undefined) {
    let signature: Uint8Array<ArrayBuffer> | undefined;
    const base64url =
      /[-_]/.test(header.signature) || !/^[A-Za-z0-9+/]+={0,2}$/.test(header.signature) || header.signature.length % 4 !== 0;
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(header.signature) && header.signature.length % 4 === 0) signature = base64ToBytes(header.signature);
    if (signature) verified = await verifyBytes(key.publicKey, signature, utf8(canonical));
    if (!verified && base64url && /^[A-Za-z0-9_+/-]+=*$/.test(header.signature)) {
      const standard = header.signature.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
      const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
      try {
        signature = base64ToBytes(padded);
      } catch {
        signature = undefined;
      }
      if (signature && (await verifyBytes(key.publicKey, signature, utf8(canonical)))) {
        findings.push({
          cause: 'base64url',
          severity: 'error',
          message:
            'The signature is base64url ("-" and "_", no "=" padding), not standard base64: it verifies once converted, but the API refuses it. Encode with standard base64 (+, / and = padding).',
        });
      }
    } else if (!signature) {
      findings.push({cause: 'signature-header', severity: 'error', message: 'The signature is not base64.'});
    }
    if (!verified && signature && !findings.some((finding) => finding.cause === 'base64url')) {
      let cause: Variant | undefined;
      for (const variant of variants(parts)) {
        if (await verifyBytes(key.publicKey, signature, variant.bytes)) {
          cause = variant;
          break;
        }
      }
      if (cause) findings.push({cause: cause.cause, severity: 'error', message: cause.message});
      else {
        const other = await firstMatching(input.otherKeys ?? [], signature, utf8(canonical));
        if (other)
          findings.push({
            cause: 'wrong-key',
            severity: 'error',
            message: `The signature was made with ${other}, not with the key you gave. Check which private key the signer loads, and that keyVersion names the key the verifier has.`,
          });
        else {
          findings.push({
            cause: 'wrong-key',
            severity: 'error',
            message: `The signature does not verify, and none of the usual mistakes explains it. Most likely it was made with another key (check that keyVersion ${header.keyVersion ?? '?'} names the public key you pasted), or a signed field differs from the message: compare the signer's canonical string line by line with the one above.`,
          });
        }
      }
    }
  }
  let expectedSignature: string | undefined;
  if (key.privateKey) expectedSignature = bytesToBase64(new Uint8Array(await crypto.subtle.sign(rsa, key.privateKey, utf8(canonical))));
  return {
    canonical,
    ...(header.keyVersion === undefined ? {} : {keyVersion: header.keyVersion}),
    verified,
    ...(expectedSignature === undefined
      ? {}
      : {
          expectedSignature,
          expectedHeader: `algorithm=RSA-SHA256, keyVersion=${input.keyVersion ?? header.keyVersion ?? 1}, signature=${expectedSignature}`,
        }),
    findings: orderFindings(findings),
  };
}

async function firstMatching(
  keys: readonly {label: string; publicKey: CryptoKey}[],
  signature: Uint8Array<ArrayBuffer>,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<string | undefined> {
  for (const candidate of keys) if (await verifyBytes(candidate.publicKey, signature, bytes)) return candidate.label;
  return undefined;
}

/** The signed parts of a parsed request or notification, from its start line and headers. */
export function partsOfRequest(
  kind: 'request' | 'notification',
  request: {method: string; target: string; headers: ReadonlyMap<string, string>; body: string},
): SignedParts {
  return {
    kind,
    method: request.method,
    target: request.target,
    clientId: request.headers.get('x-client-id') ?? '',
    timestamp: request.headers.get('x-timestamp') ?? '',
    nonce: request.headers.get('x-nonce') ?? '',
    body: request.body,
  };
}

/** The signed parts of a parsed response and the request it answers. */
export function partsOfResponse(
  request: {method: string; target: string; headers: ReadonlyMap<string, string>},
  response: {status: number; headers: ReadonlyMap<string, string>; body: string},
): SignedParts {
  return {
    kind: 'response',
    method: request.method,
    target: request.target,
    clientId: request.headers.get('x-client-id') ?? '',
    timestamp: response.headers.get('x-timestamp') ?? '',
    nonce: response.headers.get('x-nonce') ?? '',
    requestNonce: request.headers.get('x-nonce') ?? '',
    status: response.status,
    body: response.body,
  };
}
