import {Children, cloneElement, isValidElement, type ComponentProps, type ReactNode} from 'react';
import MDXCode from '@theme/MDXComponents/Code';
import CodeInline from '@theme/CodeInline';
import TableScroller from '@site/src/components/ui/TableScroller';
import BreakAfter from '@site/src/components/ui/BreakAfter';

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

/** From this length an inline code name in a Markdown table may also wrap at its camelCase humps (authorization|ExpiresAt). */
const longName = 16;

/**
 * The table's cells with each inline code span allowed to wrap at its joints (HOSTED_|PAYPAGE, nextAction.|type,
 * authorization|ExpiresAt), so a table of codes fits a narrow column (an API page's text beside its pane) instead of
 * scrolling sideways. Only the MDX inline code element is touched; links and prose are left as written.
 */
function withCodeBreaks(node: ReactNode): ReactNode {
  return Children.map(node, (child) => {
    if (!isValidElement<WithChildren>(child)) return child;
    // MDX's code element: as MDXComponents/Code renders an inline span, with its text broken at the joints.
    if (child.type === MDXCode && typeof child.props.children === 'string')
      return (
        <CodeInline {...child.props}>
          {/* Short names stay whole (qrContent); only a long one may also break at its humps. */}
          <BreakAfter text={child.props.children} characters="_./" humps={child.props.children.length > longName} />
        </CodeInline>
      );
    const {children} = child.props;
    return typeof children === 'object' && children !== null ? cloneElement(child, {}, withCodeBreaks(children)) : child;
  });
}

/** A Markdown table (mapped in src/theme/MDXComponents), in a scroll box named after its columns. */
export default function MarkdownTable({children, ...props}: ComponentProps<'table'>): ReactNode {
  const columns = headerCells(children).filter(Boolean);
  return (
    <TableScroller label={columns.length ? `Table: ${columns.join(', ')}` : 'Table'}>
      <table {...props}>{withCodeBreaks(children)}</table>
    </TableScroller>
  );
}
