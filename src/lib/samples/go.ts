import {
  compactJson,
  generatedValueComment,
  nonceSeconds,
  notificationApplied,
  notificationRejected,
  providerKeysComment,
  providerKeysMissing,
  rejection,
  responseRejected,
  sampleEnvironment as env,
  signatureHeaderPattern,
  timestampPattern,
  windowSeconds,
  type LanguageTemplate,
  type SampleInput,
} from './types';
import {testKeyComment, testMerchant} from './testMerchant';

/** Text as a Go string literal: a raw string when it can be one, else an interpreted one. */
function goString(text: string): string {
  return /[`\r]/.test(text) ? JSON.stringify(text) : `\`${text}\``;
}

/** Helpers both kinds of sample share; env treats an empty variable as set. */
const helpers = `// readProviderKeys reads the provider public keys by keyVersion from version=file pairs.
func readProviderKeys(versionsAndFiles string) map[string]*rsa.PublicKey {
	if versionsAndFiles == "" {
		log.Fatal("${providerKeysMissing}")
	}
	keys := map[string]*rsa.PublicKey{}
	for _, entry := range strings.Split(versionsAndFiles, ",") {
		version, file, _ := strings.Cut(entry, "=")
		keys[version] = parsePublicKey(file, readPEM(file))
	}
	return keys
}

func parsePublicKey(name string, der []byte) *rsa.PublicKey {
	key, err := x509.ParsePKIXPublicKey(der) // SPKI: "BEGIN PUBLIC KEY"
	check(err)
	rsaKey, ok := key.(*rsa.PublicKey)
	if !ok {
		log.Fatalf("%s: not an RSA key", name)
	}
	return rsaKey
}

// isFresh is true for a YYYY-MM-DDTHH:MM:SSZ timestamp within ${windowSeconds} s of this clock, either way.
func isFresh(timestamp string) bool {
	sent, err := time.Parse("2006-01-02T15:04:05Z", timestamp)
	return err == nil && timestampPattern.MatchString(timestamp) && time.Since(sent).Abs() <= ${windowSeconds}*time.Second
}

func verifies(key *rsa.PublicKey, canonical, signature string) bool {
	raw, err := base64.StdEncoding.DecodeString(signature)
	digest := sha256.Sum256([]byte(canonical))
	return err == nil && rsa.VerifyPKCS1v15(key, crypto.SHA256, digest[:], raw) == nil
}

func env(name, fallback string) string {
	if value, ok := os.LookupEnv(name); ok {
		return value
	}
	return fallback
}

func readPEM(path string) []byte {
	data, err := os.ReadFile(path)
	check(err)
	return decodePEM(path, data)
}

func decodePEM(name string, data []byte) []byte {
	block, _ := pem.Decode(data)
	if block == nil {
		log.Fatalf("%s: no PEM block", name)
	}
	return block.Bytes
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}`;

const patterns = `var (
	signaturePattern = regexp.MustCompile(\`${signatureHeaderPattern}\`)
	timestampPattern = regexp.MustCompile(\`${timestampPattern}\`)
)`;

function importBlock(names: readonly string[]): string {
  return `import (\n${[...new Set(names)]
    .sort()
    .map((name) => `\t"${name}"`)
    .join('\n')}\n)`;
}

const commonImports = [
  'crypto',
  'crypto/rsa',
  'crypto/sha256',
  'crypto/x509',
  'encoding/base64',
  'encoding/json',
  'encoding/pem',
  'io',
  'log',
  'net/http',
  'os',
  'regexp',
  'strings',
  'time',
];

/** The example body; generated numbers become %[n]s arguments of fmt.Sprintf. */
function bodyExpression(input: Extract<SampleInput, {kind: 'request'}>): string {
  if (input.body === undefined) return '""';
  let json = compactJson(input.body);
  if (input.generated.length === 0) return goString(json);
  json = json.replace(/%/g, '%%');
  input.generated.forEach((number, index) => {
    json = json.split(number.example).join(`%[${index + 1}]s`);
  });
  return `fmt.Sprintf(${goString(json)}, ${input.generated.map((number) => number.field).join(', ')})`;
}

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  const numbers = input.generated
    .map(
      (value) => `	// ${generatedValueComment(value)}
	${value.field} := ${
    value.kind === 'merchantNumber'
      ? `fmt.Sprintf("${value.prefix}-%d-%s", time.Now().UnixMilli(), randomHex(3))`
      : `time.Now().UTC().Add(${value.hoursAhead} * time.Hour).Format("2006-01-02T15:04:05Z")`
  }\n`,
    )
    .join('');
  const pathNote = input.pathParameters.length ? `; ${input.pathParameters.join(', ')}: the contract's example, use yours` : '';
  return `// ${input.summary}. Go 1.19+: go run ${input.operationId}.go
package main

${importBlock([...commonImports, 'crypto/rand', 'encoding/hex', 'fmt', 'net', 'strconv'])}

${patterns}

// ${testKeyComment.join('\n// ')}
const testMerchantPrivateKey = \`${testMerchant.privateKeyPem}\`
const testProviderPublicKey = \`${testMerchant.providerPublicKeyPem}\`

func main() {
	host := env("${env.host.name}", "${env.host.default}")
	clientID := env("${env.clientId.name}", "${env.clientId.default}")
	privateKeyDER := decodePEM("the test merchant's key", []byte(testMerchantPrivateKey))
	if path := os.Getenv("${env.privateKey.name}"); path != "" {
		privateKeyDER = readPEM(path)
	}
	key, err := x509.ParsePKCS8PrivateKey(privateKeyDER) // PKCS #8: "BEGIN PRIVATE KEY"
	check(err)
	privateKey, ok := key.(*rsa.PrivateKey)
	if !ok {
		log.Fatal("the private key is not an RSA key")
	}
	keyVersion := env("${env.keyVersion.name}", "${env.keyVersion.default}")
	// ${providerKeysComment(true).join('\n\t// ')}
	var providerKeys map[string]*rsa.PublicKey
	if configured := os.Getenv("${env.providerKeys.name}"); configured != "" || clientID != "${testMerchant.clientId}" {
		providerKeys = readProviderKeys(configured)
	} else {
		providerKeys = map[string]*rsa.PublicKey{"${testMerchant.providerKeyVersion}": parsePublicKey("the provider test key", decodePEM("the provider test key", []byte(testProviderPublicKey)))}
	}

${numbers}	method := "${input.method}"
	target := ${JSON.stringify(input.requestTarget)} // path and query exactly as sent${pathNote}
${input.generated.length ? `\t// The contract's example body, with ${input.generated.map((number, index) => `%[${index + 1}]s for ${number.field}`).join(' and ')}.\n` : ''}${hasBody ? '' : '\t// No body: the canonical string ends with an empty line.\n'}	body := ${bodyExpression(input)}
	timestamp := time.Now().UTC().Format("2006-01-02T15:04:05Z")
	nonce := randomHex(16)

	// Canonical string: method, target, client ID, timestamp, nonce, body; signed as UTF-8.
	canonical := strings.Join([]string{method, target, clientID, timestamp, nonce, body}, "\\n")
	digest := sha256.Sum256([]byte(canonical))
	rawSignature, err := rsa.SignPKCS1v15(rand.Reader, privateKey, crypto.SHA256, digest[:])
	check(err)
	signature := base64.StdEncoding.EncodeToString(rawSignature)

	req, err := http.NewRequest(method, host+target, ${hasBody ? 'strings.NewReader(body)' : 'nil'})
	check(err)${hasBody ? `\n\treq.Header.Set("Content-Type", "application/json")` : ''}
	req.Header.Set("X-Client-Id", clientID)
	req.Header.Set("X-Timestamp", timestamp)
	req.Header.Set("X-Nonce", nonce)
	req.Header.Set("X-Signature", "algorithm=RSA-SHA256, keyVersion="+keyVersion+", signature="+signature)
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DialContext = (&net.Dialer{Timeout: 5 * time.Second}).DialContext
	resp, err := (&http.Client{Timeout: 30 * time.Second, Transport: transport}).Do(req)
	check(err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body) // the raw body: verify it before parsing
	check(err)
	if problem := responseProblem(resp, raw, []string{method, target, clientID}, nonce, providerKeys); problem != "" {
		log.Fatalf("${responseRejected}: %s", problem)
	}

	var result struct {
		Code      string          \`json:"code"\`
		Message   string          \`json:"message"\`
		RequestID string          \`json:"requestId"\`
		Data      json.RawMessage \`json:"data"\`
	}
	check(json.Unmarshal(raw, &result))
	if result.Code != "SUCCESS" {
		log.Fatalf("%s: %s (request %s)", result.Code, result.Message, result.RequestID)
	}
	data, err := json.MarshalIndent(result.Data, "", "  ")
	check(err)
	fmt.Println(string(data))
}

// responseProblem says why the response is not the provider's answer to this request, or "" when it is.
func responseProblem(resp *http.Response, body []byte, request []string, requestNonce string, providerKeys map[string]*rsa.PublicKey) string {
	header := signaturePattern.FindStringSubmatch(resp.Header.Get("X-Signature"))
	if header == nil {
		return "${rejection.signatureHeader}"
	}
	publicKey, ok := providerKeys[header[1]]
	if !ok {
		return "${rejection.keyVersion} " + header[1]
	}
	timestamp := resp.Header.Get("X-Timestamp")
	if !isFresh(timestamp) {
		return "${rejection.timestamp}"
	}
	// Your request's method, target and client ID; the response's timestamp and nonce; your request's nonce;
	// the status as three digits; the raw body. Binding your nonce means no other request's response verifies.
	lines := append(request, timestamp, resp.Header.Get("X-Nonce"), requestNonce, strconv.Itoa(resp.StatusCode), string(body))
	if !verifies(publicKey, strings.Join(lines, "\\n"), header[2]) {
		return "${rejection.signature}"
	}
	return ""
}

func randomHex(bytes int) string {
	buffer := make([]byte, bytes)
	_, err := rand.Read(buffer)
	check(err)
	return hex.EncodeToString(buffer)
}

${helpers}
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return `// Receive the ${input.summary}. Go 1.19+: go run ${input.operationId}.go
package main

${importBlock([...commonImports, 'net/url', 'sync'])}

${patterns}

var (
	clientID = env("${env.clientId.name}", "${env.clientId.default}")
	// Your notifyUrl exactly as registered: the provider signs its path and query, even where a proxy in front
	// of this server forwards another path.
	notifyURL    = mustParseURL(env("${env.notifyUrl.name}", "${env.notifyUrl.default}"))
	providerKeys map[string]*rsa.PublicKey // read in main

	mu sync.Mutex
	// Nonces of the last ${nonceSeconds} s. Keep them where every instance of your handler sees them (for example
	// Redis SET NX EX ${nonceSeconds}) when you run more than one.
	nonces = map[string]time.Time{}
	// An in-memory stand-in for your database: see applyInTransaction.
	processed = map[string]bool{}
)

type notification struct {
	NotificationID string          \`json:"notificationId"\`
	EventType      string          \`json:"eventType"\`
	Data           json.RawMessage \`json:"data"\`
}

func main() {
	// ${providerKeysComment(false).join('\n\t// ')}
	providerKeys = readProviderKeys(os.Getenv("${env.providerKeys.name}"))
	http.HandleFunc(notifyURL.Path, handle) // every other path: 404
	server := &http.Server{Addr: ":" + env("${env.notifyPort.name}", "${env.notifyPort.default}"), ReadHeaderTimeout: 10 * time.Second}
	log.Printf("Listening for notifications on %s", notifyURL.Path)
	log.Fatal(server.ListenAndServe())
}

func handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body) // the raw body: verify it before parsing
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	reason := "not a POST"
	if r.Method == http.MethodPost {
		reason = rejectionReason(r.Header, string(body))
	}
	if reason != "" {
		log.Printf("${notificationRejected}: %s", reason)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var n notification
	if err := json.Unmarshal(body, &n); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	applyInTransaction(n)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, \`${compactJson({code: 'SUCCESS'})}\`)
}

// rejectionReason says why the notification is rejected, or "" when it is genuine and new; the checks run in this order.
func rejectionReason(headers http.Header, body string) string {
	header := signaturePattern.FindStringSubmatch(headers.Get("X-Signature"))
	if header == nil {
		return "${rejection.signatureHeader}"
	}
	publicKey, ok := providerKeys[header[1]]
	if !ok {
		return "${rejection.keyVersion} " + header[1]
	}
	if headers.Get("X-Client-Id") != clientID {
		return "${rejection.clientId}"
	}
	timestamp := headers.Get("X-Timestamp")
	if !isFresh(timestamp) {
		return "${rejection.timestamp}"
	}
	nonce := headers.Get("X-Nonce")
	canonical := strings.Join([]string{"POST", notifyURL.RequestURI(), clientID, timestamp, nonce, body}, "\\n")
	if !verifies(publicKey, canonical, header[2]) {
		return "${rejection.signature}"
	}
	// Only a verified notification may take a place in the nonce store.
	mu.Lock()
	defer mu.Unlock()
	now := time.Now()
	for seen, expiresAt := range nonces {
		if expiresAt.Before(now) {
			delete(nonces, seen)
		}
	}
	if _, seen := nonces[nonce]; seen {
		return "${rejection.nonce}"
	}
	nonces[nonce] = now.Add(${nonceSeconds} * time.Second)
	return ""
}

// applyInTransaction must be ONE database transaction in production: insert the notificationId (a unique key)
// and apply the change together, so a crash leaves both or neither.
func applyInTransaction(n notification) {
	mu.Lock()
	defer mu.Unlock()
	if processed[n.NotificationID] {
		return // a redelivery: acknowledge it, apply nothing twice
	}
	processed[n.NotificationID] = true
	// Apply n.Data to your records here. Event types you do not know yet are stored and acknowledged.
	log.Printf("${notificationApplied} %s %s", n.EventType, n.NotificationID)
}

func mustParseURL(raw string) *url.URL {
	parsed, err := url.Parse(raw)
	check(err)
	return parsed
}

${helpers}
`;
}

export const goTemplate: LanguageTemplate = {
  language: 'go',
  label: 'Go',
  highlight: 'go',
  fileName: (input) => `${input.operationId}.go`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
