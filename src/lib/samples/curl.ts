import {
  compactJson,
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

/** Quotes a string for a POSIX shell single-quoted word. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Shell variable holding a generated number, e.g. MERCHANT_ORDER_NO. */
function shellName(number: GeneratedValue): string {
  return number.field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

/** Text as one shell word: single-quoted pieces joined to the double-quoted variables of generated numbers. */
function shellWord(text: string, generated: readonly GeneratedValue[]): string {
  return splitGenerated(text, generated)
    .map((piece) => ('variable' in piece ? `"$${shellName(piece.variable)}"` : shellQuote(piece.text)))
    .join('');
}

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const body = input.body === undefined ? '' : compactJson(input.body);
  const numbers = input.generated
    .map(
      (value) => `# ${generatedValueComment(value)}
${shellName(value)}=${
        value.kind === 'merchantNumber'
          ? `"${value.prefix}-$(date -u +%s)-$(openssl rand -hex 3)"`
          : // GNU date first, then the BSD date of macOS.
            `"$(date -u -d '+${value.hoursAhead} hours' +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -v+${value.hoursAhead}H +%Y-%m-%dT%H:%M:%SZ)"`
      }\n`,
    )
    .join('');
  const pathNote = input.pathParameters.length ? `; ${input.pathParameters.join(', ')}: the contract's example, use yours` : '';
  const curlOptions = [
    '--request "$METHOD" "$HOST$TARGET"',
    ...(body === '' ? [] : ['--header "Content-Type: application/json"']),
    '--header "X-Client-Id: $CLIENT_ID"',
    '--header "X-Timestamp: $TIMESTAMP"',
    '--header "X-Nonce: $NONCE"',
    '--header "X-Signature: algorithm=RSA-SHA256, keyVersion=$KEY_VERSION, signature=$SIGNATURE"',
    ...(body === '' ? [] : ['--data-raw "$BODY"']),
    `--dump-header "$WORK/headers" --output "$WORK/body" --write-out '%{http_code}'`,
  ];
  return String.raw`# ${input.summary}: sign with openssl, send with curl, verify the answer with openssl, then read it
# with jq. Needs bash, curl, openssl, jq and GNU date.
set -euo pipefail
HOST="${'$'}{${env.host.name}:-${env.host.default}}"
CLIENT_ID="${'$'}{${env.clientId.name}:-${env.clientId.default}}"
KEY_VERSION="${'$'}{${env.keyVersion.name}:-${env.keyVersion.default}}"
# ${providerKeysComment(true).join('\n# ')}
PROVIDER_KEYS="${'$'}{${env.providerKeys.name}:-}"
if [ -z "$PROVIDER_KEYS" ] && [ "$CLIENT_ID" != '${testMerchant.clientId}' ]; then
  echo '${providerKeysMissing}' >&2
  exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# ${testKeyComment.join('\n# ')}
TEST_MERCHANT_PRIVATE_KEY='${testMerchant.privateKeyPem}'
TEST_PROVIDER_PUBLIC_KEY='${testMerchant.providerPublicKeyPem}'
KEY="${'$'}{${env.privateKey.name}:-}"
if [ -z "$KEY" ]; then
  KEY="$WORK/test-merchant-private.pem"
  printf '%s\n' "$TEST_MERCHANT_PRIVATE_KEY" > "$KEY"
fi
if [ -z "$PROVIDER_KEYS" ]; then
  printf '%s\n' "$TEST_PROVIDER_PUBLIC_KEY" > "$WORK/provider-test-public.pem"
  PROVIDER_KEYS="${testMerchant.providerKeyVersion}=$WORK/provider-test-public.pem"
fi

${numbers}METHOD=${input.method}
TARGET=${shellQuote(input.requestTarget)} # path and query exactly as sent${pathNote}
BODY=${body === '' ? "'' # no body: the canonical string ends with an empty line" : shellWord(body, input.generated)}
TIMESTAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
NONCE=$(openssl rand -hex 16)

# Canonical string: method, target, client ID, timestamp, nonce, body; six lines, no newline at the end.
SIGNATURE=$(printf '%s\n%s\n%s\n%s\n%s\n%s' "$METHOD" "$TARGET" "$CLIENT_ID" "$TIMESTAMP" "$NONCE" "$BODY" \
  | openssl dgst -sha256 -sign "$KEY" | openssl base64 -A)

STATUS=$(curl --silent --show-error --connect-timeout 5 --max-time 30 ${curlOptions.join(' \\\n  ')})

# Verify the answer before reading it.
reject() { echo "${responseRejected}: $1" >&2; exit 1; }
header() { # the value of a response header, named in lower case
  awk -v name="$1:" '{ sub(/\r$/, "") } tolower(substr($0, 1, length(name))) == name { value = substr($0, length(name) + 1); sub(/^ +/, "", value) } END { print value }' "$WORK/headers"
}
fresh() { # true for a YYYY-MM-DDTHH:MM:SSZ timestamp within ${windowSeconds} s of this clock, either way
  [[ $1 =~ ${timestampPattern} ]] || return 1
  local age=$(( $(date -u +%s) - $(date -u -d "$1" +%s) ))
  (( age <= ${windowSeconds} && age >= -${windowSeconds} ))
}
SIGNATURE_PATTERN='${signatureHeaderPattern}'
[[ $(header x-signature) =~ $SIGNATURE_PATTERN ]] || reject '${rejection.signatureHeader}'
RESPONSE_KEY_VERSION=${'$'}{BASH_REMATCH[1]}
RESPONSE_SIGNATURE=${'$'}{BASH_REMATCH[2]}
PROVIDER_KEY=$(tr ',' '\n' <<<"$PROVIDER_KEYS" | sed -n "s/^$RESPONSE_KEY_VERSION=//p")
[ -n "$PROVIDER_KEY" ] || reject "${rejection.keyVersion} $RESPONSE_KEY_VERSION"
RESPONSE_TIMESTAMP=$(header x-timestamp)
fresh "$RESPONSE_TIMESTAMP" || reject '${rejection.timestamp}'
# Your request's method, target and client ID; the response's timestamp and nonce; your request's nonce;
# the status as three digits; the raw body, byte for byte.
{ printf '%s\n' "$METHOD" "$TARGET" "$CLIENT_ID" "$RESPONSE_TIMESTAMP" "$(header x-nonce)" "$NONCE" "$STATUS"; cat "$WORK/body"; } > "$WORK/canonical"
printf '%s' "$RESPONSE_SIGNATURE" | openssl base64 -d -A > "$WORK/signature"
openssl dgst -sha256 -verify "$PROVIDER_KEY" -signature "$WORK/signature" "$WORK/canonical" > /dev/null 2>&1 \
  || reject '${rejection.signature}'

if [ "$(jq -r .code "$WORK/body")" != SUCCESS ]; then
  jq -r '"\(.code): \(.message) (request \(.requestId))"' "$WORK/body" >&2
  exit 1
fi
jq .data "$WORK/body"
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return String.raw`# Send a signed test ${input.summary} to your own handler. It is signed with the published
# provider test key as keyVersion 1: let your handler trust provider-test-public.pem while testing only.
set -euo pipefail
# Your notifyUrl as registered (its path and query are signed), and where this test reaches your handler.
NOTIFY_URL="${'$'}{${env.notifyUrl.name}:-${env.notifyUrl.default}}"
HANDLER_URL="${'$'}{HANDLER_URL:-http://localhost:${env.notifyPort.default}${input.notifyPath}}"
CLIENT_ID="${'$'}{${env.clientId.name}:-${env.clientId.default}}"
KEY="${'$'}{TEST_PROVIDER_PRIVATE_KEY_PATH:-provider-test-private.pem}"

SIGNED_PATH="/${'$'}{NOTIFY_URL#*://*/}"
BODY=${shellQuote(compactJson(input.body))}
TIMESTAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
NONCE=$(openssl rand -hex 16)

SIGNATURE=$(printf '%s\n%s\n%s\n%s\n%s\n%s' POST "$SIGNED_PATH" "$CLIENT_ID" "$TIMESTAMP" "$NONCE" "$BODY" \
  | openssl dgst -sha256 -sign "$KEY" | openssl base64 -A)

# Your handler must answer HTTP 200 with {"code":"SUCCESS"} within 10 seconds.
curl --silent --show-error --fail --max-time 10 --request POST "$HANDLER_URL" \
  --header "Content-Type: application/json" \
  --header "X-Client-Id: $CLIENT_ID" \
  --header "X-Timestamp: $TIMESTAMP" \
  --header "X-Nonce: $NONCE" \
  --header "X-Signature: algorithm=RSA-SHA256, keyVersion=1, signature=$SIGNATURE" \
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
