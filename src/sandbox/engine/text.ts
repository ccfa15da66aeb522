/**
 * Text that records keep for as long as the sandbox runs. V8 builds a string joined with `+`, a template or
 * `replace` as a tree of its parts once it is 13 characters or longer (a "cons string"): an ID grown one
 * character at a time is a chain of twenty such nodes, about ten times the memory of its characters. Strings
 * made from character codes are flat from the start.
 */

/** The same text as one flat string (for short text only: the codes go through the call's arguments). */
export function flatText(text: string): string {
  const codes = new Array<number>(text.length);
  for (let index = 0; index < text.length; index += 1) codes[index] = text.charCodeAt(index);
  return String.fromCharCode(...codes);
}
