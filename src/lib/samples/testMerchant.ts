/**
 * The shared sandbox test merchant that every request sample signs as when nothing else is configured:
 * api/sandbox.yaml's merchant, whose key pairs are published test material (api/test-vectors/, served beside
 * the site under /test-vectors/). Anyone can sign as it, and it exists only in the sandbox, so a copied sample
 * runs as it is. The PEM texts are copies because src/lib reads no files: tests/unit/testMerchant.test.ts fails when
 * they differ from api/test-vectors/ or from the key versions of api/sandbox.yaml.
 */
import {brand} from '../../brand';
import {sampleEnvironment as env} from './types';

export const testMerchant = {
  clientId: brand.sandboxClientId,
  /** keyVersion of the merchant key below, as registered in the sandbox. */
  keyVersion: '1',
  /** api/test-vectors/merchant-test-private.pem. */
  privateKeyPem: `-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCzxXuTE92h4dWU
2Z4MhsFP++lqR3xhWMkcq5MEk1hTv5OaRpcjb24bYM7o6sNQFdFTkfRQROoF6u2G
yD+zyFkUyLFPQ4UjQyM0qEjIk77w499XaezG/Y5FwmRCoRQKNOUIF05RnPninF+t
vu0Gb1fDr8pqSvYcsk2GbN5DlMkAibIKE/eDxalY6PwmlEl8ZvagowJWJ3rsQ7pR
3K4OZbkjWNDyfIlaqDlyPfyPV/3KfyB9rFJUyo8i5doCHlOhWxLG+aiVmkdX4Rv9
9VEmGgMxwPtWTwLU3FVlcoNaxYvsUpygQUiRnwSdCygG7ZON7mEX1pyXOUwiB1xU
eAEi6187AgMBAAECggEAQ8Hr5VAoCbOCmoN5cDQ8WYbT//Rou5JI3w8GL0PQF2TO
X+g6YCdIQ3Z2FlEiA6Xti4eoI7cN0+Qr2dDRPdSGSvCn7/29iUBtXRQOttcFMWta
C2sHzSrVfJKb0oc+8+fi6W1LXjSB9PlGkMi1Muc1l7LC4tRVNhS4ZrHTBnrmVdZt
/K5FxUQdfiTV7vl1KippigL4+9+sm8ike87YijfGcUB0NpfbgUhTjp3ySqISeaS/
efdPGJ6aeWEqCoNQhWgHGoFbkvkX990F084WDoAFKEYuWM6EyrZGxLV4PnIXgRci
O6cMA2ePc5XnIDoeNMKWqWQ0VJ1YwRwH9a9jt0aRUQKBgQDr2oIrMO9jdK+XqmY/
Ar09fu3GKcgeITG/QXIGvnATpveuQp3F9IQWAbFJDY7beAJ8KFtMMPRKTU50nRRV
QQ1mnZEZukrwbkIeXlZSExxYH2zS4Cx9kV7L0TlahGyufi0L0wFHAggPNaZ4wC5+
eyPfK6ap/3ILHFXTJLIJ0GF2KwKBgQDDIJtVUk3wwtLZAF2GsZxgstof9ap1VcP+
93Jq5sOpEklwbMjw/31zHIvXind7cWeg0Vd1j7Nk18rRDSlCvlacczGJPcTYH3yY
vqAHbSzmPYbIn3TcBsi3WcJJskhzBhk4FHjRg9zCiYB7tHxN4i6Z8ism79UAuzDW
lK/HQkPDMQKBgQCYKBfiFWfbGeROTDg6XmIH0mNDfKEGDxQw9t/BSgq0IvuXCJMQ
qnasW9sr7ftDy2CPCNodhVeUt9rtkIkVlyo2EWES4ASIqBkvzlySBpI6p8tlIAqT
17z4cLo3k0cqK2yUPESOstjQNyR2skVMg9TYnSigc5P3ZwhXd00E19KIkQKBgDfi
lNqA8hWsltrTwfWb1N/VGafhompsn+/cSwbXBN7df+8VGQ/8/J8FY//dho7yUe27
R0NCXuzY6Ruqm1CkVwYD8AIQkNodWoAcyJSX7i4bHQlEsiF6R+5LZNvalelrq7lm
E5xeGdIVs5i6foeH6jTpKPbD5cuJ0VkDyLxW/DVhAoGAUjIvz6Tsq3+1+7a/EKpN
N0yo0Cfe6ZLLBFhMle6VCbSN0NXchTRQhgwVmKcBrEw/Ucj0lfA+EIJaihTRD+i4
QTGpZsjQ66i1nrH69V9A5vW/ME45sT2WdM40V+BGCY3t1Bgaq7qt83/W0WyJR3aX
GBeStWoxw1IN12pe28pHAeQ=
-----END PRIVATE KEY-----`,
  /** keyVersion with which the sandbox signs responses and notifications. */
  providerKeyVersion: '1',
  /** api/test-vectors/provider-test-public.pem. */
  providerPublicKeyPem: `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAxDVpZ0FP0FSPkQyxIOhL
Jm+rMxqINCfbEP7orjjHcB4yfrXljn+XqTwLJp46h6cMWnFDlZ6XB5+JgXY5a2wn
zSqRg2GALebkXX1LZUMbPgcxMijuot3o63b49LMEmH7WrJKP+U/m6bsmbcidMpnU
t0uO7l45QZyQYlmMNKwQ1CO3FilGMfc3hGLf/U999p0/MORznd3TTgq+1DLQFMnw
qcZInkVPb/tZkhpjSHP1Cq+Tgrj2Lj0+l/NL8vwsUFhLB5JCILrCRIwuBtB7uGX+
v6gPBVF1H2Vhb6gI4ys2kOhGjN8SkwKQozIpi5vRV2cqWqI4kkwMt8HJEdr4mWpI
rwIDAQAB
-----END PUBLIC KEY-----`,
  /** Where the site publishes both files (and their other halves). */
  publishedPath: '/test-vectors/',
} as const;

/** The comment every request sample puts above the embedded test keys, without the language's comment marker. */
export const testKeyComment = [
  `The shared sandbox test merchant ${brand.sandboxClientId}: its keys are PUBLIC test material, published at`,
  `https://${brand.hosts.portal}${testMerchant.publishedPath}, so anyone can sign as it, and it works only in the sandbox.`,
  `Never put a real private key in code: for your own merchant set ${env.clientId.name}, ${env.privateKey.name}`,
  `(a key file kept out of source control) and ${env.providerKeys.name}; the keys below are then not used.`,
];
