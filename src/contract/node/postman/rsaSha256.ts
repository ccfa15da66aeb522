/**
 * RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 §8.2, "RSA-SHA256"), as JavaScript text the collection's
 * scripts carry inline. Written for this collection: Newman's script sandbox has no RSA and no
 * package loader (`pm.require` is undefined there; its CryptoJS does hashes and HMAC only), and the
 * Postman app loads npm packages only for a signed-in user. Carrying the code in the collection
 * makes both runtimes sign the same way, offline and without an account, with nothing downloaded.
 *
 * It is small on purpose (about 5 kB): SHA-256, UTF-8, base64, the DER of PKCS#1, PKCS#8 and
 * SubjectPublicKeyInfo RSA keys, and BigInt modular exponentiation (with the CRT for signing).
 * Signing is deterministic, so tests/unit/rsaSha256.test.ts compares it byte for byte with
 * node:crypto over many keys and messages, and checks that verification rejects what it should.
 *
 * Plain ES5 plus BigInt (called as a function, no `0n` literals), no globals beyond `BigInt`: both
 * sandboxes run it as it is. The text defines one variable, `veloxaRsa`, with
 * `privateKey(pem)`, `publicKey(pem)`, `sign(key, text)` (base64) and `verify(key, text, base64)`.
 * Each throws an Error with a plain message on a key it cannot use.
 */
export const rsaSha256Library = String.raw`var veloxaRsa = (function () {
  'use strict';
  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
  ];
  // DigestInfo prefix for SHA-256 (RFC 8017 §9.2, note 1).
  var SHA256_DIGEST_INFO = [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20];
  // OID 1.2.840.113549.1.1.1 (rsaEncryption), DER content bytes.
  var RSA_ENCRYPTION = '2a864886f70d010101';
  var BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

  // UTF-8 bytes of a string; a lone surrogate becomes U+FFFD, as TextEncoder and Node do.
  function utf8(text) {
    var bytes = [];
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        var next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) bytes.push(c);
      else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return bytes;
  }

  function sha256(bytes) {
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var data = bytes.slice();
    var bitLength = bytes.length * 8;
    data.push(0x80);
    while (data.length % 64 !== 56) data.push(0);
    var high = Math.floor(bitLength / 0x100000000);
    var low = bitLength >>> 0;
    data.push((high >>> 24) & 255, (high >>> 16) & 255, (high >>> 8) & 255, high & 255, (low >>> 24) & 255, (low >>> 16) & 255, (low >>> 8) & 255, low & 255);
    var w = new Array(64);
    for (var offset = 0; offset < data.length; offset += 64) {
      var t;
      for (t = 0; t < 16; t++) {
        var at = offset + t * 4;
        w[t] = (data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3];
      }
      for (t = 16; t < 64; t++) {
        var x = w[t - 15];
        var y = w[t - 2];
        var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var t1 = (k + sum1 + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
        var sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var t2 = (sum0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + k) | 0;
    }
    var digest = [];
    for (var i = 0; i < 8; i++) digest.push((h[i] >>> 24) & 255, (h[i] >>> 16) & 255, (h[i] >>> 8) & 255, h[i] & 255);
    return digest;
  }

  function fromBase64(text) {
    var clean = String(text).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+\/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw new Error('not base64');
    clean = clean.replace(/=+$/, '');
    var bytes = [];
    var buffer = 0;
    var bits = 0;
    for (var i = 0; i < clean.length; i++) {
      buffer = (buffer << 6) | BASE64.indexOf(clean.charAt(i));
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes.push((buffer >> bits) & 255);
      }
    }
    return bytes;
  }

  function toBase64(bytes) {
    var out = '';
    for (var i = 0; i < bytes.length; i += 3) {
      var chunk = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += BASE64.charAt(chunk >> 18) + BASE64.charAt((chunk >> 12) & 63);
      out += i + 1 < bytes.length ? BASE64.charAt((chunk >> 6) & 63) : '=';
      out += i + 2 < bytes.length ? BASE64.charAt(chunk & 63) : '=';
    }
    return out;
  }

  function hex(bytes) {
    var out = '';
    for (var i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return out;
  }

  function toBigInt(bytes) {
    return bytes.length === 0 ? BigInt(0) : BigInt('0x' + hex(bytes));
  }

  // I2OSP: the integer as exactly "length" big-endian bytes.
  function toBytes(value, length) {
    var digits = value.toString(16);
    if (digits.length % 2) digits = '0' + digits;
    if (digits.length / 2 > length) throw new Error('integer too large');
    var bytes = [];
    for (var i = 0; i < length - digits.length / 2; i++) bytes.push(0);
    for (var j = 0; j < digits.length; j += 2) bytes.push(parseInt(digits.substr(j, 2), 16));
    return bytes;
  }

  function modPow(base, exponent, modulus) {
    var zero = BigInt(0), one = BigInt(1), two = BigInt(2);
    var result = one;
    base %= modulus;
    while (exponent > zero) {
      if (exponent % two === one) result = (result * base) % modulus;
      exponent /= two;
      base = (base * base) % modulus;
    }
    return result;
  }

  // DER: one element (tag, content bounds) at "at"; an "expected" tag is enforced.
  function element(bytes, at, expected) {
    if (at + 2 > bytes.length) throw new Error('truncated DER');
    var tag = bytes[at];
    if (expected !== undefined && tag !== expected) throw new Error('unexpected DER tag 0x' + tag.toString(16));
    var length = bytes[at + 1];
    var start = at + 2;
    if (length & 0x80) {
      var count = length & 0x7f;
      if (count === 0 || count > 4) throw new Error('unsupported DER length');
      length = 0;
      for (var i = 0; i < count; i++) length = length * 256 + bytes[start + i];
      start += count;
    }
    if (start + length > bytes.length) throw new Error('truncated DER');
    return {tag: tag, start: start, end: start + length};
  }

  // The elements of a SEQUENCE's content.
  function children(bytes, sequence) {
    var list = [];
    for (var at = sequence.start; at < sequence.end; ) {
      var child = element(bytes, at);
      list.push(child);
      at = child.end;
    }
    return list;
  }

  function integer(bytes, item) {
    if (item.tag !== 0x02) throw new Error('expected a DER INTEGER');
    return toBigInt(bytes.slice(item.start, item.end));
  }

  function checkAlgorithm(bytes, item) {
    var oid = element(bytes, item.start, 0x06);
    if (hex(bytes.slice(oid.start, oid.end)) !== RSA_ENCRYPTION) throw new Error('not an RSA key');
  }

  function derOf(pem) {
    var match = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(String(pem));
    if (!match) throw new Error('no PEM block');
    return {label: match[1], bytes: fromBase64(match[2])};
  }

  function byteLength(n) {
    return Math.ceil(n.toString(16).length / 2);
  }

  function privateKey(pem) {
    var der = derOf(pem);
    var bytes = der.bytes;
    var key = element(bytes, 0, 0x30);
    if (der.label === 'PRIVATE KEY') {
      var info = children(bytes, key);
      if (info.length < 3) throw new Error('not a PKCS#8 private key');
      checkAlgorithm(bytes, info[1]);
      if (info[2].tag !== 0x04) throw new Error('not a PKCS#8 private key');
      bytes = bytes.slice(info[2].start, info[2].end);
      key = element(bytes, 0, 0x30);
    } else if (der.label !== 'RSA PRIVATE KEY') {
      throw new Error('a ' + der.label + ' is not a private key');
    }
    var parts = children(bytes, key);
    if (parts.length < 9) throw new Error('not an RSA private key');
    var values = [];
    for (var i = 1; i < 9; i++) values.push(integer(bytes, parts[i]));
    var n = values[0];
    if (byteLength(n) < 62) throw new Error('the RSA modulus is too short for SHA-256');
    return {n: n, e: values[1], d: values[2], p: values[3], q: values[4], dp: values[5], dq: values[6], qinv: values[7], size: byteLength(n)};
  }

  function publicKey(pem) {
    var der = derOf(pem);
    if (der.label !== 'PUBLIC KEY') throw new Error('a ' + der.label + ' is not a public key');
    var bytes = der.bytes;
    var info = children(bytes, element(bytes, 0, 0x30));
    if (info.length !== 2 || info[1].tag !== 0x03) throw new Error('not a SubjectPublicKeyInfo');
    checkAlgorithm(bytes, info[0]);
    if (bytes[info[1].start] !== 0) throw new Error('unexpected BIT STRING padding');
    var inner = bytes.slice(info[1].start + 1, info[1].end);
    var parts = children(inner, element(inner, 0, 0x30));
    if (parts.length !== 2) throw new Error('not an RSA public key');
    var n = integer(inner, parts[0]);
    if (byteLength(n) < 62) throw new Error('the RSA modulus is too short for SHA-256');
    return {n: n, e: integer(inner, parts[1]), size: byteLength(n)};
  }

  // EMSA-PKCS1-v1_5 encoding of the SHA-256 of the text's UTF-8 bytes, "size" bytes long.
  function encode(text, size) {
    var t = SHA256_DIGEST_INFO.concat(sha256(utf8(String(text))));
    var em = [0x00, 0x01];
    for (var i = 0; i < size - t.length - 3; i++) em.push(0xff);
    return em.concat([0x00], t);
  }

  function sign(key, text) {
    var m = toBigInt(encode(text, key.size));
    // CRT: two half-size exponentiations instead of one full one.
    var m1 = modPow(m, key.dp, key.p);
    var m2 = modPow(m, key.dq, key.q);
    var h = (key.qinv * (((m1 - m2) % key.p) + key.p)) % key.p;
    var s = m2 + h * key.q;
    if (modPow(s, key.e, key.n) !== m) throw new Error('the private key is inconsistent');
    return toBase64(toBytes(s, key.size));
  }

  function verify(key, text, signatureBase64) {
    var signature = fromBase64(signatureBase64);
    if (signature.length !== key.size) return false;
    var s = toBigInt(signature);
    if (s >= key.n) return false;
    return hex(toBytes(modPow(s, key.e, key.n), key.size)) === hex(encode(text, key.size));
  }

  return {privateKey: privateKey, publicKey: publicKey, sign: sign, verify: verify, sha256Hex: function (text) { return hex(sha256(utf8(String(text)))); }};
})();`;
