// Entries (what the table records of a game, one after the other) kept on this phone while
// the server cannot be reached, and sent to it once each, in order, when it can be: the
// queue (IndexedDB) and its sending, one sender at a time across the page, other tabs and
// the service worker, which imports this file for Background Sync. What the page shows of
// the queue, and how an entry comes to be kept, is offline-page.js's; offline.js loads both
// when they are needed.
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

  // each game as the server last answered: how many entries it holds, which is next
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
    const recorded = attribute(html, "data-recorded");
    if (recorded !== null) seen.set(entry.game, {recorded, next: attribute(html, "data-next") || ""});
    // a 200 that still asks something (a question about the numbers) has stored nothing
    if (response.status === 200 && recorded !== null && Number(recorded) >= entry.number) return "stored";
    if ([200, 400, 404, 409, 410, 413, 422].includes(response.status)) {
      entry.status = "refused";
      entry.reason = reasonIn(html) || String(response.status);
      // the next number as the server has it, which the page may not show yet
      entry.next = Number(attribute(html, "data-next")) || null;
      // the deal it repeats, when another phone recorded the same one first: no second recording is offered
      entry.repeats = Number(attribute(html, "data-repeats")) || null;
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


  // what offline-page.js needs: the queue, its sending, what the server last said of each
  // game, and the channel the senders tell each other on
  scope.companionQueue = {all, put, drop, drain, seen, channel, LOCK};
})(self);
