import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import type {PageOperationView} from '@site/src/contract/apiModel';
import FieldTable from '@site/src/components/api/FieldTable';
import ExampleTabs from '@site/src/components/api/ExampleTabs';

/** Headers, path and query parameters, body fields and body examples of a request or notification. */
export default function ApiRequest({operation}: {operation: PageOperationView}): ReactNode {
  const isWebhook = operation.kind === 'webhook';
  return (
    <div data-section="request">
      <p>
        {isWebhook ? 'The provider signs each notification' : 'Sign every request'} as described in{' '}
        <Link to="/docs/integration-guide#signing-requests">signing requests</Link>; the signature covers the headers below and the
        raw body.
      </p>
      <FieldTable fields={operation.headerParameters} caption={isWebhook ? 'Notification headers' : 'Request headers'} />
      {operation.pathParameters.length > 0 && <FieldTable fields={operation.pathParameters} caption="Path parameters" />}
      {operation.queryParameters.length > 0 && <FieldTable fields={operation.queryParameters} caption="Query parameters" />}
      {operation.requestBody ? (
        <>
          {operation.requestBody.descriptionHtml && <div dangerouslySetInnerHTML={{__html: operation.requestBody.descriptionHtml}} />}
          <FieldTable fields={operation.requestBody.fields} variants={operation.requestBody.variants} caption={isWebhook ? 'Notification body (application/json)' : 'Request body (application/json)'} />
          <ExampleTabs examples={operation.requestExamples} label={isWebhook ? 'Notification' : 'Request'} />
        </>
      ) : (
        <p>This call has no body; send an empty body and sign an empty last line.</p>
      )}
    </div>
  );
}
