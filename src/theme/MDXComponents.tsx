import MDXComponents from '@theme-original/MDXComponents';
import MarkdownTable from '@site/src/components/ui/MarkdownTable';

/**
 * Wrapped, not ejected: the theme's mapping plus one entry. Markdown tables get a scroll box of
 * their own (src/components/ui/MarkdownTable), so a wide one no longer widens the page on a phone.
 */
export default {...MDXComponents, table: MarkdownTable};
