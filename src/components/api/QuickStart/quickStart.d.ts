/** The module plugins/content/openapi-contract writes at build time (its `quickStartModule`). */
declare module '@generated/openapi-contract/quick-start.json' {
  import type {RenderedSample} from '@site/src/lib/samples';

  const quickStart: RenderedSample;
  export default quickStart;
}
