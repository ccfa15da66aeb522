/** The stock Docusaurus client entry, aliased by plugins/performance/staged-start-up; imported only for its side effect of starting the app. */
declare module '@portal/stock-client-entry';
