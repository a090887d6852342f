// What the page shows of the entries kept on this phone while the server cannot be reached
// (the queue itself and its sending are offline-queue.js's, which comes first), and how an
// entry comes to be kept: checked as the server would, said, and held in order. Every number
// and sentence comes from the page, as the rules gave them. offline.js, on every page that
// records, loads both when they are needed and hands this the moments htmx would have asked
// the server.
//
// The page marks what this needs. The game's fragment is .game-root (or else the parent of
// its status line), and the status line .offline-status[data-offline]: its data-offline names the game's kind, data-game its id,
// data-show its address, data-recorded and data-next how many entries the server holds and
// the number of the next, data-words-from the element whose data-words are the sentences said
// (the server's, translated: the page's, kept outside what a write swaps). The
// form that records an entry carries data-entry, and a submission id and a number.
//
// What is a kind's own comes from its script (static/js/kinds/<kind>.js, loaded by its
// pages), which registers window.companionKinds[<data-offline>] = {…hooks}. Each hook is
// looked up when it is needed, so the order the scripts come in does not matter, and a
// kind may give none of them; tools are this file's helpers (see tools below):
//   check(form, submitter, tools)     the entry as the server would check it, before it is
//       kept: null when it may be kept, {errors: {field: sentence}} when it is refused, or
//       {question} when the table must answer something first. Default: nothing to check.
//   showProblems(form, errors, tools) each message placed where the server's page puts it
//       (tools.problem makes one and marks its control). Default: after its control, or
//       under the form's title.
//   ask(form, question, tools)        the question check returned, asked in the form.
//   entered(form, submitter, tools)   what the page shows of a kept entry: {shown: [text],
//       values: [text]}. Default: the values of the form's text boxes.
//   moveOn(game, waiting, said, tools) the game with these entries waiting on the phone.
//       A kind that gives it keeps its form open for the next entry, and what is typed there
//       is carried across the game's refresh. Default: the form locked while any waits.
(function () {
  "use strict";
  if (window.companionOffline) return;
  const {all, put, drop, drain, seen, channel, LOCK} = window.companionQueue;

  let entries = [];
  let news = [];
  let pause = 1000;
  let timer = null;

  // the game's fragment, whose status line carries what the game is
  const root = () => { const status = document.querySelector(".offline-status[data-offline]"); return status && (status.closest(".game-root") || status.parentElement); };
  const about = (game) => game.querySelector(".offline-status").dataset;
  // the form that records an entry
  const ENTRY = "form[data-entry]";
  const entryForm = (game) => game.querySelector(ENTRY);
  // the kind's hooks, asked when needed: its script may come after this one
  const kindOf = (game) => (window.companionKinds && window.companionKinds[about(game).offline]) || {};
  const lang = () => document.documentElement.lang || "en";
  const formatted = (value) => new Intl.NumberFormat(lang()).format(value);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
  // the sentences are the page's, carried once outside the regions a write swaps (the status
  // line names their holder), so that no answer sends them again
  const words = (game) => JSON.parse(document.getElementById(about(game).wordsFrom).dataset.words);
  const mine = (game) => entries.filter((entry) => entry.game === about(game).game);
  // in the languages offered, every count but one takes the same form (the catalogues' plural rules)
  const plural = (forms, count) => fill(forms[count === 1 ? 0 : 1], {num: formatted(count)});

  function newId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  async function reread() {
    entries = await all().catch(() => []);
    render();
    document.dispatchEvent(new CustomEvent("companion:queue", {detail: {waiting: entries.length}}));
  }

  // sent soon, and again after a growing pause while the server cannot be reached
  async function attempt() {
    clearTimeout(timer);
    timer = null;
    const before = new Map(entries.map((entry) => [entry.id, entry.status]));
    const done = await drain().catch(() => false);
    const game = root();
    const now = await all().catch(() => entries);
    const sent = [...before.keys()].filter((id) => !now.some((entry) => entry.id === id)).length;
    const refused = now.some((entry) => entry.status === "refused" && before.get(entry.id) === "waiting");
    // what is typed for the next entry is taken before the page shows the queue as it is now
    if (game && (sent || refused)) {
      hold(game);
      // a refusal says itself, below: the news of it being saved on the phone is old now
      news = sent ? [plural(words(game).recorded, sent)] : [];
      // until the game is shown again, the page counts from what the server last said
      const latest = seen.get(about(game).game);
      if (latest) Object.assign(game.querySelector(".offline-status").dataset, latest);
    }
    await reread();
    if (game && (sent || refused)) update(game);
    if (done) { pause = 1000; return; }
    timer = setTimeout(attempt, pause);
    pause = Math.min(pause * 2, 30000);
  }

  function wantSync() {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    navigator.serviceWorker.ready.then((registration) => registration.sync && registration.sync.register(LOCK)).catch(() => {});
  }

  // the game as the server has it now; what is being typed for the next entry stays (in a
  // kind's form that stays open while entries wait: one locked holds only what was kept)
  let carried = null;
  function hold(game) {
    const form = entryForm(game);
    if (!form || !kindOf(game).moveOn) return;
    const typed = [...form.querySelectorAll("input[type=text], input[type=radio]:checked")]
      .filter((input) => input.type === "radio" || input.value !== "")
      .map((input) => [input.name, input.value, input.type]);
    const focused = form.contains(document.activeElement) ? document.activeElement.id : "";
    carried = typed.length ? {number: form.elements.number.value, typed, focused} : null;
  }

  function update(game) {
    // a form entered more than one way comes back the way it was entered
    const form = entryForm(game);
    const mode = form && form.dataset.mode ? `?mode=${encodeURIComponent(form.dataset.mode)}` : "";
    // htmx comes with the first touch (first-touch.js): a queue sent from an untouched page brings it
    // the game answers htmx with its entry's region (the one with the version), the others out of band
    const region = game.querySelector(".offline-status").closest("[data-version]") || game;
    window.companionHtmx().then((htmx) => htmx.ajax("GET", about(game).show + mode, {target: `#${region.id}`, swap: "outerHTML"})).then(() => {
      // the game is the server's again, not the phone's copy
      document.querySelectorAll(".offline-copy").forEach((note) => note.remove());
      if (window.companionKeepCopy) window.companionKeepCopy();
    }, () => {});
  }

  function carry(game) {
    const form = entryForm(game);
    if (!carried || !form || form.elements.number.value !== carried.number) { carried = null; return; }
    carried.typed.forEach(([name, value, type]) => {
      const input = type === "radio" ? form.querySelector(`input[name="${name}"][value="${value}"]`) : form.elements[name];
      if (!input) return;
      if (type === "radio") input.checked = true; else input.value = value;
    });
    const focused = carried.focused && document.getElementById(carried.focused);
    carried = null;
    form.dispatchEvent(new Event("change", {bubbles: true}));
    if (focused) focused.focus({preventScroll: true});
  }

  // --- what a kind says of an entry -----------------------------------------------

  function clearProblems(form) {
    form.querySelectorAll(".error").forEach((message) => message.remove());
    form.querySelectorAll("[aria-invalid]").forEach((control) => {
      control.removeAttribute("aria-invalid");
      control.removeAttribute("aria-describedby");
    });
  }

  // a message about a field, as the server's page writes one, its control marked as at fault
  function problem(field, text, control) {
    const message = element("p", "error", text);
    message.id = `${field}-error`;
    if (control) {
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", message.id);
    }
    return message;
  }

  // under the form's title: the first of its parts that is or holds a heading
  function underTitle(form, message) {
    const head = [...form.children].find((part) => part.matches("h1, h2, h3, h4") || part.querySelector("h1, h2, h3, h4"));
    if (head) head.after(message); else form.prepend(message);
  }

  function placeProblems(form, errors) {
    Object.entries(errors).forEach(([field, text]) => {
      const control = form.elements[field] instanceof Element ? form.elements[field] : null;
      const message = problem(field, text, control);
      if (control) control.after(message); else underTitle(form, message);
    });
  }

  // the helpers a kind's hooks are handed
  const tools = {about, element, fill, formatted, newId, clearProblems, problem};

  function showProblems(game, form, errors) {
    clearProblems(form);
    const place = kindOf(game).showProblems;
    if (place) place(form, errors, tools); else placeProblems(form, errors);
    const first = form.querySelector("[aria-invalid=true]") || form.querySelector(".error");
    first.scrollIntoView({block: "center"});
    if (first.matches("input")) first.focus({preventScroll: true});
  }

  // --- keeping an entry ---------------------------------------------------------------

  // what was entered, as the page shows it, unless the kind says it better: the text boxes
  function entered(game, form, submitter) {
    const own = kindOf(game).entered;
    if (own) return own(form, submitter, tools);
    const values = [...form.querySelectorAll("input[type=text]")].map((input) => input.value.trim()).filter(Boolean);
    return {shown: values, values};
  }

  async function keep(form, submitter) {
    const game = root();
    const kind = kindOf(game);
    const found = kind.check ? kind.check(form, submitter, tools) : null;
    if (found && found.errors) { showProblems(game, form, found.errors); return; }
    if (found && found.question !== undefined && kind.ask) { kind.ask(form, found.question, tools); return; }
    const data = new FormData(form, submitter && submitter.form === form ? submitter : null);
    const last = entries.length ? entries[entries.length - 1].seq : 0;
    const entry = {
      id: data.get("submission"),
      seq: Math.max(Date.now(), last + 1),
      game: about(game).game,
      url: form.action,
      show: about(game).show,
      number: Number(data.get("number")),
      body: new URLSearchParams(data).toString(),
      ...entered(game, form, submitter),
      status: "waiting",
    };
    await put(entry);
    const said = words(game);
    news = [fill(said.saved, {number: formatted(entry.number)})];
    // the server's last news ("… 1 recorded.") is old now: this one is the news
    game.querySelectorAll(":scope > .messages, :scope > [data-version] > .messages").forEach((old) => { old.hidden = true; });
    await reread();
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
    game.querySelector(".offline-status").scrollIntoView({block: "start"});
    wantSync();
    attempt();
  }

  // --- the page as it stands with the entries waiting ---------------------------------

  function render() {
    const game = root();
    if (!game) return;
    const said = words(game);
    const waiting = mine(game);
    const status = game.querySelector(".offline-status");
    status.replaceChildren(...news.map((line) => element("p", "", line)));
    const count = waiting.filter((entry) => entry.status !== "refused").length;
    if (count && said.waiting) status.append(element("p", "", plural(said.waiting, count)));
    if (waiting.length && said.locked) status.append(element("p", "", said.locked));
    waiting.filter((entry) => entry.status === "refused").forEach((entry) => status.append(refusal(game, entry, said, waiting)));
    status.hidden = !status.childElementCount;
    const moveOn = kindOf(game).moveOn;
    if (moveOn) moveOn(game, waiting, said, tools); else lock(game, waiting);
    const form = entryForm(game);
    // a page kept before these entries were made offers their submission ids again
    if (form && waiting.some((entry) => entry.id === form.elements.submission.value)) form.elements.submission.value = newId();
  }

  function refusal(game, entry, said, waiting) {
    const box = element("div", "offline-refused");
    box.append(element("p", "", fill(said.refused, {number: formatted(entry.number), reason: entry.reason})));
    const list = "ListFormat" in Intl ? new Intl.ListFormat(lang()).format(entry.shown) : entry.shown.join(", ");
    box.append(element("p", "", fill(said.typed, {numbers: list})));
    if (said.held && waiting.some((other) => other.seq > entry.seq)) box.append(element("p", "meta", said.held));
    const actions = element("p", "actions");
    const next = Math.max(Number(about(game).next) || 0, entry.next || 0);
    if (said.again && next && !entry.repeats) {
      const again = element("button", "button primary", fill(said.again, {number: formatted(next)}));
      again.type = "button";
      again.addEventListener("click", () => enterAgain(game, entry, next));
      actions.append(again);
    }
    const discard = element("button", entry.repeats ? "button primary" : "button", said.discard);
    discard.type = "button";
    discard.addEventListener("click", async () => { await drop(entry.id); news = []; await reread(); attempt(); });
    actions.append(discard);
    box.append(actions);
    return box;
  }

  // the refused numbers as the server's next entry, and every entry typed after them after it
  async function enterAgain(game, entry, next) {
    const later = mine(game).filter((other) => other.seq >= entry.seq);
    for (const [step, other] of later.entries()) {
      const body = new URLSearchParams(other.body);
      body.set("number", String(next + step));
      Object.assign(other, {number: next + step, body: body.toString(), status: "waiting", reason: ""});
      await put(other);
    }
    news = [];
    await reread();
    attempt();
  }

  // an entry the server alone can tell the outcome of (the game after it is its answer):
  // nothing more is entered while one waits
  function lock(game, waiting) {
    const form = entryForm(game);
    if (!form) return;
    form.querySelectorAll("input, button").forEach((control) => { control.disabled = waiting.length > 0; });
    form.classList.toggle("offline-locked", waiting.length > 0);
  }

  function say(game, text) {
    news = [text];
    render();
    game.querySelector(".offline-status").scrollIntoView({block: "nearest"});
  }

  // --- where htmx would have asked the server (offline.js hands these over) ------------

  // htmx is about to send: true when this takes it over (the caller stops htmx)
  function confirm(detail, submitter) {
    const game = root();
    const elt = detail.elt;
    if (!game || !game.contains(elt) || elt.id === "shares") return false;
    // the game's sentences are read when one is said, not at every tap that sends
    const needs = elt.closest("[data-needs-connection]");
    if (needs) {
      if (!navigator.onLine) say(game, words(game)[needs.dataset.needsConnection]);
      else if (mine(game).length) say(game, words(game).undo_waiting);
      else return false;
      return true;
    }
    if (elt.matches(ENTRY) && detail.verb === "post") {
      // straight to the server only while it is reachable and nothing waits before it
      if (navigator.onLine && !mine(game).length) return false;
      keep(elt, submitter);
      return true;
    }
    if (navigator.onLine || detail.verb !== "get") return false;
    // a look the server alone can give (another view of the form, an answer to choose)
    say(game, words(game).look);
    return true;
  }

  // htmx could not reach the server
  function unreachable(detail, submitter) {
    const game = root();
    const elt = detail.elt;
    // the scorer's page asking for the players' shares: the next ask will do, nothing to say
    if (!game || !game.contains(elt) || elt.id === "shares") return;
    const needs = elt.closest("[data-needs-connection]");
    if (elt.matches(ENTRY) && detail.requestConfig.verb === "post") keep(elt, submitter);
    else if (needs) say(game, words(game)[needs.dataset.needsConnection]);
    else if (detail.requestConfig.verb === "get") say(game, words(game).look);
  }

  function needsConnection(key) {
    const game = root();
    if (game) say(game, words(game)[key]);
  }

  // the edit page: a plain form, sent by the browser, that cannot be kept for later
  function editRefused(form) {
    clearProblems(form);
    const message = element("p", "error", JSON.parse(form.dataset.offlineWords).edit);
    message.setAttribute("role", "alert");
    underTitle(form, message);
    message.scrollIntoView({block: "center"});
  }

  window.companionOffline = {confirm, unreachable, needsConnection, editRefused};

  // once per answer: of the regions an answer swaps (out of band too), the one with the status line
  document.addEventListener("htmx:afterSettle", (event) => {
    const game = root();
    if (!game || !event.target.contains || !event.target.contains(game.querySelector(".offline-status"))) return;
    render();
    carry(game);
  });

  window.addEventListener("online", () => { pause = 1000; attempt(); });
  // another sender stored or refused something: read the queue, and the game, again
  if (channel) channel.addEventListener("message", () => { clearTimeout(timer); timer = setTimeout(attempt, 200); });
  reread().then(() => { if (entries.length) attempt(); });
})();
