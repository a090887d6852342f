"""Black Spy's forms as the rules read them: the new game's seating and house rules, and a
deal typed by points or counted by cards. The rules never see a form: this turns one into
their values, and says in words what it could not read.

It also hands a page the checks it makes here, as numbers and sentences, for a phone that
cannot reach the server (``deal_checks``): the page's script does arithmetic on them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from werkzeug.datastructures import MultiDict

from companion.rules import N_, Faults, Message, RulesError

from . import rules as bs
from .models import HouseRules

POINTS, CARDS = "points", "cards"
# rows of the new-game form: one per seat the rules allow at most
MAX_ROWS = bs.STANDARD.max_players


class ShootQuestion(Exception):
    """The points allow a shoot: the table must say whether it was one."""

    def __init__(self, candidates: tuple[int, ...]) -> None:
        super().__init__(candidates)
        self.candidates = candidates


# --- a new game ------------------------------------------------------------------------


def new_game(form: Mapping[str, str]) -> tuple[bs.Setup, HouseRules, bool]:
    """The seating, the house rules, and whether the companion drew the first dealer:
    every box at fault is named at once, an end value that is no number beside the names'."""
    names = [form.get(f"player-{row}", "") for row in range(MAX_ROWS)]
    dealer_row = form.get("first_dealer", "draw")
    faults = Faults()
    end_value = faults.read(lambda: parse_end_value(form.get("end_value")))
    first = None if dealer_row == "draw" else faults.read(lambda: _row(dealer_row))
    shoot_rule = {"on": True, "off": False}.get(form.get("shoot_rule", ""))
    first_lead = form.get("first_lead") or None
    rules = bs.rule_set(form.get("preset", bs.DEFAULT_PRESET), end_value=end_value, shoot_rule=shoot_rule, first_lead=first_lead)
    setup = faults.read(lambda: bs.new_setup(rules, names, first))
    faults.check()
    assert setup is not None  # read, or refused above
    return setup, HouseRules(rules.preset.value, end_value, shoot_rule, first_lead), dealer_row == "draw"


def _row(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RulesError.about("first_dealer", N_("Pick who deals first.")) from None


def parse_end_value(text: str | None) -> int | None:
    """A house-rule end value typed by the table; blank means the preset's."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise RulesError.about("end_value", N_("The end value must be a whole number.")) from None
    if not 1 <= value <= bs.MAX_END_VALUE:
        raise RulesError.about("end_value", N_("The end value must be between 1 and %(most)s.", most=bs.MAX_END_VALUE))
    return value


# --- a deal ----------------------------------------------------------------------------


def mode_of(form: Mapping[str, str]) -> str:
    return CARDS if form.get("mode") == CARDS else POINTS


def entry_from_form(setup: bs.Setup, form: Mapping[str, str], mode: str) -> bs.DealEntry:
    """Turn a posted deal form into a rules entry, or ask about a shoot."""
    players = setup.players
    if mode == CARDS:
        rest_text = form.get("rest", "")
        rest = None
        if rest_text not in ("", "none"):
            try:
                rest = int(rest_text)
            except ValueError:
                raise RulesError.about("rest", N_("Pick who gets the rest.")) from None
        cards = parse_cards(players, form, rest, rules=setup.rules)
        return bs.CardsEntry(cards)
    raw = parse_points(setup.rules, players, [form.get(f"points-{seat}") for seat in range(len(players))])
    answer = form.get("shoot")
    candidates = bs.shoot_candidates(setup.rules, raw)
    if answer is None or answer == "":
        if candidates:
            raise ShootQuestion(candidates)
        return bs.PointsEntry(raw)
    if answer == "none":
        return bs.PointsEntry(raw)
    try:
        shooter = int(answer)
    except ValueError:
        raise RulesError.about("shooter", N_("Say who took all %(blacks)s black cards.", blacks=bs.BLACK_CARDS)) from None
    return bs.PointsEntry(raw, shooter=shooter)


def parse_points(rules: bs.RuleSet, players: Sequence[str], texts: Sequence[str | None]) -> tuple[int, ...]:
    """Read one typed score per player and check them as a deal.

    A typographic minus (as some phone keyboards type it) counts as a minus.
    """
    if len(texts) != len(players):
        raise RulesError(N_("A deal needs points for all %(num)s players.", num=len(players)))
    errors = {}
    raw = []
    for seat, text in enumerate(texts):
        cleaned = (text or "").strip().replace("\u2212", "-")
        if not cleaned:
            errors[f"points-{seat}"] = points_missing(players[seat])
            continue
        if len(cleaned.lstrip("+-")) > bs.MAX_SCORE_DIGITS and cleaned.lstrip("+-").isdecimal():
            errors[f"points-{seat}"] = bs.too_long(rules, players[seat])
            continue
        try:
            raw.append(int(cleaned))
        except ValueError:
            errors[f"points-{seat}"] = not_whole(players[seat], (text or "").strip()[:20])
    if errors:
        raise RulesError.of(errors)
    bs.check_points(rules, players, raw)
    return tuple(raw)


def parse_cards(
    players: Sequence[str],
    form: Mapping[str, str],
    rest: int | None,
    rules: bs.RuleSet = bs.STANDARD,
) -> tuple[bs.Cards, ...]:
    """Read a by-cards entry: counts per player and who took each high black.

    Fields are ``black_spies-N``, ``low_blacks-N``, ``coloured_spies-N`` (blank is 0)
    and ``high-8`` … ``high-11`` (a seat number). The ``rest`` seat's counts are not
    read: that player gets whatever the others did not take, high blacks included.
    Only the counts ``rules`` score are read; a kind worth nothing is 0 for everyone.
    """
    errors: dict[str, str] = {}
    counts: list[dict[str, int]] = []
    asked = rules.card_counts
    others = [seat for seat in range(len(players)) if seat != rest]
    if asked:
        # a row left blank is a row missed, not a player who took nothing: blank, its
        # player would count 0 and the rest would get their cards (an untouched form, every
        # card: a shoot nobody counted). A table types a player's zeros, as it gives a 0 by
        # points; a high black tapped for a player whose boxes are blank is a row half
        # counted (their other cards forgotten would go to the rest): flagged the same
        for seat in others:
            typed = any((form.get(f"{key}-{seat}") or "").strip() for key, _, _ in asked)
            if not typed:
                errors[f"{asked[0][0]}-{seat}"] = row_blank(players[seat])
    elif rest is not None and others and not any((form.get(f"high-{card}") or "").strip() for card in bs.HIGH_BLACKS):
        # only the high blacks are scored: an untouched form would give the rest all of them
        raise RulesError.about(f"high-{bs.HIGH_BLACKS[0]}", nothing_counted(players[others[0]]))
    for seat, name in enumerate(players):
        row = {key: 0 for key, _, _ in bs.CARD_COUNTS}
        for key, most, label in asked:
            if seat == rest:
                row[key] = 0
                continue
            text = (form.get(f"{key}-{seat}") or "").strip()
            try:
                value = int(text) if text else 0
            except ValueError:
                errors[f"{key}-{seat}"] = count_not_a_number(name, label, most)
                continue
            if not 0 <= value <= most:
                errors[f"{key}-{seat}"] = bs.count_out_of_range(name, label, most)
            row[key] = value
        counts.append(row)
    high: dict[int, set[int]] = {seat: set() for seat in range(len(players))}
    for card in bs.HIGH_BLACKS:
        text = (form.get(f"high-{card}") or "").strip()
        if not text and rest is not None and 0 <= rest < len(players):
            high[rest].add(card)  # nobody else took it, so the rest did
            continue
        if not text:
            errors[f"high-{card}"] = high_untaken(card)
            continue
        try:
            seat = int(text)
        except ValueError:
            seat = -1
        if seat not in high:
            errors[f"high-{card}"] = N_("Who took the black %(card)s? Pick a player.", card=card)
            continue
        high[seat].add(card)
    if rest is not None and not 0 <= rest < len(players):
        errors["rest"] = N_("The player who gets the rest must be one of the players.")
    if errors:
        raise RulesError.of(errors)
    if rest is not None:
        for key, most, label in asked:
            taken = sum(row[key] for row in counts)
            if taken > most:
                raise RulesError.about(f"{key}-total", others_took(taken, label, most))
            counts[rest][key] = most - taken
    return tuple(
        bs.Cards(
            black_spies=row["black_spies"],
            low_blacks=row["low_blacks"],
            high_blacks=frozenset(high[seat]),
            coloured_spies=row["coloured_spies"],
        )
        for seat, row in enumerate(counts)
    )


def share_from_form(setup: bs.Setup, seat: int, form: Mapping[str, str]) -> bs.Share:
    """One player's own share of a deal, from their phone's form: ``points`` (a whole
    number), or by cards their counts (``black_spies-<seat>``, …, blank is 0) and the high
    blacks they took (``high-8`` … ``high-11``, the seat's number when ticked); ``shot`` is
    "yes" when they took all 16 black cards, "no" when they answered that they did not."""
    name = setup.players[seat]
    rules = setup.rules
    shot = {"yes": True, "no": False}.get(form.get("shot", ""))
    if mode_of(form) == CARDS:
        errors: dict[str, str] = {}
        counts = {key: 0 for key, _, _ in bs.CARD_COUNTS}
        for key, most, label in rules.card_counts:
            text = (form.get(f"{key}-{seat}") or "").strip()
            try:
                counts[key] = int(text) if text else 0
            except ValueError:
                errors[f"{key}-{seat}"] = count_not_a_number(name, label, most)
                continue
            if not 0 <= counts[key] <= most:
                errors[f"{key}-{seat}"] = bs.count_out_of_range(name, label, most)
        if errors:
            raise RulesError.of(errors)
        high = frozenset(card for card in bs.HIGH_BLACKS if (form.get(f"high-{card}") or "").strip() == str(seat))
        return bs.Share(cards=bs.Cards(high_blacks=high, **counts), shot=shot)
    text = (form.get("points") or "").strip().replace("\u2212", "-")
    if not text:
        # said on the player's own phone: to them, not of them
        raise RulesError.about("points", your_points_missing())
    digits = text.lstrip("+-")
    if len(digits) > bs.MAX_SCORE_DIGITS and digits.isdecimal():
        raise RulesError.about("points", bs.too_long(rules, name))
    try:
        points = int(text)
    except ValueError:
        raise RulesError.about("points", not_whole(name, text[:20])) from None
    if not rules.min_raw <= points <= rules.max_raw:
        raise RulesError.about("points", bs.impossible_points(rules, name, points))
    share = bs.Share(points=points, shot=shot)
    bs.check_share(rules, name, share)
    return share


def form_values(played: bs.PlayedDeal) -> MultiDict[str, str]:
    """A played deal as the form that would enter it again. A deal counted by cards has its
    points too: an edit switched to "By points" starts from the points the cards gave."""
    return entry_values(played.entry, played.raw, played.shooter)


def undone_values(entry: bs.DealEntry) -> MultiDict[str, str]:
    """An undone deal as the form that records it again: its numbers back where the table
    typed them, to mend the one that was wrong rather than type them all again. (A shoot is
    asked again as it is recorded again: the record form carries no answer to it.)"""
    values = entry_values(entry, entry.raw if isinstance(entry, bs.PointsEntry) else (), None)
    # counted by cards, the rest goes to whom the form gives it by default (the dealer),
    # whose counts the page works out again from the others': a count mended is then a
    # deck that still adds up, as it did when the table counted it
    values.pop("rest", None)
    return values


def entry_values(entry: bs.DealEntry, raw: Sequence[int], shooter: int | None) -> MultiDict[str, str]:
    """A deal's entry, each seat's raw points and who shot, as the form's fields."""
    values: MultiDict[str, str] = MultiDict()
    if isinstance(entry, bs.CardsEntry):
        values["mode"] = CARDS
        values["rest"] = "none"
        for seat, taken in enumerate(entry.cards):
            for key in ("black_spies", "low_blacks", "coloured_spies"):
                values[f"{key}-{seat}"] = str(getattr(taken, key))
            for card in sorted(taken.high_blacks):
                values[f"high-{card}"] = str(seat)
    else:
        values["mode"] = POINTS
    for seat, points in enumerate(raw):
        values[f"points-{seat}"] = str(points)
    if shooter is not None:
        values["shoot"] = str(shooter)
    return values


# --- what this module says (deal_checks hands the same sentences to a page) ------------


def points_missing(name: str) -> Message:
    return N_("Enter %(name)s's points (0 if none).", name=name)


def your_points_missing() -> Message:
    return N_("Enter your points (0 if none).")


def not_whole(name: str, text: str) -> Message:
    # the text as typed, between quotes the page writes the same way
    return N_("%(name)s: '%(text)s' is not a whole number.", name=name, text=text)


def count_not_a_number(name: str, label: str, most: int) -> Message:
    return N_("%(name)s: %(cards)s must be a number from 0 to %(most)s.", name=name, cards=label, most=most)


def row_blank(name: str) -> Message:
    return N_("Enter the cards %(name)s took (0 if none).", name=name)


def nothing_counted(name: str) -> Message:
    return N_("Nothing is counted yet: enter the cards %(name)s took (0 if none).", name=name)


def high_untaken(card: int) -> Message:
    return N_("Who took the black %(card)s?", card=card)


def others_took(taken: int | str, label: str, most: int) -> Message:
    return N_("The others took %(taken)s %(cards)s; the deck has only %(most)s.", taken=taken, cards=label, most=most)


# --- the same checks, for a phone that cannot reach the server -----------------------


def deal_checks(rules: bs.RuleSet, players: Sequence[str]) -> dict[str, Any]:
    """What a page needs to check a deal as :func:`parse_points`, the rules' ``check_points``
    and :func:`parse_cards` do, for when it cannot reach the server: the rule set's numbers,
    and each sentence those checks say, with a slot (``{name}``, ``{points}``, ``{text}``,
    ``{total}``, ``{taken}``) for what only the typed numbers tell.

    >>> checks = deal_checks(bs.STANDARD, ("Ana", "Ben", "Cy"))
    >>> checks["deal_total"], checks["least"], checks["most"], checks["shoot_threshold"]
    (60, -20, 80, 60)
    >>> str(checks["say"]["sum"])
    "The points add up to {total}, not 60: check each player's count."
    """
    shoot = rules.shoot_rule and len(players) >= 2
    labels = {key: (most, label) for key, most, label in rules.card_counts}
    say: dict[str, Message | str | dict[str, Message]] = {
        "missing": points_missing("{name}"),
        "not_whole": not_whole("{name}", "{text}"),
        "too_long": bs.too_long(rules, "{name}"),
        "impossible": bs.impossible_points(rules, "{name}", "{points}"),
        "sum": bs.wrong_sum(rules, "{total}"),
        # said of the seat whose shoot the typed numbers are the scores of
        "as_scores": bs.how_to_enter_a_shoot(rules, ("{name}",), 0) if shoot else "",
        "count_not_a_number": {key: count_not_a_number("{name}", label, most) for key, (most, label) in labels.items()},
        "count_out_of_range": {key: bs.count_out_of_range("{name}", label, most) for key, (most, label) in labels.items()},
        "others_took": {key: others_took("{taken}", label, most) for key, (most, label) in labels.items()},
        "deck_count": {key: bs.deck_count(label, most, "{total}") for key, (most, label) in labels.items()},
        "high_untaken": {str(card): high_untaken(card) for card in bs.HIGH_BLACKS},
        "nothing_counted": nothing_counted("{name}"),
        "row_blank": row_blank("{name}"),
    }
    return {
        "players": list(players),
        "deal_total": rules.deal_total,
        "least": rules.min_raw,
        "most": rules.max_raw,
        "digits": bs.MAX_SCORE_DIGITS,
        "shoot_threshold": rules.shoot_threshold if shoot else None,
        # a shoot's final scores typed as points: each seat's row, as the table would type it
        "shoot_scores": [list(row) for row in bs.shoot_scores(rules, len(players))] if shoot else [],
        # in the order the checks go through them: the first refused is the one said
        "counts": [[key, most] for key, (most, _) in labels.items()],
        "high_blacks": list(bs.HIGH_BLACKS),
        "say": say,
    }
