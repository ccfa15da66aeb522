import type {ReactNode} from 'react';
import CodeBlock from '@theme/CodeBlock';
import styles from './styles.module.css';

/** The shortest honest first call: a signed Create order against the sandbox. */
const snippet = `BODY='{"merchantOrderNo":"ORD-0001","amount":{"value":1250,"currency":"USD"},"scene":"HOSTED_PAYPAGE","subject":"First order","returnUrl":"https://shop.example.com/done"}'
TS=$(date -u +%Y-%m-%dT%H:%M:%SZ); NONCE=$(openssl rand -hex 16)
SIG=$(printf 'POST\\n/v1/orders\\n%s\\n%s\\n%s\\n%s' "$CLIENT_ID" "$TS" "$NONCE" "$BODY" \\
  | openssl dgst -sha256 -sign merchant-private.pem | openssl base64 -A)
curl https://sandbox-api.example.com/v1/orders -H "Content-Type: application/json" \\
  -H "X-Client-Id: $CLIENT_ID" -H "X-Timestamp: $TS" -H "X-Nonce: $NONCE" \\
  -H "X-Signature: algorithm=RSA-SHA256, keyVersion=1, signature=$SIG" --data-raw "$BODY"`;

export default function QuickStart(): ReactNode {
  return (
    <div className={styles.quickStart}>
      <p className={styles.label}>Your first order in the sandbox</p>
      <CodeBlock language="bash" title="create-order.sh">
        {snippet}
      </CodeBlock>
    </div>
  );
}
