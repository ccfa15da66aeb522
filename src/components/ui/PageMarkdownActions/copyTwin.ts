/** Fetches a page's Markdown twin and puts it on the clipboard; returns the sentence to announce. Loaded on first use. */
export async function copyTwin(twinUrl: string): Promise<string> {
  try {
    const response = await fetch(twinUrl, {headers: {Accept: 'text/markdown'}});
    if (!response.ok) return `Could not copy: the Markdown of this page answered ${response.status}.`;
    await navigator.clipboard.writeText(await response.text());
    return 'Copied';
  } catch (error) {
    return `Could not copy: ${error instanceof Error ? error.message : String(error)}`;
  }
}
