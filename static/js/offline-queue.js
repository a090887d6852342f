// Deals and turns kept on this phone while the server cannot be reached, and sent to it
// once each, in order, when it can be. The queue (IndexedDB) and its sending run in the
// page and in the service worker, which imports this file for Background Sync; the rest
// is the page's. Every number and sentence comes from the page, as the rules gave them.
// offline.js, on every page that records, loads this when it is needed and hands it the
// moments htmx would have asked the server.
(function (scope) {
  "use strict";
  if (scope.companionQueue) return;
  const STORE = "queue";
  const LOCK = "companion-queue";
  let opened = null;

  function database() {
    opened = opened || new Promise((resolve, reject) => {
      const request = indexedDB.open("companion-offline", 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, {keyPath: "id"});
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opened;
  }

  function stored(mode, act) {
    return database().then((db) => new Promise((resolve, reject) => {
      const work = db.transaction(STORE, mode);
      const request = act(work.objectStore(STORE));
      work.oncomplete = () => resolve(request.result);
      work.onerror = work.onabort = () => reject(work.error);
    }));
  }
  const all = () => stored("readonly", (store) => store.getAll()).then((list) => list.sort((a, b) => a.seq - b.seq));
  const put = (entry) => stored("readwrite", (store) => store.put(entry));
  const drop = (id) => stored("readwrite", (store) => store.delete(id));

  // the other senders (a tab, the service worker) hear what one of them sent
  const channel = "BroadcastChannel" in scope ? new BroadcastChannel(LOCK) : null;
  const tell = (news) => { if (channel) channel.postMessage(news); };

  function decode(html) {
    return html.replace(/<[^>]*>/g, "").replace(/&(#x?[\da-f]+|amp|lt|gt|quot);/gi, (all, code) => {
      const named = {amp: "&", lt: "<", gt: ">", quot: '"'}[code.toLowerCase()];
      if (named) return named;
      return String.fromCodePoint(code[1] === "x" || code[1] === "X" ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10));
    }).replace(/\s+/g, " ").trim();
  }

  // what the server said, read from its page: no DOMParser in a service worker
  function reasonIn(html) {
    const said = [];
    const add = (text) => { text = decode(text); if (text && !said.includes(text)) said.push(text); };
    // a refusal's box (409) is styled and said as one: class "messages refused", role alert
    for (const box of html.matchAll(/<div class="messages(?: refused)?" role="(?:status|alert)">([\s\S]*?)<\/div>/g)) {
      for (const line of box[1].matchAll(/<p>([\s\S]*?)<\/p>/g)) add(line[1]);
    }
    for (const line of html.matchAll(/<p class="error"[^>]*>([\s\S]*?)<\/p>/g)) add(line[1]);
    if (!said.length) for (const line of html.matchAll(/<h1>([\s\S]*?)<\/h1>/g)) add(line[1]);
    return said.join(" ");
  }
  const attribute = (html, name) => { const found = new RegExp(`${name}="(\\d*)"`).exec(html); return found ? found[1] : null; };

  function post(entry) {
    return fetch(entry.url, {
      method: "POST",
      body: entry.body,
      credentials: "same-origin",
      redirect: "manual",
      headers: {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"},
    });
  }

  // a form token from before a restart may be gone with its session: the game's page has a fresh one
  async function freshToken(entry) {
    const page = await (await fetch(entry.show, {credentials: "same-origin", headers: {"HX-Request": "true"}})).text();
    const found = /name="csrf_token" value="([^"]+)"/.exec(page);
    if (!found) return false;
    const body = new URLSearchParams(entry.body);
    body.set("csrf_token", found[1]);
    entry.body = body.toString();
    return true;
  }

  // each game as the server last answered: how many deals it holds, which is next
  const seen = new Map();

  // "stored", "refused" (with the server's reason kept on the entry) or "unreachable"
  async function send(entry) {
    let response;
    try {
      response = await post(entry);
      if (response.status === 400 && await freshToken(entry)) response = await post(entry);
    } catch (error) {
      return "unreachable";
    }
    const html = response.type === "opaqueredirect" ? "" : await response.text().catch(() => "");
    const recorded = attribute(html, "data-deals");
    if (recorded !== null) seen.set(entry.game, {deals: recorded, next: attribute(html, "data-next") || ""});
    // a 200 that still asks something (a shoot question) has stored nothing
    if (response.status === 200 && recorded !== null && Number(recorded) >= entry.number) return "stored";
    if ([200, 400, 404, 409, 413, 422].includes(response.status)) {
      entry.status = "refused";
      entry.reason = reasonIn(html) || String(response.status);
      // the next number as the server has it, which the page may not show yet
      entry.next = Number(attribute(html, "data-next")) || null;
      return "refused";
    }
    return "unreachable";
  }

  // one entry at a time, the first not held behind a refused one of its game, read anew each
  // time so that what is added or discarded meanwhile is seen; true once nothing can be sent
  async function run() {
    for (;;) {
      const list = await all();
      const held = new Set(list.filter((entry) => entry.status === "refused").map((entry) => entry.game));
      const entry = list.find((item) => item.status !== "refused" && !held.has(item.game));
      if (!entry) return true;
      const outcome = await send(entry);
      if (outcome === "unreachable") return false;
      if (outcome === "stored") await drop(entry.id); else await put(entry);
      tell({game: entry.game, outcome});
    }
  }

  // one sender at a time across the page, other tabs and the service worker
  let running = null;
  function drain() {
    running = running || (scope.navigator && navigator.locks ? navigator.locks.request(LOCK, run) : run())
      .finally(() => { running = null; });
    return running;
  }

  scope.companionQueue = {all, put, drop, drain};
  if (typeof document === "undefined") return;

  // --- the page ----------------------------------------------------------------------

  let entries = [];
  let news = [];
  let pause = 1000;
  let timer = null;

  // the game's fragment, whose status line carries what the game is
  const root = () => { const status = document.querySelector(".offline-status[data-offline]"); return status && status.parentElement; };
  const about = (game) => game.querySelector(".offline-status").dataset;
  const lang = () => document.documentElement.lang || "en";
  const formatted = (value) => new Intl.NumberFormat(lang()).format(value);
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
  const words = (game) => JSON.parse(about(game).words);
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
    // what is typed for the next deal is taken before the page shows the queue as it is now
    if (game && (sent || refused)) {
      hold(game);
      if (sent) news = [plural(words(game).recorded, sent)];
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

  // the game as the server has it now; what is being typed for the next deal stays
  let carried = null;
  function hold(game) {
    const form = game.querySelector("form.deal-form");
    if (!form) return;
    const typed = [...form.querySelectorAll("input[type=text], input[type=radio]:checked")]
      .filter((input) => input.type === "radio" || input.value !== "")
      .map((input) => [input.name, input.value, input.type]);
    const focused = form.contains(document.activeElement) ? document.activeElement.id : "";
    carried = typed.length ? {number: form.elements.number.value, typed, focused} : null;
  }

  function update(game) {
    const form = game.querySelector("form.deal-form, form.turn-form");
    const mode = form && form.dataset.mode === "cards" ? "?mode=cards" : "";
    // htmx comes with the first touch (app.js): a queue sent from an untouched page brings it
    window.companionHtmx().then((htmx) => htmx.ajax("GET", about(game).show + mode, {target: `#${game.id}`, swap: "outerHTML"})).then(() => {
      // the game is the server's again, not the phone's copy
      document.querySelectorAll(".offline-copy").forEach((note) => note.remove());
      if (window.companionKeepCopy) window.companionKeepCopy();
    }, () => {});
  }

  function carry(game) {
    const form = game.querySelector("form.deal-form");
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

  // --- checking a deal as the server would --------------------------------------------

  // python's repr of a short text, as the server quotes what it could not read
  function quoted(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    const inner = text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t")
      .replace(quote === "'" ? /'/g : /"/g, `\\${quote}`);
    return quote + inner + quote;
  }
  const WHOLE = /^[+-]?\d+(_\d+)*$/;
  const whole = (text) => parseInt(text.replace(/_/g, ""), 10);

  function checkPoints(form, checks, submitter) {
    const say = checks.say;
    const errors = {};
    const raw = [];
    checks.players.forEach((name, seat) => {
      const field = `points-${seat}`;
      const text = form.elements[field].value;
      const cleaned = text.trim().replace(/\u2212/g, "-");
      const digits = cleaned.replace(/^[+-]+/, "");
      if (!cleaned) errors[field] = fill(say.missing, {name});
      else if (digits.length > checks.digits && /^\d+$/.test(digits)) errors[field] = fill(say.too_long, {name});
      else if (!WHOLE.test(cleaned)) errors[field] = fill(say.not_whole, {name, text: quoted(Array.from(text.trim()).slice(0, 20).join(""))});
      else raw[seat] = whole(cleaned);
    });
    if (Object.keys(errors).length) return {errors};
    raw.forEach((points, seat) => {
      const name = checks.players[seat];
      if (Math.abs(points) >= 10 ** checks.digits) errors[`points-${seat}`] = fill(say.too_long, {name});
      else if (points < checks.least || points > checks.most) errors[`points-${seat}`] = fill(say.impossible, {name, points: formatted(points)});
    });
    if (Object.keys(errors).length) return {errors};
    const total = raw.reduce((sum, points) => sum + points, 0);
    if (total !== checks.deal_total) {
      const seat = checks.shoot_scores.findIndex((row) => row.every((points, at) => points === raw[at]));
      return {errors: {total: seat >= 0 ? fill(say.as_scores, {name: checks.players[seat]}) : fill(say.sum, {total: formatted(total)})}};
    }
    const answered = submitter && submitter.name === "shoot";
    if (checks.shoot_threshold !== null && !answered) {
      const seats = raw.map((points, seat) => (points >= checks.shoot_threshold ? seat : -1)).filter((seat) => seat >= 0);
      if (seats.length) return {question: seats};
    }
    return {};
  }

  function checkCards(form, checks) {
    const say = checks.say;
    const errors = {};
    const chosen = form.querySelector("input[name=rest]:checked");
    const rest = chosen && chosen.value !== "none" ? Number(chosen.value) : null;
    const totals = {};
    // a row left blank is a row missed, not a player who took nothing; with only the high
    // blacks scored, an untouched form would give the rest all of them (parse_cards)
    const others = checks.players.map((name, seat) => seat).filter((seat) => seat !== rest);
    const highTaken = (seat) => checks.high_blacks.some((card) => {
      const taken = form.querySelector(`input[name="high-${card}"]:checked`);
      return taken && (seat === null || taken.value === String(seat));
    });
    if (checks.counts.length) {
      others.forEach((seat) => {
        const typed = checks.counts.some(([key]) => (form.elements[`${key}-${seat}`].value || "").trim() !== "");
        if (!typed && !highTaken(seat)) errors[`${checks.counts[0][0]}-${seat}`] = fill(say.row_blank, {name: checks.players[seat]});
      });
    } else if (rest !== null && others.length && !highTaken(null)) {
      return {errors: {[`high-${checks.high_blacks[0]}`]: fill(say.nothing_counted, {name: checks.players[others[0]]})}};
    }
    checks.players.forEach((name, seat) => {
      checks.counts.forEach(([key, most]) => {
        totals[key] = totals[key] || 0;
        if (seat === rest) return;
        const field = `${key}-${seat}`;
        const text = (form.elements[field].value || "").trim();
        if (text && !WHOLE.test(text)) { errors[field] = fill(say.count_not_a_number[key], {name}); return; }
        const value = text ? whole(text) : 0;
        if (value < 0 || value > most) errors[field] = fill(say.count_out_of_range[key], {name});
        totals[key] += value;
      });
    });
    checks.high_blacks.forEach((card) => {
      if (!form.querySelector(`input[name="high-${card}"]:checked`) && rest === null) errors[`high-${card}`] = say.high_untaken[card];
    });
    if (Object.keys(errors).length) return {errors};
    for (const [key, most] of checks.counts) {
      if (rest !== null && totals[key] > most) return {errors: {[`${key}-total`]: fill(say.others_took[key], {taken: formatted(totals[key])})}};
      if (rest === null && totals[key] !== most) errors[`${key}-total`] = fill(say.deck_count[key], {total: formatted(totals[key])});
    }
    return Object.keys(errors).length ? {errors} : {};
  }

  function clearProblems(form) {
    form.querySelectorAll(".error").forEach((message) => message.remove());
    form.querySelectorAll("[aria-invalid]").forEach((control) => {
      control.removeAttribute("aria-invalid");
      control.removeAttribute("aria-describedby");
    });
  }

  // each message where the server's page puts it, so it reads and goes the same way
  function showProblems(form, errors) {
    clearProblems(form);
    let after = form.querySelector("label.dealer-pick");
    const place = (field, control, message) => {
      if (control) { control.setAttribute("aria-invalid", "true"); control.setAttribute("aria-describedby", message.id); }
      if (field.startsWith("points-")) control.after(message);
      else if (field === "total") form.querySelector(".sum").after(message);
      else if (field.startsWith("high-")) control.append(message);
      else { after.after(message); after = message; }
    };
    // in the order the server's page lists them: by kind of card, its total before each player's
    const order = [];
    if (form.dataset.mode === "cards") {
      const checks = JSON.parse(form.dataset.checks);
      checks.counts.forEach(([key]) => { order.push(`${key}-total`, ...checks.players.map((name, seat) => `${key}-${seat}`)); });
    }
    const rank = (field) => (order.includes(field) ? order.indexOf(field) : order.length);
    Object.entries(errors).sort((a, b) => rank(a[0]) - rank(b[0])).forEach(([field, text]) => {
      const message = element("p", "error", text);
      message.id = `${field}-error`;
      const control = field.startsWith("high-") ? form.querySelector(`fieldset[data-high="${field.slice(5)}"]`)
        : field.endsWith("-total") || field === "total" ? null : form.elements[field];
      place(field, control, message);
    });
    const first = form.querySelector("[aria-invalid=true]") || form.querySelector(".error");
    first.scrollIntoView({block: "center"});
    if (first.matches("input")) first.focus({preventScroll: true});
  }

  function askShoot(form, seats) {
    const question = form.querySelector("template.offline-question").content.firstElementChild.cloneNode(true);
    question.querySelectorAll("[data-seat]").forEach((part) => { if (!seats.includes(Number(part.dataset.seat))) part.remove(); });
    form.querySelector(".points").after(question);
    form.querySelectorAll("button.big").forEach((button) => { button.hidden = true; });
    question.scrollIntoView({block: "nearest"});
  }

  // --- keeping an entry ---------------------------------------------------------------

  // what was entered, as the page shows it: each player's points, or the turn in words
  function entered(form, submitter) {
    if (form.matches(".turn-form")) {
      const answers = form.querySelector("#spy-answers");
      if (!answers) return {shown: [submitter ? submitter.textContent.trim() : ""], values: []};
      const picked = answers.querySelector("input[name=answer]:checked");
      const answer = picked ? picked.closest("label").textContent : answers.querySelector("p").textContent;
      return {shown: [`${answers.querySelector("legend").textContent.trim()} ${answer.trim()}`], values: []};
    }
    const players = JSON.parse(form.dataset.checks).players;
    const values = players.map((name, seat) => (form.dataset.mode === "cards"
      ? form.querySelector(`output[data-points-for="${seat}"]`).textContent
      : form.elements[`points-${seat}`].value.trim()));
    return {shown: players.map((name, seat) => `${name}\u00a0${values[seat]}`), values};
  }

  async function keep(form, submitter) {
    const game = root();
    if (form.matches(".deal-form")) {
      const checks = JSON.parse(form.dataset.checks);
      const found = form.dataset.mode === "cards" ? checkCards(form, checks) : checkPoints(form, checks, submitter);
      if (found.errors) { showProblems(form, found.errors); return; }
      if (found.question) { askShoot(form, found.question); return; }
    }
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
      ...entered(form, submitter),
      status: "waiting",
    };
    await put(entry);
    const said = words(game);
    news = [fill(said.saved, {number: formatted(entry.number)})];
    // the server's last news ("Deal 1 recorded.") is old now: this one is the news
    game.querySelectorAll(":scope > .messages").forEach((old) => { old.hidden = true; });
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
    if (about(game).offline === "black_spy") moveOn(game, waiting, said);
    else lockTurns(game, waiting);
    const form = game.querySelector("form.deal-form, form.turn-form");
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
    if (said.again && next) {
      const again = element("button", "button primary", fill(said.again, {number: formatted(next)}));
      again.type = "button";
      again.addEventListener("click", () => enterAgain(game, entry, next));
      actions.append(again);
    }
    const discard = element("button", "button", said.discard);
    discard.type = "button";
    discard.addEventListener("click", async () => { await drop(entry.id); news = []; await reread(); attempt(); });
    actions.append(discard);
    box.append(actions);
    return box;
  }

  // the refused numbers as the server's next deal, and every deal typed after them after it
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

  function moveOn(game, waiting, said) {
    const recorded = Number(about(game).deals);
    game.querySelector(".as-of").hidden = !waiting.length;
    const card = game.querySelector(".deals-card");
    card.hidden = !recorded && !waiting.length;
    card.querySelector(".waiting-hint").hidden = !waiting.length;
    const body = card.querySelector("tbody");
    body.querySelectorAll("tr.offline-row").forEach((row) => row.remove());
    waiting.forEach((entry) => {
      const row = element("tr", `offline-row ${entry.status}`);
      const head = element("th", "", formatted(entry.number));
      head.scope = "row";
      head.append(" ", element("span", "badge", entry.status === "refused" ? said.refused_word : said.waiting_word));
      row.append(head, ...entry.values.map((value) => element("td", "", value)));
      body.prepend(row);
    });
    const form = game.querySelector("form.deal-form");
    if (!form) return;
    const next = waiting.length ? waiting[waiting.length - 1].number + 1 : Number(about(game).next);
    if (form.elements.number.value === String(next)) return;
    form.elements.number.value = String(next);
    form.elements.submission.value = newId();
    const template = game.querySelector(`template[data-deal="${next}"]`);
    const head = game.querySelector(".deal-head");
    if (template) head.replaceChildren(template.content.cloneNode(true));
    else head.replaceChildren(Object.assign(element("h2", "", fill(said.deal, {number: formatted(next)})), {id: "next-deal-title"}), element("p", "", said.unknown));
    const record = fill(said.record, {number: formatted(next)});
    form.querySelector("#deal-form-title").textContent = record;
    form.querySelectorAll("button.big").forEach((button) => { button.textContent = record; button.hidden = false; });
    clearForm(form, template ? template.dataset.dealer : "none");
  }

  function clearForm(form, dealer) {
    clearProblems(form);
    form.querySelectorAll(".question, .discard").forEach((part) => part.remove());
    form.querySelectorAll("input[type=text]").forEach((input) => { input.value = ""; });
    form.querySelectorAll("input[type=radio][name^=high-]").forEach((input) => { input.checked = false; });
    const rest = form.querySelector(`input[name=rest][value="${dealer}"]`) || form.querySelector("input[name=rest][value=none]");
    if (rest) rest.checked = true;
    form.dispatchEvent(new Event("change", {bubbles: true}));
  }

  // a spy turn moves the bases on, which only the server works out: one waits at a time
  function lockTurns(game, waiting) {
    const form = game.querySelector("form.turn-form");
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
    if (!game || !game.contains(elt)) return false;
    const said = words(game);
    const needs = elt.closest("[data-needs-connection]");
    if (needs) {
      if (!navigator.onLine) say(game, said[needs.dataset.needsConnection]);
      else if (mine(game).length) say(game, said.undo_waiting);
      else return false;
      return true;
    }
    if (elt.matches("form.deal-form, form.turn-form") && detail.verb === "post") {
      // straight to the server only while it is reachable and nothing waits before it
      if (navigator.onLine && !mine(game).length) return false;
      keep(elt, submitter);
      return true;
    }
    if (navigator.onLine || detail.verb !== "get") return false;
    say(game, said.look || said.mode);
    return true;
  }

  // htmx could not reach the server
  function unreachable(detail, submitter) {
    const game = root();
    const elt = detail.elt;
    if (!game || !game.contains(elt)) return;
    const needs = elt.closest("[data-needs-connection]");
    if (elt.matches("form.deal-form, form.turn-form") && detail.requestConfig.verb === "post") keep(elt, submitter);
    else if (needs) say(game, words(game)[needs.dataset.needsConnection]);
    else if (detail.requestConfig.verb === "get") say(game, words(game).look || words(game).mode);
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
    form.querySelector(".deal-form-head").after(message);
    message.scrollIntoView({block: "center"});
  }

  window.companionOffline = {confirm, unreachable, needsConnection, editRefused};

  document.addEventListener("htmx:afterSettle", () => {
    const game = root();
    if (!game) return;
    render();
    carry(game);
  });

  window.addEventListener("online", () => { pause = 1000; attempt(); });
  // another sender stored or refused something: read the queue, and the game, again
  if (channel) channel.addEventListener("message", () => { clearTimeout(timer); timer = setTimeout(attempt, 200); });
  reread().then(() => { if (entries.length) attempt(); });
})(self);
