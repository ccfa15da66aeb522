/**
 * The production client entry (plugins/staged-start-up): requires the start-up modules in groups,
 * each in a task of its own, then the stock client entry, which starts the app as usual.
 *
 * `webpackMode: "eager"` keeps every module in the start-up bundle (no extra request); the import
 * only delays evaluating it. Each group is evaluated in the task a message-channel post starts,
 * so the browser can run input and rendering work between groups.
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
  () => Promise.all([import(/* webpackMode: "eager" */ 'react-router-dom'), import(/* webpackMode: "eager" */ 'react-helmet-async')]),
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
