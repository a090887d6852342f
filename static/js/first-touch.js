// htmx, half of a phone's first load, comes with the first touch, key or focus: until
// then nothing on the page needs it (base.html names it in data-htmx; a page that polls
// loads it at once instead). What the table does before it is ready (a tap on Record, a
// link, a choice) waits for it and is then handed to it, as if it had been there all
// along; if it cannot be had, the browser does it itself, as without JavaScript. The
// first of the page's scripts, so that its holding of a tap comes before any other's.
(function () {
  "use strict";
  const source = document.currentScript && document.currentScript.dataset.htmx;
  const ACTIONS = "[hx-get],[hx-post],[hx-put],[hx-patch],[hx-delete]";
  const INTENT = ["pointerdown", "touchstart", "keydown", "focusin"];

  // a script brought in when it is first needed, once. It is ready when it has set what
  // ready() looks for: a captive portal's page at the script's address loads too, and
  // sets nothing. A failed load is forgotten, so the next need asks again.
  const scripts = new Map();
  function loadScript(src, ready) {
    if (!scripts.has(src)) {
      scripts.set(src, new Promise((resolve, reject) => {
        const tag = document.createElement("script");
        const fail = () => {
          scripts.delete(src);
          tag.remove();
          reject(new Error(`${src} is not on this phone`));
        };
        tag.src = src;
        tag.onload = () => (ready() ? resolve(ready()) : fail());
        tag.onerror = fail;
        document.head.append(tag);
      }));
    }
    return scripts.get(src);
  }
  // offline.js brings offline-queue.js and offline-page.js the same way
  window.companionLoadScript = loadScript;

  // htmx starts at DOMContentLoaded, or at once once the document is complete: added in
  // between, it would wait for an event already gone
  const complete = new Promise((resolve) => {
    if (document.readyState === "complete") resolve();
    else window.addEventListener("load", resolve, {once: true});
  });
  function load() {
    if (window.htmx) return Promise.resolve(window.htmx);
    if (!source) return Promise.reject(new Error("this page has no htmx"));
    return complete.then(() => loadScript(source, () => window.htmx));
  }
  // for offline-page.js, which swaps the game in itself once the queue is sent
  window.companionHtmx = load;

  // the button that sent a form: Safari before 15.4 has no event.submitter, but a press
  // (or Enter in a box, which presses the form's first button) comes as a click first
  const pressed = new WeakMap();
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button, input[type=submit]");
    if (button && button.form && button.type === "submit") pressed.set(button.form, button);
  }, true);
  // offline.js keeps it with an entry it holds (a question's answer is the button pressed)
  window.companionSubmitter = (event) => (event.submitter === undefined ? pressed.get(event.target) || null : event.submitter);
  if (!source) return;

  // the first touch brings htmx; if it could not (no network, a portal), a touch a few
  // seconds later tries again (and so does every tap that needs it), not every key typed
  const RETRY_MS = 5000;
  const intent = () => {
    INTENT.forEach((type) => document.removeEventListener(type, intent, true));
    load().catch(() => setTimeout(arm, RETRY_MS));
  };
  const arm = () => INTENT.forEach((type) => document.addEventListener(type, intent, {capture: true, passive: true}));
  arm();

  // the event htmx would act on for this element: its hx-trigger, or htmx's default
  function triggeredBy(element) {
    const trigger = element.getAttribute("hx-trigger");
    if (trigger) return trigger.trim().split(/[\s,[]/)[0];
    if (element.matches("form")) return "submit";
    if (element.matches("input, select, textarea")) return "change";
    return "click";
  }

  // without htmx, what the browser would do with no JavaScript at all, after the question
  // htmx would have asked: a form or link goes as it is; a choice htmx sends as it is
  // made (a history filter, a card tapped) is asked of its hx-get address with its form
  let passing = false;
  function withoutHtmx(element, type, target, submitter) {
    const question = element.closest("[hx-confirm]");
    if (question && !window.confirm(question.getAttribute("hx-confirm"))) return;
    const form = element.matches("form") ? element : element.form || element.closest("form");
    passing = true;
    try {
      if (type === "submit" && submitter) submitter.click();
      else if (type === "submit" && form.requestSubmit) form.requestSubmit();
      else if (type === "submit") form.submit();
      // a button that asks its form's hx-get address (a "show me" that sends what the form
      // holds) is asked as a choice is: clicked, it would put the form's token in the address
      else if (type === "click" && !(element.matches("button") && element.hasAttribute("hx-get"))) element.click();
      else if (element.hasAttribute("hx-get")) {
        const address = new URL(element.getAttribute("hx-get"), location.href);
        // the form's token and id stay out of an address kept in the phone's history, and
        // the page opens where the answer is (the form's data-answer-at), as htmx's swap shows it
        if (form) new FormData(form).forEach((value, name) => { if (!["csrf_token", "submission"].includes(name)) address.searchParams.append(name, value); });
        const answerAt = element.closest("[data-answer-at]");
        if (answerAt) address.hash = answerAt.dataset.answerAt;
        location.assign(address.href);
      } else if (form) {
        form.requestSubmit ? form.requestSubmit() : form.submit();
      }
    } finally {
      passing = false;
    }
  }

  // until htmx is here, what the table does waits for it, marked busy as htmx marks it
  // (and as tests wait on), and is then handed to it as the same press
  const waiting = new WeakSet();
  function hold(event) {
    if (window.htmx || passing) return;
    const element = event.target.closest && event.target.closest(ACTIONS);
    if (!element || triggeredBy(element) !== event.type) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    // a second tap while htmx comes would send it twice
    if (waiting.has(element)) return;
    waiting.add(element);
    const {target, type} = event;
    // null when the form was sent with no button; undefined where the browser cannot tell
    const submitter = type !== "submit" ? null : event.submitter === undefined ? pressed.get(element) || null : event.submitter;
    element.classList.add("htmx-request");
    const settle = () => {
      waiting.delete(element);
      element.classList.remove("htmx-request");
    };
    const handOver = () => {
      settle();
      // the button itself again, so that htmx sends its name and value
      if (type === "submit" && submitter) submitter.click();
      else if (type === "submit") element.dispatchEvent(new Event("submit", {bubbles: true, cancelable: true}));
      else if (type === "click") element.click();
      else target.dispatchEvent(new Event(type, {bubbles: true}));
    };
    load().then(handOver, () => {
      settle();
      withoutHtmx(element, type, target, submitter);
    });
  }
  ["submit", "click", "change"].forEach((type) => document.addEventListener(type, hold, true));
})();
