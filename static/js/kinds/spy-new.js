// The new Spy game's mirror helper (spy/_new.html): each Spy named as its player is typed, a
// row for each player named (the first two always), the places a Spy may stand as many as
// that table's bases have, a table of two in the green and red sets, and "Track the Spies"
// ticked once a Spy is placed or turned.
(function () {
  "use strict";

  const form = () => document.querySelector("[data-spy-slots]");
  // the name boxes with a name in them: the table's players, as the server seats them
  const namedBoxes = (scope) => [...scope.querySelectorAll("input[name^=spy-player-]")].filter((box) => box.value.trim());

  // the places offered are the base's: a base of 7 (three or four players) has no "after card 7"
  function fitPlaces() {
    const helper = form();
    if (!helper) return;
    // the table is as many players as are named, as the server counts it (a blank seat
    // between two names is no player); fewer than the least is a table of the least
    const table = JSON.parse(helper.dataset.spySlots);
    const scope = helper.closest("form") || document;
    const named = namedBoxes(scope).length;
    const slots = table[String(Math.max(named, Math.min(...Object.keys(table).map(Number))))];
    if (!slots) return;
    helper.querySelectorAll("select[name^=spy-slot-]").forEach((select) => {
      [...select.options].forEach((option) => { option.hidden = option.disabled = Number(option.value) > slots; });
      if (Number(select.value) > slots) select.value = String(slots);
    });
  }

  // a table of two plays the green and red sets: a named player's colour that is neither (the
  // third row's default, when a seat between two names stays blank) becomes the one of the two
  // the other player has not, and is given back when the table grows to three
  function fitColours() {
    const helper = form();
    if (!helper || !helper.dataset.twoColours) return;
    const pair = JSON.parse(helper.dataset.twoColours);
    const scope = helper.closest("form") || document;
    const selects = namedBoxes(scope)
      .map((box) => scope.querySelector(`select[name="spy-colour-${box.name.split("-").pop()}"]`))
      .filter(Boolean);
    if (selects.length !== 2) {
      scope.querySelectorAll("select[data-fitted]").forEach((select) => {
        select.value = select.dataset.fitted;
        delete select.dataset.fitted;
      });
      return;
    }
    selects.forEach((select, index) => {
      if (pair.includes(select.value)) return;
      const free = pair.find((colour) => colour !== selects[1 - index].value);
      select.dataset.fitted = select.value;
      select.value = free;
    });
  }

  document.addEventListener("input", (event) => {
    const match = event.target.name && /^spy-player-(\d+)$/.exec(event.target.name);
    if (!match) return;
    const name = event.target.value.trim();
    const label = document.querySelector(`[data-spy-of="${match[1]}"]`);
    if (label) label.textContent = name ? label.dataset.named.replace("{name}", name) : label.dataset.unnamed;
    const row = document.querySelector(`.spy-start[data-row="${match[1]}"]`);
    if (row && Number(match[1]) >= 2) row.hidden = !name;
    fitPlaces();
    fitColours();
  });

  // a Spy placed or turned is a Spy to track: the places are not left unused for want of a tick
  document.addEventListener("change", (event) => {
    // a colour picked by hand is the table's own, and stays
    if (event.target.name && /^spy-colour-\d+$/.test(event.target.name)) delete event.target.dataset.fitted;
    if (!event.target.name || !/^spy-(slot|facing)-\d+$/.test(event.target.name)) return;
    const track = event.target.form && event.target.form.elements.track;
    if (track) track.checked = true;
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fitPlaces);
  else fitPlaces();
})();
