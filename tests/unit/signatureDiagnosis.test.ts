/**
 * The signature debugger's engine (src/lib/signatureDiagnosis): it reproduces every published vector,
 * and from a crafted mismatch for each mistake the issue names it finds that mistake, and no other.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createPrivateKey, createPublicKey, X509Certificate} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {
  canonicalOf,
  diagnose,
  orderFindings,
  type Finding,
  generateKeyPair,
  KeyInputError,
  MessageInputError,
  parseRawRequest,
  parseRawResponse,
  partsOfRequest,
  partsOfResponse,
  readKey,
  type CauseId,
  type ReadKey,
  type SignedParts,
} from '../../src/lib/signatureDiagnosis';
import {bytesToBase64} from '../../src/lib/signing';
import {vectorDir, vectorFile, type Vector, type VectorFile} from '../../tooling/signingVectors';

const vectors = (JSON.parse(readFileSync(vectorFile, 'utf8')) as VectorFile).vectors;
const pem = (file: string) => readFileSync(path.join(vectorDir, file), 'utf8');
const merchantPrivatePem = pem('merchant-test-private.pem');
const merchant = readKey(merchantPrivatePem);
const merchantPublic = readKey(pem('merchant-test-public.pem'));
const provider = readKey(pem('provider-test-public.pem'));
const providerPrivate = readKey(pem('provider-test-private.pem'));

function vector(name: string): Vector {
  const found = vectors.find((candidate) => candidate.name === name);
  assert.ok(found, name);
  return found;
}

function partsOf(v: Vector): SignedParts {
  return v.kind === 'response'
    ? {
        kind: 'response',
        method: v.request.method,
        target: v.request.pathWithQuery,
        clientId: v.request.clientId,
        timestamp: v.response.timestamp,
        nonce: v.response.nonce,
        requestNonce: v.request.nonce,
        status: v.response.status,
        body: v.response.body,
      }
    : {
        kind: v.kind,
        method: v.request.method,
        target: v.request.pathWithQuery,
        clientId: v.request.clientId,
        timestamp: v.request.timestamp,
        nonce: v.request.nonce,
        body: v.request.body,
      };
}

async function sign(bytes: Uint8Array, key: ReadKey): Promise<string> {
  assert.ok(key.privateKey);
  return bytesToBase64(new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key.privateKey, new Uint8Array(bytes))));
}

const header = (signature: string, keyVersion = 1) => `algorithm=RSA-SHA256, keyVersion=${keyVersion}, signature=${signature}`;
const utf8 = (text: string) => new TextEncoder().encode(text);

async function check(
  parts: SignedParts,
  signatureHeader: string,
  options: {key?: ReadKey; keyVersion?: number; now?: Date; seen?: Map<string, string>} = {},
) {
  return diagnose({
    parts,
    signatureHeader,
    key: options.key ?? (await merchantPublic),
    ...(options.keyVersion === undefined ? {} : {keyVersion: options.keyVersion}),
    otherKeys: [{label: 'the published provider test key', publicKey: (await provider).publicKey}],
    now: options.now ?? new Date(Date.parse(parts.timestamp) + 1000),
    ...(options.seen ? {seenNonces: options.seen} : {}),
  });
}

/** What a verifier would refuse the message for: errors (the signature) and warnings (timestamp, nonce). */
const errorCauses = (findings: readonly {cause: CauseId; severity: string}[]) =>
  findings.filter((finding) => finding.severity !== 'info' && finding.cause !== 'key-format').map((finding) => finding.cause);

describe('signature debugger: the published vectors', () => {
  for (const v of vectors) {
    test(`${v.name}: the canonical string is the vector's, and the signature verifies with nothing to report`, async () => {
      const parts = partsOf(v);
      assert.equal(canonicalOf(parts), v.canonicalString);
      const key = v.signer === 'merchant' ? await merchantPublic : await provider;
      const diagnosis = await check(parts, v.signatureHeader, {key, keyVersion: v.keyVersion});
      assert.equal(diagnosis.verified, true);
      assert.deepEqual(diagnosis.findings, []);
    });
  }

  test('with the private key it computes the signature the message should carry', async () => {
    const v = vector('request-post');
    const diagnosis = await check(partsOf(v), header('AAAA'), {key: await merchant, keyVersion: 1});
    assert.equal(diagnosis.expectedSignature, v.signature);
    assert.equal(diagnosis.expectedHeader, v.signatureHeader);
    assert.equal(diagnosis.verified, false);
  });
});

describe('signature debugger: each mistake, from a crafted mismatch', () => {
  const post = vector('request-post');
  const nonAscii = vector('request-post-non-ascii');
  const get = vector('request-get-query');

  const cases: {
    name: string;
    cause: CauseId;
    make: () => Promise<{parts: SignedParts; signatureHeader: string; options?: Parameters<typeof check>[2]}>;
  }[] = [
    {
      name: 'a body re-serialised after signing (pretty-printed on sending)',
      cause: 'body-reserialised',
      make: async () => ({
        parts: {...partsOf(post), body: JSON.stringify(JSON.parse(post.request.body), null, 2)},
        signatureHeader: post.signatureHeader,
      }),
    },
    {
      name: 'a body with its members reordered',
      cause: 'body-reserialised',
      make: async () => {
        const parts = partsOf(post);
        // As Python's json.dumps(sort_keys=True) or a canonicalising library does: members sorted at every depth.
        const sortDeep = (value: unknown): unknown =>
          value !== null && typeof value === 'object'
            ? Object.fromEntries(
                Object.entries(value)
                  .sort(([a], [b]) => (a < b ? -1 : 1))
                  .map(([key, item]) => [key, sortDeep(item)]),
              )
            : value;
        const signed = {...parts, body: JSON.stringify(sortDeep(JSON.parse(post.request.body)))};
        return {parts, signatureHeader: header(await sign(utf8(canonicalOf(signed)), await merchant))};
      },
    },
    {
      name: 'a trailing line feed added to the body on sending',
      cause: 'trailing-newline',
      make: async () => ({parts: {...partsOf(post), body: `${post.request.body}\n`}, signatureHeader: post.signatureHeader}),
    },
    {
      name: 'a line feed after the last line of the canonical string',
      cause: 'trailing-newline',
      make: async () => ({parts: partsOf(post), signatureHeader: header(await sign(utf8(`${post.canonicalString}\n`), await merchant))}),
    },
    {
      name: 'lines joined with CRLF',
      cause: 'crlf',
      make: async () => ({
        parts: partsOf(post),
        signatureHeader: header(await sign(utf8(post.canonicalString.split('\n').join('\r\n')), await merchant)),
      }),
    },
    {
      name: 'the path signed without /v1',
      cause: 'path-without-v1',
      make: async () => ({
        parts: partsOf(post),
        signatureHeader: header(await sign(utf8(canonicalOf({...partsOf(post), target: '/orders'})), await merchant)),
      }),
    },
    {
      name: 'the query signed decoded (":" for %3A)',
      cause: 'query-reencoded',
      make: async () => {
        const parts = partsOf(get);
        assert.ok(parts.target.includes('%3A'), 'the GET vector has an encoded colon');
        return {
          parts,
          signatureHeader: header(await sign(utf8(canonicalOf({...parts, target: decodeURIComponent(parts.target)})), await merchant)),
        };
      },
    },
    {
      name: 'the canonical string signed as Latin-1, not UTF-8',
      cause: 'not-utf8',
      make: async () => {
        // A subject Latin-1 can hold, as a Java signer's getBytes() on a Windows-1252 platform encodes it.
        const parts = {
          ...partsOf(nonAscii),
          body: JSON.stringify({...(JSON.parse(nonAscii.request.body) as object), subject: 'Café Zürich, 2 × crème brûlée'}),
        };
        const text = canonicalOf(parts);
        assert.ok([...text].every((char) => char.charCodeAt(0) <= 0xff) && /[^ -~\t\n\r]/.test(text));
        return {parts, signatureHeader: header(await sign(Uint8Array.from([...text].map((char) => char.charCodeAt(0))), await merchant))};
      },
    },
    {
      name: 'a signature in base64url',
      cause: 'base64url',
      make: async () => ({
        parts: partsOf(post),
        signatureHeader: header(post.signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
      }),
    },
    {
      name: 'signed with another key (the provider test key)',
      cause: 'wrong-key',
      make: async () => ({parts: partsOf(post), signatureHeader: header(await sign(utf8(post.canonicalString), await providerPrivate))}),
    },
    {
      name: 'a keyVersion that is not the key given',
      cause: 'key-version',
      make: async () => ({parts: partsOf(post), signatureHeader: header(post.signature, 2), options: {keyVersion: 1}}),
    },
    {
      name: 'a timestamp with a UTC offset',
      cause: 'timestamp-format',
      make: async () => {
        const parts = {...partsOf(post), timestamp: '2025-06-01T10:30:00+02:00'};
        return {
          parts,
          signatureHeader: header(await sign(utf8(canonicalOf(parts)), await merchant)),
          options: {now: new Date('2025-06-01T08:30:01Z')},
        };
      },
    },
    {
      name: 'a timestamp outside the window',
      cause: 'timestamp-window',
      make: async () => ({
        parts: partsOf(post),
        signatureHeader: post.signatureHeader,
        options: {now: new Date(Date.parse(post.request.timestamp) + 3_600_000)},
      }),
    },
    {
      name: 'a nonce used before',
      cause: 'nonce-reused',
      make: async () => ({
        parts: partsOf(post),
        signatureHeader: post.signatureHeader,
        options: {seen: new Map([[post.request.nonce, 'checked earlier on this page']])},
      }),
    },
  ];
  for (const {name, cause, make} of cases) {
    test(`${name}: ${cause}`, async () => {
      const {parts, signatureHeader, options} = await make();
      const diagnosis = await check(parts, signatureHeader, options);
      assert.deepEqual(errorCauses(diagnosis.findings), [cause], JSON.stringify(diagnosis.findings, null, 1));
    });
  }

  test('a PKCS #1 private key is converted, said so, and signs as the PKCS #8 one does', async () => {
    const pkcs1 = createPrivateKey(merchantPrivatePem).export({type: 'pkcs1', format: 'pem'}).toString();
    assert.match(pkcs1, /BEGIN RSA PRIVATE KEY/);
    const key = await readKey(pkcs1);
    assert.equal(key.format, 'PKCS #1 private key');
    const v = vector('request-post');
    const diagnosis = await check(partsOf(v), v.signatureHeader, {key, keyVersion: 1});
    assert.equal(diagnosis.verified, true);
    assert.equal(diagnosis.expectedSignature, v.signature);
    assert.deepEqual(
      diagnosis.findings.map((finding) => [finding.cause, finding.severity]),
      [['key-format', 'warning']],
    );
  });

  test('a PKCS #1 public key is converted and verifies', async () => {
    const pkcs1 = createPublicKey(pem('merchant-test-public.pem')).export({type: 'pkcs1', format: 'pem'}).toString();
    const key = await readKey(pkcs1);
    assert.equal(key.format, 'PKCS #1 public key');
    const v = vector('request-post');
    assert.equal((await check(partsOf(v), v.signatureHeader, {key})).verified, true);
  });
});

describe('signature debugger: bad input gets a clear message', () => {
  const refusals: {name: string; text: string; says: RegExp}[] = [
    {name: 'not a PEM', text: 'hello', says: /not a PEM key/},
    {name: 'no END line', text: '-----BEGIN PUBLIC KEY-----\nMIIB', says: /no matching END line/},
    {name: 'an encrypted key', text: '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----', says: /encrypted/},
    {name: 'a damaged body', text: '-----BEGIN PUBLIC KEY-----\nMII*B\n-----END PUBLIC KEY-----', says: /not base64/},
    {
      name: 'a body that is not a key',
      text: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
      says: /could not be read as an RSA key/,
    },
    {name: 'an EC key', text: '-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----', says: /not an RSA key/},
  ];
  for (const {name, text, says} of refusals) {
    test(`key: ${name}`, async () => {
      await assert.rejects(readKey(text), (error: Error) => error instanceof KeyInputError && says.test(error.message));
    });
  }

  test('key: a certificate is refused with the command that extracts its key', async () => {
    // A self-signed certificate is not at hand without openssl; its label is what matters.
    assert.equal(typeof X509Certificate, 'function');
    await assert.rejects(readKey('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'), /x509 -pubkey/);
  });

  test('messages: a missing start line, a header without a colon, a response without a status', () => {
    assert.throws(
      () => parseRawRequest(''),
      (error: Error) => error instanceof MessageInputError && /Paste the request/.test(error.message),
    );
    assert.throws(() => parseRawRequest('GET'), /first line of the request/);
    assert.throws(() => parseRawRequest('POST /v1/orders HTTP/1.1\nX-Client-Id sandbox\n\n{}'), /Line 2 of the request is not a header/);
    assert.throws(() => parseRawResponse('200 OK\n\n{}'), /HTTP\/1.1 200 OK/);
  });

  test('messages: a raw request and response read back to the vector parts, CRLF head and all', () => {
    const v = vector('response-success');
    assert.equal(v.kind, 'response');
    if (v.kind !== 'response') return;
    const request = parseRawRequest(
      `${v.request.method} https://sandbox-api.example.com${v.request.pathWithQuery} HTTP/1.1\r\nHost: sandbox-api.example.com\r\nX-Client-Id: ${v.request.clientId}\r\nX-Timestamp: ${v.request.timestamp}\r\nX-Nonce: ${v.request.nonce}\r\n\r\n${v.request.body}`,
    );
    const response = parseRawResponse(
      `HTTP/1.1 ${v.response.status} OK\nX-Timestamp: ${v.response.timestamp}\nX-Nonce: ${v.response.nonce}\nX-Signature: ${v.signatureHeader}\n\n${v.response.body}`,
    );
    assert.equal(canonicalOf(partsOfResponse(request, response)), v.canonicalString);
    assert.equal(request.notes.length, 1, 'the full URL is noted');
    assert.equal(canonicalOf(partsOfRequest('request', request)), vector('request-post').canonicalString);
  });
});

describe('signature debugger: key pair generator', () => {
  test('makes a PKCS #8 and SPKI pair that signs and verifies', async () => {
    const pair = await generateKeyPair();
    assert.match(pair.privateKeyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    assert.match(pair.publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n/);
    const privateKey = await readKey(pair.privateKeyPem);
    const publicKey = await readKey(pair.publicKeyPem);
    const parts = partsOf(vector('request-post'));
    const signature = await sign(utf8(canonicalOf(parts)), privateKey);
    const diagnosis = await check(parts, header(signature), {key: publicKey});
    assert.equal(diagnosis.verified, true);
    assert.equal(createPublicKey(pair.publicKeyPem).asymmetricKeyDetails?.modulusLength, 2048);
  });
});

describe('signature debugger: findings ordered by likelihood', () => {
  const post = vector('request-post');

  test('a re-serialised body is named first, before the stale timestamp and the reused nonce of the same message', async () => {
    const parts = {...partsOf(post), body: JSON.stringify(JSON.parse(post.request.body), null, 2)};
    const diagnosis = await check(parts, post.signatureHeader, {
      now: new Date(Date.parse(post.request.timestamp) + 46_900_000_000),
      seen: new Map([[post.request.nonce, 'on another message checked on this page']]),
    });
    assert.equal(diagnosis.verified, false);
    assert.deepEqual(
      diagnosis.findings.map((finding) => [finding.cause, finding.severity]),
      [
        ['body-reserialised', 'error'],
        ['timestamp-window', 'warning'],
        ['nonce-reused', 'warning'],
      ],
    );
  });

  test('a stale but correctly signed message verifies, with the timestamp as a warning and no error', async () => {
    const diagnosis = await check(partsOf(post), post.signatureHeader, {
      now: new Date(Date.parse(post.request.timestamp) + 46_900_000_000),
    });
    assert.equal(diagnosis.verified, true);
    assert.deepEqual(
      diagnosis.findings.map((finding) => [finding.cause, finding.severity]),
      [['timestamp-window', 'warning']],
    );
  });

  test('orderFindings puts a mismatch cause before header, key, timestamp and nonce findings, whatever the input order', () => {
    const make = (cause: CauseId, severity: Finding['severity'] = 'error'): Finding => ({cause, severity, message: cause});
    const expected: CauseId[] = [
      'crlf',
      'signature-header',
      'key-version',
      'timestamp-format',
      'timestamp-window',
      'nonce-reused',
      'key-format',
    ];
    const shuffled = [
      make('key-format', 'warning'),
      make('nonce-reused', 'warning'),
      make('timestamp-window', 'warning'),
      make('crlf'),
      make('timestamp-format'),
      make('key-version'),
      make('signature-header'),
    ];
    assert.deepEqual(
      orderFindings(shuffled).map((finding) => finding.cause),
      expected,
    );
    assert.deepEqual(
      orderFindings([...shuffled].reverse()).map((finding) => finding.cause),
      expected,
    );
  });
});
