"""The score pad's forms as the rules read them: a new pad, and a round's points typed on a
phone. The rules never see a form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.rules import N_, Faults, Message, RulesError

from . import rules as sp

# rows of the new-pad form: one per seat the rules allow at most
ROWS = sp.MAX_PLAYERS


def new_game(form: Mapping[str, str]) -> sp.Setup:
    """The pad's game, players, who wins and target, checked: every box at fault is named
    at once, a target that is no number beside the rules' own refusals."""
    faults = Faults()
    target = faults.read(lambda: _target(form.get("target")))
    setup = faults.read(
        lambda: sp.new_setup(
            form.get("pad-name", ""),
            [form.get(f"pad-player-{row}", "") for row in range(ROWS)],
            lowest_wins=form.get("lowest_wins") == "yes",
            target=target,
        )
    )
    faults.check()
    assert setup is not None  # read, or refused above
    return setup


def _target(text: str | None) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return parse_points(text)
    except ValueError:
        raise RulesError.about("target", N_("A target is a whole number from 1 to %(most)s.", most=sp.MAX_TARGET)) from None


def round_from_form(setup: sp.Setup, form: Mapping[str, str]) -> sp.Round:
    return sp.Round(points_from_form(setup, form))


def round_values(points: Sequence[int]) -> dict[str, str]:
    """A round's points as the form's boxes: what an edit starts from, and what an undo puts
    back for the table to mend the one mistyped and record the round again."""
    return {f"points-{seat}": str(value) for seat, value in enumerate(points)}


def parse_points(text: str) -> int:
    """Points as typed on a phone: a whole number, the typographic minus too.

    >>> parse_points(" −12 "), parse_points("+3")
    (-12, 3)
    """
    cleaned = (text or "").strip().replace("\u2212", "-")
    digits = cleaned.lstrip("+-")
    # checked before int(): a number of thousands of digits is refused unread
    if not digits.isascii() or not digits.isdigit() or len(digits) > len(str(sp.MAX_POINTS)):
        raise ValueError(text)
    return int(cleaned)


def points_from_form(setup: sp.Setup, form: Mapping[str, str]) -> tuple[int, ...]:
    """Every player's points as typed in the round form's ``points-<seat>`` boxes, or a
    RulesError naming each box at fault, and the player in its sentence.

    >>> points_from_form(sp.Setup("Rummy", ("Ana", "Ben")), {"points-0": "12", "points-1": "−3"})
    (12, -3)
    >>> try:
    ...     points_from_form(sp.Setup("Rummy", ("Ana", "Ben")), {"points-0": "2.5", "points-1": ""})
    ... except RulesError as error:
    ...     print(error.errors["points-0"], "/", error.errors["points-1"])
    Ana: '2.5' is not a whole number. / Give Ben's points, 0 if none.
    """
    points: list[int] = []
    errors: dict[str, Message] = {}
    for seat, name in enumerate(setup.players):
        text = form.get(f"points-{seat}", "")
        try:
            value = parse_points(text)
            if not -sp.MAX_POINTS <= value <= sp.MAX_POINTS:
                errors[f"points-{seat}"] = sp.out_of_bounds(name)
            points.append(value)
        except ValueError:
            cleaned = (text or "").strip()
            if not cleaned:
                errors[f"points-{seat}"] = N_("Give %(name)s's points, 0 if none.", name=name)
            elif (cleaned[:1] in ("+", "-", "\u2212") and cleaned[1:].isdecimal()) or cleaned.isdecimal():
                errors[f"points-{seat}"] = sp.out_of_bounds(name)
            else:
                errors[f"points-{seat}"] = N_("%(name)s: '%(text)s' is not a whole number.", name=name, text=cleaned[:20])
    if errors:
        raise RulesError.of(errors)
    return tuple(points)


def share_from_form(setup: sp.Setup, seat: int, form: Mapping[str, str]) -> int:
    """One player's own points of the next round, typed on their phone in ``points``.

    >>> share_from_form(sp.Setup("Rummy", ("Ana", "Ben")), 1, {"points": "−3"})
    -3
    """
    if not (form.get("points") or "").strip():
        # said on the player's own phone: to them, not of them
        raise RulesError.about("points", N_("Enter your points (0 if none)."))
    alone = sp.Setup(setup.name, (setup.players[seat],))
    try:
        return points_from_form(alone, {"points-0": form.get("points", "")})[0]
    except RulesError as error:
        raise RulesError.about("points", error.errors["points-0"]) from None
