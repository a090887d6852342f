"""players matched by their casefolded name

A database's lower() folds only ASCII, so "Əli" typed again as "Əli" or "əli" was not
found and the second game failed on the unique name. The key is Python's casefold,
filled here for the players already kept.

Revision ID: f5e8b5e45d8b
Revises: 2994bab3371d
Create Date: 2026-12-01 05:34:07.986903

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f5e8b5e45d8b'
down_revision = '2994bab3371d'
branch_labels = None
depends_on = None


players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("key", sa.String))


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('key', sa.String(length=160), nullable=True))
    connection = op.get_bind()
    for player_id, name in connection.execute(sa.select(players.c.id, players.c.name)).all():
        connection.execute(players.update().where(players.c.id == player_id).values(key=name.casefold()))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('key', existing_type=sa.String(length=160), nullable=False)
        # not unique: names that differ only beyond ASCII case may already be two players
        batch_op.create_index(batch_op.f('ix_players_key'), ['key'], unique=False)


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_key'))
        batch_op.drop_column('key')
