import type {ReactNode} from 'react';
import Heading from '@theme/Heading';
import type {OperationView} from '@site/src/lib/apiModel';
import FieldTable from '@site/src/components/api/FieldTable';
import ExampleTabs from '@site/src/components/api/ExampleTabs';

function statusLabel(status: string): string {
  return status === 'default' ? 'Errors (any other status)' : `HTTP ${status}`;
}

/** Every response of an operation, or the acknowledgement a notification expects. */
export default function ApiResponses({operation}: {operation: OperationView}): ReactNode {
  return (
    <div data-section="responses">
      {operation.responses.map((response) => (
        <section key={response.status}>
          <Heading as="h3" id={`${operation.operationId}-response-${response.status}`}>
            {statusLabel(response.status)}
          </Heading>
          <div dangerouslySetInnerHTML={{__html: response.descriptionHtml}} />
          {response.body && (
            <FieldTable
              fields={response.body.fields}
              variants={response.body.variants}
              caption={`Response body, ${statusLabel(response.status)} (application/json)`}
            />
          )}
          <ExampleTabs examples={response.examples} label="Response" />
        </section>
      ))}
    </div>
  );
}
