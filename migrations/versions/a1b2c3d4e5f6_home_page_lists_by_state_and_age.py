"""the home page lists games by state and age: one index serves both of its lists

Revision ID: a1b2c3d4e5f6
Revises: f8a0ec2ecbe0
Create Date: 2026-12-02 00:45:00

"""
from alembic import op


revision = 'a1b2c3d4e5f6'
down_revision = 'f8a0ec2ecbe0'
branch_labels = None
depends_on = None


def upgrade():
    # the latest games in progress and the latest finished, read from the index's end:
    # the same few rows whether the history holds ten games or ten thousand
    op.create_index('ix_games_finished_created_at', 'games', ['finished', 'created_at'])


def downgrade():
    op.drop_index('ix_games_finished_created_at', table_name='games')
