import type {ReactNode} from 'react';
import PanelOpener from '@site/src/components/ui/PanelOpener';
import LazyTryItPanel from '@site/src/components/widgets/TryItPanel/Lazy';

/**
 * The closed Try it panel of an operation page, inserted by the contract's remark plugin. Only its button is
 * in the page; the panel, the sandbox engine and the validators load when the reader opens it.
 */
export default function TryIt({operationId, summary}: {operationId: string; summary: string}): ReactNode {
  return (
    <PanelOpener kind="try-it" panelKey={operationId} openLabel={`Try ${summary} in the sandbox`} closeLabel="Close Try it">
      {() => <LazyTryItPanel operationId={operationId} />}
    </PanelOpener>
  );
}
