// @ts-check
/**
 * Starts the page's scripts once the server-rendered page has been painted.
 *
 * The HTML already carries the whole page, so a reader on a slow phone network
 * sees it as soon as the stylesheet arrives, instead of waiting while ~170 KB
 * of JavaScript shares the bandwidth. React then loads and hydrates as usual.
 * The script list comes from the build (ssrTemplate in docusaurus.config.ts).
 */
(function () {
  var loader = document.currentScript;
  var sources = ((loader && loader.getAttribute('data-scripts')) || '').split(' ').filter(Boolean);
  var started = false;

  function load() {
    if (started) return;
    started = true;
    sources.forEach(function (source) {
      var script = document.createElement('script');
      script.src = source;
      // Injected scripts run as soon as they arrive unless async is false: keep the build's order.
      script.async = false;
      document.head.appendChild(script);
    });
  }

  if (document.visibilityState === 'hidden') {
    // A background tab paints nothing, so there is no paint to wait for.
    load();
  } else {
    // A frame callback runs just before the first paint; a task queued from it runs just after.
    requestAnimationFrame(function () {
      setTimeout(load, 0);
    });
  }
})();
