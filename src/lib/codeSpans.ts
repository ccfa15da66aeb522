/** One run of a contract text: plain, or between a pair of backticks. */
export interface TextRun {
  readonly text: string;
  readonly code: boolean;
}

/**
 * Splits a one-line contract text (a response code's meaning, a statement
 * column) into plain runs and `backtick` code runs. These texts carry no other
 * markup, so a split serves where a Markdown renderer would cost the browser.
 * An unpaired backtick stays in the text as written.
 */
export function splitCodeSpans(text: string): TextRun[] {
  const parts = text.split('`');
  // With an odd number of backticks the last one has no partner: glue it back onto the text after it.
  if (parts.length % 2 === 0) {
    const stray = parts.pop() ?? '';
    parts[parts.length - 1] = `${parts[parts.length - 1]}\`${stray}`;
  }
  return parts.map((part, index) => ({text: part, code: index % 2 === 1})).filter((run) => run.text !== '' || run.code);
}
