/**
 * Short edge labels for the state diagrams, derived from the contract: the notification a transition sends
 * (ORDER.PAID), named in its trigger or the event of the machine's object for the state it reaches; for a
 * transition that sends none, the start of its trigger, cut at a word. The full trigger stays in the
 * transitions table under each diagram. Pure; tests/unit/transitionLabels.test.ts checks it on the contract.
 */
import type {OpenApiDocument, StateMachine} from './openapiTypes';

/** Longest label before it is cut: one line of a diagram's edge at Mermaid's default font. */
export const labelLimit = 30;

const eventPattern = /^[A-Z][A-Z_]*\.[A-Z][A-Z_]*$/;
const cache = new WeakMap<OpenApiDocument, ReadonlySet<string>>();

/** Every event type the contract declares: enum values shaped OBJECT.EVENT in its schemas. */
export function contractEventTypes(document: OpenApiDocument): ReadonlySet<string> {
  const cached = cache.get(document);
  if (cached) return cached;
  const found = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 40 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (Array.isArray(record['enum']))
      for (const item of record['enum']) if (typeof item === 'string' && eventPattern.test(item)) found.add(item);
    for (const item of Object.values(record)) visit(item, depth + 1);
  };
  visit(document.components?.schemas, 0);
  cache.set(document, found);
  return found;
}

/** The events' prefix for a machine's schema: OrderStatus -> ORDER, BankTransferStatus -> BANK_TRANSFER. */
export function eventPrefix(schemaName: string): string {
  return schemaName
    .replace(/Status$/, '')
    .replace(/(?<=[a-z0-9])(?=[A-Z])/g, '_')
    .toUpperCase();
}

const stopWords = new Set(['a', 'an', 'the', 'of', 'for', 'is', 'to', 'or', 'and', 'by', 'at', 'in']);

/** The start of a trigger, within the limit and cut after a word that carries meaning. */
function shortTrigger(trigger: string): string {
  const clause = (trigger.split(/[:;,(]/)[0] ?? trigger)
    .trim()
    .replace(/\.$/, '')
    .replace(/^(the|a|an)\s+/i, '');
  if (clause.length <= labelLimit) return clause;
  const words = clause.split(/\s+/);
  const kept: string[] = [];
  for (const word of words) {
    if ([...kept, word].join(' ').length > labelLimit - 1) break;
    kept.push(word);
  }
  while (kept.length > 1 && stopWords.has((kept.at(-1) ?? '').toLowerCase())) kept.pop();
  return `${(kept.length > 0 ? kept : [words[0] ?? clause]).join(' ')}…`;
}

/** The short label of one transition of a machine. */
export function transitionLabel(schemaName: string, transition: StateMachine['transitions'][number], events: ReadonlySet<string>): string {
  const prefix = eventPrefix(schemaName);
  const named = [...transition.trigger.matchAll(/[A-Z][A-Z_]*\.[A-Z][A-Z_]*/g)].map((match) => match[0]).filter((name) => events.has(name));
  const reached = `${prefix}.${transition.to}`;
  if (named.length > 0) return named.includes(reached) ? reached : (named.at(-1) as string);
  if (events.has(reached)) return reached;
  return shortTrigger(transition.trigger);
}
