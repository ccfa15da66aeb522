/** Modules the sandbox-engine plugin writes at build time (plugins/content/sandbox-engine). */
declare module '@generated/sandbox-engine/spec.json' {
  import type {BrowserSandboxData} from '../../engine/spec';

  const data: BrowserSandboxData;
  export default data;
}

declare module '@generated/sandbox-engine/validators.js' {
  import type {ErrorObject} from 'ajv';

  /** Ajv standalone validation functions, by the JSON pointer of their schema in the contract. */
  export const byPointer: Readonly<Record<string, ((value: unknown) => boolean) & {errors?: ErrorObject[] | null}>>;
}

declare module '@generated/sandbox-engine/tryit.json' {
  import type {TryItData} from '../../../lib/tryIt';

  const data: TryItData;
  export default data;
}

declare module '@generated/sandbox-engine/notifications.json' {
  import type {NotificationSimulatorData} from '../../../lib/notificationCatalogue';

  const data: NotificationSimulatorData;
  export default data;
}
