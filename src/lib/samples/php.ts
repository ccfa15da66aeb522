import type {JsonValue} from '../../contract/openapiTypes';
import {
  compactJson,
  nonceSeconds,
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
  type GeneratedValue,
  type LanguageTemplate,
  type SampleInput,
} from './types';
import {testKeyComment, testMerchant} from './testMerchant';

/** A string as a PHP literal: single-quoted, or double-quoted with escapes when it holds control characters. */
function phpString(text: string): string {
  if (!/\p{Cc}/u.test(text)) return `'${text.replace(/[\\']/g, '\\$&')}'`;
  const named: Record<string, string> = {'\n': '\\n', '\r': '\\r', '\t': '\\t'};
  const escaped = text.replace(/[\\"$]|\p{Cc}/gu, (c) =>
    /\p{Cc}/u.test(c) ? (named[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`) : `\\${c}`,
  );
  return `"${escaped}"`;
}

/** A string of the example body: a literal, or literals joined to the variables holding generated numbers. */
function phpText(text: string, generated: readonly GeneratedValue[]): string {
  return splitGenerated(text, generated)
    .map((piece) => ('variable' in piece ? `$${piece.variable.field}` : phpString(piece.text)))
    .join(' . ');
}

/**
 * A JSON value as a PHP literal that json_encode turns back into the same JSON:
 * objects that PHP would encode as arrays (empty, or keyed 0..n-1) become objects.
 */
function phpLiteral(value: JsonValue, indent: string, generated: readonly GeneratedValue[]): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return phpText(value, generated);
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${phpLiteral(item, inner, generated)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return 'new stdClass()';
  const cast = entries.every(([key], index) => key === String(index)) ? '(object) ' : '';
  return `${cast}[\n${entries.map(([key, item]) => `${inner}${phpString(key)} => ${phpLiteral(item, inner, generated)},`).join('\n')}\n${indent}]`;
}

/** Reads an environment variable with its sandbox default (an empty value counts as set). */
const envHelper = `function env(string $name, string $default): string
{
    $value = getenv($name);
    return $value === false ? $default : $value;
}`;

/** A notification handler's provider keys: configured, never a default. */
const providerKeys = `// ${providerKeysComment(false).join('\n// ')}
$providerKeys = [];
foreach (explode(',', env('${env.providerKeys.name}', '') ?: throw new RuntimeException('${providerKeysMissing}')) as $entry) {
    [$version, $file] = explode('=', $entry, 2);
    $providerKeys[$version] = file_get_contents($file) ?: throw new RuntimeException("Cannot read $file");
}`;

/** A request sample's keys: configured, or the shared test merchant's published ones. */
const requestKeys = `// ${testKeyComment.join('\n// ')}
const TEST_MERCHANT_PRIVATE_KEY = <<<'PEM'
${testMerchant.privateKeyPem}
PEM;
const TEST_PROVIDER_PUBLIC_KEY = <<<'PEM'
${testMerchant.providerPublicKeyPem}
PEM;

$keyPath = env('${env.privateKey.name}', '');
$privateKey = $keyPath !== '' ? file_get_contents($keyPath) : TEST_MERCHANT_PRIVATE_KEY;
$keyVersion = env('${env.keyVersion.name}', '${env.keyVersion.default}');
// ${providerKeysComment(true).join('\n// ')}
$providerKeys = ['${testMerchant.providerKeyVersion}' => TEST_PROVIDER_PUBLIC_KEY];
if (env('${env.providerKeys.name}', '') !== '' || $clientId !== '${testMerchant.clientId}') {
    $providerKeys = [];
    foreach (explode(',', env('${env.providerKeys.name}', '') ?: throw new RuntimeException('${providerKeysMissing}')) as $entry) {
        [$version, $file] = explode('=', $entry, 2);
        $providerKeys[$version] = file_get_contents($file) ?: throw new RuntimeException("Cannot read $file");
    }
}`;

/** PCRE patterns; D makes $ match only at the very end (not before a final newline). */
const signaturePattern = `'#${signatureHeaderPattern}#D'`;

const isFresh = `/** True for a YYYY-MM-DDTHH:MM:SSZ timestamp within ${windowSeconds} s of this clock, either way. */
function isFresh(string $timestamp): bool
{
    return preg_match('#${timestampPattern}#D', $timestamp) === 1 && abs(time() - strtotime($timestamp)) <= ${windowSeconds};
}`;

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  // json_encode escapes U+2028/U+2029 unless told not to; JSON.stringify does not.
  const lineTerminators = hasBody && /[\u2028\u2029]/.test(compactJson(input.body ?? null)) ? ' | JSON_UNESCAPED_LINE_TERMINATORS' : '';
  const numbers = input.generated
    .map(
      (value) => `// ${generatedValueComment(value)}
$${value.field} = ${
        value.kind === 'merchantNumber'
          ? `'${value.prefix}-' . (int) (microtime(true) * 1000) . '-' . bin2hex(random_bytes(3))`
          : `gmdate('Y-m-d\\TH:i:s\\Z', time() + ${value.hoursAhead} * 3600)`
      };\n`,
    )
    .join('');
  const body =
    input.body === undefined
      ? `$body = ''; // no body: the canonical string ends with an empty line`
      : `$payload = ${phpLiteral(input.body, '', input.generated)};
$body = json_encode($payload, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE${lineTerminators} | JSON_THROW_ON_ERROR);`;
  const pathNote = input.pathParameters.length ? `; ${input.pathParameters.join(', ')}: the contract's example, use yours` : '';
  return String.raw`<?php
// ${input.summary}. PHP 8.1+ with the openssl extension: php ${input.operationId}.php
declare(strict_types=1);

${envHelper}

$host = env('${env.host.name}', '${env.host.default}');
$clientId = env('${env.clientId.name}', '${env.clientId.default}');
${requestKeys}

${numbers}$method = '${input.method}';
$target = ${phpString(input.requestTarget)}; // path and query exactly as sent${pathNote}
${body}
$timestamp = gmdate('Y-m-d\TH:i:s\Z');
$nonce = bin2hex(random_bytes(16));

// Canonical string: method, target, client ID, timestamp, nonce, body; signed as UTF-8.
$canonical = implode("\n", [$method, $target, $clientId, $timestamp, $nonce, $body]);
if (!openssl_sign($canonical, $rawSignature, $privateKey, OPENSSL_ALGO_SHA256)) {
    throw new RuntimeException('Signing failed: ' . openssl_error_string());
}
$signature = base64_encode($rawSignature);

$context = stream_context_create(['http' => [
    'method' => $method,
    'header' => [${hasBody ? `\n        'Content-Type: application/json',` : ''}
        "X-Client-Id: $clientId",
        "X-Timestamp: $timestamp",
        "X-Nonce: $nonce",
        "X-Signature: algorithm=RSA-SHA256, keyVersion=$keyVersion, signature=$signature",
    ],${hasBody ? `\n    'content' => $body,` : ''}
    'timeout' => 30,
    'ignore_errors' => true, // read error answers too: they are signed as well
]]);
// The raw body: verify it before parsing.
$text = file_get_contents($host . $target, false, $context);
$problem = $text === false ? 'no response' : responseProblem($http_response_header, $text, [$method, $target, $clientId], $nonce, $providerKeys);
if ($problem !== null) {
    fwrite(STDERR, "${responseRejected}: $problem\n");
    exit(1);
}

$result = json_decode($text, flags: JSON_THROW_ON_ERROR);
if ($result->code !== 'SUCCESS') {
    fwrite(STDERR, "{$result->code}: {$result->message} (request {$result->requestId})\n");
    exit(1);
}
echo json_encode($result->data ?? null, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";

/** Why the response is not the provider's answer to this request, or null when it is. */
function responseProblem(array $head, string $text, array $request, string $requestNonce, array $providerKeys): ?string
{
    // The status and headers (lower-case names) of the last response in $http_response_header.
    $status = '';
    $headers = [];
    foreach ($head as $line) {
        if (preg_match('#^HTTP/\S+ ([0-9]{3})#', $line, $match) === 1) {
            [$status, $headers] = [$match[1], []];
        } elseif (str_contains($line, ':')) {
            [$name, $value] = explode(':', $line, 2);
            $headers[strtolower($name)] = trim($value);
        }
    }
    if (preg_match(${signaturePattern}, $headers['x-signature'] ?? '', $signature) !== 1) {
        return '${rejection.signatureHeader}';
    }
    $publicKey = $providerKeys[$signature[1]] ?? null;
    if ($publicKey === null) {
        return "${rejection.keyVersion} {$signature[1]}";
    }
    $timestamp = $headers['x-timestamp'] ?? '';
    if (!isFresh($timestamp)) {
        return '${rejection.timestamp}';
    }
    // Your request's method, target and client ID; the response's timestamp and nonce; your request's nonce;
    // the status as three digits; the raw body. Binding your nonce means no other request's response verifies.
    $canonical = implode("\n", [...$request, $timestamp, $headers['x-nonce'] ?? '', $requestNonce, $status, $text]);
    $valid = openssl_verify($canonical, base64_decode($signature[2]), $publicKey, OPENSSL_ALGO_SHA256) === 1;
    return $valid ? null : '${rejection.signature}';
}

${isFresh}
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return String.raw`<?php
// Receive the ${input.summary}. PHP 8.1+ with the openssl and pdo_sqlite extensions;
// try it with: php -S 127.0.0.1:${env.notifyPort.default} ${input.operationId}.php
declare(strict_types=1);

${envHelper}

$clientId = env('${env.clientId.name}', '${env.clientId.default}');
// Your notifyUrl exactly as registered: the provider signs its path and query, even where a proxy in front
// of this server forwards another path.
$notifyUrl = parse_url(env('${env.notifyUrl.name}', '${env.notifyUrl.default}'));
$signedPath = $notifyUrl['path'] . (isset($notifyUrl['query']) ? "?{$notifyUrl['query']}" : '');
${providerKeys}

if (parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) !== $notifyUrl['path']) {
    http_response_code(404);
    exit;
}

// Nonces, notifications and your own records share one database, so one transaction can cover them.
$db = new PDO('sqlite:' . env('${env.notifyDatabase.name}', '${env.notifyDatabase.default}'), options: [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$db->exec('CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS notifications (notification_id TEXT PRIMARY KEY, event_type TEXT, body TEXT)');

$body = file_get_contents('php://input'); // the raw body: verify it before parsing
$reason = $_SERVER['REQUEST_METHOD'] === 'POST' ? rejectionReason($body, $db, $providerKeys, $clientId, $signedPath) : 'not a POST';
if ($reason !== null) {
    error_log("${notificationRejected}: $reason");
    http_response_code(401);
    exit;
}

// Deduplicate by notificationId and apply the change in ONE transaction: both happen or neither. An exception
// rolls it back and answers 500, so the provider delivers the notification again.
$notification = json_decode($body, flags: JSON_THROW_ON_ERROR);
$db->beginTransaction();
$insert = $db->prepare('INSERT OR IGNORE INTO notifications VALUES (?, ?, ?)');
$insert->execute([$notification->notificationId, $notification->eventType, $body]);
if ($insert->rowCount() === 1) { // 0 for a redelivery: acknowledge it, apply nothing twice
    // Apply $notification->data to your records here, through $db. Event types you do not know yet are
    // stored and acknowledged.
    error_log("${notificationApplied} {$notification->eventType} {$notification->notificationId}");
}
$db->commit();
header('Content-Type: application/json');
echo '${compactJson({code: 'SUCCESS'})}';

/** Why the notification is rejected, or null when it is genuine and new; the checks run in this order. */
function rejectionReason(string $body, PDO $db, array $providerKeys, string $clientId, string $signedPath): ?string
{
    if (preg_match(${signaturePattern}, $_SERVER['HTTP_X_SIGNATURE'] ?? '', $signature) !== 1) {
        return '${rejection.signatureHeader}';
    }
    $publicKey = $providerKeys[$signature[1]] ?? null;
    if ($publicKey === null) {
        return "${rejection.keyVersion} {$signature[1]}";
    }
    if (($_SERVER['HTTP_X_CLIENT_ID'] ?? '') !== $clientId) {
        return '${rejection.clientId}';
    }
    $timestamp = $_SERVER['HTTP_X_TIMESTAMP'] ?? '';
    if (!isFresh($timestamp)) {
        return '${rejection.timestamp}';
    }
    $nonce = $_SERVER['HTTP_X_NONCE'] ?? '';
    $canonical = implode("\n", ['POST', $signedPath, $clientId, $timestamp, $nonce, $body]);
    if (openssl_verify($canonical, base64_decode($signature[2]), $publicKey, OPENSSL_ALGO_SHA256) !== 1) {
        return '${rejection.signature}';
    }
    // Only a verified notification may take a place in the nonce table.
    $db->prepare('DELETE FROM nonces WHERE expires_at < ?')->execute([time()]);
    $insert = $db->prepare('INSERT OR IGNORE INTO nonces VALUES (?, ?)');
    $insert->execute([$nonce, time() + ${nonceSeconds}]);
    return $insert->rowCount() === 1 ? null : '${rejection.nonce}';
}

${isFresh}
`;
}

export const phpTemplate: LanguageTemplate = {
  language: 'php',
  label: 'PHP',
  highlight: 'php',
  fileName: (input) => `${input.operationId}.php`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
