// Another phone at the table changed the game: a page asks now and then whether the game
// moved on and says so, never swapping it in unasked (this phone may be typing the next
// entry); when the players' own phones complete the entry this page shows, the game is
// brought as it is now, unless this phone has started typing an entry of its own.
(function () {
  "use strict";
  const {ENTRY, nothingEntered} = window.companionEntry;

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
    } catch (error) { /* no connection: the offline status line says so */ }
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

  // a swap of the game's own region brings the game as it is now (the shares' ask does not)
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!event.target.matches || !event.target.matches("[data-version]")) return;
    const note = document.querySelector("[data-changed-elsewhere]");
    if (note) note.hidden = true;
  });
})();
