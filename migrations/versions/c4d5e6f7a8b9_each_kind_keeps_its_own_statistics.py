"""each kind keeps its own statistics: Black Spy's and Spy's figures per player per day
move from the shared player_days (and rival_days) to tables of their own, every figure kept

Revision ID: c4d5e6f7a8b9
Revises: b7c8d9e0f1a2
Create Date: 2026-12-04 07:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c4d5e6f7a8b9'
down_revision = 'b7c8d9e0f1a2'
branch_labels = None
depends_on = None


def _player(name):
    return sa.Column(name, sa.Integer(), sa.ForeignKey('players.id', ondelete='CASCADE'), primary_key=True)


def upgrade():
    op.create_table(
        'black_spy_player_days',
        _player('player_id'),
        sa.Column('day', sa.Date(), primary_key=True),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('shared_wins', sa.Integer(), nullable=False),
        sa.Column('total_sum', sa.Integer(), nullable=False),
        sa.Column('best_total', sa.Integer(), nullable=True),
        sa.Column('deals', sa.Integer(), nullable=False),
        sa.Column('score_sum', sa.Integer(), nullable=False),
        sa.Column('shoots', sa.Integer(), nullable=False),
        sa.Column('heavy', sa.Integer(), nullable=False),
    )
    op.create_table(
        'black_spy_rival_days',
        _player('player_id'),
        _player('opponent_id'),
        sa.Column('day', sa.Date(), primary_key=True),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('lower', sa.Integer(), nullable=False),
        sa.Column('higher', sa.Integer(), nullable=False),
        sa.Column('level', sa.Integer(), nullable=False),
    )
    op.create_table(
        'spy_player_days',
        _player('player_id'),
        sa.Column('day', sa.Date(), primary_key=True),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
    )
    op.execute(
        "INSERT INTO black_spy_player_days (player_id, day, games, wins, shared_wins, total_sum, best_total, deals, "
        "score_sum, shoots, heavy) SELECT player_id, day, games, wins, shared_wins, total_sum, best_total, deals, "
        "score_sum, shoots, heavy FROM player_days WHERE games > 0"
    )
    op.execute(
        "INSERT INTO spy_player_days (player_id, day, games, wins) "
        "SELECT player_id, day, spy_games, spy_wins FROM player_days WHERE spy_games > 0"
    )
    op.execute(
        "INSERT INTO black_spy_rival_days (player_id, opponent_id, day, games, lower, higher, level) "
        "SELECT player_id, opponent_id, day, games, lower, higher, level FROM rival_days"
    )
    op.drop_table('rival_days')
    op.drop_table('player_days')


def downgrade():
    op.create_table(
        'player_days',
        _player('player_id'),
        sa.Column('day', sa.Date(), primary_key=True),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('shared_wins', sa.Integer(), nullable=False),
        sa.Column('total_sum', sa.Integer(), nullable=False),
        sa.Column('best_total', sa.Integer(), nullable=True),
        sa.Column('deals', sa.Integer(), nullable=False),
        sa.Column('score_sum', sa.Integer(), nullable=False),
        sa.Column('shoots', sa.Integer(), nullable=False),
        sa.Column('heavy', sa.Integer(), nullable=False),
        sa.Column('spy_games', sa.Integer(), nullable=False),
        sa.Column('spy_wins', sa.Integer(), nullable=False),
    )
    op.create_table(
        'rival_days',
        _player('player_id'),
        _player('opponent_id'),
        sa.Column('day', sa.Date(), primary_key=True),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('lower', sa.Integer(), nullable=False),
        sa.Column('higher', sa.Integer(), nullable=False),
        sa.Column('level', sa.Integer(), nullable=False),
    )
    # one row per player and day, Black Spy's figures beside Spy's, as the shared table had them
    op.execute(
        "INSERT INTO player_days (player_id, day, games, wins, shared_wins, total_sum, best_total, deals, score_sum, "
        "shoots, heavy, spy_games, spy_wins) "
        "SELECT player_id, day, SUM(games), SUM(wins), SUM(shared_wins), SUM(total_sum), MIN(best_total), SUM(deals), "
        "SUM(score_sum), SUM(shoots), SUM(heavy), SUM(spy_games), SUM(spy_wins) FROM ("
        "SELECT player_id, day, games, wins, shared_wins, total_sum, best_total, deals, score_sum, shoots, heavy, "
        "0 AS spy_games, 0 AS spy_wins FROM black_spy_player_days UNION ALL "
        "SELECT player_id, day, 0, 0, 0, 0, NULL, 0, 0, 0, 0, games, wins FROM spy_player_days"
        ") AS figures GROUP BY player_id, day"
    )
    op.execute(
        "INSERT INTO rival_days (player_id, opponent_id, day, games, lower, higher, level) "
        "SELECT player_id, opponent_id, day, games, lower, higher, level FROM black_spy_rival_days"
    )
    op.drop_table('spy_player_days')
    op.drop_table('black_spy_rival_days')
    op.drop_table('black_spy_player_days')
