"""Every player scores from their own phone: the seat links, a seat's page, and a deal made
of each player's share, recorded once when the shares add up."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import exported, make_app, post_points, start_game, start_pad, watch_url

NAMES = ("Ana", "Ben", "Cy", "Dee")
HTMX = {"HX-Request": "true"}


def seat_links(client: FlaskClient, game_url: str) -> list[str]:
    """The seat links of ``/phones``, in seat order, as paths."""
    page = client.get(f"{game_url}/phones")
    assert page.status_code == 200
    found = dict(re.findall(r'<a data-seat="(\d+)" href="https?://[^/"]+(/seat/[^"]+)"', page.get_data(as_text=True)))
    return [found[str(seat)] for seat in range(len(found))]


def seat_form(page: str) -> dict[str, str]:
    """The hidden fields of a seat page's ``data-seat-entry`` form."""
    form = re.search(r"<form[^>]*data-seat-entry[^>]*>(.*?)</form>", page, re.S)
    assert form, "no seat form on the page"
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(1)))


def send(phone: FlaskClient, link: str, **fields: Any) -> Any:
    """One player's phone opens its seat page and sends its share."""
    page = phone.get(link)
    assert page.status_code == 200
    form = seat_form(page.get_data(as_text=True))
    form.update({name: str(value) for name, value in fields.items()})
    return phone.post(link, data=form)


def by_points(*raw: int, shooter: str | None = None) -> dict[str, Any]:
    """A deal by points as a companion/1 file holds it."""
    return {"raw": dict(zip(NAMES, raw, strict=True)), "shooter": shooter}


def deals(client: FlaskClient, game: str) -> list[dict[str, Any]]:
    return exported(client, f"/black-spy/{game}/export.json")["games"][0]["deals"]


@pytest.fixture
def phones(app: Flask) -> list[FlaskClient]:
    """Each player's phone: none holds the scorer's cookies."""
    return [app.test_client() for _ in NAMES]


def test_the_phones_page_gives_each_seat_its_own_link_and_qr_code(client: FlaskClient) -> None:
    game = start_game(client, NAMES)
    page = client.get(f"/black-spy/{game}/phones").get_data(as_text=True)
    links = seat_links(client, f"/black-spy/{game}")
    assert len(set(links)) == 4
    assert page.count("<svg") >= 4
    # the links stay the same each time the page is opened, until renewed
    assert seat_links(client, f"/black-spy/{game}") == links
    assert '/phones">Players' in client.get(f"/black-spy/{game}").get_data(as_text=True)


def test_a_players_page_has_the_minus_key_where_a_deal_can_score_below_zero(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    # a phone's number pad may have no minus: a player who took only a coloured Spy scores -5
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    page = phones[0].get(links[0]).get_data(as_text=True)
    assert re.search(
        r'<button type="button" class="sign" data-sign-for="points" aria-label="Switch the sign of Ana\'s points">', page
    )
    for phone, link, points in zip(phones, links, (-5, 30, 25, 10), strict=True):
        send(phone, link, points=points)
    assert deals(client, game) == [by_points(-5, 30, 25, 10)]
    classic = start_game(client, NAMES, preset="classic")
    page = phones[0].get(seat_links(client, f"/black-spy/{classic}")[0]).get_data(as_text=True)
    assert 'data-sign-for="points"' not in page  # no deal of the classic rules scores below zero


def test_a_deal_is_recorded_once_every_players_share_is_in_and_adds_up(client: FlaskClient, phones: list[FlaskClient]) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    for seat, points in enumerate((20, 15, 25)):
        assert send(phones[seat], links[seat], points=points).status_code == 303
        assert deals(client, game) == []
    waiting = phones[3].get(links[3]).get_data(as_text=True)
    assert "3 of 4 in for deal 1" in waiting
    assert send(phones[3], links[3], points=0).status_code == 303
    assert deals(client, game) == [by_points(20, 15, 25, 0)]
    # every phone moves on to the next deal
    assert seat_form(phones[0].get(links[0]).get_data(as_text=True))["number"] == "2"


def test_the_scorers_page_asks_for_the_shares_and_is_told_when_the_deal_recorded_itself(
    app: Flask, client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    assert 'id="shares"' not in client.get(f"/black-spy/{game}").get_data(as_text=True)  # no seat links yet
    links = seat_links(client, f"/black-spy/{game}")
    page = client.get(f"/black-spy/{game}").get_data(as_text=True)
    asks = re.search(
        r'<section class="card shares" data-shares="0" hidden id="shares" hx-get="([^"]+)" hx-trigger="every 4s" data-polls',
        page,
    )
    assert asks and asks.group(1) == f"/games/{game}/shares?number=1"
    # a follower's page is refreshed whole by its own poll: no second one inside it
    assert 'id="shares"' not in client.get(watch_url(app, game)).get_data(as_text=True)
    send(phones[0], links[0], points=20)
    answer = client.get(asks.group(1), headers=HTMX)
    assert "1 of 4 in for deal 1" in answer.get_data(as_text=True) and "HX-Trigger" not in answer.headers
    for seat, points in ((1, 15), (2, 25), (3, 0)):
        send(phones[seat], links[seat], points=points)
    moved = client.get(asks.group(1), headers=HTMX)
    # the page moves on, and says why: the deal it showed is recorded
    assert json.loads(moved.headers["HX-Trigger"]) == {"companion:moved-on": {"news": "Recorded meanwhile: deal 1."}}
    assert f'hx-get="/games/{game}/shares?number=2"' in moved.get_data(as_text=True)
    assert client.get("/games/nope/shares?number=1", headers=HTMX).status_code == 404
    # opened by hand, the address shows the game page
    assert client.get(asks.group(1)).location == f"/black-spy/{game}"


def test_a_deal_that_does_not_add_up_records_nothing_and_every_phone_says_recount(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    for seat, points in enumerate((20, 15, 25, 5)):
        send(phones[seat], links[seat], points=points)
    assert deals(client, game) == []
    for page in (phones[1].get(links[1]), client.get(f"/black-spy/{game}")):
        text = page.get_data(as_text=True)
        assert "The points add up to 65, not 60" in text
        assert "The table must recount" in text
    # Dee corrects her own share: the deal is recorded
    send(phones[3], links[3], points=0)
    assert deals(client, game) == [by_points(20, 15, 25, 0)]


def test_a_shooter_says_so_on_their_own_phone(client: FlaskClient, phones: list[FlaskClient]) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    send(phones[0], links[0], points=70, shot="yes")
    for seat in (1, 2):
        send(phones[seat], links[seat], points=-5)
    send(phones[3], links[3], points=0)
    assert deals(client, game) == [by_points(70, -5, -5, 0, shooter="Ana")]


def test_a_shooter_who_types_the_shoots_0_is_told_to_type_the_points_taken_and_nothing_is_kept(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    version = client.get(f"/black-spy/{game}").headers["ETag"]
    # the shoot's 0 is the score, not the count: kept, it could never add up with the others'
    refused = send(phones[0], links[0], points=0, shot="yes")
    assert refused.status_code == 422
    assert "Ana cannot have taken all 16 black cards with 0: that is 80 plus -5 per coloured Spy." in refused.get_data(
        as_text=True
    ).replace("&#39;", "'")
    assert client.get(f"/black-spy/{game}").headers["ETag"] == version
    # the count those cards make is taken, and the deal records itself once the rest are in
    assert send(phones[0], links[0], points=75, shot="yes").status_code in (200, 303)
    for seat, points in ((1, -5), (2, -5), (3, -5)):
        send(phones[seat], links[seat], points=points)
    assert deals(client, game) == [by_points(75, -5, -5, -5, shooter="Ana")]


def test_points_that_allow_a_shoot_nobody_claimed_are_asked_of_the_high_scorer(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    for seat, points in enumerate((70, -5, -5, 0)):
        send(phones[seat], links[seat], points=points)
    assert deals(client, game) == []
    asked = phones[0].get(links[0]).get_data(as_text=True)
    assert "Did you take all 16 black cards?" in asked
    # in its own words alone: the table's question, which names Ana, is for the other phones
    assert "Did Ana take all 16 black cards?" not in asked
    assert "Did Ana take all 16 black cards?" in phones[1].get(links[1]).get_data(as_text=True)
    assert "Did Ana take all 16 black cards?" in client.get(f"/black-spy/{game}").get_data(as_text=True)
    send(phones[0], links[0], points=70, shot="no")
    assert deals(client, game) == [by_points(70, -5, -5, 0)]


def test_a_deal_counted_by_cards_on_each_phone_is_checked_against_the_deck(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    counts = [
        {"black_spies-0": 4, "low_blacks-0": 1, "high-8": 0, "high-9": 0},
        {"black_spies-1": 2, "low_blacks-1": 4, "high-10": 1},
        {"black_spies-2": 0, "low_blacks-2": 1, "coloured_spies-2": 3, "high-11": 2},
        {"black_spies-3": 0, "low_blacks-3": 0, "coloured_spies-3": 1},
    ]
    for seat, fields in enumerate(counts):
        assert send(phones[seat], links[seat], mode="cards", **fields).status_code == 303
    (deal,) = deals(client, game)
    assert [deal["cards"][name]["black_spies"] for name in NAMES] == [4, 2, 0, 0]
    assert [sorted(deal["cards"][name]["high_blacks"]) for name in NAMES] == [[8, 9], [10], [11], []]


def test_two_players_claiming_the_same_high_black_must_recount(client: FlaskClient, phones: list[FlaskClient]) -> None:
    """And so must a deck that does not add up: each phone counts its own pile, the whole is checked."""
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    counts = [
        {"black_spies-0": 4, "low_blacks-0": 1, "high-8": 0, "high-9": 0},
        {"black_spies-1": 2, "low_blacks-1": 4, "high-10": 1, "high-8": 1},
        {"black_spies-2": 0, "low_blacks-2": 1, "coloured_spies-2": 3, "high-11": 2},
        {"black_spies-3": 0, "low_blacks-3": 0, "coloured_spies-3": 1},
    ]
    for seat, fields in enumerate(counts):
        send(phones[seat], links[seat], mode="cards", **fields)
    assert deals(client, game) == []
    assert "Ana and Ben each say they took the black 8." in client.get(f"/black-spy/{game}").get_data(as_text=True)
    send(phones[1], links[1], mode="cards", **{"black_spies-1": 3, "low_blacks-1": 4, "high-10": 1})
    assert "The deck has 6 Black Spies; these counts add up to 7." in client.get(f"/black-spy/{game}").get_data(as_text=True)
    assert deals(client, game) == []


def test_the_scorers_whole_deal_wins_and_clears_the_shares(client: FlaskClient, phones: list[FlaskClient]) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    send(phones[0], links[0], points=30)
    assert post_points(client, game, [20, 15, 25, 0]).status_code == 303
    send(phones[1], links[1], points=10)
    assert "1 of 4 in for deal 2" in client.get(f"/black-spy/{game}").get_data(as_text=True)
    assert deals(client, game) == [by_points(20, 15, 25, 0)]


def test_a_share_sent_after_its_deal_was_recorded_is_refused_and_one_sent_twice_counts_once(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    late = seat_form(phones[0].get(links[0]).get_data(as_text=True))
    post_points(client, game, [20, 15, 25, 0])
    refused = phones[0].post(links[0], data={**late, "points": "20"})
    assert refused.status_code == 409
    assert "Your share came after deal 1 was recorded, so it was not taken." in refused.get_data(as_text=True)
    # a late share mistyped too is told first that its deal is recorded: no typing fixes that
    mistyped = phones[0].post(links[0], data={**late, "points": "2o"})
    assert mistyped.status_code == 409
    assert "Your share came after deal 1 was recorded, so it was not taken." in mistyped.get_data(as_text=True)
    assert "is not a whole number" not in mistyped.get_data(as_text=True)
    form = {**seat_form(phones[1].get(links[1]).get_data(as_text=True)), "points": "15"}
    assert phones[1].post(links[1], data=form).status_code == 303
    again = phones[1].post(links[1], data=form, headers={"HX-Request": "true"})
    assert "This share was already sent; it counts once." in again.get_data(as_text=True)
    assert "1 of 4 in for deal 2" in client.get(f"/black-spy/{game}").get_data(as_text=True)


def test_a_share_the_rules_cannot_read_is_refused_in_words_and_changes_nothing(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    version = client.get(f"/black-spy/{game}").headers["ETag"]
    for typed, said in (
        # said to the player whose phone it is, not of them
        ("", "Enter your points (0 if none)."),
        ("1x", "is not a whole number"),
        ("99", "99 is not possible"),
    ):
        refused = send(phones[0], links[0], points=typed)
        assert refused.status_code == 422
        assert said in refused.get_data(as_text=True)
    assert client.get(f"/black-spy/{game}").headers["ETag"] == version


def test_renewed_links_leave_the_old_ones_opening_nothing(client: FlaskClient, phones: list[FlaskClient]) -> None:
    game = start_game(client, NAMES)
    old = seat_links(client, f"/black-spy/{game}")
    renewed = client.post(f"/black-spy/{game}/phones", follow_redirects=True)
    # the scorer lands on the new links, to hand them out, and is told the old ones are dead
    assert renewed.request.path == f"/black-spy/{game}/phones"
    assert "New links made: the old ones open nothing now." in renewed.get_data(as_text=True)
    new = seat_links(client, f"/black-spy/{game}")
    assert set(old).isdisjoint(new)
    assert all(link in renewed.get_data(as_text=True) for link in new)
    assert phones[0].get(old[0]).status_code == 404
    assert phones[0].post(old[0], data={"points": "20", "number": "1"}).status_code == 404
    assert phones[0].get(new[0]).status_code == 200


def test_a_finished_games_seat_pages_only_read_until_an_undo_reopens_it(client: FlaskClient, phones: list[FlaskClient]) -> None:
    game = start_game(client, NAMES, end_value="30")
    links = seat_links(client, f"/black-spy/{game}")
    post_points(client, game, [40, 5, 15, 0])
    page = phones[0].get(links[0]).get_data(as_text=True)
    assert "Game over" in page and "data-seat-entry" not in page
    # each player's own phone says who won, the winner's in their own words
    assert "<strong>Dee</strong> wins with 0 points." in page and "You win!" not in page
    assert "You win!" in phones[3].get(links[3]).get_data(as_text=True)
    assert "Every deal of the game" in page and "Every deal so far" not in page
    refused = phones[0].post(links[0], data={"points": "20", "number": "2"})
    assert refused.status_code == 409
    client.post(f"/black-spy/{game}/undo", data={"number": "1"})
    assert "data-seat-entry" in phones[0].get(links[0]).get_data(as_text=True)


def test_after_a_rematch_each_players_page_leads_to_their_page_in_the_new_game(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES, end_value="30")
    links = seat_links(client, f"/black-spy/{game}")
    post_points(client, game, [40, 5, 15, 0])
    assert "Open my page in the rematch" not in phones[1].get(links[1]).get_data(as_text=True)
    again = client.post(f"/black-spy/{game}/rematch", data={"first_dealer": "2"})
    assert again.status_code == 303
    rematch = again.location.rsplit("/", 1)[1]
    page = phones[1].get(links[1]).get_data(as_text=True)
    found = re.search(r'<a class="button primary big" href="(/seat/[^"]+)">Open my page in the rematch</a>', page)
    assert found and found.group(1) not in links
    # Ben's own seat in the new game, its share form open; the scorer's phones page gives the same link
    new_page = phones[1].get(found.group(1)).get_data(as_text=True)
    assert '<h1 class="title">Ben ' in new_page and "data-seat-entry" in new_page and "Deal 1: " in new_page
    assert seat_links(client, f"/black-spy/{rematch}")[1] == found.group(1)
    for seat, points in enumerate((20, 15, 25, 0)):
        send(phones[seat], seat_links(client, f"/black-spy/{rematch}")[seat], points=points)
    assert deals(client, rematch) == [by_points(20, 15, 25, 0)]


def test_a_game_reopened_after_its_rematch_began_still_leads_each_player_to_the_rematch(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES, end_value="30")
    links = seat_links(client, f"/black-spy/{game}")
    post_points(client, game, [40, 5, 15, 0])
    assert client.post(f"/black-spy/{game}/rematch", data={"first_dealer": "2"}).status_code == 303
    # the last deal undone: this game is open again, and its page says its rematch has begun
    client.post(f"/black-spy/{game}/undo", data={"number": "1"})
    page = phones[1].get(links[1]).get_data(as_text=True)
    assert "data-seat-entry" in page
    assert "This game&#39;s rematch has started." in page or "This game's rematch has started." in page
    found = re.search(r'href="(/seat/[^"]+)">Open my page in the rematch</a>', page)
    assert found and found.group(1) not in links


def test_a_score_pads_rematch_is_offered_on_each_players_page_too(client: FlaskClient, app: Flask) -> None:
    pad = start_pad(client, "Golf", ("Vic", "Wes", "Xia"))
    links = seat_links(client, f"/scorepad/{pad}")
    client.post(f"/scorepad/{pad}/end", data={})
    again = client.post(f"/scorepad/{pad}/rematch", data={})
    assert again.status_code == 303, again.get_data(as_text=True)
    page = app.test_client().get(links[2]).get_data(as_text=True)
    found = re.search(r'href="(/seat/[^"]+)">Open my page in the rematch</a>', page)
    assert found
    assert '<h1 class="title">Xia ' in app.test_client().get(found.group(1)).get_data(as_text=True)


def test_a_seat_phone_may_not_undo_rename_nor_reach_another_seat_or_game(app: Flask) -> None:
    scorer = app.test_client()
    game = start_game(scorer, NAMES)
    other = start_game(scorer, ("Eve", "Fay", "Gus"))
    post_points(scorer, game, [20, 15, 25, 0])
    links = seat_links(scorer, f"/black-spy/{game}")
    phone = app.test_client()
    page = phone.get(links[0]).get_data(as_text=True)
    # the seat page never names the game's own address
    assert game not in page
    for write in (f"/black-spy/{game}/undo", f"/black-spy/{game}/deals/1/edit", f"/black-spy/{other}/deals"):
        refused = phone.post(write, data={"number": "1", "points-0": "60"})
        assert refused.status_code == 403, write
    # a page, saying how to keep score on this phone after all
    assert refused.mimetype == "text/html"
    assert "To keep score on it, open the list of games first." in refused.get_data(as_text=True)
    # another seat's fields are not read: the share is its own seat's
    send(phone, links[0], points=10, **{"points-1": "60"})
    assert "1 of 4 in for deal 2" in scorer.get(f"/black-spy/{game}").get_data(as_text=True)
    assert "Ana" in scorer.get(f"/black-spy/{game}").get_data(as_text=True)
    assert deals(scorer, game) == [by_points(20, 15, 25, 0)]
    assert phone.get("/seat/not-a-link").status_code == 404
    # the way it names: the list of games, and then the phone keeps score
    assert phone.get("/").status_code == 200
    assert post_points(phone, other, [20, 20, 20]).status_code == 303


def test_wrong_seat_links_are_paused_like_wrong_passcodes(app: Flask, client: FlaskClient) -> None:
    game = start_game(client, NAMES)
    link = seat_links(client, f"/black-spy/{game}")[0]
    phone = app.test_client()
    statuses = [phone.get(f"/seat/guess-{n}").status_code for n in range(6)]
    assert statuses == [404] * 5 + [429]
    # for every phone at that address, as the passcode's pause is, for a minute
    assert phone.get(link).status_code == 429


def test_with_a_passcode_a_seat_link_works_without_it_and_nothing_else_does(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(database_url, PASSCODE="open sesame")
    scorer = app.test_client()
    scorer.post("/passcode", data={"passcode": "open sesame"})
    game = start_game(scorer, NAMES)
    links = seat_links(scorer, f"/black-spy/{game}")
    phone = app.test_client()
    assert send(phone, links[2], points=25).status_code == 303
    # asked for the passcode, which lets go of the seat once typed
    assert phone.post(f"/black-spy/{game}/undo", data={"number": "1"}).status_code == 403
    assert "1 of 4 in for deal 1" in scorer.get(f"/black-spy/{game}").get_data(as_text=True)


def test_a_score_pads_round_is_recorded_when_every_player_sent_their_points(client: FlaskClient, app: Flask) -> None:
    pad = start_pad(client, "Golf", ("Vic", "Wes", "Xia"))
    links = seat_links(client, f"/scorepad/{pad}")
    phones = [app.test_client() for _ in links]
    for seat, points in enumerate((4, -2)):
        assert send(phones[seat], links[seat], points=points).status_code == 303
    assert exported(client, f"/scorepad/{pad}/export.json")["games"][0]["rounds"] == []
    assert "2 of 3 in for round 1" in client.get(f"/scorepad/{pad}").get_data(as_text=True)
    refused = send(phones[2], links[2], points="lots")
    assert refused.status_code == 422
    # a box left empty is asked of the player whose phone it is, in their own words
    refused = send(phones[2], links[2], points="")
    assert refused.status_code == 422 and "Enter your points (0 if none)." in refused.get_data(as_text=True)
    send(phones[2], links[2], points=7)
    rounds = exported(client, f"/scorepad/{pad}/export.json")["games"][0]["rounds"]
    assert rounds == [{"Vic": 4, "Wes": -2, "Xia": 7}]
    client.post(f"/scorepad/{pad}/end", data={})
    assert "You win!" in phones[2].get(links[2]).get_data(as_text=True)
    assert "You win!" not in phones[1].get(links[1]).get_data(as_text=True)


def test_spy_has_no_players_phones(client: FlaskClient) -> None:
    from tests.helpers import start_spy

    game = start_spy(client)
    assert client.get(f"/spy/{game}/phones").status_code == 404


def test_a_seat_page_that_has_not_changed_is_answered_304_and_a_share_sent_changes_it(
    client: FlaskClient, phones: list[FlaskClient]
) -> None:
    game = start_game(client, NAMES)
    links = seat_links(client, f"/black-spy/{game}")
    poll = {"HX-Request": "true"}
    first = phones[0].get(links[0], headers=poll)
    assert first.status_code == 200 and first.headers["ETag"]
    assert phones[0].get(links[0], headers={**poll, "If-None-Match": first.headers["ETag"]}).status_code == 304
    send(phones[1], links[1], points=15)
    changed = phones[0].get(links[0], headers={**poll, "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    assert "1 of 4 in for deal 1" in changed.get_data(as_text=True)


def test_the_table_display_shows_the_standings_and_who_has_sent_without_a_control(
    client: FlaskClient, phones: list[FlaskClient], app: Flask
) -> None:
    from tests.helpers import watch_url

    game = start_game(client, NAMES)
    post_points(client, game, [20, 15, 25, 0])
    links = seat_links(client, f"/black-spy/{game}")
    send(phones[2], links[2], points=30)
    display = app.test_client().get(f"{watch_url(app, game)}/table")
    page = display.get_data(as_text=True)
    assert display.status_code == 200
    standings = re.findall(r'<span class="name">(\w+)</span> <span class="total">(\d+)</span>', page)
    assert standings == [("Dee", "0"), ("Ben", "15"), ("Ana", "20"), ("Cy", "25")]
    assert 'Deal 2: <span class="who">Ben</span> deals' in page
    assert "1 of 4 in for deal 2" in page
    assert "<form" not in page.split('id="live"', 1)[1].split("</main>", 1)[0]


def test_a_server_no_other_phone_can_reach_offers_no_code_and_does_not_ask_for_one(client: FlaskClient, app: Flask) -> None:
    # `companion serve --host 127.0.0.1`, opened on this device: no phone at the table reaches it
    app.config["LISTENS_ON"] = "127.0.0.1"
    game = start_game(client, NAMES)
    page = client.get(f"/black-spy/{game}/phones").get_data(as_text=True)
    assert "<svg" not in page and "scans their own code" not in page
    assert "Each player opens their own link and enters their own points on their own phone." in page
