"""scorepad: the plain score pad for the other games of the night

Revision ID: b7c8d9e0f1a2
Revises: a1b2c3d4e5f6
Create Date: 2026-12-02 01:15:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b7c8d9e0f1a2'
down_revision = 'a1b2c3d4e5f6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'scorepads',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('lowest_wins', sa.Boolean(), nullable=False),
        sa.Column('target', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id'),
    )
    op.create_index('ix_scorepads_name', 'scorepads', ['name'])
    op.create_table(
        'scorepad_entries',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('points', sa.JSON(), nullable=True),
        sa.Column('submission_id', sa.String(length=64), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['scorepads.game_id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'number'),
        sa.UniqueConstraint('submission_id'),
    )
    op.create_index('ix_scorepad_entries_game_id', 'scorepad_entries', ['game_id'])


def downgrade():
    op.drop_index('ix_scorepad_entries_game_id', table_name='scorepad_entries')
    op.drop_table('scorepad_entries')
    op.drop_index('ix_scorepads_name', table_name='scorepads')
    op.drop_table('scorepads')
