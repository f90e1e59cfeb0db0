"""Ordinary code that makes peewee raise."""

LIBRARY = "peewee"

SNIPPETS = [
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        username = CharField(unique=True)
        class Meta:
            database = db

    db.create_tables([User])
    User.get(User.username == "alice")
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Product(Model):
        name = CharField()
        class Meta:
            database = db

    db.create_tables([Product])
    Product.get_by_id(42)
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        username = CharField(unique=True)
        class Meta:
            database = db

    db.create_tables([User])
    User.create(username="bob")
    User.create(username="bob")
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, IntegerField

    db = SqliteDatabase(":memory:")

    class Employee(Model):
        name = CharField()
        age = IntegerField()
        class Meta:
            database = db

    db.create_tables([Employee])
    Employee.create(name="Dana")
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Customer(Model):
        email = CharField()
        class Meta:
            database = db

    Customer.create(email="a@example.com")
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Book(Model):
        title = CharField()
        class Meta:
            database = db

    db.create_tables([Book])
    Book.raw("SELECT * FROM book WHERE id = ?", 7).get()
    """,
    """
    from peewee import Model, TextField

    class Note(Model):
        text = TextField()

    Note.create(text="remember the milk")
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(None)
    db.connect()
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    db.connect()
    db.connect()
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    with db.atomic():
        db.close()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        username = CharField()
        class Meta:
            database = db

    db.create_tables([User])
    User.insert(username="eve", is_admin=True).execute()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField, prefetch

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Pet(Model):
        owner = ForeignKeyField(User, backref="pets")
        class Meta:
            database = db

    db.create_tables([User, Pet])
    prefetch(User.select(), Pet.select(), batch_size=100)
    """,
    """
    from peewee import SqliteDatabase, Model, IntegerField

    db = SqliteDatabase(":memory:")

    class Pair(Model):
        left = IntegerField(primary_key=True)
        right = IntegerField(primary_key=True)
        class Meta:
            database = db
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Tweet(Model):
        user = ForeignKeyField(User, object_id_name="user")
        class Meta:
            database = db
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Tag(Model):
        label = CharField()
        class Meta:
            database = db

    db.create_tables([User, Tag])
    list(User.select().join(Tag))
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Message(Model):
        sender = ForeignKeyField(User, backref="sent")
        recipient = ForeignKeyField(User, backref="received")
        class Meta:
            database = db

    db.create_tables([User, Message])
    list(Message.select().join(User))
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, JOIN

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Color(Model):
        name = CharField()
        class Meta:
            database = db

    User.select().join(Color, JOIN.CROSS, on=(User.name == Color.name))
    """,
    """
    from peewee import SqliteDatabase, Model, IntegerField

    db = SqliteDatabase(":memory:")

    class Order(Model):
        total = IntegerField()
        class Meta:
            database = db

    Order.select().where(Order.total[10:])
    """,
    """
    from peewee import SqliteDatabase, Model, DateTimeField

    db = SqliteDatabase(":memory:")

    class Event(Model):
        starts = DateTimeField(null=True)
        class Meta:
            database = db

    Event.select().order_by(Event.starts.asc(nulls="middle"))
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Job(Model):
        state = CharField()
        class Meta:
            database = db

    Job.select().for_update(nowait=True, skip_locked=True)
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class KV(Model):
        key = CharField(unique=True)
        value = CharField()
        class Meta:
            database = db

    db.create_tables([KV])
    KV.insert(key="a", value="1").on_conflict(update={KV.value: "2"}).execute()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class KV(Model):
        key = CharField(unique=True)
        value = CharField()
        class Meta:
            database = db

    db.create_tables([KV])
    (KV.insert(key="a", value="1")
       .on_conflict(conflict_target=[KV.key], conflict_constraint="kv_key")
       .execute())
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    db.create_tables([User])
    User.create(name="x")
    rows = User.select().execute()
    rows["name"]
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField

    db = SqliteDatabase(":memory:")

    class Author(Model):
        name = CharField()
        class Meta:
            database = db

    class Post(Model):
        author = ForeignKeyField(Author, backref="posts")
        class Meta:
            database = db

    Author.select().with_related(Author.name)
    """,
    """
    from peewee import SqliteDatabase, Model, AutoField

    db = SqliteDatabase(":memory:")

    class Counter(Model):
        id = AutoField(primary_key=False)
        class Meta:
            database = db
    """,
    """
    from peewee import SqliteDatabase, Model, BigBitField

    db = SqliteDatabase(":memory:")

    class Bitmap(Model):
        data = BigBitField()
        class Meta:
            database = db

    b = Bitmap()
    b.data = 255
    """,
    """
    from peewee import SqliteDatabase, Model, BinaryUUIDField

    db = SqliteDatabase(":memory:")

    class Session(Model):
        token = BinaryUUIDField()
        class Meta:
            database = db

    db.create_tables([Session])
    Session.create(token=3.5)
    """,
    """
    from peewee import SqliteDatabase, Model, TimestampField

    db = SqliteDatabase(":memory:")

    class Ping(Model):
        at = TimestampField(resolution=7)
        class Meta:
            database = db
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Tweet(Model):
        user = ForeignKeyField(User, backref="tweets")
        class Meta:
            database = db

    Tweet.select().where(Tweet.user.email == "a@b.c")
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ManyToManyField

    db = SqliteDatabase(":memory:")

    class Course(Model):
        name = CharField()
        class Meta:
            database = db

    class Student(Model):
        name = CharField()
        courses = ManyToManyField(Course, backref="students")
        class Meta:
            database = db

    s = Student(name="Ann")
    list(s.courses)
    """,
    """
    from peewee import SqliteDatabase, Model, BitField

    db = SqliteDatabase(":memory:")

    class Account(Model):
        flags = BitField()
        is_admin = flags.flag(1)
        class Meta:
            database = db

    a = Account()
    a.is_admin = "yes"
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Tweet(Model):
        user = ForeignKeyField(User)
        class Meta:
            database = db

    t = Tweet()
    print(t.user)
    """,
    """
    from peewee import Model, CharField

    class Config(Model):
        key = CharField()

    Config.create_table()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Log(Model):
        line = CharField()
        class Meta:
            database = db
            table_settings = [42]

    db.create_tables([Log])
    """,
    """
    from peewee import SqliteDatabase, Model, AutoField

    db = SqliteDatabase(":memory:")

    class Ticket(Model):
        id = AutoField()
        class Meta:
            database = db

    db.create_tables([Ticket])
    t = Ticket.create()
    t.save()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, CompositeKey

    db = SqliteDatabase(":memory:")

    class Grade(Model):
        student = CharField()
        course = CharField()
        mark = CharField()
        class Meta:
            database = db
            primary_key = CompositeKey("student", "course")

    db.create_tables([Grade])
    g = Grade.create(student="a", course="b", mark="C")
    Grade.bulk_update([g], fields=["mark"])
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    U = User.alias()
    U.name = "other"
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, prefetch

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Pet(Model):
        name = CharField()
        class Meta:
            database = db

    db.create_tables([User, Pet])
    prefetch(User.select(), Pet.select())
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    class Tweet(Model):
        user = ForeignKeyField(User)
        class Meta:
            database = db

    db.create_tables([User, Tweet])
    t = Tweet.create(user=99)
    t.user
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:", autoconnect=False)
    db.execute_sql("SELECT 1")
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    db.create_tables([User])
    u = User.create(name="x")
    u.delete()
    """,
    """
    from peewee import DatabaseProxy, Model, CharField

    database_proxy = DatabaseProxy()

    class Item(Model):
        name = CharField()
        class Meta:
            database = database_proxy

    Item.create_table()
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    db.pragma("journal_mode", permanent=True)
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Row(Model):
        a = CharField()
        b = CharField()
        class Meta:
            database = db

    db.create_tables([Row])
    Row.insert_many([{"a": "1", "b": "2"}, {"a": "3"}]).execute()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    User.get(User.name == "x", nickname="x")
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    db.attach("pw_reports.db", "reports")
    db.attach("pw_reports2.db", "reports")
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, Window, fn

    db = SqliteDatabase(":memory:")

    class Sale(Model):
        region = CharField()
        class Meta:
            database = db

    w = Window(partition_by=[Sale.region], end=Window.CURRENT_ROW)
    Sale.select(fn.COUNT(Sale.id).over(w))
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    db.rollback()
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    db.close()
    db.commit()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class City(Model):
        name = CharField()
        class Meta:
            database = db

    City.add_index(City.name, nulls_distinct=True)
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase("pw_missing_dir/app.db")
    db.connect()
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase("pw_app.db", isolation_level="IMMEDIATE")
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    with db.atomic():
        with db.manual_commit():
            pass
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    with db.manual_commit():
        with db.atomic():
            pass
    """,
    """
    from peewee import SqliteDatabase

    db = SqliteDatabase(":memory:")
    with db.manual_commit():
        db.after_commit(lambda: print("saved"))
    """,
    """
    from peewee import SqliteDatabase, Table

    db = SqliteDatabase(":memory:")
    db.execute_sql("CREATE TABLE points (x INT, y INT)")
    points = Table("points")
    points.bind(db)
    points.insert([(1, 2), (3, 4)]).execute()
    """,
    """
    from peewee import Table

    users = Table("users", ("id", "name"))
    for row in users.select().where(users.name == "x"):
        print(row)
    """,
    """
    from peewee import SqliteDatabase, Table

    db = SqliteDatabase(":memory:")
    sales = Table("sales").bind(db)
    regions = Table("regions")
    sales.select().group_by(regions)
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, Window, fn

    db = SqliteDatabase(":memory:")

    class Sale(Model):
        region = CharField()
        class Meta:
            database = db

    w1 = Window(partition_by=[Sale.region])
    w2 = Window(order_by=[Sale.id])
    Sale.select(fn.COUNT(Sale.id).over(w1)).window(w1, w2)
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ManyToManyField

    db = SqliteDatabase(":memory:")

    class Course(Model):
        name = CharField()
        class Meta:
            database = db

    class Student(Model):
        name = CharField()
        courses = ManyToManyField(Course, through_model="StudentCourse")
        class Meta:
            database = db
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ManyToManyField

    db = SqliteDatabase(":memory:")

    class Course(Model):
        name = CharField()
        class Meta:
            database = db

    class Enrollment(Model):
        grade = CharField()
        class Meta:
            database = db

    class Student(Model):
        name = CharField()
        courses = ManyToManyField(Course, through_model=Enrollment)
        class Meta:
            database = db

    db.create_tables([Course, Enrollment, Student])
    s = Student.create(name="Ann")
    list(s.courses)
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Person(Model):
        first = CharField()
        last = CharField()
        class Meta:
            database = db
            indexes = (("first", "last"), True)

    db.create_tables([Person])
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class Person(Model):
        first = CharField()
        class Meta:
            database = db

    db.create_tables([Person])
    Person._schema.drop_index()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField

    db = SqliteDatabase(":memory:")

    class Author(Model):
        name = CharField()
        class Meta:
            database = db

    class Post(Model):
        author = ForeignKeyField(Author, backref="posts")
        class Meta:
            database = db

    db.create_tables([Author, Post])
    for post in Post.select().with_related(Post.author).iterator():
        print(post.author.name)
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField, Load

    db = SqliteDatabase(":memory:")

    class Author(Model):
        name = CharField()
        class Meta:
            database = db

    class Post(Model):
        author = ForeignKeyField(Author, backref="posts")
        class Meta:
            database = db

    Author.select().with_related(Load(Author.posts, query=Author.select()))
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField, Load

    db = SqliteDatabase(":memory:")

    class Author(Model):
        name = CharField()
        class Meta:
            database = db

    class Post(Model):
        author = ForeignKeyField(Author, backref="posts")
        class Meta:
            database = db

    Author.select().with_related(Load(Author.posts, strategy="subquery"))
    """,
    """
    from peewee import SqliteDatabase, Model, CharField

    db = SqliteDatabase(":memory:")

    class User(Model):
        name = CharField()
        class Meta:
            database = db

    db.create_tables([User])
    cte = User.select(User.name).cte("names")
    cte.select_from().execute()
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField, Load

    db = SqliteDatabase(":memory:")

    class Author(Model):
        name = CharField()
        class Meta:
            database = db

    class Post(Model):
        author = ForeignKeyField(Author, backref="posts")
        class Meta:
            database = db

    Author.select().with_related(Load(Author.posts, query=Post.select().dicts()))
    """,
    """
    from peewee import SqliteDatabase, Model, CharField, ForeignKeyField, prefetch

    db = SqliteDatabase(":memory:")

    class Author(Model):
        name = CharField()
        class Meta:
            database = db

    class Post(Model):
        author = ForeignKeyField(Author, backref="posts")
        class Meta:
            database = db

    db.create_tables([Author, Post])
    prefetch(Author.select(), Post.select(), prefetch_type="join")
    """,
]
