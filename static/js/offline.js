// Recording never waits for the network: the small part a recording page loads. It
// watches where htmx would ask the server and brings in offline-queue.js (the queue on
// the phone, its sending) and offline-page.js (what the page shows of it) when something waits, when the
// server cannot be reached, and as soon as the table starts entering something, so that a
// phone without the service worker has it in its cache before the Wi-Fi drops. The game's
// fragment (.game-root, or else the parent of its status line .offline-status[data-offline])
// holds what the queue shows; the form that
// records an entry carries data-entry. What is a kind's own, offline-page.js asks of the
// kind's script (static/js/kinds/), which the kind's pages load.
(function () {
  "use strict";
  const script = document.currentScript;
  const submitters = new WeakMap();

  // first-touch.js comes first and loads scripts for both: the queue, then what the page shows of it
  const load = window.companionLoadScript;
  const full = () => load(script.dataset.queue, () => window.companionQueue).then(() => load(script.dataset.page, () => window.companionOffline));
  const later = (work) => full().then(work, () => {});
  const ENTRY = "form[data-entry]";
  // the game's fragment on this page, if it records
  const game = () => { const status = document.querySelector(".offline-status[data-offline]"); return status && (status.closest(".game-root") || status.parentElement); };

  // first-touch.js knows the button pressed where the browser does not say (Safari before 15.4)
  document.addEventListener("submit", (event) => {
    submitters.set(event.target, window.companionSubmitter ? window.companionSubmitter(event) : event.submitter);
  }, true);

  document.addEventListener("htmx:confirm", (event) => {
    const detail = event.detail;
    const submitter = submitters.get(detail.elt);
    // loaded, it decides at once; before that, nothing has to wait but what cannot be sent now
    if (window.companionOffline) {
      if (window.companionOffline.confirm(detail, submitter)) event.preventDefault();
    } else if (!navigator.onLine && game() && game().contains(detail.elt)) {
      event.preventDefault();
      later((offline) => { if (!offline.confirm(detail, submitter)) detail.issueRequest(true); });
    }
  });

  const unreachable = (event) => later((offline) => offline.unreachable(event.detail, submitters.get(event.detail.elt)));
  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);
  // a proxy in front answers for a server that is gone (502, 504), or the server for a
  // database it cannot use now (503) or a disk that is full (507): the entry waits here
  const LATER = [502, 503, 504, 507];
  document.addEventListener("htmx:responseError", (event) => { if (LATER.includes(event.detail.xhr.status)) unreachable(event); });

  // the copy of this page the service worker keeps, made new after a change, for a reload offline
  let copying = null;
  window.companionKeepCopy = () => {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    clearTimeout(copying);
    copying = setTimeout(() => fetch(location.href, {credentials: "same-origin", headers: {Accept: "text/html"}}).catch(() => {}), 500);
  };
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.successful || event.detail.requestConfig.verb !== "post") return;
    window.companionKeepCopy();
    full().catch(() => {});
  });

  const playing = (event) => {
    if (!event.target.closest || !event.target.closest(ENTRY)) return;
    document.removeEventListener("focusin", playing);
    document.removeEventListener("pointerdown", playing);
    full().catch(() => {});
  };
  document.addEventListener("focusin", playing);
  document.addEventListener("pointerdown", playing);

  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-needs-connection]");
    if (!link || navigator.onLine) return;
    event.preventDefault();
    later((offline) => offline.needsConnection(link.dataset.needsConnection));
  });

  // the edit page's form is sent by the browser itself, which cannot keep it for later
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.dataset || !form.dataset.offlineWords || navigator.onLine) return;
    event.preventDefault();
    later((offline) => offline.editRefused(form));
  });

  // something waits on this phone (from before a reload or a restart): show it and send it
  try {
    const opening = indexedDB.open("companion-offline", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("queue", {keyPath: "id"});
    opening.onsuccess = () => {
      const counting = opening.result.transaction("queue").objectStore("queue").count();
      counting.onsuccess = () => { opening.result.close(); if (counting.result) full().catch(() => {}); };
    };
  } catch (error) { /* no IndexedDB (a private window in some browsers): nothing can wait */ }
})();
