"""a deleted game keeps its players' seat links, which a restore gives back

Revision ID: b5c6d7e8f9a0
Revises: a4b5c6d7e8f9
Create Date: 2026-12-05 08:15:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b5c6d7e8f9a0'
down_revision = 'a4b5c6d7e8f9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seat_links', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('deleted_games', schema=None) as batch_op:
        batch_op.drop_column('seat_links')
