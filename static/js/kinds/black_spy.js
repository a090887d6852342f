// Black Spy's own script, loaded by its pages (the game and the edit page). Two parts:
// the by-cards form counted as the boxes fill (the rest's row filled in, each player's
// points, the shoot note), and the hooks offline-page.js asks a kind for (see the comment
// at its top): a deal checked with the numbers and sentences the server's rules handed the
// page (deal_checks in companion/kinds/black_spy/forms.py), its shoot question, its
// messages where the server's page puts them, and the deal card moving on while deals wait.
// Numbers come from the page, as the rules gave them; this multiplies and adds, never decides.
(function () {
  "use strict";

  // --- the by-cards form, counted as it is typed ------------------------------------

  function updateRest(form) {
    const chosen = form.querySelector("input[name=rest]:checked");
    const rest = chosen ? chosen.value : "none";
    // as the page comes, the rest's boxes hold what was left, or the counts an undo put back
    // (their default values): another rest button gives those back instead of wiping them
    const first = !form.dataset.restKnown;
    form.dataset.restKnown = "yes";
    form.querySelectorAll("tr[data-seat]").forEach((row) => {
      const isRest = row.dataset.seat === rest;
      const wasRest = row.classList.contains("is-rest");
      // a row made "the rest" shows what is left, and keeps what was typed in it: a tap on
      // another rest button gives those counts back instead of wiping them
      if (isRest && !wasRest) {
        row.querySelectorAll("input.count").forEach((input) => { input.dataset.typed = first ? input.defaultValue : input.value; });
      } else if (!isRest && wasRest) {
        row.querySelectorAll("input.count").forEach((input) => { input.value = input.dataset.typed || ""; });
      }
      row.classList.toggle("is-rest", isRest);
      row.querySelectorAll("input.count").forEach((input) => { input.readOnly = isRest; });
    });
    if (rest === "none") return;
    const keys = new Set();
    form.querySelectorAll("input.count").forEach((input) => keys.add(input.dataset.key));
    keys.forEach((key) => {
      let others = 0;
      let most = 0;
      let target = null;
      form.querySelectorAll(`input.count[data-key="${key}"]`).forEach((input) => {
        most = parseInt(input.dataset.most, 10);
        if (input.closest("tr").dataset.seat === rest) { target = input; return; }
        const value = parseInt(input.value || "0", 10);
        if (!Number.isNaN(value)) others += value;
      });
      // more counted by the others than the deck holds leaves the rest nothing to show (a
      // negative count is no count); Record says what is wrong
      if (target) target.value = others > most ? "" : String(most - others);
    });
  }

  // where a form's rules are: the game page's, carried once outside what a write swaps
  // (black_spy/_deal_rules.html, named by the form's data-rules-from), or the form's own (the edit page)
  const rulesOf = (form) => (form.dataset.rulesFrom && document.getElementById(form.dataset.rulesFrom)) || form;

  // each player's points as the cards are counted: the counts times the values the rules
  // gave the page; a high black nobody is marked for goes to the player who gets the rest
  function updateCardPoints(form) {
    const values = JSON.parse(rulesOf(form).dataset.cardValues || "{}");
    if (!values.counts) return;
    const chosen = form.querySelector("input[name=rest]:checked");
    const rest = chosen && chosen.value !== "none" ? chosen.value : null;
    const takers = {};
    form.querySelectorAll("fieldset[data-high]").forEach((fieldset) => {
      const picked = fieldset.querySelector("input:checked");
      takers[fieldset.dataset.high] = picked ? picked.value : rest;
      fieldset.querySelectorAll("label.chip").forEach((chip) => chip.classList.toggle("rest-takes", !picked && chip.dataset.seat === rest));
    });
    const blackCards = parseInt(form.dataset.blackCards, 10);
    // before the table has counted anything, the rest holds every card: no points to show
    // yet (the rules refuse such a deal), and no shoot to announce
    const typed = [...form.querySelectorAll("input.count")].some((input) => !input.readOnly && input.value.trim() !== "")
      || form.querySelector("fieldset[data-high] input:checked") !== null;
    let allBlacks = null;
    // a kind of card counted past what the deck holds is no deal yet: its points would add up
    // to more than a deal's, so none are shown (Record says which count is wrong)
    const over = [...new Set([...form.querySelectorAll("input.count")].map((input) => input.dataset.key))].some((key) => {
      let counted = 0;
      let most = 0;
      form.querySelectorAll(`input.count[data-key="${key}"]`).forEach((input) => {
        most = parseInt(input.dataset.most, 10);
        const count = parseInt(input.value || "0", 10);
        if (!Number.isNaN(count)) counted += count;
      });
      return counted > most;
    });
    // a row left blank (not the rest's) is a row still to fill: the rules refuse it, so it
    // shows no points yet rather than a 0 the deal would never be recorded with
    const blank = new Set();
    form.querySelectorAll("tr[data-seat]").forEach((row) => {
      const seat = row.dataset.seat;
      const picked = form.querySelector(`fieldset[data-high] input[value="${seat}"]:checked`);
      if (seat !== rest && !picked && [...row.querySelectorAll("input.count")].every((input) => input.value.trim() === "")) blank.add(seat);
      let points = 0;
      let blacks = 0;
      let readable = true;
      row.querySelectorAll("input.count").forEach((input) => {
        const text = input.value.trim();
        if (text !== "" && !/^\d+$/.test(text)) { readable = false; return; }
        const count = text === "" ? 0 : parseInt(text, 10);
        points += count * values.counts[input.dataset.key];
        if (values.black.includes(input.dataset.key)) blacks += count;
      });
      Object.entries(takers).forEach(([card, taker]) => {
        if (taker === seat) { points += values.high[card]; blacks += 1; }
      });
      form.querySelector(`output[data-points-for="${seat}"]`).textContent = !typed || blank.has(seat) ? "–" : readable && !over ? String(points) : "…";
      if (typed && readable && !over && blacks === blackCards) allBlacks = seat;
    });
    form.querySelectorAll("[data-shoot-note]").forEach((note) => { note.hidden = note.dataset.shootNote !== allBlacks; });
    // a shoot scores as the rules have it (0 for the taker, the deal's total for the rest),
    // not as the cards count: the line shows what will be recorded
    const shoot = allBlacks !== null && values.shoot && values.shoot[Number(allBlacks)];
    if (shoot) {
      shoot.forEach((points, seat) => {
        if (!blank.has(String(seat))) form.querySelector(`output[data-points-for="${seat}"]`).textContent = String(points);
      });
    }
  }

  // entry.js asks each time the form is shown or a box changes, before it marks the last box
  // to type in: the rest's row, filled in here, is not one
  document.addEventListener("companion:entry", (event) => {
    const form = event.target;
    if (!form.matches || !form.matches("form.deal-form[data-mode=cards]")) return;
    updateRest(form);
    updateCardPoints(form);
  });

  // --- a deal checked as the server would, with the rules' numbers and sentences ----------

  // python's int() reads a sign and underscores between digits
  const WHOLE = /^[+-]?\d+(_\d+)*$/;
  const whole = (text) => parseInt(text.replace(/_/g, ""), 10);

  function checkPoints(form, checks, submitter, {fill, formatted}) {
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
      // the text as typed, its first 20 characters: the sentence has the quotes around it
      else if (!WHOLE.test(cleaned)) errors[field] = fill(say.not_whole, {name, text: Array.from(text.trim()).slice(0, 20).join("")});
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
    return null;
  }

  function checkCards(form, checks, {fill, formatted}) {
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
        // a high black tapped for a row left blank is a row half counted: flagged too
        if (!typed) errors[`${checks.counts[0][0]}-${seat}`] = fill(say.row_blank, {name: checks.players[seat]});
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
    return Object.keys(errors).length ? {errors} : null;
  }

  function check(form, submitter, tools) {
    const checks = JSON.parse(rulesOf(form).dataset.checks);
    return form.dataset.mode === "cards" ? checkCards(form, checks, tools) : checkPoints(form, checks, submitter, tools);
  }

  // each message where the server's page puts it, so it reads and goes the same way
  function showProblems(form, errors, {problem}) {
    let after = form.querySelector("label.dealer-pick");
    const place = (field, control, message) => {
      if (field.startsWith("points-")) control.after(message);
      else if (field === "total") form.querySelector(".sum").after(message);
      else if (field.startsWith("high-")) control.append(message);
      else { after.after(message); after = message; }
    };
    // in the order the server's page lists them: by kind of card, its total before each player's
    const order = [];
    if (form.dataset.mode === "cards") {
      const checks = JSON.parse(rulesOf(form).dataset.checks);
      checks.counts.forEach(([key]) => { order.push(`${key}-total`, ...checks.players.map((name, seat) => `${key}-${seat}`)); });
    }
    const rank = (field) => (order.includes(field) ? order.indexOf(field) : order.length);
    Object.entries(errors).sort((a, b) => rank(a[0]) - rank(b[0])).forEach(([field, text]) => {
      const control = field.startsWith("high-") ? form.querySelector(`fieldset[data-high="${field.slice(5)}"]`)
        : field.endsWith("-total") || field === "total" ? null : form.elements[field];
      place(field, control, problem(field, text, control));
    });
  }

  // points that allow a shoot: the question the server's page asks, of these seats only
  function ask(form, seats) {
    const question = rulesOf(form).querySelector("template.offline-question").content.firstElementChild.cloneNode(true);
    question.querySelectorAll("[data-seat]").forEach((part) => { if (!seats.includes(Number(part.dataset.seat))) part.remove(); });
    form.querySelector(".points").after(question);
    form.querySelectorAll("button.big").forEach((button) => { button.hidden = true; });
    question.scrollIntoView({block: "nearest"});
  }

  // each player's points, as typed or as the cards counted them
  function entered(form) {
    const players = JSON.parse(rulesOf(form).dataset.checks).players;
    const values = players.map((name, seat) => (form.dataset.mode === "cards"
      ? form.querySelector(`output[data-points-for="${seat}"]`).textContent
      : form.elements[`points-${seat}`].value.trim()));
    return {shown: players.map((name, seat) => `${name}\u00a0${values[seat]}`), values};
  }

  // --- the deal card while deals wait on the phone ------------------------------------

  // the deals waiting are rows of the deals table; the card and the form move on to the
  // deal after them, its dealer and pass from the <template data-deal> the server sent
  function moveOn(game, waiting, said, {about, element, fill, formatted, newId, clearProblems}) {
    const recorded = Number(about(game).recorded);
    // the totals are as of the last deal recorded while a deal waits to be sent (one refused waits on the table)
    game.querySelector(".as-of").hidden = !waiting.some((entry) => entry.status !== "refused");
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
      // a shoot the table answered is marked as the server's rows mark it
      const shooter = shooterOf(entry);
      row.append(head, ...entry.values.map((value, seat) => {
        const cell = element("td", seat === shooter ? "shooter" : "", value);
        if (seat === shooter) cell.append(" ", Object.assign(element("span", "shot", said.shot_word), {title: said.shot_title}));
        return cell;
      }));
      body.prepend(row);
    });
    const form = game.querySelector("form.deal-form");
    if (!form) return;
    provisional(game, form, waiting.filter((entry) => entry.status !== "refused"), said, {element, fill, formatted});
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
    clearProblems(form);
    clearForm(form, template ? template.dataset.dealer : "none");
  }

  // the seat the table said took every black card, by the shoot question's answer the entry sent
  function shooterOf(entry) {
    const shooter = new URLSearchParams(entry.body || "").get("shoot");
    return shooter !== null && /^\d+$/.test(shooter) ? Number(shooter) : null;
  }

  // the standings with the deals waiting on the phone counted in, marked as provisional:
  // a deal scores its raw points, or a shoot's (0 for the shooter, the deal total for the
  // others); by cards the points shown are the shoot's already
  function provisional(game, form, waiting, said, {element, fill, formatted}) {
    game.querySelectorAll("#standings .provisional, .provisional.ends").forEach((part) => part.remove());
    // what is left to the end value counts from the recorded total: beside a provisional one it would mislead
    game.querySelectorAll("#standings .to-go").forEach((part) => { part.hidden = false; });
    // the form's "so far" beside each name, as recorded until deals wait
    form.querySelectorAll(".so-far[data-recorded]").forEach((part) => {
      part.textContent = part.dataset.recorded;
      delete part.dataset.recorded;
    });
    if (!waiting.length || !said.provisional) return;
    const total = JSON.parse(rulesOf(form).dataset.checks).deal_total;
    const added = [];
    waiting.forEach((entry) => {
      const shooter = shooterOf(entry);
      entry.values.forEach((value, seat) => {
        const score = shooter !== null ? (shooter === seat ? 0 : total) : Number(value) || 0;
        added[seat] = (added[seat] || 0) + score;
      });
    });
    const standings = game.querySelector("#standings");
    const end = Number(standings.dataset.end);
    let reached = false;
    const sums = [];
    standings.querySelectorAll("li[data-seat]").forEach((row) => {
      const sum = Number(row.dataset.total) + (added[Number(row.dataset.seat)] || 0);
      sums[Number(row.dataset.seat)] = sum;
      reached = reached || (end > 0 && sum >= end);
      row.querySelector(".to-end").prepend(element("span", "provisional", fill(said.provisional, {total: formatted(sum)})));
      const left = row.querySelector(".to-go");
      if (left) left.hidden = true;
    });
    // and beside each name in the form, the same total as the standings (seat by seat, in order)
    form.querySelectorAll(".point-row .so-far").forEach((part, seat) => {
      if (sums[seat] === undefined) return;
      part.dataset.recorded = part.textContent;
      part.textContent = fill(said.provisional, {total: formatted(sums[seat])});
    });
    // the deals waiting end the game (the rules end it once a total reaches the end value):
    // said above the next deal's form, before the table plays a deal that will not count
    if (reached && said.ends) form.before(element("p", "hint provisional ends", fill(said.ends, {end: formatted(end)})));
  }

  function clearForm(form, dealer) {
    form.querySelectorAll(".question, .discard").forEach((part) => part.remove());
    form.querySelectorAll("input[type=text]").forEach((input) => { input.value = ""; });
    form.querySelectorAll("input[type=radio][name^=high-]").forEach((input) => { input.checked = false; });
    const rest = form.querySelector(`input[name=rest][value="${dealer}"]`) || form.querySelector("input[name=rest][value=none]");
    if (rest) rest.checked = true;
    form.dispatchEvent(new Event("change", {bubbles: true}));
  }

  // points and cards are two forms: a switch from one to the other leaves what was entered
  // in the first behind, so the table is asked first (and keeps it on a no)
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-clears]");
    const form = link && link.closest("form.deal-form");
    if (!link || !form) return;
    // on a deal's edit page (a plain form) what counts is what was changed from the deal as it was
    const editing = !form.hasAttribute("hx-post");
    // the rest's row (read only) is what the others' counts leave, nothing entered
    const entered = [...form.querySelectorAll("input[type=text]:not([readonly])")]
      .some((input) => (editing ? input.value !== input.defaultValue : input.value.trim() !== ""))
      || [...form.querySelectorAll("input[name^=high-]")].some((input) => input.checked !== input.defaultChecked);
    if (!entered || window.confirm(link.dataset.clears)) return;
    event.preventDefault();
    event.stopPropagation();
  }, true);

  window.companionKinds = window.companionKinds || {};
  window.companionKinds.black_spy = {check, showProblems, ask, entered, moveOn};
})();
