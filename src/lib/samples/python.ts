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
  snakeCase,
  generatedValueComment,
  splitGenerated,
  timestampPattern,
  windowSeconds,
  type GeneratedValue,
  type LanguageTemplate,
  type SampleInput,
} from './types';
import {testKeyComment, testMerchant} from './testMerchant';

/** A string of the example body: a literal, the variable itself, or an f-string around it. */
function pythonText(text: string, generated: readonly GeneratedValue[]): string {
  const pieces = splitGenerated(text, generated);
  const [only] = pieces;
  if (pieces.length === 1 && only && 'variable' in only) return snakeCase(only.variable.field);
  if (pieces.every((piece) => 'text' in piece)) return JSON.stringify(text);
  const parts = pieces.map((piece) =>
    'variable' in piece ? `{${snakeCase(piece.variable.field)}}` : JSON.stringify(piece.text).slice(1, -1).replace(/[{}]/g, '$&$&'),
  );
  return `f"${parts.join('')}"`;
}

/** A JSON value as a Python literal. */
function pythonLiteral(value: JsonValue, indent: string, generated: readonly GeneratedValue[]): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return pythonText(value, generated);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner, generated)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner, generated)},`).join('\n')}\n${indent}}`;
}

const loadProviderKeys = `def load_provider_keys(versions_and_files):
    keys = {}
    for entry in versions_and_files.split(","):
        version, key_path = entry.split("=", 1)
        with open(key_path, "rb") as key_file:
            keys[version] = serialization.load_pem_public_key(key_file.read())
    return keys`;

const patterns = `SIGNATURE = re.compile(r"${signatureHeaderPattern}")
TIMESTAMP = re.compile(r"${timestampPattern}")`;

/** A notification handler's provider keys: configured, never a default. */
const providerKeys = `# ${providerKeysComment(false).join('\n# ')}
if not os.environ.get("${env.providerKeys.name}"):
    sys.exit("${providerKeysMissing}")


${loadProviderKeys}


PROVIDER_KEYS = load_provider_keys(os.environ["${env.providerKeys.name}"])
${patterns}`;

/** A request sample's keys: configured, or the shared test merchant's published ones. */
const requestKeys = `# ${testKeyComment.join('\n# ')}
TEST_MERCHANT_PRIVATE_KEY = b"""\\
${testMerchant.privateKeyPem}
"""
TEST_PROVIDER_PUBLIC_KEY = b"""\\
${testMerchant.providerPublicKeyPem}
"""

KEY_PATH = os.environ.get("${env.privateKey.name}")
KEY_VERSION = os.environ.get("${env.keyVersion.name}", "${env.keyVersion.default}")
# ${providerKeysComment(true).join('\n# ')}
if not os.environ.get("${env.providerKeys.name}") and CLIENT_ID != "${testMerchant.clientId}":
    sys.exit("${providerKeysMissing}")


${loadProviderKeys}


if os.environ.get("${env.providerKeys.name}"):
    PROVIDER_KEYS = load_provider_keys(os.environ["${env.providerKeys.name}"])
else:
    PROVIDER_KEYS = {"${testMerchant.providerKeyVersion}": serialization.load_pem_public_key(TEST_PROVIDER_PUBLIC_KEY)}
${patterns}`;

const isFresh = `def is_fresh(timestamp):
    """True for a YYYY-MM-DDTHH:MM:SSZ timestamp within ${windowSeconds} s of this clock, either way."""
    if not TIMESTAMP.fullmatch(timestamp):
        return False
    try:
        sent = datetime.strptime(timestamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    except ValueError:  # such as month 13
        return False
    return abs((datetime.now(timezone.utc) - sent).total_seconds()) <= ${windowSeconds}`;

/** Verifies a signature held in the regex match `header`, or returns the reason. */
const verify = (indent: string) => `try:
${indent}    public_key.verify(base64.b64decode(header.group(2)), canonical.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
${indent}except InvalidSignature:
${indent}    return "${rejection.signature}"`;

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  const numbers = input.generated
    .map(
      (value) => `    # ${generatedValueComment(value)}
    ${snakeCase(value.field)} = ${
      value.kind === 'merchantNumber'
        ? `f"${value.prefix}-{int(time.time() * 1000)}-{secrets.token_hex(3)}"`
        : `(datetime.now(timezone.utc) + timedelta(hours=${value.hoursAhead})).strftime("%Y-%m-%dT%H:%M:%SZ")`
    }\n`,
    )
    .join('');
  const pathNote = input.pathParameters.length ? `; ${input.pathParameters.join(', ')}: the contract's example, use yours` : '';
  const makesNumbers = input.generated.some((value) => value.kind === 'merchantNumber');
  const makesTimes = input.generated.some((value) => value.kind === 'futureTime');
  const imports = [
    'base64',
    'json',
    'os',
    're',
    ...(makesNumbers ? ['secrets'] : []),
    'sys',
    ...(makesNumbers ? ['time'] : []),
    'urllib.error',
    'urllib.request',
    'uuid',
  ];
  return `"""${input.summary}. Python 3.9+ with the cryptography package."""
${imports.map((name) => `import ${name}`).join('\n')}
from datetime import datetime, ${makesTimes ? 'timedelta, ' : ''}timezone

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

HOST = os.environ.get("${env.host.name}", "${env.host.default}")
CLIENT_ID = os.environ.get("${env.clientId.name}", "${env.clientId.default}")
${requestKeys}


def main() -> None:
${numbers}    method = "${input.method}"
    target = ${JSON.stringify(input.requestTarget)}  # path and query exactly as sent${pathNote}
    ${hasBody ? `payload = ${pythonLiteral(input.body ?? null, '    ', input.generated)}\n    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)` : 'body = ""  # no body: the canonical string ends with an empty line'}
    timestamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    nonce = str(uuid.uuid4())

    # Canonical string: method, target, client ID, timestamp, nonce, body; signed as UTF-8.
    canonical = "\\n".join([method, target, CLIENT_ID, timestamp, nonce, body])
    if KEY_PATH:
        with open(KEY_PATH, "rb") as key_file:
            private_key = serialization.load_pem_private_key(key_file.read(), password=None)
    else:
        private_key = serialization.load_pem_private_key(TEST_MERCHANT_PRIVATE_KEY, password=None)
    signature = base64.b64encode(
        private_key.sign(canonical.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    ).decode("ascii")

    request = urllib.request.Request(
        HOST + target,
        data=${hasBody ? 'body.encode("utf-8")' : 'None'},
        method=method,
        headers={${hasBody ? `\n            "Content-Type": "application/json",` : ''}
            "X-Client-Id": CLIENT_ID,
            "X-Timestamp": timestamp,
            "X-Nonce": nonce,
            "X-Signature": f"algorithm=RSA-SHA256, keyVersion={KEY_VERSION}, signature={signature}",
        },
    )
    try:
        response = urllib.request.urlopen(request, timeout=30)  # for the connection and for each read
    except urllib.error.HTTPError as error:
        response = error  # error answers are signed too
    with response:
        text = response.read().decode("utf-8")  # the raw body: verify it before parsing
    problem = response_problem(response.status, response.headers, text, [method, target, CLIENT_ID], nonce)
    if problem:
        raise SystemExit(f"${responseRejected}: {problem}")

    result = json.loads(text)
    if result["code"] != "SUCCESS":
        raise SystemExit(f"{result['code']}: {result['message']} (request {result['requestId']})")
    print(json.dumps(result.get("data"), indent=2, ensure_ascii=False))


def response_problem(status, headers, text, request, request_nonce):
    """Why the response is not the provider's answer to this request, or None when it is."""
    header = SIGNATURE.fullmatch(headers.get("X-Signature", ""))
    if not header:
        return "${rejection.signatureHeader}"
    public_key = PROVIDER_KEYS.get(header.group(1))
    if public_key is None:
        return f"${rejection.keyVersion} {header.group(1)}"
    timestamp = headers.get("X-Timestamp", "")
    if not is_fresh(timestamp):
        return "${rejection.timestamp}"
    # Your request's method, target and client ID; the response's timestamp and nonce; your request's nonce;
    # the status as three digits; the raw body. Binding your nonce means no other request's response verifies.
    canonical = "\\n".join(request + [timestamp, headers.get("X-Nonce", ""), request_nonce, str(status), text])
    ${verify('    ')}
    return None


${isFresh}


if __name__ == "__main__":
    main()
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return `"""Receive the ${input.summary}. Python 3.9+ with the cryptography package."""
import base64
import json
import os
import re
import sqlite3
import sys
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

CLIENT_ID = os.environ.get("${env.clientId.name}", "${env.clientId.default}")
# Your notifyUrl exactly as registered: the provider signs its path and query, even where a proxy in front
# of this server forwards another path.
NOTIFY_URL = urlsplit(os.environ.get("${env.notifyUrl.name}", "${env.notifyUrl.default}"))
SIGNED_PATH = NOTIFY_URL.path + ("?" + NOTIFY_URL.query if NOTIFY_URL.query else "")
${providerKeys}

# Nonces, notifications and your own records share one database, so one transaction can cover them.
DB = sqlite3.connect(os.environ.get("${env.notifyDatabase.name}", "${env.notifyDatabase.default}"))
DB.executescript("""
    CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS notifications (notification_id TEXT PRIMARY KEY, event_type TEXT, body TEXT);
""")


def rejection_reason(headers, body):
    """Why the notification is rejected, or None when it is genuine and new; the checks run in this order."""
    header = SIGNATURE.fullmatch(headers.get("X-Signature", ""))
    if not header:
        return "${rejection.signatureHeader}"
    public_key = PROVIDER_KEYS.get(header.group(1))
    if public_key is None:
        return f"${rejection.keyVersion} {header.group(1)}"
    if headers.get("X-Client-Id") != CLIENT_ID:
        return "${rejection.clientId}"
    timestamp = headers.get("X-Timestamp", "")
    if not is_fresh(timestamp):
        return "${rejection.timestamp}"
    nonce = headers.get("X-Nonce", "")
    canonical = "\\n".join(["POST", SIGNED_PATH, CLIENT_ID, timestamp, nonce, body])
    ${verify('    ')}
    # Only a verified notification may take a place in the nonce table.
    now = int(time.time())
    with DB:
        DB.execute("DELETE FROM nonces WHERE expires_at < ?", (now,))
        if DB.execute("INSERT OR IGNORE INTO nonces VALUES (?, ?)", (nonce, now + ${nonceSeconds})).rowcount == 0:
            return "${rejection.nonce}"
    return None


${isFresh}


def store_and_apply(notification, body):
    """Deduplicates by notificationId and applies the change in ONE transaction: both happen or neither."""
    with DB:  # commits at the end of the block, rolls back on an exception
        stored = DB.execute(
            "INSERT OR IGNORE INTO notifications VALUES (?, ?, ?)",
            (notification["notificationId"], notification["eventType"], body),
        ).rowcount
        if stored:  # 0 for a redelivery: acknowledge it, apply nothing twice
            # Apply notification["data"] to your records here, through DB. Event types you do not know yet
            # are stored and acknowledged.
            print("${notificationApplied}", notification["eventType"], notification["notificationId"], flush=True)


class NotificationHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        if urlsplit(self.path).path != NOTIFY_URL.path:
            return self.answer(404)
        # The raw body: verify it before parsing.
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8")
        reason = rejection_reason(self.headers, body)
        if reason:
            print("${notificationRejected}:", reason, flush=True)
            return self.answer(401)
        store_and_apply(json.loads(body), body)
        return self.answer(200, b'${compactJson({code: 'SUCCESS'})}')

    def answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    port = int(os.environ.get("${env.notifyPort.name}", "${env.notifyPort.default}"))
    print("Listening for notifications on", NOTIFY_URL.path, flush=True)
    HTTPServer(("127.0.0.1", port), NotificationHandler).serve_forever()
`;
}

export const pythonTemplate: LanguageTemplate = {
  language: 'python',
  label: 'Python',
  highlight: 'python',
  fileName: (input) => `${snakeCase(input.operationId)}.py`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
