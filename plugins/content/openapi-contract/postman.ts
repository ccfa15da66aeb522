/**
 * A Postman collection (v2.1) generated from the contract: one folder per tag,
 * one request per operation with its first example. Postman's script sandbox
 * has no RSA, so the pre-request script prepares timestamp, nonce and the
 * canonical string, and the collection explains how to sign it.
 */
import {brand} from '../../../src/brand';
import {deref, listOperations, type OpenApiDocument} from '../../../src/lib/openapiTypes';
import {sampleInputFor} from '../../../src/lib/samples';

/** The parts of the Postman collection format (v2.1) this generator writes. */
export interface PostmanItem {
  name: string;
  request: {
    method: string;
    description: string;
    header: Array<{key: string; value: string}>;
    url: {raw: string; host: string[]; path: string[]; query?: Array<{key: string; value: string}>};
    body?: {mode: 'raw'; raw: string; options: {raw: {language: 'json'}}};
  };
}

export interface PostmanCollection {
  info: {name: string; description: string; schema: string};
  event: Array<{listen: 'prerequest'; script: {type: 'text/javascript'; exec: string[]}}>;
  variable: Array<{key: string; value: string}>;
  item: Array<{name: string; item: PostmanItem[]}>;
}

/**
 * Runs in Postman before each request. The path it signs is the base URL's path ("/v1", which
 * Postman keeps in the URL's host part, `{{baseUrl}}`) plus the request's path and query as sent.
 * tests/unit/postman.test.ts runs it against the signing test vector.
 */
const preRequestScript = [
  "const timestamp = new Date().toISOString().replace(/\\.\\d{3}Z$/, 'Z');",
  "const nonce = pm.variables.replaceIn('{{$guid}}');",
  "const url = pm.request.url;",
  "const basePath = pm.variables.replaceIn('{{baseUrl}}').replace(/^[a-z]+:\\/\\/[^/]*/i, '').replace(/\\/$/, '');",
  "const pathWithQuery = basePath + '/' + url.path.join('/') + (url.query.count() ? '?' + url.getQueryString() : '');",
  "const body = pm.request.body && pm.request.body.raw ? pm.variables.replaceIn(pm.request.body.raw) : '';",
  "pm.collectionVariables.set('timestamp', timestamp);",
  "pm.collectionVariables.set('nonce', nonce);",
  "pm.collectionVariables.set('canonicalString', [pm.request.method, pathWithQuery, pm.collectionVariables.get('clientId'), timestamp, nonce, body].join('\\n'));",
];

export function buildPostmanCollection(doc: OpenApiDocument): PostmanCollection {
  const folders = new Map<string, PostmanItem[]>();
  for (const location of listOperations(doc)) {
    if (location.kind !== 'operation') continue;
    const input = sampleInputFor(doc, location);
    if (input.kind !== 'request') continue;
    const [pathPart, queryPart] = input.pathWithQuery.split('?');
    // Kept percent-encoded, as the samples send them: Postman sends an encoded value as it is, so
    // the query string the script signs is the one on the wire.
    const query = queryPart?.split('&').map((pair) => {
      const [key = '', value = ''] = pair.split('=');
      return {key, value};
    });
    const tag = location.operation.tags?.[0] ?? 'Other';
    const parameters = (location.operation.parameters ?? []).map((parameter) => deref(doc, parameter));
    const item: PostmanItem = {
      name: location.operation.summary ?? location.operationId,
      request: {
        method: input.method,
        description: location.operation.description ?? '',
        header: [
          {key: 'Content-Type', value: 'application/json'},
          ...parameters
            .filter((parameter) => parameter.in === 'header')
            .map((parameter) => ({
              key: parameter.name,
              value:
                {
                  'X-Client-Id': '{{clientId}}',
                  'X-Timestamp': '{{timestamp}}',
                  'X-Nonce': '{{nonce}}',
                  'X-Signature': 'algorithm=RSA-SHA256, keyVersion={{keyVersion}}, signature={{signature}}',
                }[parameter.name] ?? '',
            })),
        ],
        url: {
          raw: `{{baseUrl}}${input.pathWithQuery}`,
          host: ['{{baseUrl}}'],
          path: (pathPart ?? '').split('/').filter(Boolean),
          ...(query ? {query} : {}),
        },
        ...(input.body === undefined ? {} : {body: {mode: 'raw' as const, raw: JSON.stringify(input.body, null, 2), options: {raw: {language: 'json' as const}}}}),
      },
    };
    folders.set(tag, [...(folders.get(tag) ?? []), item]);
  }
  return {
    info: {
      name: doc.info.title,
      description:
        'Generated from the API contract. Set clientId and keyVersion; each request prepares the timestamp, nonce and canonical string (collection variable canonicalString). Postman cannot sign with RSA, so sign the canonical string with your private key, for example `printf %s "$CANONICAL" | openssl dgst -sha256 -sign merchant-private.pem | openssl base64 -A`, and paste the result into the signature variable before sending. Requests must reach the API within 300 seconds of the timestamp.',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    event: [{listen: 'prerequest', script: {type: 'text/javascript', exec: preRequestScript}}],
    variable: [
      {key: 'baseUrl', value: doc.servers?.[0]?.url ?? ''},
      {key: 'clientId', value: brand.sandboxClientId},
      {key: 'keyVersion', value: '1'},
      {key: 'timestamp', value: ''},
      {key: 'nonce', value: ''},
      {key: 'canonicalString', value: ''},
      {key: 'signature', value: ''},
    ],
    item: [...folders].map(([name, items]) => ({name, item: items})),
  };
}
