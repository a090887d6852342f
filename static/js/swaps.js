// What the page does around an answer htmx swaps in: the focus let go as a request leaves
// and given back where the answer does not take it, a replaced region let go of in one step,
// the player shown what happened (the news, or the first box at fault), a poll's answer
// already shown not swapped again, a list kept open, and Black Spy's chart drawn once the
// rest is shown. (An answer htmx cannot show is said by app.js, which needs no other script.) What it needs of an entry
// form is entry.js's (window.companionEntry).
(function () {
  "use strict";
  const {ENTRY, boxes, isEntryBox, reveal} = window.companionEntry;

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

  document.addEventListener("htmx:afterSettle", (event) => {
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

  // a region that asks for itself every few seconds (data-polls: the players' shares on the
  // scorer's page) does not while the phone is offline or the page out of sight: the next
  // ask will do. (htmx's trigger filter, "[navigator.onLine]", needs eval, which the page's
  // htmx config forbids.)
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt.hasAttribute("data-polls") && (document.hidden || !navigator.onLine)) event.preventDefault();
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
})();
