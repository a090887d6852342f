// The companion's small script. Every form works without it; this only makes them
// quicker: a running sum, a sign button for keypads with no minus, the rest filled in,
// the screen kept awake, and the service worker registered.
(function () {
  "use strict";
  document.documentElement.classList.remove("no-js");

  // a language is sent as soon as it is picked; without this script its button does it
  document.addEventListener("change", (event) => {
    const select = event.target.closest && event.target.closest("select[data-autosubmit]");
    // Safari before 16 has no requestSubmit
    if (select) select.form.requestSubmit ? select.form.requestSubmit() : select.form.submit();
  });

  function parsePoints(text) {
    const cleaned = (text || "").trim().replace("\u2212", "-");
    if (!/^-?\d+$/.test(cleaned)) return null;
    return parseInt(cleaned, 10);
  }

  function updateSum(form) {
    const output = form.querySelector("output[data-sum]");
    if (!output) return;
    let sum = 0;
    let blanks = 0;
    form.querySelectorAll(".points-input").forEach((input) => {
      const value = parsePoints(input.value);
      if (value === null) blanks += 1; else sum += value;
    });
    const total = parseInt(form.dataset.dealTotal, 10);
    output.textContent = String(sum);
    const line = output.closest(".sum");
    line.classList.toggle("ok", blanks === 0 && sum === total);
    line.classList.toggle("off", blanks === 0 && sum !== total);
    // one box left empty: offer to give that player what the deal total leaves
    const fill = line.querySelector(".fill-last");
    const empty = [...form.querySelectorAll(".points-input")].filter((input) => parsePoints(input.value) === null && input.value.trim() === "");
    if (fill) {
      fill.hidden = !(blanks === 1 && empty.length === 1);
      if (!fill.hidden) {
        fill.dataset.target = empty[0].id;
        fill.querySelector("[data-last-name]").textContent = form.querySelector(`label[for="${empty[0].id}"]`).textContent;
        fill.querySelector("[data-last-points]").textContent = String(total - sum);
        fill.dataset.points = String(total - sum);
      }
    }
  }

  function updateRest(form) {
    const chosen = form.querySelector("input[name=rest]:checked");
    const rest = chosen ? chosen.value : "none";
    form.querySelectorAll("tr[data-seat]").forEach((row) => {
      const isRest = row.dataset.seat === rest;
      // a row that stops being "the rest" loses the counts filled in for it
      if (!isRest && row.classList.contains("is-rest")) {
        row.querySelectorAll("input.count").forEach((input) => { input.value = ""; });
      }
      row.classList.toggle("is-rest", isRest);
      row.querySelectorAll("input.count").forEach((input) => { input.readOnly = isRest; });
    });
    if (rest === "none") return;
    const keys = new Set();
    form.querySelectorAll("input.count").forEach((input) => keys.add(input.dataset.key));
    keys.forEach((key) => {
      let others = 0;
      let most = 0;
      let target = null;
      form.querySelectorAll(`input.count[data-key="${key}"]`).forEach((input) => {
        most = parseInt(input.dataset.most, 10);
        if (input.closest("tr").dataset.seat === rest) { target = input; return; }
        const value = parseInt(input.value || "0", 10);
        if (!Number.isNaN(value)) others += value;
      });
      if (target) target.value = String(most - others);
    });
  }

  function refresh(root) {
    root.querySelectorAll("form.deal-form").forEach((form) => {
      form.querySelectorAll("button.sign").forEach((button) => { button.hidden = false; });
      updateSum(form);
      if (form.dataset.mode === "cards") updateRest(form);
    });
    const toggle = document.getElementById("wake-lock");
    if (toggle && "wakeLock" in navigator) toggle.closest(".wake-lock").hidden = false;
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

  document.addEventListener("input", (event) => {
    const form = event.target.closest("form.deal-form");
    if (!form) return;
    updateSum(form);
    if (form.dataset.mode === "cards") updateRest(form);
  });
  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.deal-form");
    if (form && form.dataset.mode === "cards") updateRest(form);
  });
  document.addEventListener("click", (event) => {
    const fill = event.target.closest("button.fill-last");
    if (fill) {
      const input = document.getElementById(fill.dataset.target);
      input.value = fill.dataset.points;
      updateSum(fill.closest("form"));
      return;
    }
    const button = event.target.closest("button.sign");
    if (!button) return;
    const input = document.getElementById(button.dataset.signFor);
    const value = input.value.trim().replace("\u2212", "-");
    input.value = value.startsWith("-") ? value.slice(1) : "-" + value;
    input.focus();
    updateSum(button.closest("form"));
  });

  // keep the screen on while a game is open: the lock is dropped whenever the page
  // is hidden, so it is asked for again each time the page comes back
  let lock = null;
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
    if (event.target.checked) wantLock(); else if (lock) { lock.release(); lock = null; }
  });
  document.addEventListener("visibilitychange", wantLock);

  document.addEventListener("DOMContentLoaded", () => {
    refresh(document);
    showSecureState();
    wantLock();
    const hint = document.getElementById("ios-install");
    const standalone = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone;
    if (hint && /iphone|ipad|ipod/i.test(navigator.userAgent) && !standalone) hint.hidden = false;
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    refresh(event.target);
    // after a swap, show the player what happened: the first field at fault, or the news
    const invalid = event.target.querySelector("[aria-invalid=true]");
    const news = event.target.querySelector(".messages, .question, .banner");
    if (invalid) {
      invalid.scrollIntoView({block: "center"});
      if (invalid.focus) invalid.focus({preventScroll: true});
    } else if (news && event.detail.requestConfig && event.detail.requestConfig.verb === "post") {
      news.scrollIntoView({block: "start"});
    }
  });

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

/* table review */
(function () {
  "use strict";
  // spy: a tapped card's answers come in by the card, with the whole game; when the swap
  // leaves them (or the button that records them) off the screen, bring them in
  document.addEventListener("htmx:afterSettle", (event) => {
    const answers = event.target.querySelector && event.target.querySelector("#spy-answers");
    const config = event.detail.requestConfig;
    if (!answers || !config || config.verb !== "get" || event.target.querySelector("[aria-invalid=true]")) return;
    answers.scrollIntoView({block: "nearest"});
  });
})();
