"""A game started by mistake is deleted from its page: gone from every list, statistic,
export and link at once, restorable for 30 days, and brought back by an import too."""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import exported, post_points, post_round, snapshot, start_game, start_pad, start_spy, watch_url


def a_game(client: FlaskClient, kind: str) -> str:
    """A game of ``kind`` with an input in it; its page's address."""
    if kind == "black-spy":
        game = start_game(client, end_value="30")
        post_points(client, game, [40, 5, 15, 0])  # over: it counts in the statistics
        return f"/black-spy/{game}"
    if kind == "scorepad":
        pad = start_pad(client, "Golf", ("Ana", "Ben"))
        post_round(client, pad, (3, 4))
        return f"/scorepad/{pad}"
    return f"/spy/{start_spy(client)}"


@pytest.mark.parametrize("kind", ["black-spy", "scorepad", "spy"])
def test_a_deleted_game_leaves_every_list_and_link_and_a_restore_brings_it_back_whole(
    client: FlaskClient, app: Flask, kind: str
) -> None:
    page = a_game(client, kind)
    game_id = page.rsplit("/", 1)[1]
    follow = watch_url(app, game_id)
    before = exported(client, f"{page}/export.json")["games"][0]
    assert f'href="/games/{game_id}/delete"' in client.get(page).get_data(as_text=True)
    # asked first, naming the game
    asked = client.get(f"/games/{game_id}/delete").get_data(as_text=True)
    assert "Delete this game?" in asked and "Ana" in asked
    deleted = client.post(f"/games/{game_id}/delete")
    assert deleted.status_code == 303
    home = client.get("/").get_data(as_text=True)
    assert "is deleted. It can be restored from Recently deleted for 30 days." in home
    # the news leads to that list
    assert re.search(r'for 30 days\. <a href="/deleted">Recently deleted</a>', home)
    assert game_id not in home and game_id not in client.get("/history").get_data(as_text=True)
    assert game_id not in json.dumps(exported(client))
    assert client.get(follow).status_code == 404
    # its page says it was deleted, and a deal sent to it (a phone that kept it offline) is refused so
    assert client.get(page).status_code == 410
    listed = client.get("/deleted").get_data(as_text=True)
    assert "Restore" in listed and "Ana" in listed
    restored = client.post(f"/deleted/{game_id}/restore")
    assert restored.status_code == 303 and restored.location == page
    assert exported(client, f"{page}/export.json")["games"][0] == before
    assert client.get(follow).status_code == 200
    assert game_id not in client.get("/deleted").get_data(as_text=True)


def test_a_deleted_finished_game_leaves_its_players_statistics_and_a_restore_puts_it_back(client: FlaskClient) -> None:
    def games_of_ana() -> list[str]:
        table = client.get("/players").get_data(as_text=True)
        row = re.search(r">Ana</a></th>\s*((?:<td>[^<]*</td>)+)", table)
        return re.findall(r"<td>([^<]*)</td>", row.group(1)) if row else []

    page = a_game(client, "black-spy")
    assert games_of_ana()[:1] == ["1"]
    game_id = page.rsplit("/", 1)[1]
    client.post(f"/games/{game_id}/delete")
    assert games_of_ana()[:1] == ["0"]
    client.post(f"/deleted/{game_id}/restore")
    assert games_of_ana()[:1] == ["1"]


def test_a_deal_for_a_deleted_game_is_refused_in_words_and_changes_nothing(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    client.post(f"/games/{game_id}/delete")
    before = snapshot(app)
    refused = post_points(client, game_id, [20, 15, 25, 0], number="1")
    assert refused.status_code == 410
    assert "This game was deleted, so nothing was saved." in refused.get_data(as_text=True)
    assert snapshot(app) == before


def test_an_import_of_a_deleted_game_restores_it_and_an_export_leaves_it_out(client: FlaskClient) -> None:
    page = a_game(client, "scorepad")
    game_id = page.rsplit("/", 1)[1]
    file = json.dumps(exported(client, f"{page}/export.json")).encode()
    client.post(f"/games/{game_id}/delete")
    assert exported(client)["games"] == []
    answer = client.post("/import", data={"file": (io.BytesIO(file), "games.json")}, content_type="multipart/form-data")
    assert answer.status_code in (200, 303)
    assert client.get(page).status_code == 200
    assert game_id not in client.get("/deleted").get_data(as_text=True)


def test_deleted_games_are_kept_thirty_days_or_until_the_list_is_emptied(client: FlaskClient, app: Flask) -> None:
    from companion.store.base import db
    from companion.store.deleted import DeletedGame

    old, recent = (start_game(client) for _ in range(2))
    for game_id in (old, recent):
        client.post(f"/games/{game_id}/delete")
    with app.app_context():
        kept = db.session.get(DeletedGame, old)
        kept.deleted_at -= timedelta(days=31)
        db.session.commit()
    listed = client.get("/deleted").get_data(as_text=True)
    assert f"/deleted/{recent}/restore" in listed and f"/deleted/{old}/restore" not in listed
    assert client.post(f"/deleted/{old}/restore").status_code == 404
    assert client.post("/deleted/empty").status_code == 303
    assert f"/deleted/{recent}/restore" not in client.get("/deleted").get_data(as_text=True)
    assert client.get(f"/black-spy/{recent}").status_code == 404


def test_a_restored_game_is_shown_as_it_is_not_as_a_page_kept_from_before_it_was_deleted(client: FlaskClient) -> None:
    game = start_game(client, names=("Ana", "Ben", "Cy"))
    page = f"/black-spy/{game}"
    for points in ([20, 25, 15], [30, 10, 20]):
        post_points(client, game, points)
        client.get(page)  # the news of the deal, shown once
        client.get(page)  # the page without it: kept by the server, as it is sent, for its version
    assert "Deal 3: " in client.get(page).get_data(as_text=True)
    client.post(f"/games/{game}/delete")
    client.post(f"/deleted/{game}/restore")
    # the restored game starts its versions again: none of them may answer with a page of before
    for _ in range(2):
        shown = client.get(page).get_data(as_text=True)
        assert "Deal 3: " in shown and "Deal 2: " not in shown, "a page kept from before the delete was shown"
        assert len(re.findall(r'<tr id="deal-\d+"', shown)) == 2


def test_a_restored_game_s_seat_links_open_it_again(client: FlaskClient) -> None:
    """The players' phones kept their seat links: after a delete and a restore the same links
    open their seats, with no new QR code to hand round."""
    game_id = start_game(client)
    page = client.get(f"/black-spy/{game_id}/phones").get_data(as_text=True)
    links = [path for _seat, path in re.findall(r'<a data-seat="(\d+)" href="https?://[^/"]+(/seat/[^"]+)"', page)]
    assert len(links) == 4 and all(client.get(link).status_code == 200 for link in links)
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    assert all(client.get(link).status_code == 410 for link in links)
    assert client.post(f"/deleted/{game_id}/restore").status_code == 303
    assert all(client.get(link).status_code == 200 for link in links)
    again = client.get(f"/black-spy/{game_id}/phones").get_data(as_text=True)
    assert [path for _seat, path in re.findall(r'<a data-seat="(\d+)" href="https?://[^/"]+(/seat/[^"]+)"', again)] == links


def test_a_seat_phone_asking_after_its_game_was_deleted_is_told_so_and_opens_it_again_on_a_restore(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's phone asks every few seconds. Its game deleted, the link is a known one, kept
    for a restore: each ask is told the game was deleted (410), none counts as a guessed link,
    and the restore opens the seat at once, not after a minute of "Too many tries"."""
    from tests.helpers import make_app

    # the count of wrong tries is kept in the instance folder: this test starts at none
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    client = make_app(database_url, RATELIMIT_ENABLED=True).test_client()
    game_id = start_game(client)
    page = client.get(f"/black-spy/{game_id}/phones").get_data(as_text=True)
    link = re.search(r'<a data-seat="0" href="https?://[^/"]+(/seat/[^"]+)"', page).group(1)
    assert client.post(f"/games/{game_id}/delete").status_code == 303
    asked = [client.get(link, headers={"HX-Request": "true"}) for _ in range(12)]
    assert {answer.status_code for answer in asked} == {410}
    assert "This game was deleted" in asked[-1].get_data(as_text=True)
    # about now: never answered from the phone's copy once the game is back
    assert asked[-1].headers["Cache-Control"] == "no-store"
    assert client.post(f"/deleted/{game_id}/restore").status_code == 303
    assert client.get(link).status_code == 200
    # a link no game ever held is still a guess, and guesses are still counted
    guesses = [client.get("/seat/not-a-link-anyone-made").status_code for _ in range(8)]
    assert guesses[0] == 404 and guesses[-1] == 429
