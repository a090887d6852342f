"""seat links and pending shares: every player enters their own share of a deal on their phone

Revision ID: d1e2f3a4b5c6
Revises: c4d5e6f7a8b9
Create Date: 2026-12-04 11:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd1e2f3a4b5c6'
down_revision = 'c4d5e6f7a8b9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('link', sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint('uq_seats_link', ['link'])
    op.create_table(
        'seat_shares',
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('share', sa.JSON(), nullable=False),
        sa.Column('submission_id', sa.String(length=64), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'seat'),
    )


def downgrade():
    op.drop_table('seat_shares')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_constraint('uq_seats_link', type_='unique')
        batch_op.drop_column('link')
