import {Children, isValidElement, type ComponentProps, type ReactNode} from 'react';
import TableScroller from '@site/src/components/ui/TableScroller';

type WithChildren = {children?: ReactNode};

/** The text a React tree renders (strings and numbers, depth first). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<WithChildren>(node)) return textOf(node.props.children);
  return '';
}

/** The texts of a table's header cells, in order: a Markdown table's header row. */
function headerCells(node: ReactNode): string[] {
  const cells: string[] = [];
  Children.forEach(node, (child) => {
    if (!isValidElement<WithChildren>(child)) return;
    if (child.type === 'th') cells.push(textOf(child.props.children).trim());
    else cells.push(...headerCells(child.props.children));
  });
  return cells;
}

/** A Markdown table (mapped in src/theme/MDXComponents), in a scroll box named after its columns. */
export default function MarkdownTable(props: ComponentProps<'table'>): ReactNode {
  const columns = headerCells(props.children).filter(Boolean);
  return (
    <TableScroller label={columns.length ? `Table: ${columns.join(', ')}` : 'Table'}>
      <table {...props} />
    </TableScroller>
  );
}
