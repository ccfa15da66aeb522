import {sampleEnvironment as env, type LanguageTemplate, type SampleInput} from './types';

/** A JSON value as a Python literal. */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  return `"""${input.summary}. Python 3.9+ with the cryptography package."""
import base64
import json
import os
import urllib.error
import urllib.request
import uuid
from datetime import datetime, timezone
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

BASE = os.environ.get("${env.base.name}", "${env.base.default}")
CLIENT_ID = os.environ.get("${env.clientId.name}", "${env.clientId.default}")
KEY_PATH = os.environ.get("${env.privateKey.name}", "${env.privateKey.default}")
KEY_VERSION = os.environ.get("${env.keyVersion.name}", "${env.keyVersion.default}")


def main() -> None:
    method = "${input.method}"
    url = BASE + ${JSON.stringify(input.pathWithQuery)}
    ${hasBody ? `payload = ${pythonLiteral(input.body, '    ')}\n    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)` : 'body = ""'}
    parts = urlsplit(url)
    path_with_query = parts.path + ("?" + parts.query if parts.query else "")
    timestamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    nonce = str(uuid.uuid4())

    # Canonical string: method, path with query, client ID, timestamp, nonce, body.
    canonical = "\\n".join([method, path_with_query, CLIENT_ID, timestamp, nonce, body])
    with open(KEY_PATH, "rb") as key_file:
        private_key = serialization.load_pem_private_key(key_file.read(), password=None)
    signature = base64.b64encode(
        private_key.sign(canonical.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    ).decode("ascii")

    request = urllib.request.Request(
        url,
        data=body.encode("utf-8") if body else None,
        method=method,
        headers={
            "Content-Type": "application/json",
            "X-Client-Id": CLIENT_ID,
            "X-Timestamp": timestamp,
            "X-Nonce": nonce,
            "X-Signature": f"algorithm=RSA-SHA256, keyVersion={KEY_VERSION}, signature={signature}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            result = json.load(response)
    except urllib.error.HTTPError as error:
        result = json.load(error)
    if result["code"] != "SUCCESS":
        raise SystemExit(f"{result['code']}: {result['message']} (request {result['requestId']})")
    print(json.dumps(result["data"], indent=2))


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
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

with open(os.environ.get("${env.providerPublicKey.name}", "${env.providerPublicKey.default}"), "rb") as key_file:
    PROVIDER_KEY = serialization.load_pem_public_key(key_file.read())
SEEN = set()  # use your database in production
WINDOW_SECONDS = 300


def is_valid(method, path, headers, body):
    timestamp = headers.get("X-Timestamp", "")
    try:
        sent = datetime.strptime(timestamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        return False
    if abs((datetime.now(timezone.utc) - sent).total_seconds()) > WINDOW_SECONDS:
        return False
    match = re.search(r"signature=([A-Za-z0-9+/=]+)", headers.get("X-Signature", ""))
    if not match:
        return False
    canonical = "\\n".join([method, path, headers.get("X-Client-Id", ""), timestamp, headers.get("X-Nonce", ""), body])
    try:
        PROVIDER_KEY.verify(base64.b64decode(match.group(1)), canonical.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
        return True
    except InvalidSignature:
        return False


class NotificationHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode("utf-8")
        if not is_valid("POST", self.path, self.headers, raw):
            self.send_response(401)
            self.end_headers()
            return
        notification = json.loads(raw)
        if notification["notificationId"] not in SEEN:
            SEEN.add(notification["notificationId"])
            print(notification["eventType"], json.dumps(notification["data"]), flush=True)
        answer = b'{"code":"SUCCESS"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


if __name__ == "__main__":
    port = int(os.environ.get("${env.notifyPort.name}", "${env.notifyPort.default}"))
    print("Listening for notifications on ${input.notifyPath}", flush=True)
    HTTPServer(("127.0.0.1", port), NotificationHandler).serve_forever()
`;
}

export const pythonTemplate: LanguageTemplate = {
  language: 'python',
  label: 'Python',
  highlight: 'python',
  fileName: (input) => `${input.operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}.py`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
