// A player's own seat page (templates/seats/): it asks the server every few seconds where
// the table's shares stand, but never while the player is typing theirs; and a share sent
// while the Wi-Fi is down is kept on the phone and sent once the connection is back. The
// share carries its submission id: sent twice, it is stored once.
(() => {
  "use strict";
  const FORM = "form[data-seat-entry]";
  const changed = (input) => (input.type === "checkbox" || input.type === "radio")
    ? input.checked !== input.defaultChecked : input.value !== input.defaultValue;
  const typing = (root) => {
    const form = root.querySelector(FORM);
    if (!form) return false;
    const active = document.activeElement;
    return (form.contains(active) && active.matches("input")) || [...form.querySelectorAll("input:not([type=hidden])")].some(changed);
  };
  // the page's own poll (a GET of the seat's region) waits while the player types: the
  // answer would put the form back as the server last had it
  document.addEventListener("htmx:confirm", (event) => {
    const elt = event.detail.elt;
    if (elt && elt.id === "seat" && event.detail.verb === "get" && typing(elt)) event.preventDefault();
  });

  // and an ask that left just before the player began brings an answer that is not swapped
  // in while they type, for the same reason: what they typed would be gone. The next ask,
  // once they have sent it or left the box, brings the page as it is
  const asksItself = (event) => {
    const elt = event.detail.elt;
    return Boolean(elt && elt.id === "seat" && event.detail.requestConfig && event.detail.requestConfig.verb === "get");
  };
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (asksItself(event) && typing(event.detail.elt)) event.detail.shouldSwap = false;
  });

  // the page asking for itself moves on to the next deal once another phone's share has
  // recorded this one: it says so, as the scorer's page does, or the jump goes unremarked
  let recorded = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const elt = event.detail.elt;
    recorded = asksItself(event) && event.detail.shouldSwap ? {number: Number(elt.dataset.number), words: elt.dataset.recorded} : null;
  });
  document.addEventListener("htmx:afterSettle", () => {
    const seat = root();
    const was = recorded;
    recorded = null;
    if (!seat || !was || !was.words || !(Number(seat.dataset.number) > was.number)) return;
    say(seat, was.words);
  });

  const key = (root) => `companion-seat:${root.dataset.link}`;
  const say = (root, words) => {
    const line = root.querySelector(".seat-status");
    if (!line) return;
    line.textContent = words;
    line.hidden = !words;
  };
  const root = () => document.getElementById("seat");

  const send = async () => {
    const seat = root();
    if (!seat) return;
    const kept = localStorage.getItem(key(seat));
    if (!kept) return;
    const {action, body} = JSON.parse(kept);
    let answer;
    try {
      answer = await fetch(action, {method: "POST", body: new URLSearchParams(body), headers: {"HX-Request": "true"}, credentials: "same-origin"});
    } catch (error) {
      return; // still no connection: it waits
    }
    if (answer.status >= 500) return;
    localStorage.removeItem(key(seat));
    const words = seat.dataset.sent;
    const html = await answer.text();
    if (window.htmx && html) {
      htmx.swap(seat, html, {swapStyle: "outerHTML"});
    }
    say(root(), words);
  };

  // htmx could not reach the server: the share is kept here and sent when it can be
  document.addEventListener("htmx:sendError", (event) => {
    const form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest(FORM);
    const seat = root();
    if (!form || !seat) return;
    // the button tapped (the shoot question's yes or no) is part of what was sent
    const config = event.detail.requestConfig;
    const submitter = config && config.triggeringEvent && config.triggeringEvent.submitter;
    let body;
    try { body = [...new FormData(form, submitter || null)]; } catch (error) { body = [...new FormData(form)]; }
    localStorage.setItem(key(seat), JSON.stringify({action: form.action, body}));
    say(seat, seat.dataset.saved);
  });
  window.addEventListener("online", send);
  setInterval(send, 5000);
  document.addEventListener("DOMContentLoaded", () => {
    const seat = root();
    if (seat && localStorage.getItem(key(seat))) { say(seat, seat.dataset.saved); send(); }
  });
})();
