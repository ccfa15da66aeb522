import {Prism} from 'prism-react-renderer';

// Prism's language components extend a global `Prism`; prism-react-renderer keeps its own
// instance. Lend it to them while they load (hidePrism.ts takes it back).
(globalThis as {Prism?: unknown}).Prism = Prism;
