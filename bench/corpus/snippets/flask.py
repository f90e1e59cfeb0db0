"""Ordinary code that makes flask raise."""

LIBRARY = "flask"

SNIPPETS = [
    """
    from flask import Flask, url_for

    app = Flask(__name__)

    @app.route("/")
    def index():
        return "home"

    url_for("index")
    """,
    """
    from flask import Flask, request

    app = Flask(__name__)
    name = request.args.get("name")
    """,
    """
    from flask import Flask

    app = Flask("myapp", instance_path="instance")
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.route("/")
    def index():
        return "home"

    @app.route("/home")
    def index():
        return "home page"
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.config.from_pyfile("/etc/myapp/settings.cfg")
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.config.from_envvar("MYAPP_SETTINGS")
    """,
    """
    import json
    from flask import Flask

    app = Flask(__name__)
    app.config.from_file("/etc/myapp/config.json", load=json.load)
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.config.from_object("myapp.settings.ProductionConfig")
    """,
    """
    from flask import Blueprint

    admin = Blueprint("admin.panel", __name__)
    """,
    """
    from flask import Blueprint

    bp = Blueprint("", __name__)
    """,
    """
    from flask import Flask, Blueprint

    app = Flask(__name__)
    api = Blueprint("api", __name__)
    app.register_blueprint(api, url_prefix="/api/v1")
    app.register_blueprint(api, url_prefix="/api/v2")
    """,
    """
    from flask import Flask, Blueprint

    app = Flask(__name__)
    app.register_blueprint(Blueprint("users", __name__))
    app.register_blueprint(Blueprint("users", "myapp.admin"))
    """,
    """
    from flask import Flask, Blueprint

    app = Flask(__name__)
    bp = Blueprint("shop", __name__)
    app.register_blueprint(bp)

    @bp.route("/cart")
    def cart():
        return "cart"
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.test_client().get("/")

    @app.route("/late")
    def late():
        return "late"
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.route("/")
    def index():
        return "ok"

    app.test_client().get("/", headers={"X-Trace-Id": "abc\\n123"})
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.route("/submit", methods="POST")
    def submit():
        return "ok"
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.testing = True

    @app.route("/save", methods=["POST"])
    def save():
        print("saved")

    app.test_client().post("/save")
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.testing = True

    @app.route("/")
    def index():
        return "ok", 200, {}, "extra"

    app.test_client().get("/")
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.testing = True

    @app.route("/count")
    def count():
        return 42

    app.test_client().get("/count")
    """,
    """
    from flask import Flask, url_for

    app = Flask(__name__)

    @app.route("/")
    def index():
        return "home"

    with app.test_request_context():
        url_for("profile")
    """,
    """
    from flask import Flask, url_for

    app = Flask(__name__)

    @app.route("/user/<username>")
    def user(username):
        return username

    with app.test_request_context():
        url_for("user")
    """,
    """
    from flask import Flask, session

    app = Flask(__name__)

    with app.test_request_context():
        session["user_id"] = 1
    """,
    """
    from flask import abort

    abort(999)
    """,
    """
    from flask import Flask, request

    app = Flask(__name__)

    with app.test_request_context("/api", method="POST", data="name=bob"):
        payload = request.get_json()
    """,
    """
    from flask import Flask, request

    app = Flask(__name__)

    with app.test_request_context("/api", method="POST", data="{name: 'bob'}",
                                  content_type="application/json"):
        payload = request.get_json()
    """,
    """
    from flask import Flask, request

    app = Flask(__name__)

    with app.test_request_context("/login", method="POST", data={"user": "bob"}):
        password = request.form["password"]
    """,
    """
    from flask import Flask, send_file

    app = Flask(__name__)

    with app.test_request_context():
        send_file("/srv/reports/2024-q1.pdf")
    """,
    """
    from flask import Flask, send_from_directory

    app = Flask(__name__)

    with app.test_request_context():
        send_from_directory("/srv/uploads", "../etc/passwd")
    """,
    """
    from flask import Flask, render_template

    app = Flask(__name__)

    with app.app_context():
        render_template("dashboard.html", user="bob")
    """,
    """
    from flask import Flask, json

    app = Flask(__name__)

    with app.app_context():
        json.dumps({"tags": {"python", "flask"}})
    """,
    """
    from flask import Flask, jsonify

    app = Flask(__name__)

    with app.app_context():
        jsonify({"ok": True}, status="done")
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    def not_found(e):
        return "missing", 999

    app.register_error_handler(999, not_found)
    """,
    """
    from flask import Flask
    from werkzeug.exceptions import NotFound

    app = Flask(__name__)

    @app.errorhandler(NotFound())
    def not_found(e):
        return "missing", 404
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.errorhandler(str)
    def handle(e):
        return "error", 500
    """,
    """
    from flask import stream_with_context

    def generate():
        yield "data"

    stream = stream_with_context(generate())
    """,
    """
    from flask import after_this_request

    @after_this_request
    def add_header(response):
        return response
    """,
    """
    from flask import Flask, g

    app = Flask(__name__)

    with app.app_context():
        user = g.user
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.add_url_rule("/health")
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.route("/post/<slug:post_slug>")
    def post(post_slug):
        return post_slug
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.route("about")
    def about():
        return "about"
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.route("/<int:id>/comments/<int:id>")
    def comments(id):
        return "ok"
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.test_client().post("/api", json={"a": 1}, data="a=1")
    """,
    """
    from flask.cli import ScriptInfo

    ScriptInfo(app_import_path="myproject.wsgi").load_app()
    """,
    """
    from flask.cli import ScriptInfo

    ScriptInfo(app_import_path="json:create_app").load_app()
    """,
    """
    import os
    from flask.cli import ScriptInfo

    os.makedirs("empty_flask_project", exist_ok=True)
    os.chdir("empty_flask_project")
    ScriptInfo().load_app()
    """,
    """
    from flask.cli import ScriptInfo

    ScriptInfo(app_import_path="json:create_app(debug=").load_app()
    """,
    """
    from flask import Flask

    app = Flask(__name__, static_folder=None)

    with app.test_request_context():
        app.send_static_file("style.css")
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    with app.open_resource("schema.sql", "w") as f:
        f.write("CREATE TABLE users (id INTEGER);")
    """,
    """
    from flask.views import View

    class UserList(View):
        def get(self):
            return "users"

    UserList().dispatch_request()
    """,
    """
    from flask import Flask, url_for

    app = Flask(__name__)

    @app.route("/")
    def index():
        return "home"

    with app.app_context():
        url_for("index")
    """,
    """
    from flask import Flask, url_for

    app = Flask(__name__)

    @app.route("/")
    def index():
        return "home"

    with app.test_request_context():
        url_for("index", _scheme="https", _external=False)
    """,
    """
    from flask import Flask, redirect

    app = Flask(__name__)

    @app.route("/a")
    def a():
        return redirect("/b")

    @app.route("/b")
    def b():
        return redirect("/a")

    app.test_client().get("/a", follow_redirects=True)
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    @app.get("/items", methods=["GET", "POST"])
    def items():
        return "items"
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    client = app.test_client(use_cookies=False)
    with client.session_transaction() as sess:
        sess["user"] = "bob"
    """,
    """
    from flask import Flask, Blueprint

    app = Flask(__name__)
    bp = Blueprint("blog", __name__)
    bp.register_blueprint(bp)
    """,
    """
    from flask import Blueprint

    bp = Blueprint("blog", __name__)

    def post_detail():
        return "post"

    bp.add_url_rule("/post", "posts.detail", post_detail)
    """,
    """
    from flask import Flask

    app = Flask(__name__, static_host="static.example.com")
    """,
    """
    from flask import Flask, request

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 1024

    with app.test_request_context("/comment", method="POST", data={"body": "x" * 5000}):
        body = request.form["body"]
    """,
    """
    from flask import Flask, abort

    app = Flask(__name__)

    with app.app_context():
        abort(404)
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    client = app.test_client()
    with client:
        with client:
            client.get("/")
    """,
    """
    from flask import Flask, request

    app = Flask(__name__)
    app.debug = True

    with app.test_request_context("/upload", method="POST", data={"avatar": "me.png"}):
        upload = request.files["avatar"]
    """,
    """
    from flask import Flask
    from flask.json.tag import TaggedJSONSerializer, TagDict

    serializer = TaggedJSONSerializer()
    serializer.register(TagDict)
    """,
    """
    from flask import Flask
    from flask.views import MethodView

    class ItemAPI(MethodView):
        def get(self):
            return "items"

    app = Flask(__name__)
    app.testing = True
    app.add_url_rule("/items", view_func=ItemAPI.as_view("items"), methods=["GET", "POST"])
    app.test_client().post("/items")
    """,
    """
    from flask import Flask

    app = Flask(__name__)

    with app.app_context():
        settings = app.json.loads("{'debug': true}")
    """,
    """
    from flask import Flask

    app = Flask(__name__)
    app.testing = True

    @app.route("/rate")
    def rate():
        return "slow down", 429.0

    app.test_client().get("/rate")
    """,
    """
    from flask import Flask, jsonify

    class User:
        def __init__(self, name):
            self.name = name

    app = Flask(__name__)

    with app.app_context():
        jsonify(user=User("bob"))
    """,
]
