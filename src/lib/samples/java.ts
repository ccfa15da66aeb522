import {
  compactJson,
  generatedValueComment,
  nonceSeconds,
  notificationApplied,
  notificationRejected,
  pascalCase,
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

/**
 * Text as a Java 17 text block whose value is exactly `text` (one line, no
 * trailing newline). Backslashes are escaped, quotes only where they would end
 * the block, and anything outside printable ASCII becomes a \uXXXX escape so the
 * source compiles the same under any platform encoding.
 */
function javaTextBlock(text: string, indent: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/"(?=""|$)/g, '\\"')
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `"""\n${indent}${escaped}"""`;
}

/** How to run a sample: Jackson parses the JSON (D-37), so its three jars go on the class path. */
const runLine = (className: string) =>
  `Java 17+ with Jackson 2 (jackson-databind):\n// java -cp jackson-databind.jar:jackson-core.jar:jackson-annotations.jar ${className}.java`;

const constants = String.raw`    private static final Pattern SIGNATURE = Pattern.compile("${signatureHeaderPattern}");
    private static final Pattern TIMESTAMP = Pattern.compile("${timestampPattern}");
    private static final ObjectMapper JSON = new ObjectMapper();`;

/** Helpers both kinds of sample share. */
const helpers = String.raw`
    /** True for a YYYY-MM-DDTHH:MM:SSZ timestamp within ${windowSeconds} s of this clock, either way. */
    private static boolean isFresh(String timestamp) {
        try {
            return TIMESTAMP.matcher(timestamp).matches()
                    && Duration.between(Instant.parse(timestamp), Instant.now()).abs().getSeconds() <= ${windowSeconds};
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean verifies(PublicKey key, String canonical, String signature) {
        try {
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(key);
            verifier.update(canonical.getBytes(StandardCharsets.UTF_8));
            return verifier.verify(Base64.getDecoder().decode(signature));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The provider public keys by keyVersion, from version=file pairs. */
    private static Map<String, PublicKey> providerKeys(String versionsAndFiles) throws Exception {
        if (versionsAndFiles == null || versionsAndFiles.isEmpty()) throw new IllegalStateException("${providerKeysMissing}");
        Map<String, PublicKey> keys = new HashMap<>();
        for (String entry : versionsAndFiles.split(",")) {
            String[] versionAndFile = entry.split("=", 2);
            byte[] der = pemBody(versionAndFile[1]); // SPKI: "BEGIN PUBLIC KEY"
            keys.put(versionAndFile[0], KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der)));
        }
        return keys;
    }

    private static byte[] pemBody(String path) throws IOException {
        return pemText(Files.readString(Path.of(path)));
    }

    private static byte[] pemText(String pem) {
        return Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value != null ? value : fallback;
    }`;

const commonImports = [
  'com.fasterxml.jackson.databind.JsonNode',
  'com.fasterxml.jackson.databind.ObjectMapper',
  'java.io.IOException',
  'java.nio.charset.StandardCharsets',
  'java.nio.file.Files',
  'java.nio.file.Path',
  'java.security.GeneralSecurityException',
  'java.security.KeyFactory',
  'java.security.PublicKey',
  'java.security.Signature',
  'java.security.spec.X509EncodedKeySpec',
  'java.time.Duration',
  'java.time.Instant',
  'java.time.format.DateTimeParseException',
  'java.util.Base64',
  'java.util.HashMap',
  'java.util.Map',
  'java.util.regex.Matcher',
  'java.util.regex.Pattern',
];

function imports(extra: readonly string[]): string {
  return [...new Set([...commonImports, ...extra])]
    .sort()
    .map((name) => `import ${name};`)
    .join('\n');
}

/** The example body as a text block; generated numbers become %n$s arguments of formatted(). */
function bodyExpression(input: Extract<SampleInput, {kind: 'request'}>): string {
  if (input.body === undefined) return '""';
  let json = compactJson(input.body);
  if (input.generated.length === 0) return javaTextBlock(json, '                ');
  json = json.replace(/%/g, '%%');
  input.generated.forEach((number, index) => {
    json = json.split(number.example).join(`%${index + 1}$s`);
  });
  return `${javaTextBlock(json, '                ')}.formatted(${input.generated.map((number) => number.field).join(', ')})`;
}

/** Says which format argument is which generated number. */
function bodyNote(input: Extract<SampleInput, {kind: 'request'}>, indent: string, placeholder: (index: number) => string): string {
  if (input.generated.length === 0) return '';
  return `${indent}// The contract's example body, with ${input.generated.map((number, index) => `${placeholder(index + 1)} for ${number.field}`).join(' and ')}.\n`;
}

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const className = pascalCase(input.operationId);
  const hasBody = input.body !== undefined;
  const numbers = input.generated
    .map(
      (value) => `        // ${generatedValueComment(value)}
        String ${value.field} = ${
          value.kind === 'merchantNumber'
            ? `"${value.prefix}-" + System.currentTimeMillis() + "-" + UUID.randomUUID().toString().substring(0, 6)`
            : `Instant.now().plus(Duration.ofHours(${value.hoursAhead})).truncatedTo(ChronoUnit.SECONDS).toString()`
        };\n`,
    )
    .join('');
  const pathNote = input.pathParameters.length ? `; ${input.pathParameters.join(', ')}: the contract's example, use yours` : '';
  return String.raw`// ${input.summary}. ${runLine(className)}
${imports([
  'java.net.URI',
  'java.net.http.HttpClient',
  'java.net.http.HttpRequest',
  'java.net.http.HttpResponse',
  'java.security.PrivateKey',
  'java.security.spec.PKCS8EncodedKeySpec',
  'java.time.temporal.ChronoUnit',
  'java.util.UUID',
])}

public class ${className} {
${constants}

    // ${testKeyComment.join('\n    // ')}
    private static final String TEST_MERCHANT_PRIVATE_KEY = """
${testMerchant.privateKeyPem.replace(/^/gm, '            ')}
            """;
    private static final String TEST_PROVIDER_PUBLIC_KEY = """
${testMerchant.providerPublicKeyPem.replace(/^/gm, '            ')}
            """;

    public static void main(String[] args) throws Exception {
        String host = env("${env.host.name}", "${env.host.default}");
        String clientId = env("${env.clientId.name}", "${env.clientId.default}");
        String keyPath = System.getenv("${env.privateKey.name}");
        byte[] privateKeyDer = keyPath == null || keyPath.isEmpty() ? pemText(TEST_MERCHANT_PRIVATE_KEY) : pemBody(keyPath);
        PrivateKey privateKey = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(privateKeyDer)); // PKCS #8: "BEGIN PRIVATE KEY"
        String keyVersion = env("${env.keyVersion.name}", "${env.keyVersion.default}");
        // ${providerKeysComment(true).join('\n        // ')}
        String configuredProviderKeys = System.getenv("${env.providerKeys.name}");
        Map<String, PublicKey> providerKeys = (configuredProviderKeys == null || configuredProviderKeys.isEmpty()) && clientId.equals("${testMerchant.clientId}")
                ? Map.of("${testMerchant.providerKeyVersion}", KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(pemText(TEST_PROVIDER_PUBLIC_KEY))))
                : providerKeys(configuredProviderKeys);

${numbers}        String method = "${input.method}";
        String target = ${JSON.stringify(input.requestTarget)}; // path and query exactly as sent${pathNote}
${bodyNote(input, '        ', (index) => `%${index}$s`)}        String body = ${bodyExpression(input)};${hasBody ? '' : ' // no body: the canonical string ends with an empty line'}
        String timestamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(); // YYYY-MM-DDTHH:MM:SSZ
        String nonce = UUID.randomUUID().toString();

        // Canonical string: method, target, client ID, timestamp, nonce, body; signed as UTF-8.
        String canonical = String.join("\n", method, target, clientId, timestamp, nonce, body);
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(privateKey);
        signer.update(canonical.getBytes(StandardCharsets.UTF_8));
        String signature = Base64.getEncoder().encodeToString(signer.sign());

        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(host + target))
                .timeout(Duration.ofSeconds(30))${hasBody ? `\n                .header("Content-Type", "application/json")` : ''}
                .header("X-Client-Id", clientId)
                .header("X-Timestamp", timestamp)
                .header("X-Nonce", nonce)
                .header("X-Signature", "algorithm=RSA-SHA256, keyVersion=" + keyVersion + ", signature=" + signature)
                .method(method, ${hasBody ? 'HttpRequest.BodyPublishers.ofString(body)' : 'HttpRequest.BodyPublishers.noBody()'})
                .build();
        // The raw body: verify it before parsing.
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        String problem = responseProblem(response, providerKeys, String.join("\n", method, target, clientId), nonce);
        if (problem != null) {
            throw new IllegalStateException("${responseRejected}: " + problem);
        }

        JsonNode result = JSON.readTree(response.body());
        if (!result.path("code").asText().equals("SUCCESS")) {
            System.err.printf("%s: %s (request %s)%n", result.path("code").asText(), result.path("message").asText(), result.path("requestId").asText());
            System.exit(1);
        }
        System.out.println(result.path("data").toPrettyString());
    }

    /** Why the response is not the provider's answer to this request, or null when it is. */
    private static String responseProblem(HttpResponse<String> response, Map<String, PublicKey> providerKeys, String requestLines, String requestNonce) {
        Matcher header = SIGNATURE.matcher(response.headers().firstValue("X-Signature").orElse(""));
        if (!header.matches()) {
            return "${rejection.signatureHeader}";
        }
        PublicKey publicKey = providerKeys.get(header.group(1));
        if (publicKey == null) {
            return "${rejection.keyVersion} " + header.group(1);
        }
        String timestamp = response.headers().firstValue("X-Timestamp").orElse("");
        if (!isFresh(timestamp)) {
            return "${rejection.timestamp}";
        }
        // Your request's method, target and client ID; the response's timestamp and nonce; your request's nonce;
        // the status as three digits; the raw body. Binding your nonce means no other request's response verifies.
        String canonical = String.join("\n", requestLines, timestamp, response.headers().firstValue("X-Nonce").orElse(""),
                requestNonce, String.valueOf(response.statusCode()), response.body());
        return verifies(publicKey, canonical, header.group(2)) ? null : "${rejection.signature}";
    }
${helpers}
}
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  const className = pascalCase(input.operationId);
  return String.raw`// Receive the ${input.summary}. ${runLine(className)}
${imports([
  'com.sun.net.httpserver.Headers',
  'com.sun.net.httpserver.HttpExchange',
  'com.sun.net.httpserver.HttpServer',
  'java.io.OutputStream',
  'java.net.InetSocketAddress',
  'java.net.URI',
])}

public class ${className} {
${constants}
    private static final String CLIENT_ID = env("${env.clientId.name}", "${env.clientId.default}");
    // Your notifyUrl exactly as registered: the provider signs its path and query, even where a proxy in front
    // of this server forwards another path.
    private static final URI NOTIFY_URL = URI.create(env("${env.notifyUrl.name}", "${env.notifyUrl.default}"));
    private static final String SIGNED_PATH = NOTIFY_URL.getRawPath() + (NOTIFY_URL.getRawQuery() == null ? "" : "?" + NOTIFY_URL.getRawQuery());
    private static Map<String, PublicKey> providerKeys;
    // Nonces of the last ${nonceSeconds} s. Keep them where every instance of your handler sees them (for example
    // Redis SET NX EX ${nonceSeconds}) when you run more than one.
    private static final Map<String, Instant> NONCES = new HashMap<>();
    // An in-memory stand-in for your database: see applyInTransaction.
    private static final Map<String, JsonNode> PROCESSED = new HashMap<>();

    public static void main(String[] args) throws Exception {
        // ${providerKeysComment(false).join('\n        // ')}
        providerKeys = providerKeys(System.getenv("${env.providerKeys.name}"));
        int port = Integer.parseInt(env("${env.notifyPort.name}", "${env.notifyPort.default}"));
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/", ${className}::handle);
        server.start();
        System.out.println("Listening for notifications on " + NOTIFY_URL.getRawPath());
    }

    private static void handle(HttpExchange exchange) throws IOException {
        try {
            if (!exchange.getRequestURI().getRawPath().equals(NOTIFY_URL.getRawPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            // The raw body: verify it before parsing.
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String reason = exchange.getRequestMethod().equals("POST") ? rejectionReason(exchange.getRequestHeaders(), body) : "not a POST";
            if (reason != null) {
                System.out.println("${notificationRejected}: " + reason);
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            applyInTransaction(JSON.readTree(body));
            byte[] answer = ${JSON.stringify(compactJson({code: 'SUCCESS'}))}.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } catch (IOException | RuntimeException e) {
            e.printStackTrace();
            exchange.sendResponseHeaders(500, -1); // not stored: the provider delivers it again
        } finally {
            exchange.close();
        }
    }

    /** Why the notification is rejected, or null when it is genuine and new; the checks run in this order. */
    private static String rejectionReason(Headers headers, String body) {
        Matcher header = SIGNATURE.matcher(header(headers, "X-Signature"));
        if (!header.matches()) {
            return "${rejection.signatureHeader}";
        }
        PublicKey publicKey = providerKeys.get(header.group(1));
        if (publicKey == null) {
            return "${rejection.keyVersion} " + header.group(1);
        }
        if (!CLIENT_ID.equals(headers.getFirst("X-Client-Id"))) {
            return "${rejection.clientId}";
        }
        String timestamp = header(headers, "X-Timestamp");
        if (!isFresh(timestamp)) {
            return "${rejection.timestamp}";
        }
        String nonce = header(headers, "X-Nonce");
        String canonical = String.join("\n", "POST", SIGNED_PATH, CLIENT_ID, timestamp, nonce, body);
        if (!verifies(publicKey, canonical, header.group(2))) {
            return "${rejection.signature}";
        }
        return rememberNonce(nonce) ? null : "${rejection.nonce}";
    }

    private static String header(Headers headers, String name) {
        String value = headers.getFirst(name);
        return value != null ? value : "";
    }

    /** Records the nonce of a verified notification; false when it was seen in the last ${nonceSeconds} s. */
    private static synchronized boolean rememberNonce(String nonce) {
        Instant now = Instant.now();
        NONCES.values().removeIf(expiresAt -> expiresAt.isBefore(now));
        return NONCES.putIfAbsent(nonce, now.plusSeconds(${nonceSeconds})) == null;
    }

    /**
     * In production this must be ONE database transaction: insert the notificationId (a unique key) and apply
     * the change together, so a crash leaves both or neither.
     */
    private static synchronized void applyInTransaction(JsonNode notification) {
        String notificationId = notification.path("notificationId").asText();
        if (PROCESSED.putIfAbsent(notificationId, notification) != null) {
            return; // a redelivery: acknowledge it, apply nothing twice
        }
        // Apply notification.path("data") to your records here. Event types you do not know yet are stored and acknowledged.
        System.out.println("${notificationApplied} " + notification.path("eventType").asText() + " " + notificationId);
    }
${helpers}
}
`;
}

export const javaTemplate: LanguageTemplate = {
  language: 'java',
  label: 'Java',
  highlight: 'java',
  fileName: (input) => `${pascalCase(input.operationId)}.java`,
  render: (input) => (input.kind === 'request' ? request(input) : notification(input)),
};
