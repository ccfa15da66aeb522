/**
 * The production client entry (plugins/performance/staged-start-up): requires the start-up modules in groups,
 * each in a task of its own, then the stock client entry, which starts the app as usual.
 *
 * `webpackMode: "eager"` keeps every module in the start-up bundle (no extra request); the import
 * only delays evaluating it. Each group is evaluated in the task a message-channel post starts,
 * so the browser can run input and rendering work between groups.
 */

/*
 * A group is imported for its side effect of being evaluated; the import keeps every export of the
 * module it names, so groups name modules whose exports the app uses anyway (a default export, or
 * CommonJS). The router, whose package exports much that the site does not use, is left to the
 * stock entry: as a group it added 4 KB to startup-libraries.js.
 */

/** Resolves in a new task, without setTimeout's clamping of nested timers. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

const stages: ReadonlyArray<() => Promise<unknown>> = [
  () => import(/* webpackMode: "eager" */ 'react-dom/client'),
  () => Promise.all([import(/* webpackMode: "eager" */ '@generated/routes'), import(/* webpackMode: "eager" */ '@generated/client-modules')]),
  () => import(/* webpackMode: "eager" */ '@theme/Layout'),
  () => import(/* webpackMode: "eager" */ '@portal/stock-client-entry'),
];

async function start(): Promise<void> {
  for (const stage of stages) {
    await nextTask();
    await stage();
  }
}

void start();
