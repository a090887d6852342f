// The companion's small script, shared by every kind of game; every form works without it.
// The page's own: the language sent as soon as it is picked, the screen kept awake, what
// this browser can do said where the server could only guess, each change named as this
// phone's or another's, an answer htmx cannot show said above the page (here, where it
// needs no other script), and the service worker registered. Typing an entry is entry.js's,
// what a swap does to the page swaps.js's, another phone's change elsewhere.js's; htmx
// comes with the first touch (first-touch.js).
(function () {
  "use strict";
  document.documentElement.classList.remove("no-js");

  // a language is sent as soon as it is picked; without this script its button does it
  document.addEventListener("change", (event) => {
    const select = event.target.closest && event.target.closest("select[data-autosubmit]");
    // Safari before 16 has no requestSubmit
    if (select) select.form.requestSubmit ? select.form.requestSubmit() : select.form.submit();
  });

  // each change listed under a game says whether it came from this phone or another: the
  // list names phones by id alone, the same for every viewer (a kept page serves them all),
  // and a phone that has changed a game is told its own id in a cookie (companion/web/parts.py)
  function namePhones(root) {
    const list = root.id === "changes" ? root : root.querySelector("#changes");
    if (!list) return;
    const mine = (document.cookie.match(/(?:^|;\s*)phone=([0-9a-f]+)/) || [])[1];
    list.querySelectorAll("[data-phone]").forEach((said) => {
      said.textContent = said.dataset.phone === mine ? list.dataset.thisPhone : list.dataset.anotherPhone;
    });
  }

  // a region shown, with the page or by a swap: its changes named, the screen's lock offered
  // (or why this browser has none)
  function refresh(root) {
    namePhones(root);
    const toggle = document.getElementById("wake-lock");
    if (toggle && "wakeLock" in navigator) toggle.closest(".wake-lock").hidden = false;
    // a phone that turned it off (to spare its battery) keeps it off on every page after
    if (toggle && keptOff()) toggle.checked = false;
    // no toggle to offer: say why, so a missing feature is never silently hidden
    root.querySelectorAll(".wake-lock-missing").forEach((note) => {
      // at a plain address the line under the bar already says it; here only the browser's own lack
      note.hidden = "wakeLock" in navigator || !window.isSecureContext;
      note.textContent = note.dataset.unsupported;
    });
  }

  // the server guesses from the address; the browser knows whether this is a secure context
  function showSecureState() {
    document.querySelectorAll("[data-secure-missing]").forEach((line) => { line.hidden = window.isSecureContext; });
    const list = document.querySelector("ul.features");
    if (!list) return;
    const say = (feature, words) => { list.querySelector(`[data-feature="${feature}"] [data-status]`).textContent = words; };
    if (!window.isSecureContext) {
      ["wake-lock", "install", "offline"].forEach((feature) => say(feature, list.dataset.needsSecure));
      return;
    }
    say("wake-lock", "wakeLock" in navigator ? list.dataset.ready : list.dataset.noWakeLock);
    say("offline", "serviceWorker" in navigator ? list.dataset.ready : list.dataset.noWorker);
    // only Chromium browsers offer an install prompt; Safari and Firefox install from their menu
    say("install", "serviceWorker" in navigator && "BeforeInstallPromptEvent" in window ? list.dataset.installReady : list.dataset.noInstall);
  }

  // keep the screen on while a game is open: the lock is dropped whenever the page
  // is hidden, so it is asked for again each time the page comes back
  let lock = null;
  // on unless this phone said off (a browser that keeps nothing, as in private browsing, asks again)
  const WAKE_LOCK_OFF = "companion-wake-lock-off";
  function keptOff() {
    try { return localStorage.getItem(WAKE_LOCK_OFF) === "1"; } catch (error) { return false; }
  }
  function keepOff(off) {
    try { if (off) localStorage.setItem(WAKE_LOCK_OFF, "1"); else localStorage.removeItem(WAKE_LOCK_OFF); } catch (error) { /* kept for this page only */ }
  }
  async function wantLock() {
    const toggle = document.getElementById("wake-lock");
    if (!toggle || !toggle.checked || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      toggle.closest(".wake-lock").classList.add("on");
      lock.addEventListener("release", () => { toggle.closest(".wake-lock").classList.remove("on"); });
    } catch (error) {
      toggle.closest(".wake-lock").classList.remove("on");
    }
  }
  document.addEventListener("change", (event) => {
    if (event.target.id !== "wake-lock") return;
    keepOff(!event.target.checked);
    if (event.target.checked) wantLock(); else if (lock) { lock.release(); lock = null; }
  });
  document.addEventListener("visibilitychange", wantLock);

  // a plain form whose undoing is not one tap (new links for every player) asks first, as
  // htmx's hx-confirm asks for the forms it sends; without script it goes as it is
  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  // an answer htmx does not swap in (a server fault, an expired form, too many tries, a
  // database out of reach, a full disk) is said above the page, in the server's own words
  // when its answer has them, so that a tap on Record never ends in silence. A proxy
  // answering for a server that is gone (502, 504) has no words of ours: the offline
  // status line (offline-page.js) says the entry waits on the phone, as it does beside a 503 or a 507
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    const notice = document.getElementById("busy");
    if (!notice || [502, 504].includes(xhr.status)) return;
    let words = "";
    try {
      const page = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      // an error page's heading, or the busy notice an answer for htmx is (every page has
      // an empty, hidden one of its own)
      const said = page.querySelector(".error-card h1") || page.querySelector("#busy:not([hidden])");
      words = said ? said.textContent.trim() : "";
    } catch (error) { /* not a page: the sentence below says it */ }
    notice.textContent = words || (document.body.dataset.failed || "").replace("{code}", String(xhr.status));
    notice.className = "messages busy refused failed";
    notice.setAttribute("role", "alert");
    notice.dataset.from = event.detail.elt.id || "";
    notice.hidden = false;
    notice.scrollIntoView({block: "nearest"});
  });
  // the next answer shown clears it; and a region that asks for itself (a seat's page, its
  // game deleted and then restored) clears it once it is answered again, though with a 304
  // that shows nothing new
  document.addEventListener("htmx:afterSwap", () => {
    const notice = document.getElementById("busy");
    if (notice && notice.classList.contains("failed")) notice.hidden = true;
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const notice = document.getElementById("busy");
    if (!notice || !notice.classList.contains("failed") || !notice.dataset.from || !event.detail.successful) return;
    if (event.detail.elt.id === notice.dataset.from) notice.hidden = true;
  });

  document.addEventListener("DOMContentLoaded", () => {
    refresh(document);
    showSecureState();
    wantLock();
    const hint = document.getElementById("ios-install");
    const standalone = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone;
    if (hint && /iphone|ipad|ipod/i.test(navigator.userAgent) && !standalone) hint.hidden = false;
    // a form sent whole and refused (a new game's, say) comes back at the top of its page,
    // its message perhaps a screen below: the first box at fault is brought into view, and
    // focused, as a swapped answer's news is
    const refused = document.querySelector("main [aria-invalid='true']");
    if (refused && !location.hash) {
      refused.focus({preventScroll: true});
      refused.scrollIntoView({block: "center"});
    }
  });
  document.addEventListener("htmx:afterSettle", (event) => refresh(event.target));

  if ("serviceWorker" in navigator) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js").then((registration) => {
        function offer(worker) {
          const banner = document.getElementById("update-ready");
          if (!banner) return;
          banner.hidden = false;
          banner.querySelector("button").addEventListener("click", () => worker.postMessage("SKIP_WAITING"));
        }
        if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
        registration.addEventListener("updatefound", () => {
          const worker = registration.installing;
          worker.addEventListener("statechange", () => {
            if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
          });
        });
      }).catch(() => {});
      // the worker keeps the offline page in the language it was fetched in: when this
      // device's language changes, it fetches the page again
      navigator.serviceWorker.ready.then((registration) => {
        const lang = document.documentElement.lang;
        try {
          if (registration.active && localStorage.getItem("companion-lang") !== lang) {
            registration.active.postMessage("REFRESH_OFFLINE");
            localStorage.setItem("companion-lang", lang);
          }
        } catch (error) { /* no storage (a private window): the offline page keeps its language */ }
      });
      let reloading = false;
      navigator.serviceWorker.addEventListener("controllerchange", () => {
        if (reloading || !document.getElementById("update-ready") || document.getElementById("update-ready").hidden) return;
        reloading = true;
        window.location.reload();
      });
    });
  }
})();
