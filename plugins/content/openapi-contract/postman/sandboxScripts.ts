/**
 * The two collection-level scripts of the Postman collection, as the JavaScript text Postman runs
 * (each becomes an `exec` array). They are strings, not TypeScript functions turned into text,
 * because the TypeScript loaders (tsx, Docusaurus's jiti) may rewrite a function's source, and
 * what Postman runs must be exactly what tests/unit/postman.test.ts runs.
 *
 * Why jsrsasign through `pm.require('npm:…')`: Postman's script sandbox has no RSA (no WebCrypto
 * `subtle`, no node:crypto; its built-in CryptoJS does hashes and HMAC only). Postman resolves
 * `pm.require('npm:name@version')` from the npm registry itself (the current Postman app, the
 * Collection Runner, monitors and the Postman CLI; not Newman), at the exact version named, so
 * the code that signs is a pinned, published package. The older recipe, fetching a library with
 * `pm.sendRequest` into a variable and `eval`-ing it on every Send, runs whatever that URL serves
 * at the moment with access to the private key: a supply-chain risk this collection does not take.
 * Postman finds the packages a script needs by reading its `pm.require` calls, so the package
 * name stays a string literal in the call.
 *
 * Signing runs on every Send with a fresh timestamp and nonce, and the headers are set on the
 * request itself (`pm.request.headers.upsert`): nothing is kept between Sends, so no stale value
 * can be sent. When signing cannot run, the script stops the request with an error naming the
 * variable to set; a request never leaves unsigned or with an old signature.
 */

/** The exact package Postman loads for both scripts. */
export const jsrsasignPackage = 'npm:jsrsasign@11.1.0';

/** Every request target starts with this: the API version is part of the signed path. */
export const requestTargetPrefix = '/v1/';

/** The local variable through which the pre-request script tells the test script what it signed. */
export const signedRequestVariable = 'veloxaSignedRequest';

/**
 * A merchant number the collection makes per Send: a create request's body holds
 * `{{newVariable}}`, which the pre-request script sets to a fresh number and, once signed,
 * stores in `variable` for the requests that read the object (query, refund, cancel...).
 */
export interface GeneratedNumber {
  /** Collection variable the requests that read the object use, e.g. bankTransferNo. */
  readonly variable: string;
  /** Local variable a create request's body uses, e.g. newBankTransferNo. */
  readonly newVariable: string;
  /** Leading letters of the number, e.g. BTR, so numbers read like the contract's examples. */
  readonly prefix: string;
  /** Name of the request that creates it, for the error when a reader runs first. */
  readonly createdBy: string;
}

/** A time a request body must hold ahead of now (an expiry): the pre-request script sets `variable` on every Send. */
export interface GeneratedTime {
  /** Local variable the body uses, e.g. newExpiresAt. */
  readonly variable: string;
  readonly hoursAhead: number;
}

export interface ScriptConfig {
  readonly numbers: readonly GeneratedNumber[];
  readonly times: readonly GeneratedTime[];
  /** Public sandbox merchant key file, for the messages. */
  readonly merchantKeyFile: string;
  /** The sandbox API origin, for the message about a wrong baseUrl. */
  readonly baseUrlExample: string;
}

/** Reads a PEM block out of a variable's text, tolerant of the ways a pasted key arrives. */
const pemFunction = String.raw`
  // Variables often lose or escape line breaks when a key is pasted: rebuild the PEM block.
  function pemFrom(text, name, labels, hint) {
    var match = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(String(text).replace(/\\n/g, '\n'));
    if (!match || labels.indexOf(match[1]) === -1) {
      fail(name + ' must hold a PEM block "-----BEGIN ' + labels[0] + '-----"; ' + hint);
    }
    var base64 = match[2].replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+\/]+={0,2}$/.test(base64)) fail(name + ' is not valid PEM: the text between its BEGIN and END lines is not base64.');
    return '-----BEGIN ' + match[1] + '-----\n' + base64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '') + '\n-----END ' + match[1] + '-----\n';
  }`;

/** The collection's pre-request script: signs the request as it will be sent. */
export function preRequestScript(config: ScriptConfig): string {
  return String.raw`// Veloxa Pay request signing, generated from the API contract with this collection.
// On every Send: canonical string = METHOD, request target (/v1/... as sent), X-Client-Id, X-Timestamp,
// X-Nonce and the raw body, joined by "\n"; RSASSA-PKCS1-v1_5 with SHA-256 over its UTF-8 bytes; base64.
// jsrsasign is loaded by Postman from npm at a pinned version (pm.require), never fetched and eval'd.
(function () {
  var config = ${JSON.stringify(config)};
  function fail(message) {
    if (pm.execution && typeof pm.execution.skipRequest === 'function') pm.execution.skipRequest();
    throw new Error('Veloxa Pay signing: ' + message + ' The request was not sent.');
  }${pemFunction}
  function describe(error) {
    return error && error.message ? error.message : String(error);
  }
  function isEmpty(value) {
    return value === undefined || value === null || String(value).trim() === '';
  }
  function setting(name, hint) {
    var value = pm.variables.get(name);
    if (isEmpty(value)) fail('set the variable "' + name + '": ' + hint);
    return String(value).trim();
  }

  var privateKeyPem = setting('privateKeyPem', 'put your merchant private key (PEM) in it, as the current value of a secret variable in your environment. For the shared sandbox merchant, use ' + config.merchantKeyFile + '.');
  var clientId = setting('clientId', 'your client ID from the merchant dashboard.');
  var keyVersion = setting('keyVersion', 'the version of your merchant key pair (the sandbox merchant uses 1).');
  if (!/^[1-9][0-9]*$/.test(keyVersion)) fail('keyVersion must be a positive whole number, got "' + keyVersion + '".');
  if (/[\r\n]/.test(clientId)) fail('clientId must be a single line.');
  var keyPem = pemFrom(privateKeyPem, 'privateKeyPem', ['PRIVATE KEY', 'RSA PRIVATE KEY'], 'paste the whole file, such as ' + config.merchantKeyFile + '.');

  var jsrsasign = pm.require('${jsrsasignPackage}');
  var privateKey;
  try {
    privateKey = jsrsasign.KEYUTIL.getKey(keyPem);
  } catch (error) {
    fail('privateKeyPem could not be read as an RSA private key (' + describe(error) + ').');
  }

  // A fresh timestamp and nonce for this Send only.
  var timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp)) fail('could not format the timestamp (got "' + timestamp + '").');
  var nonce = pm.variables.replaceIn('{{$guid}}');
  if (!/^[A-Za-z0-9-]{16,64}$/.test(nonce)) fail('could not make a nonce (got "' + nonce + '").');

  // New merchant numbers for this Send, for create requests whose body uses {{new...}}.
  var stamp = timestamp.replace(/[^0-9]/g, '');
  var suffix = nonce.replace(/-/g, '').slice(0, 6);
  config.numbers.forEach(function (number) {
    pm.variables.set(number.newVariable, number.prefix + '-' + stamp + '-' + suffix);
  });

  // Times ahead of now for this Send, for bodies whose expiry uses {{new...}}.
  config.times.forEach(function (time) {
    pm.variables.set(time.variable, new Date(Date.now() + time.hoursAhead * 3600000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });

  var rawUrl = pm.request.url.toString();
  var requestBody = pm.request.body;
  var rawBody = '';
  if (requestBody && requestBody.mode && requestBody.mode !== 'raw' && !(typeof requestBody.isEmpty === 'function' && requestBody.isEmpty())) {
    fail('send the body as raw JSON (body mode "raw"); the signature covers the raw body.');
  }
  if (requestBody && typeof requestBody.raw === 'string') rawBody = requestBody.raw;

  // Every variable the request uses must have a value: an empty one would change what is signed.
  function checkVariables(text, where) {
    text.replace(/\{\{([^{}]+)\}\}/g, function (whole, name) {
      if (name.charAt(0) === '$') {
        // Postman would resolve a dynamic variable in the URL again when sending: a different value.
        if (where === 'URL') fail('the URL uses the dynamic variable ' + whole + ', which changes between signing and sending; put the value in a variable instead.');
        return whole;
      }
      if (isEmpty(pm.variables.get(name))) {
        var created = config.numbers.filter(function (number) { return number.variable === name; })[0];
        fail('the ' + where + ' uses {{' + name + '}}, which is empty. ' + (created
          ? 'Send "' + created.createdBy + '" first (each Send stores the number it creates in ' + name + '), or set ' + name + ' to a number you created.'
          : 'Set it in the collection or in your environment.'));
      }
      return whole;
    });
  }
  checkVariables(rawUrl, 'URL');
  checkVariables(rawBody, 'body');
  if (rawUrl.indexOf('{{baseUrl}}') !== -1 && !/^https?:\/\/[^\/?#]+$/.test(String(pm.variables.get('baseUrl')).trim())) {
    fail('baseUrl must be the API origin without a path or trailing slash, such as ' + config.baseUrlExample + ': every request path starts with /v1/ itself. It is "' + pm.variables.get('baseUrl') + '".');
  }

  // The request target: path and query of the resolved URL, exactly as Postman sends them.
  var url = pm.variables.replaceIn(rawUrl).trim();
  var target = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\/?#]*/, '').replace(/#.*$/, '');
  if (target.indexOf('${requestTargetPrefix}') !== 0 || target.indexOf('/v1/v1/') === 0) {
    fail('the request target must start with ${requestTargetPrefix} once, got "' + target + '" from ' + url + '.');
  }
  if (!/^[A-Za-z0-9\-._~%\/]+(\?[A-Za-z0-9\-._~%&=]*)?$/.test(target) || /%(?![0-9A-Fa-f]{2})/.test(target)) {
    fail('percent-encode every character of the path and query outside A-Z a-z 0-9 - . _ ~ (a space as %20, ":" as %3A): the signature covers the target exactly as sent. Got "' + target + '".');
  }
  var body = pm.variables.replaceIn(rawBody);
  var method = String(pm.request.method).toUpperCase();
  var canonical = [method, target, clientId, timestamp, nonce, body].join('\n');

  var signature;
  try {
    var signer = new jsrsasign.KJUR.crypto.Signature({alg: 'SHA256withRSA'});
    signer.init(privateKey);
    signer.updateString(canonical);
    signature = jsrsasign.hextob64(signer.sign());
  } catch (error) {
    fail('could not sign with privateKeyPem (' + describe(error) + '); it must be your RSA private key.');
  }

  // Send exactly the body that was signed: Postman would resolve dynamic variables in it again.
  if (body !== rawBody) pm.request.body.update({mode: 'raw', raw: body, options: requestBody.options});
  pm.request.headers.upsert({key: 'X-Client-Id', value: clientId});
  pm.request.headers.upsert({key: 'X-Timestamp', value: timestamp});
  pm.request.headers.upsert({key: 'X-Nonce', value: nonce});
  pm.request.headers.upsert({key: 'X-Signature', value: 'algorithm=RSA-SHA256, keyVersion=' + keyVersion + ', signature=' + signature});

  // Remember the numbers this Send creates, for the requests that read them.
  config.numbers.forEach(function (number) {
    if (rawBody.indexOf('{{' + number.newVariable + '}}') === -1) return;
    var created = pm.variables.get(number.newVariable);
    if (pm.environment && pm.environment.has(number.variable)) pm.environment.set(number.variable, created);
    else pm.collectionVariables.set(number.variable, created);
  });
  pm.variables.set('${signedRequestVariable}', JSON.stringify({method: method, target: target, clientId: clientId, nonce: nonce}));
  console.log('Veloxa Pay signed ' + method + ' ' + target + ' with key version ' + keyVersion + '. Canonical string: ' + JSON.stringify(canonical));
})();
`;
}

/** The collection's test script: verifies the response signature and freshness. */
export function responseTestScript(): string {
  return String.raw`// Veloxa Pay response verification, generated from the API contract with this collection.
// Response canonical string: the request's METHOD, target and client ID, the response's X-Timestamp and
// X-Nonce, the request's X-Nonce, the HTTP status (three digits) and the raw response body.
// A response that does not verify is treated like no response: the outcome is unknown.
(function () {
  function fail(message) {
    throw new Error(message);
  }${pemFunction}
  var signedText = pm.variables.get('${signedRequestVariable}');

  pm.test('Veloxa Pay: the response signature verifies with providerPublicKeyPem', function () {
    if (!signedText) fail('this request was not signed by the collection pre-request script, so its response cannot be checked.');
    var signed = JSON.parse(signedText);
    var header = pm.response.headers.get('X-Signature');
    if (!header) {
      fail('the response (HTTP ' + pm.response.code + ') has no X-Signature header. Treat it like no response: the outcome is unknown, so resend with the same merchant number or query the object.');
    }
    var match = /^\s*algorithm=RSA-SHA256\s*,\s*keyVersion=([1-9][0-9]*)\s*,\s*signature=([A-Za-z0-9+\/]+={0,2})\s*$/.exec(header);
    if (!match) fail('the response X-Signature header is malformed: "' + header + '".');
    // The key named by the response's keyVersion: providerPublicKeyPem for providerKeyVersion, and
    // providerPublicKeyPemV<n> for any other announced version (both sign while a new key is rolled out).
    var providerKeyVersion = String(pm.variables.get('providerKeyVersion') || '').trim();
    var keyVariable = match[1] === providerKeyVersion ? 'providerPublicKeyPem' : 'providerPublicKeyPemV' + match[1];
    var publicKeyPem = pm.variables.get(keyVariable);
    if (!publicKeyPem || !String(publicKeyPem).trim()) {
      fail('the response is signed with provider key version ' + match[1] + ', and no key is set for it: put that provider public key (PEM) in ' + keyVariable + ' (providerPublicKeyPem holds version ' + providerKeyVersion + ').');
    }
    var timestamp = pm.response.headers.get('X-Timestamp');
    var nonce = pm.response.headers.get('X-Nonce');
    if (!timestamp || !nonce) fail('the response lacks its X-Timestamp or X-Nonce header.');
    var keyPem = pemFrom(publicKeyPem, keyVariable, ['PUBLIC KEY'], 'paste the provider public key file.');
    var status = ('00' + pm.response.code).slice(-3);
    var canonical = [signed.method, signed.target, signed.clientId, timestamp, nonce, signed.nonce, status, pm.response.text()].join('\n');
    var jsrsasign = pm.require('${jsrsasignPackage}');
    var verifier = new jsrsasign.KJUR.crypto.Signature({alg: 'SHA256withRSA'});
    verifier.init(jsrsasign.KEYUTIL.getKey(keyPem));
    verifier.updateString(canonical);
    if (!verifier.verify(jsrsasign.b64tohex(match[2]))) {
      fail('the response signature does not verify: do not act on this response; treat it like no response. Canonical string: ' + JSON.stringify(canonical));
    }
  });

  pm.test('Veloxa Pay: the response timestamp is within 300 seconds of this computer clock', function () {
    var timestamp = pm.response.headers.get('X-Timestamp') || '';
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp)) fail('the response X-Timestamp "' + timestamp + '" is not YYYY-MM-DDTHH:MM:SSZ.');
    var skew = Math.abs(Date.now() - Date.parse(timestamp)) / 1000;
    if (skew > 300) fail('the response X-Timestamp ' + timestamp + ' is ' + Math.round(skew) + ' s from this computer clock: reject it, and check your clock.');
  });
})();
`;
}
