import type {JsonValue} from '../openapiTypes';
import {compactJson, sampleEnvironment as env, type LanguageTemplate, type SampleInput} from './types';

/** A string as a PHP literal: single-quoted, or double-quoted with escapes when it holds control characters. */
export function phpString(text: string): string {
  if (!/\p{Cc}/u.test(text)) return `'${text.replace(/[\\']/g, '\\$&')}'`;
  const named: Record<string, string> = {'\n': '\\n', '\r': '\\r', '\t': '\\t'};
  const escaped = text.replace(/[\\"$]|\p{Cc}/gu, (c) =>
    /\p{Cc}/u.test(c) ? (named[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`) : `\\${c}`,
  );
  return `"${escaped}"`;
}

/**
 * A JSON value as a PHP literal that json_encode turns back into the same JSON:
 * objects that PHP would encode as arrays (empty, or keyed 0..n-1) become objects.
 */
export function phpLiteral(value: JsonValue, indent = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return phpString(value);
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${phpLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return 'new stdClass()';
  const cast = entries.every(([key], index) => key === String(index)) ? '(object) ' : '';
  return `${cast}[\n${entries.map(([key, item]) => `${inner}${phpString(key)} => ${phpLiteral(item, inner)},`).join('\n')}\n${indent}]`;
}

/** Reads an environment variable with its sandbox default (an empty value counts as set). */
const envHelper = `function env(string $name, string $default): string
{
    $value = getenv($name);
    return $value === false ? $default : $value;
}`;

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  // json_encode escapes U+2028/U+2029 unless told not to; JSON.stringify does not.
  const lineTerminators = hasBody && /[\u2028\u2029]/.test(compactJson(input.body)) ? ' | JSON_UNESCAPED_LINE_TERMINATORS' : '';
  const body =
    input.body === undefined
      ? `$body = '';`
      : `$payload = ${phpLiteral(input.body)};
$body = json_encode($payload, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE${lineTerminators} | JSON_THROW_ON_ERROR);`;
  return String.raw`<?php
// ${input.summary}. PHP 8.1+ with the openssl extension: php ${input.operationId}.php
declare(strict_types=1);

${envHelper}

$base = env('${env.base.name}', '${env.base.default}');
$clientId = env('${env.clientId.name}', '${env.clientId.default}');
$keyPath = env('${env.privateKey.name}', '${env.privateKey.default}');
$keyVersion = env('${env.keyVersion.name}', '${env.keyVersion.default}');

$method = '${input.method}';
$url = $base . ${phpString(input.pathWithQuery)};
${body}
$query = (string) parse_url($url, PHP_URL_QUERY);
$pathWithQuery = parse_url($url, PHP_URL_PATH) . ($query === '' ? '' : "?$query");
$timestamp = gmdate('Y-m-d\TH:i:s\Z');
$nonce = bin2hex(random_bytes(16));

// Canonical string: method, path with query, client ID, timestamp, nonce, body.
$canonical = implode("\n", [$method, $pathWithQuery, $clientId, $timestamp, $nonce, $body]);
if (!openssl_sign($canonical, $rawSignature, file_get_contents($keyPath), OPENSSL_ALGO_SHA256)) {
    throw new RuntimeException('Signing failed: ' . openssl_error_string());
}
$signature = base64_encode($rawSignature);

$context = stream_context_create(['http' => [
    'method' => $method,
    'header' => [
        'Content-Type: application/json',
        "X-Client-Id: $clientId",
        "X-Timestamp: $timestamp",
        "X-Nonce: $nonce",
        "X-Signature: algorithm=RSA-SHA256, keyVersion=$keyVersion, signature=$signature",
    ],${hasBody ? `\n    'content' => $body,` : ''}
    'timeout' => 10,
    'ignore_errors' => true, // read the JSON body of error answers too
]]);
$response = file_get_contents($url, false, $context) ?: throw new RuntimeException("No response from $url");

$result = json_decode($response, flags: JSON_THROW_ON_ERROR);
if ($result->code !== 'SUCCESS') {
    fwrite(STDERR, "{$result->code}: {$result->message} (request {$result->requestId})\n");
    exit(1);
}
echo json_encode($result->data ?? null, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return String.raw`<?php
// Receive the ${input.summary}. PHP 8.1+ with the openssl extension:
// php -S 127.0.0.1:${'$'}{${env.notifyPort.name}:-${env.notifyPort.default}} ${input.operationId}.php   (then POST to ${input.notifyPath})
declare(strict_types=1);

const WINDOW_SECONDS = 300;

${envHelper}

if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    http_response_code(405);
    exit;
}
$body = file_get_contents('php://input'); // verify the raw bytes, not re-serialised JSON
$timestamp = $_SERVER['HTTP_X_TIMESTAMP'] ?? '';
$canonical = implode("\n", [
    'POST',
    $_SERVER['REQUEST_URI'],
    $_SERVER['HTTP_X_CLIENT_ID'] ?? '',
    $timestamp,
    $_SERVER['HTTP_X_NONCE'] ?? '',
    $body,
]);
$sent = DateTimeImmutable::createFromFormat('!Y-m-d\TH:i:s\Z', $timestamp, new DateTimeZone('UTC'));
$providerKey = file_get_contents(env('${env.providerPublicKey.name}', '${env.providerPublicKey.default}'));
$valid = $sent !== false
    && abs(time() - $sent->getTimestamp()) <= WINDOW_SECONDS
    && preg_match('/signature=([A-Za-z0-9+\/=]+)/', $_SERVER['HTTP_X_SIGNATURE'] ?? '', $match) === 1
    && openssl_verify($canonical, base64_decode($match[1]), $providerKey, OPENSSL_ALGO_SHA256) === 1;
if (!$valid) {
    http_response_code(401);
    exit;
}

// php -S runs every request afresh, so remember handled IDs in a file; use your database in production.
$notification = json_decode($body, flags: JSON_THROW_ON_ERROR);
$seenFile = sys_get_temp_dir() . '/veloxa-notifications.txt';
$seen = is_file($seenFile) ? file($seenFile, FILE_IGNORE_NEW_LINES) : [];
if (!in_array($notification->notificationId, $seen, true)) {
    file_put_contents($seenFile, $notification->notificationId . "\n", FILE_APPEND | LOCK_EX);
    error_log("{$notification->eventType} {$notification->notificationId}"); // store, then process asynchronously
}
header('Content-Type: application/json');
echo '${compactJson({code: 'SUCCESS'})}';
`;
}

export const phpTemplate: LanguageTemplate = {
  language: 'php',
  label: 'PHP',
  highlight: 'php',
  fileName: (input) => `${input.operationId}.php`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
