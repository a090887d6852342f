"""deleted games, kept thirty days to restore

Revision ID: f3a4b5c6d7e8
Revises: e2f3a4b5c6d7
Create Date: 2026-12-04 12:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f3a4b5c6d7e8'
down_revision = 'e2f3a4b5c6d7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'deleted_games',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('title', sa.String(length=200), nullable=False),
        sa.Column('players', sa.String(length=1000), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('deleted_at', sa.DateTime(), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.Column('watch_id', sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deleted_games_deleted_at'), ['deleted_at'], unique=False)


def downgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deleted_games_deleted_at'))
    op.drop_table('deleted_games')
