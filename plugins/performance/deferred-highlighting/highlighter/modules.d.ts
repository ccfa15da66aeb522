// The browser build imports prism-react-renderer's file directly (its bare name is aliased to a stub there).
declare module 'prism-react-renderer/dist/index.mjs' {
  export * from 'prism-react-renderer';
}

// Prism's grammar files only register themselves on the global Prism.
declare module 'prismjs/components/*';
