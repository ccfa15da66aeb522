/**
 * The two collection-level scripts of the Postman collection, as the JavaScript text Postman runs
 * (each becomes an `exec` array). They are strings, not TypeScript functions turned into text,
 * because the TypeScript loaders (tsx, Docusaurus's jiti) may rewrite a function's source, and
 * what Postman runs must be exactly what tests/unit/postman.test.ts runs.
 *
 * Why the signing code is in the scripts: Postman's script sandbox has no RSA (no WebCrypto
 * `subtle`, no node:crypto; its built-in CryptoJS does hashes and HMAC only), Newman has no
 * `pm.require` at all, and the Postman app and CLI resolve `pm.require('npm:…')` only for a
 * signed-in user with a network. So each script carries a small RSA-SHA256 (./rsaSha256.ts, about
 * 5 kB, tested against node:crypto): the same code signs in every runtime, offline, with nothing
 * fetched or `eval`-ed. Both scripts use only the `pm` API Newman and the Postman app share.
 *
 * Signing runs on every Send with a fresh timestamp and nonce, and the headers are set on the
 * request itself (`pm.request.headers.upsert`): nothing is kept between Sends, so no stale value
 * can be sent. When signing cannot run, the script records a failed test naming the variable to set
 * and skips the request: a request never leaves unsigned or with an old signature, and a run
 * (Newman, the Postman CLI) fails with that message. A bare error would not do: once a request is
 * skipped the runtimes drop the script's error, and without the skip they send the request anyway.
 */
import type {Capture} from './journey';
import {sandboxControlsVariable} from './journey';
import {rsaSha256Library} from './rsaSha256';

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

/** A value a step stores from its response (quoteId...), for the error when a reader runs first. */
export interface ChainedValue {
  readonly variable: string;
  /** Name of the step that stores it. */
  readonly createdBy: string;
}

export interface ScriptConfig {
  readonly numbers: readonly GeneratedNumber[];
  readonly chained: readonly ChainedValue[];
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
// The RSA-SHA256 code is part of this script: nothing is loaded, fetched or eval'd, so it runs offline
// in the Postman app, the Postman CLI and Newman alike.
(function () {
  var config = ${JSON.stringify(config)};
  function fail(message) {
    var text = 'Veloxa Pay signing: ' + message + ' The request was not sent.';
    // A failed test carries the message into the run's results and exit code; the runtimes drop a
    // pre-request error once the request is skipped, and send the request when it is not.
    pm.test('Veloxa Pay: the request is signed before it is sent', function () {
      throw new Error(text);
    });
    if (pm.execution && typeof pm.execution.skipRequest === 'function') pm.execution.skipRequest();
    throw new Error(text);
  }
  ${rsaSha256Library.replace(/\n/g, '\n  ')}${pemFunction}
  function describe(error) {
    return error && error.message ? error.message : String(error);
  }
  function isEmpty(value) {
    return value === undefined || value === null || String(value).trim() === '';
  }
  function createdHint(name) {
    var created = config.numbers.filter(function (number) { return number.variable === name; })[0];
    if (created) return ' Send "' + created.createdBy + '" first (each Send stores the number it creates in ' + name + '), or set ' + name + ' to a number you created.';
    var chained = config.chained.filter(function (value) { return value.variable === name; })[0];
    if (chained) return ' Send "' + chained.createdBy + '" first (it stores ' + name + ' from its response), or set ' + name + ' yourself.';
    return ' Set it in the collection or in your environment.';
  }
  function setting(name, hint) {
    var value = pm.variables.get(name);
    if (isEmpty(value)) fail('set the variable "' + name + '": ' + hint);
    return String(value).trim();
  }

  // A control call of the local sandbox ("Sandbox: ..." steps): not signed, and run only against a local sandbox.
  var controlTarget = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\/?#]*(\/_sandbox\/[^?#]*)/.exec(pm.variables.replaceIn(pm.request.url.toString()).trim());
  if (controlTarget) {
    var mode = String(pm.variables.get('${sandboxControlsVariable}') || 'auto').trim();
    var loopback = /^https?:\/\/(localhost|127(\.[0-9]{1,3}){3}|\[::1\])(:[0-9]+)?$/.test(String(pm.variables.get('baseUrl')).trim());
    if (mode === 'off' || (mode !== 'on' && !loopback)) {
      console.log('Veloxa Pay: skipped ' + controlTarget[1] + ', a local sandbox control call (${sandboxControlsVariable} is "' + mode + '" and baseUrl is not a loopback origin).');
      pm.variables.set('${signedRequestVariable}', '');
      if (pm.execution && typeof pm.execution.skipRequest === 'function') pm.execution.skipRequest();
      return;
    }
    var controlBody = pm.request.body && typeof pm.request.body.raw === 'string' ? pm.request.body.raw : '';
    controlBody.replace(/\{\{([^{}]+)\}\}/g, function (whole, name) {
      if (isEmpty(pm.variables.get(name))) fail('the body of ' + controlTarget[1] + ' uses {{' + name + '}}, which is empty.' + createdHint(name));
      return whole;
    });
    pm.variables.set('${signedRequestVariable}', '');
    return;
  }

  var privateKeyPem = setting('privateKeyPem', 'put your merchant private key (PEM) in it, as the current value of a secret variable in your environment. For the shared sandbox merchant, use ' + config.merchantKeyFile + '.');
  var clientId = setting('clientId', 'your client ID from the merchant dashboard.');
  var keyVersion = setting('keyVersion', 'the version of your merchant key pair (the sandbox merchant uses 1).');
  if (!/^[1-9][0-9]*$/.test(keyVersion)) fail('keyVersion must be a positive whole number, got "' + keyVersion + '".');
  if (/[\r\n]/.test(clientId)) fail('clientId must be a single line.');
  var keyPem = pemFrom(privateKeyPem, 'privateKeyPem', ['PRIVATE KEY', 'RSA PRIVATE KEY'], 'paste the whole file, such as ' + config.merchantKeyFile + '.');

  var privateKey;
  try {
    privateKey = veloxaRsa.privateKey(keyPem);
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
  // A list's time range: the last 24 hours, percent-encoded as the signed query must be.
  pm.variables.set('listFrom', new Date(Date.now() - 86400000).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '%3A'));
  pm.variables.set('listTo', new Date(Date.now() + 3600000).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '%3A'));

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
      if (isEmpty(pm.variables.get(name))) fail('the ' + where + ' uses {{' + name + '}}, which is empty.' + createdHint(name));
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
    signature = veloxaRsa.sign(privateKey, canonical);
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
  }
  ${rsaSha256Library.replace(/\n/g, '\n  ')}${pemFunction}
  // The step's expected outcome, declared by the request's own pre-request script: status, code, and a value to store.
  var stepText = pm.variables.get('${stepVariable}');
  if (stepText) {
    var step = JSON.parse(stepText);
    var body = null;
    try { body = JSON.parse(pm.response.text()); } catch (error) { body = null; }
    pm.test(step.name + ': HTTP ' + step.status + (step.code ? ' and code ' + step.code : ''), function () {
      var got = 'HTTP ' + pm.response.code + (body && body.code ? ' ' + body.code + ': ' + body.message : '');
      if (pm.response.code !== step.status) fail('expected HTTP ' + step.status + ', got ' + got);
      if (step.code && !(body && body.code === step.code)) fail('expected code ' + step.code + ', got ' + got);
    });
    if (step.capture) {
      pm.test(step.name + ': stores ' + step.capture.variable + ' for the requests after it', function () {
        var value = step.capture.from.reduce(function (at, key) { return at !== null && typeof at === 'object' ? at[key] : undefined; }, body);
        if (typeof value !== 'string' || value === '') fail('the response has no ' + step.capture.from.join('.') + ' to store in ' + step.capture.variable + '.');
        if (pm.environment && pm.environment.has(step.capture.variable)) pm.environment.set(step.capture.variable, value);
        else pm.collectionVariables.set(step.capture.variable, value);
      });
    }
  }

  var signedText = pm.variables.get('${signedRequestVariable}');
  // A local sandbox control call ("Sandbox: ..." steps) is not signed, and neither is its answer.
  if (signedText === '') return;

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
    var publicKey;
    try {
      publicKey = veloxaRsa.publicKey(keyPem);
    } catch (error) {
      fail(keyVariable + ' could not be read as an RSA public key (' + (error && error.message ? error.message : String(error)) + ').');
    }
    console.log('Veloxa Pay checks the response signature over the canonical string: ' + JSON.stringify(canonical));
    if (!veloxaRsa.verify(publicKey, canonical, match[2])) {
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

/** What one step of the journey expects: the contract's HTTP status and `code`, and what it stores for later steps. */
export interface StepExpectation {
  readonly name: string;
  readonly status: number;
  /** The envelope code; none for a sandbox control call, whose answer has no envelope. */
  readonly code?: string;
  readonly capture?: Capture;
}

/** The local variable through which a request's own pre-request script tells the collection's tests what that step expects. */
export const stepVariable = 'veloxaStep';

/**
 * A request's own pre-request script: one line declaring what the step expects, which the
 * collection's test script checks. (A request's own test script would run after the collection's
 * and repeat its code in every request; this keeps the collection small.)
 */
export function stepPreRequestScript(expected: StepExpectation): string {
  const outcome = `HTTP ${expected.status}${expected.code ? ` and code ${expected.code}` : ''}`;
  return `// This step of the journey: ${expected.code ? 'the contract answers' : 'the local sandbox answers'} ${outcome}${expected.capture ? `; its response gives ${expected.capture.variable}` : ''}. The collection's tests check it.
pm.variables.set('${stepVariable}', JSON.stringify(${JSON.stringify({name: expected.name, status: expected.status, code: expected.code ?? null, capture: expected.capture ?? null})}));
`;
}
