import {Fragment, type ReactNode} from 'react';
import Heading from '@theme/Heading';
import type {PageOperationView, PageResponseView} from '@site/src/contract/apiModel';
import FieldTable from '@site/src/components/api/FieldTable';
import ExampleTabs from '@site/src/components/api/ExampleTabs';

function statusLabel(response: PageResponseView): string {
  if (response.status !== 'default') return `HTTP ${response.status}`;
  const shared = response.sharedErrorStatuses ?? [];
  return shared.length > 0 ? `Errors (HTTP ${shared.join(', ')} and any other status)` : 'Errors (any other status)';
}

/**
 * Every response of an operation, or the acknowledgement a notification expects. Each status's
 * h3 is a sibling of the page's "Response" h2, not wrapped: the search index cuts a page into
 * sections at headings among siblings, and a wrapper put every status's text into the h2's
 * section as well, a fifth of an API page's share of the index a second time.
 */
export default function ApiResponses({operation}: {operation: PageOperationView}): ReactNode {
  return (
    <>
      {operation.responses.map((response) => (
        <Fragment key={response.status}>
          <Heading as="h3" id={`${operation.operationId}-response-${response.status}`}>
            {statusLabel(response)}
          </Heading>
          <div dangerouslySetInnerHTML={{__html: response.descriptionHtml}} />
          {response.body && (
            <FieldTable
              fields={response.body.fields}
              variants={response.body.variants}
              caption={`Response body, ${statusLabel(response)} (application/json)`}
            />
          )}
          <ExampleTabs examples={response.examples} label="Response" />
        </Fragment>
      ))}
    </>
  );
}
