import type {ReactNode} from 'react';
import {formatSeconds, valueAtPath} from '@site/src/lib/sandboxDataText';
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import {requireSandboxData} from '../SandboxTable';

interface Props {
  /** A dotted path into api/sandbox.yaml, such as `wallets.0.pin`; checked at build time. */
  readonly path: string;
  /** `code` (default): as inline code. `text`: as it is. `seconds`: a duration in words. */
  readonly as?: 'code' | 'text' | 'seconds';
  readonly data: Partial<SandboxData>;
}

/** One value of the sandbox data, quoted inline in prose, so a page never restates it by hand. */
export default function SandboxValue({path, as = 'code', data: given}: Props): ReactNode {
  const data = requireSandboxData(given, 'SandboxValue');
  const value = valueAtPath(data, path);
  const text = as === 'seconds' && typeof value === 'number' ? formatSeconds(value) : String(value);
  return as === 'code' ? <code>{text}</code> : text;
}
