// The companion's small script, shared by every kind of game. Every form works without it;
// this only makes them quicker: a running sum, a sign button for keypads with no minus,
// Next moving box to box, the screen kept awake, and the service worker registered. Numbers
// come from the page, as the rules gave them; no rule is here, and no kind: what a kind's
// form counts for itself is in its own script (static/js/kinds/), which app.js asks with
// a companion:entry event each time an entry form is shown or a box of it changes.
// htmx, half of a phone's first load, comes with the first touch, key or focus: until
// then nothing on the page needs it (base.html names it in data-htmx; a page that polls
// loads it at once instead). What the table does before it is ready (a tap on Record, a
// link, a choice) waits for it and is then handed to it, as if it had been there all
// along; if it cannot be had, the browser does it itself, as without JavaScript.
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
  // offline.js brings offline-queue.js the same way
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
  // for offline-queue.js, which swaps the game in itself once the queue is sent
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

(function () {
  "use strict";
  document.documentElement.classList.remove("no-js");

  // a language is sent as soon as it is picked; without this script its button does it
  document.addEventListener("change", (event) => {
    const select = event.target.closest && event.target.closest("select[data-autosubmit]");
    // Safari before 16 has no requestSubmit
    if (select) select.form.requestSubmit ? select.form.requestSubmit() : select.form.submit();
  });

  // a number as the server reads one (Python's int): a sign, then decimal digits of any
  // script ("౫" is 5 on a Telugu keypad), each worth its place in its script's run of ten
  function digitValue(digit) {
    const point = digit.codePointAt(0);
    let start = point;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
    return (point - start) % 10;
  }
  function parsePoints(text) {
    const found = /^([-+]?)(\p{Nd}+)$/u.exec((text || "").trim().replace("\u2212", "-"));
    if (!found) return null;
    const value = [...found[2]].reduce((sum, digit) => sum * 10 + digitValue(digit), 0);
    return found[1] === "-" ? -value : value;
  }
  // a sign typed first (or put by the ± key) is a number on its way, not a slip
  const SIGN_ALONE = /^[-+\u2212]$/;

  // the forms the table types an entry's numbers in, a box a player (the class is the
  // templates' and the stylesheet's)
  const ENTRY = "form.deal-form";

  function isEntryBox(element) {
    return element instanceof HTMLInputElement && element.type === "text" && element.form !== null && element.form.matches(ENTRY);
  }

  // the kind's own script counts what is its own (static/js/kinds/); the boxes it fills in
  // are read-only, so the last box to type in is marked after it
  function counted(form) {
    form.dispatchEvent(new CustomEvent("companion:entry", {bubbles: true}));
    markLastBox(form);
  }

  // the boxes the table types in, in order: a box the page fills in (read-only) is not typed,
  // nor one a hidden part of the form holds. Read from the markup, not the layout: this runs
  // as a swap settles, where asking the layout would make the browser lay the whole page out
  // there and then (30 ms of a 4x-slowed phone's tap), and once more for the frame
  function boxes(form) {
    return [...form.querySelectorAll("input[type=text]")].filter((input) => !input.readOnly && !input.disabled && !input.closest("[hidden]"));
  }

  // the keypad's key says what it does: next box, or record from the last one
  function markLastBox(form) {
    const list = boxes(form);
    list.forEach((input, index) => input.setAttribute("enterkeyhint", index === list.length - 1 ? "done" : "next"));
  }

  // scroll as little as needs be (or centre, after a swap) so every element shows whole
  // above the on-screen keyboard, which shrinks the visual viewport, not the layout one
  function reveal(elements, centre) {
    const rects = elements.filter(Boolean).map((element) => element.getBoundingClientRect());
    if (!rects.length) return;
    const top = Math.min(...rects.map((rect) => rect.top));
    const bottom = Math.max(...rects.map((rect) => rect.bottom));
    const view = window.visualViewport;
    const viewTop = view ? view.offsetTop : 0;
    const height = view ? view.height : window.innerHeight;
    const margin = 8;
    let by = 0;
    if (bottom - top + 2 * margin > height) by = top - viewTop - margin;
    else if (top < viewTop + margin || bottom > viewTop + height - margin) {
      if (centre) by = (top + bottom) / 2 - (viewTop + height / 2);
      else by = top < viewTop + margin ? top - viewTop - margin : bottom - (viewTop + height) + margin;
    }
    if (Math.abs(by) >= 1) window.scrollBy(0, by);
  }

  function revealBox(input) {
    const form = input.form;
    const list = boxes(form);
    const message = input.getAttribute("aria-describedby") && document.getElementById(input.getAttribute("aria-describedby"));
    // while the last box is typed, the button that records it is in view too
    const record = list[list.length - 1] === input ? form.querySelector("button.big:not([hidden])") : null;
    reveal([input, message, record], false);
  }

  function updateSum(form) {
    const line = form.querySelector(".sum");
    if (!line) return;
    const inputs = [...form.querySelectorAll(".points-input")];
    let sum = 0;
    const unread = [];
    const empty = [];
    inputs.forEach((input) => {
      const value = parsePoints(input.value);
      if (value !== null) sum += value;
      else if (input.value.trim() === "" || SIGN_ALONE.test(input.value.trim())) empty.push(input);
      else unread.push(input);
    });
    const total = parseInt(form.dataset.total, 10);
    const complete = empty.length === 0 && unread.length === 0;
    // nothing typed yet: say what there is to enter, not "0 of 60"
    line.querySelector("[data-sum-empty]").hidden = empty.length < inputs.length;
    line.querySelector("[data-sum-some]").hidden = empty.length === inputs.length;
    line.querySelector("output[data-sum]").textContent = String(sum);
    line.classList.toggle("ok", complete && sum === total);
    line.classList.toggle("off", (complete && sum !== total) || unread.length > 0);
    // the first box the sum cannot read, by its player's name: the sum leaves it out
    const said = line.querySelector("[data-sum-unread]");
    said.hidden = unread.length === 0;
    if (unread.length) said.querySelector("[data-unread-name]").textContent = form.querySelector(`label[for="${unread[0].id}"]`).textContent;
    // one box left empty: offer to give that player what the total leaves
    const fill = line.querySelector(".fill-last");
    const offer = empty.length === 1 && unread.length === 0;
    const left = line.querySelector("[data-sum-left]");
    left.hidden = offer || unread.length > 0 || empty.length === 0 || empty.length === inputs.length;
    left.querySelector("output[data-left]").textContent = String(total - sum);
    fill.hidden = !offer;
    if (offer) {
      fill.dataset.target = empty[0].id;
      fill.querySelector("[data-last-name]").textContent = form.querySelector(`label[for="${empty[0].id}"]`).textContent;
      fill.querySelector("[data-last-points]").textContent = String(total - sum);
      fill.dataset.points = String(total - sum);
    }
  }

  // a refused entry's message goes as soon as its box (or a box it is about) changes
  function clearErrors(control) {
    const fields = [control.name, ...(control.dataset.clears || "").split(" ")].filter(Boolean);
    fields.forEach((field) => {
      const message = document.getElementById(`${field}-error`);
      if (!message) return;
      document.querySelectorAll(`[aria-describedby="${field}-error"]`).forEach((element) => {
        element.removeAttribute("aria-invalid");
        element.removeAttribute("aria-describedby");
      });
      message.remove();
    });
  }

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

  function refresh(root) {
    namePhones(root);
    root.querySelectorAll(ENTRY).forEach((form) => {
      form.querySelectorAll("button.sign").forEach((button) => { button.hidden = false; });
      updateSum(form);
      counted(form);
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

  function changed(event) {
    const form = event.target.closest && event.target.closest(ENTRY);
    if (!form) return;
    clearErrors(event.target);
    // a question asked about the points as they were: changed, it is no longer the way on;
    // nor is a stored shoot's answer on an edit page (the server asks again if these points
    // could still be a shoot, and records them as typed if not)
    const question = form.querySelector(".question");
    if (question && event.target.classList.contains("points-input")) {
      question.remove();
      form.querySelectorAll("button.big[hidden]").forEach((button) => { button.hidden = false; });
    }
    const stored = form.querySelector("fieldset.shoot-choice");
    if (stored && event.target.classList.contains("points-input")) {
      clearErrors(stored.querySelector("input"));
      stored.remove();
    }
    updateSum(form);
    counted(form);
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  // the keypad's Next (an Enter) moves on to the next box; only the last box records
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing || !isEntryBox(event.target)) return;
    const form = event.target.form;
    const list = boxes(form);
    const at = list.indexOf(event.target);
    if (at >= 0 && at < list.length - 1) {
      event.preventDefault();
      list[at + 1].focus();
      return;
    }
    // the form's first submit button would answer an open question: the table must
    const question = form.querySelector(".question button");
    if (question) {
      event.preventDefault();
      question.focus();
    }
  });
  document.addEventListener("focusin", (event) => {
    if (!isEntryBox(event.target)) return;
    revealBox(event.target);
    // a tap on a filled box retypes it, as a calculator's would: 25 over 20 is 25, not 2025
    if (event.target.value) event.target.select();
  });
  // the name boxes of a new game: Next moves on down the seats; the form is sent by its button
  document.addEventListener("keydown", (event) => {
    const box = event.target;
    if (event.key !== "Enter" || event.isComposing || !(box instanceof HTMLInputElement) || !box.form || !box.form.matches("form.new-game")) return;
    const names = [...box.form.querySelectorAll("input[type=text]")].filter((input) => input.getClientRects().length > 0);
    const at = names.indexOf(box);
    if (at >= 0 && at < names.length - 1) {
      event.preventDefault();
      names[at + 1].focus();
    }
  });
  // the keyboard opening shrinks the view after the focus: show the box again above it
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", () => {
      if (isEntryBox(document.activeElement)) revealBox(document.activeElement);
    });
  }
  document.addEventListener("click", (event) => {
    const fill = event.target.closest("button.fill-last");
    if (fill) {
      const input = document.getElementById(fill.dataset.target);
      input.value = fill.dataset.points;
      // as if typed: the sum, and any message about this box, follow
      input.dispatchEvent(new Event("input", {bubbles: true}));
      return;
    }
    const button = event.target.closest("button.sign");
    if (!button) return;
    const input = document.getElementById(button.dataset.signFor);
    const value = input.value.trim().replace("\u2212", "-");
    input.value = value.startsWith("-") ? value.slice(1) : "-" + value;
    input.focus();
    // the focus selects a filled box, to be typed over: a sign given first must stay, and
    // what is typed next goes after it (−, then 5, is −5)
    input.setSelectionRange(input.value.length, input.value.length);
    input.dispatchEvent(new Event("input", {bubbles: true}));
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

  // a region that asks for itself every few seconds (data-polls: the players' shares on the
  // scorer's page) does not while the phone is offline or the page out of sight: the next
  // ask will do. (htmx's trigger filter, "[navigator.onLine]", needs eval, which the page's
  // htmx config forbids.)
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt.hasAttribute("data-polls") && (document.hidden || !navigator.onLine)) event.preventDefault();
  });

  // friends at the table may open this game page on their own phones: every so often, and
  // whenever the phone is looked at again, ask whether the game moved on (a 304 when it has
  // not, companion/freshness.py) and say so. Never swapped in unasked: this phone may be
  // typing the next entry.
  const CHANGE_CHECK_MS = 15000;
  const busy = () => document.hidden || !navigator.onLine || document.querySelector(".htmx-request") !== null;
  // whether the game as the server has it now (its answer for htmx: the entry's region and
  // the others out of band) shows anything this page does not, the players' shares left out:
  // a share sent from a player's phone moves the game's version (every page shows who has
  // sent theirs) but records nothing, and the shares' own ask shows it. Told of it, a scorer
  // would reload for nothing and lose the numbers typed
  const said = (element) => element.textContent.replace(/\s+/g, " ").trim();
  const entryHeadings = (page) => [...page.querySelector("[data-version]").querySelectorAll("h2")]
    .filter((heading) => !heading.closest(".shares")).map(said).join("\n");
  function showsMore(answer) {
    if (entryHeadings(answer) !== entryHeadings(document)) return true;
    return [...answer.querySelectorAll("[id][hx-swap-oob]")].some((region) => {
      const mine = document.getElementById(region.id);
      return !mine || said(mine) !== said(region);
    });
  }
  async function checkForChanges() {
    const note = document.querySelector("[data-changed-elsewhere]");
    if (!note || !note.hidden || busy() || !document.querySelector("[data-version]")) return;
    try {
      const response = await fetch(location.href, {headers: {"HX-Request": "true"}, cache: "no-cache"});
      if (!response.ok || busy()) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const now = page.querySelector("[data-version]");
      // read again: this phone's own write may have been swapped in meanwhile
      const shown = document.querySelector("[data-version]");
      if (now && shown && now.dataset.version !== shown.dataset.version && showsMore(page)) note.hidden = false;
    } catch (error) { /* no connection: offline.js says so */ }
  }
  if (document.querySelector("[data-changed-elsewhere]")) {
    setInterval(checkForChanges, CHANGE_CHECK_MS);
    document.addEventListener("visibilitychange", checkForChanges);
  }
  // the players' own phones completed the deal (or round) this page shows, or the game
  // ended (companion/web/seats.py's shares): the game is brought as it is now, its entry's
  // region and the others with it, unless this phone has started typing an entry of its
  // own, which is kept and told of it as of any other phone's change
  // an entry this phone has started typing is kept, and the note says the game changed
  function keepsTyping() {
    const form = document.querySelector(ENTRY);
    if (!form || nothingEntered(form)) return false;
    const note = document.querySelector("[data-changed-elsewhere]");
    if (note) note.hidden = false;
    return true;
  }
  // the server's news of it ("Recorded meanwhile: deal 2."), at the top of the game's region
  function sayNews(news) {
    const region = document.querySelector("[data-version]");
    if (!news || !region) return;
    let box = region.querySelector(":scope > .messages");
    if (!box) {
      box = document.createElement("div");
      box.className = "messages";
      box.setAttribute("role", "status");
      region.prepend(box);
    }
    const line = document.createElement("p");
    line.textContent = news;
    box.replaceChildren(line);
    box.hidden = false;
  }
  let refreshing = null;  // the game's region while the game it was sent for is on its way
  document.addEventListener("companion:moved-on", (event) => {
    const region = document.querySelector("[data-version]");
    if (!region || !window.htmx) return;
    const news = event.detail && event.detail.news;
    // a write of this phone's own is on its way: its answer brings the game as it is
    if ([...document.querySelectorAll(".htmx-request")].some((element) => element !== event.target)) return;
    if (keepsTyping()) { sayNews(news); return; }
    refreshing = region;
    window.htmx.ajax("GET", location.href, {target: region, swap: "outerHTML"})
      .then(() => sayNews(news))
      .finally(() => { refreshing = null; })
      .catch(() => { /* out of reach: the next poll asks again */ });
  });
  // and one who starts typing while the game is on its way: the answer is left unswapped
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (!refreshing || event.detail.target !== refreshing) return;
    refreshing = null;
    if (keepsTyping()) event.detail.shouldSwap = false;
  });

  // a new deal's answer brings Black Spy's chart as text in a template (data-draws: the
  // element it is drawn in), drawn once the phone has shown the rest: its 64 svg elements
  // swapped with the answer held the news and the next deal's form back ~9 ms on a 4x-slowed
  // phone (benchmarks/tap.py), and as markup in the template they were still parsed and
  // copied with it, 1-3% of the tap, for a chart that sits below the deals. Its lines come as
  // their new point alone (data-append: how many points the line shown has before it), added
  // to the lines shown; a chart that does not have them (never so far) is fetched whole
  const afterShowing = window.requestIdleCallback
    ? (draw) => window.requestIdleCallback(draw, {timeout: 200})
    : (draw) => requestAnimationFrame(() => setTimeout(draw, 0));
  const pointsOf = (line) => (line ? line.getAttribute("points").trim().split(/\s+/).length : -1);
  function draw(drawing) {
    const into = document.getElementById(drawing.dataset.draws);
    const text = drawing.content.textContent;
    if (!drawing.isConnected || !into || !text.trim()) return;
    drawing.content.replaceChildren();  // drawn once
    const parsed = document.createElement("template");
    parsed.innerHTML = text;
    const content = parsed.content;
    const added = [...content.querySelectorAll("polyline[data-append]")];
    const shown = added.map((line) => into.querySelector(`polyline.${[...line.classList].join(".")}`));
    if (added.some((line, at) => pointsOf(shown[at]) !== Number(line.dataset.append))) {
      drawWhole(into);
      return;
    }
    added.forEach((line, at) => {
      line.setAttribute("points", `${shown[at].getAttribute("points")} ${line.getAttribute("points")}`);
      line.removeAttribute("data-append");
    });
    into.replaceChildren(content);
  }
  // drawn only from the game the page shows: the service worker answers with the copy it
  // kept when the server is out of reach, and a fetch can be overtaken by a later answer's
  const versionOf = (page) => { const region = page.querySelector("[data-version]"); return region && region.dataset.version; };
  function drawWhole(into) {
    fetch(location.pathname, {headers: {Accept: "text/html"}})
      .then((answer) => (answer.ok ? answer.text() : Promise.reject(answer.status)))
      .then((page) => {
        const fetched = new DOMParser().parseFromString(page, "text/html");
        const whole = fetched.getElementById(into.id);
        if (whole && into.isConnected && versionOf(fetched) === versionOf(document)) into.replaceChildren(...whole.childNodes);
      })
      .catch(() => { /* out of reach: the next deal's answer or a reload draws it */ });
  }
  document.addEventListener("htmx:afterSettle", (event) => {
    const drawing = event.target;
    if (!drawing.matches || !drawing.matches("template[data-draws]")) return;
    afterShowing(() => draw(drawing));
  });
  // an answer that brings the next drawing before the last was drawn (deals sent one after
  // another from the phone's queue) draws the last first: its points are the next one's start
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const {target} = event.detail;
    if (target.matches("template[data-draws]")) draw(target);
  });

  // a poll's answer the region already shows is not swapped in again. When the game has not
  // changed the server says 304, and the browser hands htmx the copy it holds, which htmx
  // swapped every few seconds: a follower scrolled down saw the page jump each time (the
  // cards above, made anew, are guessed 400 px high until seen again: content-visibility),
  // and the phone did the whole swap for nothing. The answer's ETag tells it (freshness.py)
  const shownTags = new Map();  // a polling region's id: the ETag of the answer it shows
  // (the region that asked for itself: an event's detail.elt is the element it is sent on)
  const pollTag = (detail) => {
    const {xhr, target, requestConfig} = detail;
    if (!xhr || !requestConfig || requestConfig.elt !== target || !target.id || !target.matches("[hx-trigger^='every']")) return null;
    return xhr.getResponseHeader("ETag");
  };
  document.addEventListener("htmx:beforeSwap", (event) => {
    const tag = event.detail.shouldSwap && pollTag(event.detail);
    if (tag && shownTags.get(event.detail.target.id) === tag) event.detail.shouldSwap = false;
  });
  // noted once swapped in: an answer the page left out (a player typing, static/js/seat.js)
  // is not one it shows, and the same answer is swapped in when it comes again
  document.addEventListener("htmx:afterSwap", (event) => {
    const tag = pollTag(event.detail);
    if (tag) shownTags.set(event.detail.target.id, tag);
  });

  // a list the player opened (Spy's turns so far) stays open when a write brings it anew
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const {target, fragment} = event.detail;
    const incoming = fragment && fragment.firstElementChild;
    if (target.matches("details[open]") && incoming && incoming.matches("details") && incoming.id === target.id) incoming.open = true;
  });

  // a swap that removes the focused element (the Record button just tapped) makes the
  // browser lay the page out there and then, mid-swap, with the new region half in:
  // 13 ms of a 4x-slowed phone's tap where the same removal unfocused costs 0.3 ms
  // (benchmarks/tap.py). So the element lets go of the focus as its request leaves, while
  // the page is settled; the swap would take it anyway, and one that does not happen
  // (no answer) gives it back.
  // A card chosen with the arrow keys (Spy's radios: a look, its answer the game with the
  // card's answers) is swapped out with the rest, and htmx gives the focus back by id alone:
  // the same card in what came in takes it, or the next arrow goes nowhere. Kept to a radio
  // or a checkbox chosen with the keys: a link given the focus back moved the page (Back after
  // a form's tab landed at the chart, a follower's poll rode it up) and a box raised a touch
  // phone's keyboard (d1f8b4e)
  let letGo = null;
  let chosen = null;
  document.addEventListener("htmx:beforeRequest", (event) => {
    const active = document.activeElement;
    const target = event.detail.target;
    letGo = chosen = null;
    if (!active || active === document.body || !target || !target.contains(active)) return;
    letGo = active;
    if (active.matches("input[type=radio], input[type=checkbox]") && active.matches(":focus-visible")) chosen = {name: active.name, value: active.value};
    active.blur();
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const gone = letGo;
    const card = chosen;
    letGo = chosen = null;
    if (!gone || document.activeElement !== document.body) return;
    if (gone.isConnected) gone.focus({preventScroll: true});
    else if (card && event.detail.requestConfig && event.detail.requestConfig.verb === "get") {
      const same = [...document.getElementsByName(card.name)].find((input) => input.value === card.value);
      if (same) same.focus({preventScroll: true});
    }
  });
  // a region an answer replaces whole, or deletes, lets go of what it holds in one step,
  // just before the swap. htmx cleans up every element it removes one at a time, each with an
  // event sent twice (htmx:beforeCleanupElement and its kebab-case twin): ~300 events for the
  // ~150 elements of a late Black Spy deal's form and standings, 13% of a 4x-slowed phone's tap
  // (benchmarks/tap_ab.py). Nothing listens to them, and nothing the cleanup undoes outlives
  // the elements: the listeners htmx gives ours are on themselves (no hx-on, no hx-preserve),
  // and a poll, or a trigger listening elsewhere ("from:"), ends at its next turn once its
  // element is gone (htmx checks). The region itself is still cleaned up and replaced by
  // htmx. A region holding the focus is left whole: htmx gives the focus back to the new
  // element of the same id.
  // On window, so every listener on document has first said whether the answer is swapped.
  const letGoOf = (region) => {
    if (region && region.isConnected && region !== document.body && !region.contains(document.activeElement)) region.replaceChildren();
  };
  window.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    // the swap htmx reads: the element that asked's, or the nearest of its ancestors'
    const asker = detail.requestConfig && detail.requestConfig.elt;
    const owner = asker && asker.closest && asker.closest("[hx-swap]");
    const swap = detail.swapOverride || (owner && owner.getAttribute("hx-swap"));
    if (!detail.shouldSwap || event.defaultPrevented || swap !== "outerHTML") return;
    // htmx reads the swap from the ancestors of the element that asked, after this event:
    // one inside the region is about to be cut off from them
    detail.swapOverride = swap;
    letGoOf(detail.target);
  });
  window.addEventListener("htmx:oobBeforeSwap", (event) => {
    const {shouldSwap, target, fragment} = event.detail;
    // hx-swap-oob="true": the fragment holds the region anew, under its id
    const incoming = fragment && fragment.firstElementChild;
    const anew = incoming && incoming.id && incoming.id === target.id;
    // hx-swap-oob="delete" (a deal row past the latest ones): the fragment is the answer's
    // element itself, under the region's id, with nothing in it. An insertion brings
    // something, and names its region by a selector ("beforeend:#upcoming")
    const gone = fragment && fragment.nodeType === Node.ELEMENT_NODE && fragment.id === target.id && !fragment.hasChildNodes();
    if (shouldSwap && !event.defaultPrevented && (anew || gone)) letGoOf(target);
  });
  // a double tap on Record: the first sends the entry, and the game swapped in puts the next
  // entry's Record button under the same finger. That second tap would send the new, empty
  // form, whose refusal covers the news of the first ("… 4 recorded.") and tells the table
  // it failed. So an entry form swapped in just now, with nothing typed and no choice made
  // in it yet, is not sent: the rules would refuse it anyway (a form with numbers kept in
  // it goes, and so does any other form).
  const DOUBLE_TAP_MS = 700;
  let swappedAt = -Infinity;
  document.addEventListener("htmx:afterSwap", () => { swappedAt = performance.now(); });
  const nothingEntered = (form) => boxes(form).every((input) => input.value.trim() === "")
    && [...form.querySelectorAll("input[type=radio], input[type=checkbox]")].every((input) => input.checked === input.defaultChecked);
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches || !form.matches(ENTRY) || performance.now() - swappedAt >= DOUBLE_TAP_MS) return;
    if (!nothingEntered(form)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);

  // an answer htmx does not swap in (a server fault, an expired form, too many tries, a
  // database out of reach, a full disk) is said above the page, in the server's own words
  // when its answer has them, so that a tap on Record never ends in silence. A proxy
  // answering for a server that is gone (502, 504) has no words of ours: offline.js's
  // status line says the entry waits on the phone, as it does beside a 503 or a 507
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

  // a swap of the game's own region brings the game as it is now (the shares' ask does not)
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!event.target.matches || !event.target.matches("[data-version]")) return;
    const note = document.querySelector("[data-changed-elsewhere]");
    if (note) note.hidden = true;
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
  document.addEventListener("htmx:afterSettle", (event) => {
    refresh(event.target);
    // in the frame that shows the swap: scrolling and focusing ask for the page's layout,
    // which asked now, as the swap settles, is a whole layout forced here and made again
    // for the frame; asked there, it is the frame's own
    const post = Boolean(event.detail.requestConfig && event.detail.requestConfig.verb === "post");
    requestAnimationFrame(() => showWhatHappened(event.target, post));
  });
  // after a swap, show the player what happened, whole: the first field or message at
  // fault (with its message), or the news
  function showWhatHappened(region, post) {
    if (!region.isConnected) return;
    const problem = region.querySelector(`[aria-invalid=true], ${ENTRY} .error`);
    const news = region.querySelector(".messages, .question, .banner");
    if (problem) {
      const about = problem.getAttribute("aria-describedby");
      reveal([problem, about && document.getElementById(about)], true);
      if (problem.matches("input, select, textarea")) problem.focus({preventScroll: true});
      // a refusal of the whole entry (its total): its first box, to mend it, or the refusal
      else focusEntry(problem.closest(ENTRY), problem);
    } else if (news && post) {
      // the entry is in: the keyboard goes down so the table sees the news and the totals
      if (isEntryBox(document.activeElement)) document.activeElement.blur();
      news.scrollIntoView({block: "start"});
      // the next entry is where the hands go: its first box, ready to type, where a keyboard
      // is at hand; on a touch phone its heading, which raises no keyboard until a box is tapped
      const form = region.querySelector(ENTRY);
      if (form) focusEntry(form, form.querySelector("h2, h3"));
      // an entry of choices, not boxes (a Spy turn; a player's own page): the focus left with
      // the old region, and for a player at the keys the next Tab would start again at the
      // top of the page. The new heading takes it, so Tab goes on from there (on a touch
      // phone it changes nothing a player sees: a heading raises no keyboard)
      else if (document.activeElement === document.body) {
        const heading = region.querySelector("h2");
        if (heading) { heading.tabIndex = -1; heading.focus({preventScroll: true}); }
      }
    }
  }
  // where the hands go in an entry: its first box where a keyboard is at hand; on a touch
  // phone ``instead`` (a heading, a refusal), which raises no keyboard until a box is tapped
  function focusEntry(form, instead) {
    const first = form && boxes(form)[0];
    if (first && window.matchMedia("(pointer: fine)").matches) first.focus({preventScroll: true});
    else if (instead) { instead.tabIndex = -1; instead.focus({preventScroll: true}); }
  }

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
