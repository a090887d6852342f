// Typing an entry (a deal's points, a round's): a running sum, a sign button for keypads
// with no minus, the keypad's Next moving box to box, the box typed in kept above the
// keyboard, a refused box's message gone once it changes, and a double tap on Record not
// sending the next, empty entry. Numbers come from the page, as the rules gave them; no
// rule is here, and no kind: what a kind's form counts for itself is in its own script
// (static/js/kinds/), which this asks with a companion:entry event each time an entry form
// is shown or a box of it changes. What the page's other scripts need of an entry form is
// window.companionEntry, at the end.
(function () {
  "use strict";

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
    // a number past what a script counts exactly, far past what any kind's rules take (they
    // refuse it): left out of the sum as a box it cannot read, where adding it gave "1e+23"
    if (!Number.isSafeInteger(value)) return null;
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

  // an entry form shown, with the page or by a swap: its sign buttons (a keypad with no
  // minus), its sum, its last box marked
  function prepare(root) {
    root.querySelectorAll(ENTRY).forEach((form) => {
      form.querySelectorAll("button.sign").forEach((button) => { button.hidden = false; });
      updateSum(form);
      counted(form);
    });
  }
  document.addEventListener("DOMContentLoaded", () => prepare(document));
  document.addEventListener("htmx:afterSettle", (event) => prepare(event.target));

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

  window.companionEntry = {ENTRY, boxes, isEntryBox, nothingEntered, reveal};
})();
