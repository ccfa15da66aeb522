import lazyWidget from '@site/src/components/ui/LazyWidget';

/** The notification simulator in its own chunk, loaded when a reader opens it. */
const LazyNotificationSimulatorPanel = lazyWidget(
  () => import(/* webpackChunkName: "notification-simulator" */ '@site/src/components/widgets/NotificationSimulatorPanel'),
);

export default LazyNotificationSimulatorPanel;
