/**
 * What the browser build gets for `import ... from 'prism-react-renderer'`
 * (see plugins/performance/deferred-highlighting). The theme's start-up client module
 * imports Prism only to hand it to @theme/prism-include-languages, which this
 * site replaces with a no-op; the real Prism loads on demand in client.tsx.
 */
export const Prism = {languages: {}};
