// Spy's own script, loaded by its game page: a tapped card's answers brought into view, and
// the hook offline-page.js asks a kind for (see the comment at its top) to say a turn kept
// on the phone in words. A turn moves the bases on, which only the server works out: the
// page's default (offline-page.js) keeps the form locked while one waits, so one turn waits at a time.
(function () {
  "use strict";

  // a tapped card's answers come in by the card, with the whole game; when the swap leaves
  // them (or the button that records them) off the screen, bring them in
  document.addEventListener("htmx:afterSettle", (event) => {
    const answers = event.target.querySelector && event.target.querySelector("#spy-answers");
    const config = event.detail.requestConfig;
    if (!answers || !config || config.verb !== "get" || event.target.querySelector("[aria-invalid=true]")) return;
    // in the frame that shows them, as swaps.js does: the layout asked for once, not mid-settle
    requestAnimationFrame(() => { if (answers.isConnected) answers.scrollIntoView({block: "nearest"}); });
  });

  // the turn in words, as the page shows it: the card looked at and its answer, or the
  // button pressed (a turn without a spy)
  function entered(form, submitter) {
    const answers = form.querySelector("#spy-answers");
    if (!answers) return {shown: [submitter ? submitter.textContent.trim() : ""], values: []};
    const picked = answers.querySelector("input[name=answer]:checked");
    const answer = picked ? picked.closest("label").textContent : answers.querySelector("p").textContent;
    return {shown: [`${answers.querySelector("legend").textContent.trim()} ${answer.trim()}`], values: []};
  }

  window.companionKinds = window.companionKinds || {};
  window.companionKinds.spy = {entered};
})();
