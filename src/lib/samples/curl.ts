import {compactJson, sampleEnvironment as env, type LanguageTemplate, type SampleInput} from './types';

/** Quotes a string for a POSIX shell single-quoted word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const body = input.body === undefined ? '' : compactJson(input.body);
  return `# ${input.summary}: sign with openssl, send with curl.
BASE="\${${env.base.name}:-${env.base.default}}"
CLIENT_ID="\${${env.clientId.name}:-${env.clientId.default}}"
KEY="\${${env.privateKey.name}:-${env.privateKey.default}}"
KEY_VERSION="\${${env.keyVersion.name}:-${env.keyVersion.default}}"

METHOD=${input.method}
URL="$BASE"${shellQuote(input.pathWithQuery)}
PATH_WITH_QUERY="/\${URL#*://*/}"
BODY=${shellQuote(body)}
TIMESTAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
NONCE=$(openssl rand -hex 16)

# Canonical string: six lines, no trailing newline.
SIGNATURE=$(printf '%s\\n%s\\n%s\\n%s\\n%s\\n%s' "$METHOD" "$PATH_WITH_QUERY" "$CLIENT_ID" "$TIMESTAMP" "$NONCE" "$BODY" \\
  | openssl dgst -sha256 -sign "$KEY" | openssl base64 -A)

curl --silent --show-error --request "$METHOD" "$URL" \\
  --header "Content-Type: application/json" \\
  --header "X-Client-Id: $CLIENT_ID" \\
  --header "X-Timestamp: $TIMESTAMP" \\
  --header "X-Nonce: $NONCE" \\
  --header "X-Signature: algorithm=RSA-SHA256, keyVersion=$KEY_VERSION, signature=$SIGNATURE"${
    body === '' ? '' : ` \\\n  --data-raw "$BODY"`
  }
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return `# Send a signed test notification (${input.summary}) to your own endpoint, signed
# with a test key whose public half your handler trusts while testing.
ENDPOINT="\${NOTIFY_URL:-http://localhost:${env.notifyPort.default}${input.notifyPath}}"
CLIENT_ID="\${${env.clientId.name}:-${env.clientId.default}}"
KEY="\${TEST_PROVIDER_PRIVATE_KEY_PATH:-provider-test-private.pem}"

PATH_WITH_QUERY="/\${ENDPOINT#*://*/}"
BODY=${shellQuote(compactJson(input.body))}
TIMESTAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
NONCE=$(openssl rand -hex 16)

SIGNATURE=$(printf '%s\\n%s\\n%s\\n%s\\n%s\\n%s' POST "$PATH_WITH_QUERY" "$CLIENT_ID" "$TIMESTAMP" "$NONCE" "$BODY" \\
  | openssl dgst -sha256 -sign "$KEY" | openssl base64 -A)

# Your handler must answer HTTP 200 with {"code":"SUCCESS"}.
curl --silent --show-error --request POST "$ENDPOINT" \\
  --header "Content-Type: application/json" \\
  --header "X-Client-Id: $CLIENT_ID" \\
  --header "X-Timestamp: $TIMESTAMP" \\
  --header "X-Nonce: $NONCE" \\
  --header "X-Signature: algorithm=RSA-SHA256, keyVersion=1, signature=$SIGNATURE" \\
  --data-raw "$BODY"
`;
}

export const curlTemplate: LanguageTemplate = {
  language: 'curl',
  label: 'curl',
  highlight: 'bash',
  fileName: (input) => `${input.operationId}.sh`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
