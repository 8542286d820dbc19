// The service worker (/sw.js, templates/pwa/sw.js), registered once the page has
// loaded: it keeps the static files and the offline page (static/js/offline_page.js).
// Its address is given by this module's own script element (data-service-worker).
var script = document.querySelector("script[data-service-worker]");
var worker = script && script.getAttribute("data-service-worker");
if (worker && "serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker).catch(function () {
      // Refused (blocked, an insecure origin): the app works as a plain website.
    });
  });
}
