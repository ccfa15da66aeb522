import type {JsonValue} from '../../contract/openapiTypes';
import {
  compactJson,
  notificationApplied,
  notificationRejected,
  providerKeysComment,
  providerKeysMissing,
  rejection,
  responseRejected,
  sampleEnvironment as env,
  signatureHeaderPattern,
  generatedValueComment,
  splitGenerated,
  timestampPattern,
  windowSeconds,
  nonceSeconds,
  type GeneratedValue,
  type LanguageTemplate,
  type SampleInput,
} from './types';
import {testKeyComment, testMerchant} from './testMerchant';

/** A string as a single-quoted TypeScript literal. */
function tsString(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** A string of the example body: a literal, the variable itself, or a template literal around it. */
function tsText(text: string, generated: readonly GeneratedValue[]): string {
  const pieces = splitGenerated(text, generated);
  const [only] = pieces;
  if (pieces.length === 1 && only && 'variable' in only) return only.variable.field;
  if (pieces.every((piece) => 'text' in piece)) return tsString(text);
  const parts = pieces.map((piece) =>
    'variable' in piece
      ? `\${${piece.variable.field}}`
      : JSON.stringify(piece.text)
          .slice(1, -1)
          .replace(/\\"/g, '"')
          .replace(/`|\$\{/g, '\\$&'),
  );
  return `\`${parts.join('')}\``;
}

/** A JSON value as a TypeScript expression, indented to sit inside the sample. */
function tsLiteral(value: JsonValue, indent: string, generated: readonly GeneratedValue[]): string {
  if (typeof value === 'string') return tsText(value, generated);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${tsLiteral(item, inner, generated)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item]) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : tsString(key);
    const rendered = tsLiteral(item, inner, generated);
    return rendered === key ? `${inner}${key},` : `${inner}${name}: ${rendered},`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

const parseProviderKeys = `(text: string) =>
  new Map(
    text.split(',').map((entry) => {
      const [version = '', file = ''] = entry.split('=');
      return [version, readFileSync(file, 'utf8')] as const;
    }),
  )`;

/** A notification handler's provider keys: configured, never a default. */
const providerKeys = `// ${providerKeysComment(false).join('\n// ')}
if (!process.env.${env.providerKeys.name}) throw new Error('${providerKeysMissing}');
const providerKeys = (${parseProviderKeys})(process.env.${env.providerKeys.name});
const signaturePattern = /${signatureHeaderPattern}/;`;

/** A request sample's keys: configured, or the shared test merchant's published ones. */
const requestKeys = `// ${testKeyComment.join('\n// ')}
const testMerchantPrivateKey = \`${testMerchant.privateKeyPem}\`;
const testProviderPublicKey = \`${testMerchant.providerPublicKeyPem}\`;

const privateKeyPath = process.env.${env.privateKey.name};
const privateKey = privateKeyPath ? readFileSync(privateKeyPath, 'utf8') : testMerchantPrivateKey;
const keyVersion = process.env.${env.keyVersion.name} ?? '${env.keyVersion.default}';
// ${providerKeysComment(true).join('\n// ')}
const configuredProviderKeys = process.env.${env.providerKeys.name};
if (!configuredProviderKeys && clientId !== '${testMerchant.clientId}') throw new Error('${providerKeysMissing}');
const providerKeys = configuredProviderKeys
  ? (${parseProviderKeys.replace(/\n/g, '\n  ')})(configuredProviderKeys)
  : new Map([['${testMerchant.providerKeyVersion}', testProviderPublicKey]]);
const signaturePattern = /${signatureHeaderPattern}/;`;

const isFresh = `/** True for a YYYY-MM-DDTHH:MM:SSZ timestamp within ${windowSeconds} s of this clock, either way. */
function isFresh(timestamp: string): boolean {
  return /${timestampPattern}/.test(timestamp) && Math.abs(Date.now() - Date.parse(timestamp)) <= ${windowSeconds}_000;
}`;

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  const numbers = input.generated
    .map(
      (value) => `  // ${generatedValueComment(value)}
  const ${value.field} = ${
    value.kind === 'merchantNumber'
      ? `\`${value.prefix}-\${Date.now()}-\${randomBytes(3).toString('hex')}\``
      : `new Date(Date.now() + ${value.hoursAhead} * 3_600_000).toISOString().replace(/\\.\\d{3}Z$/, 'Z')`
  };\n`,
    )
    .join('');
  const pathNote = input.pathParameters.length ? `; ${input.pathParameters.join(', ')}: the contract's example, use yours` : '';
  const cryptoImports = [
    'createSign',
    'createVerify',
    ...(input.generated.some((value) => value.kind === 'merchantNumber') ? ['randomBytes'] : []),
    'randomUUID',
  ];
  return `// ${input.summary}. Node.js 18+; run with: npx tsx ${input.operationId}.ts
import {${cryptoImports.join(', ')}} from 'node:crypto';
import {readFileSync} from 'node:fs';

const host = process.env.${env.host.name} ?? '${env.host.default}';
const clientId = process.env.${env.clientId.name} ?? '${env.clientId.default}';
${requestKeys}

async function main(): Promise<void> {
${numbers}  const method = '${input.method}';
  const target = ${tsString(input.requestTarget)}; // path and query exactly as sent${pathNote}
  const body = ${hasBody ? `JSON.stringify(${tsLiteral(input.body ?? null, '  ', input.generated)});` : "''; // no body: the canonical string ends with an empty line"}
  const timestamp = new Date().toISOString().replace(/\\.\\d{3}Z$/, 'Z'); // YYYY-MM-DDTHH:MM:SSZ
  const nonce = randomUUID();

  // Canonical string: method, target, client ID, timestamp, nonce, body; signed as UTF-8.
  const canonical = [method, target, clientId, timestamp, nonce, body].join('\\n');
  const signature = createSign('RSA-SHA256').update(canonical, 'utf8').sign(privateKey, 'base64');

  const response = await fetch(host + target, {
    method,
    headers: {${hasBody ? `\n      'Content-Type': 'application/json',` : ''}
      'X-Client-Id': clientId,
      'X-Timestamp': timestamp,
      'X-Nonce': nonce,
      'X-Signature': \`algorithm=RSA-SHA256, keyVersion=\${keyVersion}, signature=\${signature}\`,
    },${hasBody ? '\n    body,' : ''}
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text(); // the raw body: verify it before parsing
  const problem = responseProblem(response, text, [method, target, clientId], nonce);
  if (problem) throw new Error(\`${responseRejected}: \${problem}\`);

  const result = JSON.parse(text) as {code: string; message: string; requestId: string; data?: unknown};
  if (result.code !== 'SUCCESS') {
    throw new Error(\`\${result.code}: \${result.message} (request \${result.requestId})\`);
  }
  console.log(JSON.stringify(result.data, null, 2));
}

/** Why the response is not the provider's answer to this request, or undefined when it is. */
function responseProblem(response: Response, text: string, request: string[], requestNonce: string): string | undefined {
  const header = signaturePattern.exec(response.headers.get('X-Signature') ?? '');
  if (!header) return '${rejection.signatureHeader}';
  const publicKey = providerKeys.get(header[1] ?? '');
  if (!publicKey) return \`${rejection.keyVersion} \${header[1]}\`;
  const timestamp = response.headers.get('X-Timestamp') ?? '';
  if (!isFresh(timestamp)) return '${rejection.timestamp}';
  // Your request's method, target and client ID; the response's timestamp and nonce; your request's nonce;
  // the status as three digits; the raw body. Binding your nonce means no other request's response verifies.
  const canonical = [...request, timestamp, response.headers.get('X-Nonce') ?? '', requestNonce, String(response.status), text].join('\\n');
  const valid = createVerify('RSA-SHA256').update(canonical, 'utf8').verify(publicKey, header[2] ?? '', 'base64');
  return valid ? undefined : '${rejection.signature}';
}

${isFresh}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return `// Receive the ${input.summary}. Node.js 18+; run with: npx tsx ${input.operationId}.ts
import {createServer, type IncomingHttpHeaders} from 'node:http';
import {createVerify} from 'node:crypto';
import {readFileSync} from 'node:fs';

const clientId = process.env.${env.clientId.name} ?? '${env.clientId.default}';
// Your notifyUrl exactly as registered: the provider signs its path and query, even where a proxy in front
// of this server forwards another path.
const notifyUrl = new URL(process.env.${env.notifyUrl.name} ?? '${env.notifyUrl.default}');
const signedPath = notifyUrl.pathname + notifyUrl.search;
${providerKeys}

interface Notification {
  notificationId: string;
  eventType: string;
  data: unknown;
}

// Nonces of the last ${nonceSeconds} s. Keep them where every instance of your handler sees them (for example
// Redis SET NX EX ${nonceSeconds}) when you run more than one.
const nonces = new Map<string, number>();

/** Why the notification is rejected, or undefined when it is genuine and new; the checks run in this order. */
function rejectionReason(headers: IncomingHttpHeaders, body: string): string | undefined {
  const header = signaturePattern.exec(String(headers['x-signature'] ?? ''));
  if (!header) return '${rejection.signatureHeader}';
  const publicKey = providerKeys.get(header[1] ?? '');
  if (!publicKey) return \`${rejection.keyVersion} \${header[1]}\`;
  if (headers['x-client-id'] !== clientId) return '${rejection.clientId}';
  const timestamp = String(headers['x-timestamp'] ?? '');
  if (!isFresh(timestamp)) return '${rejection.timestamp}';
  const nonce = String(headers['x-nonce'] ?? '');
  const canonical = ['POST', signedPath, clientId, timestamp, nonce, body].join('\\n');
  if (!createVerify('RSA-SHA256').update(canonical, 'utf8').verify(publicKey, header[2] ?? '', 'base64')) {
    return '${rejection.signature}';
  }
  // Only a verified notification may take a place in the nonce store.
  const now = Date.now();
  for (const [seen, expiresAt] of nonces) if (expiresAt < now) nonces.delete(seen);
  if (nonces.has(nonce)) return '${rejection.nonce}';
  nonces.set(nonce, now + ${nonceSeconds}_000);
  return undefined;
}

${isFresh}

// An in-memory stand-in for your database. In production applyInTransaction must be ONE database transaction:
// insert the notificationId (a unique key) and apply the change together, so a crash leaves both or neither.
const processed = new Map<string, Notification>();

function applyInTransaction(notification: Notification): void {
  if (processed.has(notification.notificationId)) return; // a redelivery: acknowledge it, apply nothing twice
  processed.set(notification.notificationId, notification);
  // Apply notification.data to your records here. Event types you do not know yet are stored and acknowledged.
  console.log(\`${notificationApplied} \${notification.eventType} \${notification.notificationId}\`);
}

const server = createServer((req, res) => {
  if (new URL(req.url ?? '/', 'http://localhost').pathname !== notifyUrl.pathname) {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8'); // the raw body: verify it before parsing
    const reason = req.method === 'POST' ? rejectionReason(req.headers, body) : 'not a POST';
    if (reason) {
      console.warn(\`${notificationRejected}: \${reason}\`);
      res.writeHead(401).end();
      return;
    }
    try {
      applyInTransaction(JSON.parse(body) as Notification);
    } catch (error) {
      console.error(error);
      res.writeHead(500).end(); // not stored: the provider delivers it again
      return;
    }
    res.writeHead(200, {'Content-Type': 'application/json'}).end(${tsString(compactJson({code: 'SUCCESS'}))});
  });
});

server.listen(Number(process.env.${env.notifyPort.name} ?? ${env.notifyPort.default}), () => {
  console.log(\`Listening for notifications on \${notifyUrl.pathname}\`);
});
`;
}

export const nodeTemplate: LanguageTemplate = {
  language: 'node',
  label: 'Node.js',
  highlight: 'typescript',
  fileName: (input) => `${input.operationId}.ts`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
