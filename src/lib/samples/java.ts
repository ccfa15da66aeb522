import {compactJson, pascalCase, sampleEnvironment as env, type LanguageTemplate, type SampleInput} from './types';

/**
 * Text as a Java 17 text block whose value is exactly `text` (one line, no
 * trailing newline). Backslashes are escaped, quotes only where they would end
 * the block, and anything outside printable ASCII becomes a \uXXXX escape so the
 * source compiles the same under any platform encoding.
 */
export function javaTextBlock(text: string, indent: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/"(?=""|$)/g, '\\"')
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `"""\n${indent}${escaped}"""`;
}

/** Reads an environment variable with its sandbox default. */
const envHelper = String.raw`
    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value != null ? value : fallback;
    }`;

/** Reads one string field with a regex: the JDK has no JSON parser. */
const fieldHelper = String.raw`
    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(json);
        return matcher.find() ? matcher.group(1) : "";
    }`;

function request(input: Extract<SampleInput, {kind: 'request'}>): string {
  const className = pascalCase(input.operationId);
  const hasBody = input.body !== undefined;
  const body = input.body === undefined ? '""' : javaTextBlock(compactJson(input.body), '                ');
  return String.raw`// ${input.summary}. Java 17+: java ${className}.java
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class ${className} {
    public static void main(String[] args) throws Exception {
        String base = env("${env.base.name}", "${env.base.default}");
        String clientId = env("${env.clientId.name}", "${env.clientId.default}");
        String keyPath = env("${env.privateKey.name}", "${env.privateKey.default}");
        String keyVersion = env("${env.keyVersion.name}", "${env.keyVersion.default}");

        String method = "${input.method}";
        URI uri = URI.create(base + ${JSON.stringify(input.pathWithQuery)});
        String body = ${body};
        String pathWithQuery = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String timestamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String nonce = UUID.randomUUID().toString();

        // Canonical string: method, path with query, client ID, timestamp, nonce, body.
        String canonical = String.join("\n", method, pathWithQuery, clientId, timestamp, nonce, body);
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(privateKey(keyPath));
        signer.update(canonical.getBytes(StandardCharsets.UTF_8));
        String signature = Base64.getEncoder().encodeToString(signer.sign());

        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("X-Client-Id", clientId)
                .header("X-Timestamp", timestamp)
                .header("X-Nonce", nonce)
                .header("X-Signature", "algorithm=RSA-SHA256, keyVersion=" + keyVersion + ", signature=" + signature)
                .method(method, ${hasBody ? 'HttpRequest.BodyPublishers.ofString(body)' : 'HttpRequest.BodyPublishers.noBody()'})
                .build();
        String result = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();

        // Read the envelope with your JSON library in real code; a regex keeps this sample dependency-free.
        if (!field(result, "code").equals("SUCCESS")) {
            System.err.printf("%s: %s (request %s)%n", field(result, "code"), field(result, "message"), field(result, "requestId"));
            System.exit(1);
        }
        System.out.println(result);
    }

    private static PrivateKey privateKey(String path) throws Exception {
        String pem = Files.readString(Path.of(path)); // PKCS#8: "BEGIN PRIVATE KEY"
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    }
${fieldHelper}
${envHelper}
}
`;
}

function notification(input: Extract<SampleInput, {kind: 'notification'}>): string {
  const className = pascalCase(input.operationId);
  return String.raw`// Receive the ${input.summary}. Java 17+: java ${className}.java
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class ${className} {
    private static final Duration WINDOW = Duration.ofSeconds(300);
    private static final Pattern SIGNATURE = Pattern.compile("signature=([A-Za-z0-9+/=]+)");
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet(); // use your database in production
    private static PublicKey providerKey;

    public static void main(String[] args) throws Exception {
        providerKey = publicKey(env("${env.providerPublicKey.name}", "${env.providerPublicKey.default}"));
        int port = Integer.parseInt(env("${env.notifyPort.name}", "${env.notifyPort.default}"));
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/", ${className}::handle);
        server.start();
        System.out.println("Listening for notifications on ${input.notifyPath}");
    }

    private static void handle(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestMethod().equals("POST")) {
            exchange.sendResponseHeaders(405, -1);
            exchange.close();
            return;
        }
        // Verify the raw bytes, not re-serialised JSON.
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        URI uri = exchange.getRequestURI();
        String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String timestamp = header(exchange, "X-Timestamp");
        String canonical = String.join("\n", "POST", path, header(exchange, "X-Client-Id"), timestamp, header(exchange, "X-Nonce"), body);
        if (!isValid(canonical, timestamp, header(exchange, "X-Signature"))) {
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
            return;
        }
        // Read the notification with your JSON library in real code; a regex keeps this sample dependency-free.
        if (SEEN.add(field(body, "notificationId"))) {
            System.out.println(field(body, "eventType") + " " + body); // store, then process asynchronously
        }
        byte[] answer = ${JSON.stringify(compactJson({code: 'SUCCESS'}))}.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }

    private static boolean isValid(String canonical, String timestamp, String signatureHeader) {
        try {
            Matcher signature = SIGNATURE.matcher(signatureHeader);
            if (Duration.between(Instant.parse(timestamp), Instant.now()).abs().compareTo(WINDOW) > 0 || !signature.find()) {
                return false;
            }
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(providerKey);
            verifier.update(canonical.getBytes(StandardCharsets.UTF_8));
            return verifier.verify(Base64.getDecoder().decode(signature.group(1)));
        } catch (DateTimeParseException | IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }

    private static PublicKey publicKey(String path) throws Exception {
        String pem = Files.readString(Path.of(path)); // SPKI: "BEGIN PUBLIC KEY"
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
    }

    private static String header(HttpExchange exchange, String name) {
        String value = exchange.getRequestHeaders().getFirst(name);
        return value != null ? value : "";
    }
${fieldHelper}
${envHelper}
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
