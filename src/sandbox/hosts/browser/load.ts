/**
 * The one way a page loads the in-browser sandbox. Both imports name the same chunk, "sandbox-engine": the
 * engine, its data and the contract's compiled validators (most of its bytes) then exist once in the build,
 * shared by Try it, the sandbox console, the notification simulator, the tryout, the live demos and the home
 * page's example, instead of a copy bundled into each of their chunks; a reader who opens two of them
 * downloads it once. Nothing imports host.ts or schemaProblems.ts statically outside this folder.
 */
export const loadBrowserHost = () => import(/* webpackChunkName: "sandbox-engine" */ './host');

/** The contract's compiled validators alone (Try it checks a request before it sends it anywhere). */
export const loadSchemaChecks = () => import(/* webpackChunkName: "sandbox-engine" */ './schemaProblems');
