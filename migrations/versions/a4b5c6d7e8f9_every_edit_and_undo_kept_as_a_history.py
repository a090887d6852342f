"""every edit and undo kept as a small history of the game

Revision ID: a4b5c6d7e8f9
Revises: f3a4b5c6d7e8
Create Date: 2026-12-04 12:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a4b5c6d7e8f9'
down_revision = 'f3a4b5c6d7e8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'input_changes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('what', sa.String(length=8), nullable=False),
        sa.Column('before', sa.JSON(), nullable=False),
        sa.Column('after', sa.JSON(), nullable=True),
        sa.Column('changed_at', sa.DateTime(), nullable=False),
        sa.Column('phone', sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('input_changes', schema=None) as batch_op:
        batch_op.create_index('ix_input_changes_game_id', ['game_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('input_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_input_changes_game_id')
    op.drop_table('input_changes')
