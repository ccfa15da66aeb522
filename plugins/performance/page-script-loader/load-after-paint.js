// @ts-check
/**
 * Starts the page's scripts once the server-rendered page has been painted.
 *
 * The HTML already carries the whole page, so a reader on a slow phone network
 * sees it as soon as the stylesheet arrives, instead of waiting while ~170 KB
 * of JavaScript shares the bandwidth. React then loads and hydrates as usual.
 * The script list comes from the build: the page template (ssrTemplate in
 * docusaurus.config.ts) puts it in <script type="application/json" id="page-scripts">.
 */
(function () {
  var list = document.getElementById('page-scripts');
  // The dev server's page has no list: it loads its scripts itself.
  if (!list) return;
  /** @type {string[]} */
  var sources = JSON.parse(list.textContent || '[]');
  var started = false;

  // Inserting a script element starts its fetch from the main thread, and the browser's network
  // side wakes up with it: measured here, each insert held the thread 3-7 ms of wall time for about
  // 1 ms of its own work. A page lists up to a dozen, so each gets a task of its own; a message
  // channel hands over to the next without setTimeout's 4 ms clamp on nested timers.
  var next = new MessageChannel();

  /** @param {string} source */
  function insert(source) {
    var script = document.createElement('script');
    script.src = source;
    // Injected scripts run as soon as they arrive unless async is false: keep the build's order.
    script.async = false;
    // A chunk that failed must not stay in the page: webpack would find the dead tag when the
    // app asks for that chunk again and wait on it until its timeout, instead of retrying.
    script.onerror = function () {
      if (script.parentNode) script.parentNode.removeChild(script);
    };
    document.head.appendChild(script);
  }

  var index = 0;
  next.port1.onmessage = insertNext;

  function insertNext() {
    insert(String(sources[index]));
    index += 1;
    if (index < sources.length) next.port2.postMessage(null);
  }

  function load() {
    if (started) return;
    started = true;
    if (sources.length > 0) insertNext();
  }

  // The browser reports a paint once it is on screen; waiting for that report means no script
  // shares the network with the HTML and CSS the reader is waiting for.
  var observesPaint = typeof PerformanceObserver === 'function' && (PerformanceObserver.supportedEntryTypes || []).indexOf('paint') >= 0;
  if (document.visibilityState === 'hidden' || !observesPaint) {
    // A background tab paints nothing, and an old browser cannot tell: start at once.
    load();
  } else if (performance.getEntriesByName('first-contentful-paint').length > 0) {
    load();
  } else {
    var observer = new PerformanceObserver(function (paints) {
      if (paints.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      load();
    });
    observer.observe({type: 'paint', buffered: true});
    // A page that never paints content (or a paint that is never reported) still gets its scripts.
    setTimeout(load, 5000);
  }
})();
