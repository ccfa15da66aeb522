// See exposePrism.ts: the grammars are registered, so the global goes again.
delete (globalThis as {Prism?: unknown}).Prism;
