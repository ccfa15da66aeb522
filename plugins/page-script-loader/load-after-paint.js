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

  // Inserting a script element costs the main thread about a millisecond on a slow phone (the
  // fetch starts there), and a page lists a dozen: insert them a few at a time, one short task each.
  var sliceMs = 4;

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

  /** @param {number} index */
  function insertFrom(index) {
    var start = performance.now();
    while (index < sources.length) {
      insert(String(sources[index]));
      index += 1;
      if (index < sources.length && performance.now() - start >= sliceMs) {
        setTimeout(insertFrom, 0, index);
        return;
      }
    }
  }

  function load() {
    if (started) return;
    started = true;
    insertFrom(0);
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
