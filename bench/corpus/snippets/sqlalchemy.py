"""Ordinary code that makes SQLAlchemy raise (in-memory SQLite only)."""

LIBRARY = "sqlalchemy"

SNIPPETS = [
    """
    from sqlalchemy import create_engine
    create_engine("nosuchdb://scott:tiger@localhost/test")
    """,
    """
    from sqlalchemy import create_engine
    create_engine("localhost:5432/inventory")
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table, select
    users = Table("users", MetaData(), Column("id", Integer))
    select(users).where("id = 5")
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table
    metadata = MetaData()
    Table("users", metadata, Column("id", Integer))
    Table("users", metadata, Column("name", Integer))
    """,
    """
    from sqlalchemy import Column, Integer, String
    from sqlalchemy.orm import declarative_base

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        name = Column(String(50))
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table
    users = Table("users", MetaData(), Column("id", Integer))
    users.c.email
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table
    users = Table("users", MetaData(), Column("id", Integer))
    users.c["email"]
    """,
    """
    from sqlalchemy import inspect
    inspect(42)
    """,
    """
    from sqlalchemy import Column, ForeignKey, Integer
    from sqlalchemy.orm import configure_mappers, declarative_base, relationship

    Base = declarative_base()

    class Order(Base):
        __tablename__ = "orders"
        id = Column(Integer, primary_key=True)
        customer = relationship("Customer")

    configure_mappers()
    """,
    """
    from sqlalchemy import text
    text("SELECT * FROM users WHERE id = :user_id").bindparams(uid=5)
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table, insert
    users = Table("users", MetaData(), Column("id", Integer))
    str(insert(users).values(id=1, nickname="x"))
    """,
    """
    from sqlalchemy import create_engine, text
    engine = create_engine("sqlite://")
    with engine.connect() as connection:
        connection.execute(text("SELECT * FROM missing_table"))
    """,
    """
    from sqlalchemy import create_engine
    engine = create_engine("sqlite://")
    with engine.connect() as connection:
        connection.execute("SELECT 1")
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table
    users = Table("users", MetaData(), Column("id", Integer))
    users.c.id.in_(5)
    """,
    """
    from sqlalchemy import Column, Integer, String, create_engine, select
    from sqlalchemy.orm import Session, declarative_base

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        id = Column(Integer, primary_key=True)
        name = Column(String)

    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.execute(select(User).where(User.name == "nobody")).scalar_one()
    """,
    """
    from sqlalchemy import Column, Integer, String, create_engine, select
    from sqlalchemy.orm import Session, declarative_base

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        id = Column(Integer, primary_key=True)
        name = Column(String)

    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all([User(name="ada"), User(name="ada")])
        session.flush()
        session.execute(select(User).where(User.name == "ada")).scalar_one()
    """,
    """
    from sqlalchemy import Column, ForeignKey, Integer, MetaData, Table, create_engine
    metadata = MetaData()
    Table("orders", metadata, Column("id", Integer, primary_key=True),
          Column("customer_id", ForeignKey("customers.id")))
    metadata.create_all(create_engine("sqlite://"))
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table
    metadata = MetaData()
    ident = Column("id", Integer, primary_key=True)
    Table("a", metadata, ident)
    Table("b", metadata, ident)
    """,
    """
    from sqlalchemy import Column, Integer, String, create_engine
    from sqlalchemy.orm import Session, declarative_base

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        id = Column(Integer, primary_key=True)
        name = Column(String)

    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    Session(engine).get(User, (1, "ada"))
    """,
    """
    from sqlalchemy import Column, Integer, String, select
    from sqlalchemy.orm import declarative_base, selectinload

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        id = Column(Integer, primary_key=True)
        name = Column(String)

    select(User).options(selectinload("addresses"))
    """,
    """
    from sqlalchemy.engine import make_url
    make_url("postgresql://scott:tiger@db.internal:port/sales")
    """,
    """
    from sqlalchemy import Column, Integer, String
    from sqlalchemy.orm import declarative_base

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        id = Column(Integer, primary_key=True)

    User(nickname="ada")
    """,
    """
    from sqlalchemy import Column, Integer, String, create_engine
    from sqlalchemy.orm import Session, declarative_base

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        id = Column(Integer, primary_key=True)
        name = Column(String, nullable=False)

    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add(User())
        session.commit()
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table, select
    users = Table("users", MetaData(), Column("id", Integer))
    select(users).limit("ten")
    """,
    """
    from sqlalchemy import Column, Enum, MetaData, Table, create_engine, insert
    metadata = MetaData()
    docs = Table("docs", metadata, Column("status", Enum("draft", "published", name="status",
                                                          validate_strings=True)))
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(insert(docs), {"status": "archived"})
    """,
    """
    from sqlalchemy import Column, Integer
    from sqlalchemy.orm import Session, declarative_base

    Base = declarative_base()

    class Item(Base):
        __tablename__ = "items"
        id = Column(Integer, primary_key=True)

    Session().add(Item)
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table, create_engine, insert
    metadata = MetaData()
    users = Table("users", metadata, Column("id", Integer, primary_key=True))
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(insert(users), [{"id": 1}])
        connection.execute(insert(users), [{"id": 1}])
    """,
    """
    from sqlalchemy import Column, Integer, String, create_engine
    from sqlalchemy.orm import Session, declarative_base

    Base = declarative_base()

    class User(Base):
        __tablename__ = "users"
        id = Column(Integer, primary_key=True)
        name = Column(String)

    with Session(create_engine("sqlite://")) as session:
        session.query(User).filter_by(nickname="ada")
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table
    Table("events", MetaData(), Column("id", Integer), Column("kind", Integer), Column("id", Integer))
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table, select, union
    events = Table("events", MetaData(), Column("id", Integer), Column("kind", Integer))
    str(union(select(events.c.id), select(events.c.id, events.c.kind)))
    """,
    """
    from sqlalchemy import bindparam, create_engine, select
    engine = create_engine("sqlite://")
    with engine.connect() as connection:
        connection.execute(select(bindparam("limit_value")))
    """,
    """
    from sqlalchemy import Column, Integer, MetaData, Table, select
    events = Table("events", MetaData(), Column("id", Integer))
    select(events).order_by("created_at").compile()
    """,
    """
    from sqlalchemy import create_engine
    engine = create_engine("sqlite://")
    engine.connect().execution_options(isolation_level="SOMETIMES")
    """,
    """
    from sqlalchemy import create_engine
    create_engine("sqlite://", pool_recycle_seconds=60)
    """,
    """
    from sqlalchemy import ForeignKey
    ForeignKey("customers.id").column
    """,
]
