import {compactJson, sampleEnvironment as env, type LanguageTemplate, type SampleInput} from './types';

/** Text as a Go string literal: a raw string when it can be one, else an interpreted one. */
export function goString(text: string): string {
  return /[`\r]/.test(text) ? JSON.stringify(text) : `\`${text}\``;
}

/** Reads an environment variable with its sandbox default (an empty value counts as set). */
const envHelper = `func env(name, fallback string) string {
	if value, ok := os.LookupEnv(name); ok {
		return value
	}
	return fallback
}`;

/** Loads a PEM file and returns the DER bytes of its first block. */
const pemHelper = `func readPEM(path string) []byte {
	data, err := os.ReadFile(path)
	check(err)
	block, _ := pem.Decode(data)
	if block == nil {
		log.Fatalf("%s: no PEM block", path)
	}
	return block.Bytes
}`;

const checkHelper = `func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}`;

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const hasBody = input.body !== undefined;
  const body = input.body === undefined ? '""' : goString(compactJson(input.body));
  return `// ${input.summary}. Go 1.19+: go run ${input.operationId}.go
package main

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	base := env("${env.base.name}", "${env.base.default}")
	clientID := env("${env.clientId.name}", "${env.clientId.default}")
	keyPath := env("${env.privateKey.name}", "${env.privateKey.default}")
	keyVersion := env("${env.keyVersion.name}", "${env.keyVersion.default}")

	method := "${input.method}"
	body := ${body}
	req, err := http.NewRequest(method, base+${JSON.stringify(input.pathWithQuery)}, ${hasBody ? 'strings.NewReader(body)' : 'nil'})
	check(err)
	timestamp := time.Now().UTC().Format("2006-01-02T15:04:05Z")
	nonceBytes := make([]byte, 16)
	_, err = rand.Read(nonceBytes)
	check(err)
	nonce := hex.EncodeToString(nonceBytes)

	// Canonical string: method, path with query (as sent), client ID, timestamp, nonce, body.
	canonical := strings.Join([]string{method, req.URL.RequestURI(), clientID, timestamp, nonce, body}, "\\n")
	key, err := x509.ParsePKCS8PrivateKey(readPEM(keyPath)) // PKCS#8: "BEGIN PRIVATE KEY"
	check(err)
	rsaKey, ok := key.(*rsa.PrivateKey)
	if !ok {
		log.Fatalf("%s: not an RSA key", keyPath)
	}
	digest := sha256.Sum256([]byte(canonical))
	rawSignature, err := rsa.SignPKCS1v15(rand.Reader, rsaKey, crypto.SHA256, digest[:])
	check(err)
	signature := base64.StdEncoding.EncodeToString(rawSignature)

	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Client-Id", clientID)
	req.Header.Set("X-Timestamp", timestamp)
	req.Header.Set("X-Nonce", nonce)
	req.Header.Set("X-Signature", "algorithm=RSA-SHA256, keyVersion="+keyVersion+", signature="+signature)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	check(err)
	defer resp.Body.Close()

	var result struct {
		Code      string \`json:"code"\`
		Message   string \`json:"message"\`
		RequestID string \`json:"requestId"\`
		Data      any    \`json:"data"\`
	}
	check(json.NewDecoder(resp.Body).Decode(&result))
	if result.Code != "SUCCESS" {
		fmt.Fprintf(os.Stderr, "%s: %s (request %s)\\n", result.Code, result.Message, result.RequestID)
		os.Exit(1)
	}
	data, err := json.MarshalIndent(result.Data, "", "  ")
	check(err)
	fmt.Println(string(data))
}

${envHelper}

${pemHelper}

${checkHelper}
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  return `// Receive the ${input.summary}. Go 1.19+: go run ${input.operationId}.go
package main

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
)

const window = 300 * time.Second

var (
	signaturePattern = regexp.MustCompile(\`signature=([A-Za-z0-9+/=]+)\`)
	providerKey      *rsa.PublicKey
	mu               sync.Mutex
	seen             = map[string]bool{} // use your database in production
)

func main() {
	key, err := x509.ParsePKIXPublicKey(readPEM(env("${env.providerPublicKey.name}", "${env.providerPublicKey.default}"))) // SPKI: "BEGIN PUBLIC KEY"
	check(err)
	var ok bool
	if providerKey, ok = key.(*rsa.PublicKey); !ok {
		log.Fatal("provider key is not an RSA key")
	}
	http.HandleFunc("/", handle)
	log.Println("Listening for notifications on ${input.notifyPath}")
	log.Fatal(http.ListenAndServe(":"+env("${env.notifyPort.name}", "${env.notifyPort.default}"), nil))
}

func handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(r.Body) // verify the raw bytes, not re-serialised JSON
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	timestamp := r.Header.Get("X-Timestamp")
	canonical := strings.Join([]string{"POST", r.RequestURI, r.Header.Get("X-Client-Id"), timestamp, r.Header.Get("X-Nonce"), string(body)}, "\\n")
	if !valid(canonical, timestamp, r.Header.Get("X-Signature")) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var notification struct {
		NotificationID string \`json:"notificationId"\`
		EventType      string \`json:"eventType"\`
	}
	if err := json.Unmarshal(body, &notification); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	mu.Lock()
	duplicate := seen[notification.NotificationID]
	seen[notification.NotificationID] = true
	mu.Unlock()
	if !duplicate {
		log.Println(notification.EventType, string(body)) // store, then process asynchronously
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, \`${compactJson({code: 'SUCCESS'})}\`)
}

func valid(canonical, timestamp, signatureHeader string) bool {
	sent, err := time.Parse(time.RFC3339, timestamp)
	if err != nil || time.Since(sent).Abs() > window {
		return false
	}
	match := signaturePattern.FindStringSubmatch(signatureHeader)
	if match == nil {
		return false
	}
	signature, err := base64.StdEncoding.DecodeString(match[1])
	if err != nil {
		return false
	}
	digest := sha256.Sum256([]byte(canonical))
	return rsa.VerifyPKCS1v15(providerKey, crypto.SHA256, digest[:], signature) == nil
}

${envHelper}

${pemHelper}

${checkHelper}
`;
}

export const goTemplate: LanguageTemplate = {
  language: 'go',
  label: 'Go',
  highlight: 'go',
  fileName: (input) => `${input.operationId}.go`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
