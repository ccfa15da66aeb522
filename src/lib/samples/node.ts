import {compactJson, sampleEnvironment as env, type LanguageTemplate, type SampleInput} from './types';

/** A JSON value as a TypeScript expression, indented to sit inside the sample. */
function literal(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  return `// ${input.summary}. Node.js 18+; run with: npx tsx ${input.operationId}.ts
import {createSign, randomUUID} from 'node:crypto';
import {readFileSync} from 'node:fs';

const base = process.env.${env.base.name} ?? '${env.base.default}';
const clientId = process.env.${env.clientId.name} ?? '${env.clientId.default}';
const privateKey = readFileSync(process.env.${env.privateKey.name} ?? '${env.privateKey.default}', 'utf8');
const keyVersion = process.env.${env.keyVersion.name} ?? '${env.keyVersion.default}';

async function main(): Promise<void> {
  const method = '${input.method}';
  const url = new URL(base + ${JSON.stringify(input.pathWithQuery)});
  const body = ${hasBody ? `JSON.stringify(${literal(input.body, '  ')})` : "''"};
  const timestamp = new Date().toISOString().replace(/\\.\\d{3}Z$/, 'Z');
  const nonce = randomUUID();

  // Canonical string: method, path with query, client ID, timestamp, nonce, body.
  const canonical = [method, url.pathname + url.search, clientId, timestamp, nonce, body].join('\\n');
  const signature = createSign('RSA-SHA256').update(canonical).sign(privateKey, 'base64');

  const response = await fetch(url, {
    method,
    headers: {
      'Content-Type': 'application/json',
      'X-Client-Id': clientId,
      'X-Timestamp': timestamp,
      'X-Nonce': nonce,
      'X-Signature': \`algorithm=RSA-SHA256, keyVersion=\${keyVersion}, signature=\${signature}\`,
    },${hasBody ? '\n    body,' : ''}
    signal: AbortSignal.timeout(10_000),
  });
  const result = (await response.json()) as {code: string; message: string; requestId: string; data?: unknown};
  if (result.code !== 'SUCCESS') {
    throw new Error(\`\${result.code}: \${result.message} (request \${result.requestId})\`);
  }
  console.log(JSON.stringify(result.data, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return `// Receive the ${input.summary}. Node.js 18+; run with: npx tsx ${input.operationId}.ts
import {createServer} from 'node:http';
import {createVerify} from 'node:crypto';
import {readFileSync} from 'node:fs';

const providerPublicKey = readFileSync(process.env.${env.providerPublicKey.name} ?? '${env.providerPublicKey.default}', 'utf8');
const seenNotifications = new Set<string>(); // use your database in production
const windowMs = 300_000;

function header(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8'); // verify the raw bytes, not re-serialised JSON
    const timestamp = header(req.headers['x-timestamp']);
    const signature = /signature=([A-Za-z0-9+/=]+)/.exec(header(req.headers['x-signature']))?.[1] ?? '';
    const canonical = [req.method, req.url, header(req.headers['x-client-id']), timestamp, header(req.headers['x-nonce']), body].join('\\n');
    const fresh = Math.abs(Date.now() - Date.parse(timestamp)) <= windowMs;
    const valid = fresh && createVerify('RSA-SHA256').update(canonical).verify(providerPublicKey, signature, 'base64');
    if (!valid) {
      res.writeHead(401).end();
      return;
    }
    const notification = JSON.parse(body) as {notificationId: string; eventType: string; data: unknown};
    if (!seenNotifications.has(notification.notificationId)) {
      seenNotifications.add(notification.notificationId);
      console.log(notification.eventType, JSON.stringify(notification.data)); // store, then process asynchronously
    }
    res.writeHead(200, {'Content-Type': 'application/json'}).end(${JSON.stringify(compactJson({code: 'SUCCESS'}))});
  });
});

server.listen(Number(process.env.${env.notifyPort.name} ?? ${env.notifyPort.default}), () => {
  console.log('Listening for notifications on ${input.notifyPath}');
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
