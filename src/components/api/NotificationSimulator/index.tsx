import type {ReactNode} from 'react';
import PanelOpener from '@site/src/components/ui/PanelOpener';
import LazyNotificationSimulatorPanel from '@site/src/components/widgets/NotificationSimulatorPanel/Lazy';

/**
 * The closed notification simulator of a notification page, inserted by the contract's remark plugin. Only
 * its button is in the page; the panel, the sandbox engine and the validators load when the reader opens it.
 */
export default function NotificationSimulator({operationId, summary, scenarios}: {operationId: string; summary: string; scenarios: readonly string[]}): ReactNode {
  return (
    <PanelOpener
      kind="notification-simulator"
      panelKey={operationId}
      openLabel={`Simulate a ${summary.replace(/^[A-Z](?=[a-z])/, (first) => first.toLowerCase())}`}
      closeLabel="Close the simulator">
      {() => <LazyNotificationSimulatorPanel operationId={operationId} scenarios={scenarios} />}
    </PanelOpener>
  );
}
