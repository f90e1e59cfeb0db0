"""Ordinary code that makes Werkzeug raise."""

LIBRARY = "werkzeug"

SNIPPETS = [
    """
    from werkzeug.datastructures import MultiDict
    MultiDict([("page", "2")])["per_page"]
    """,
    """
    from werkzeug.datastructures import Headers
    Headers([("Accept", "text/html")])["Authorization"]
    """,
    """
    from werkzeug.datastructures import Headers
    Headers().add("X-Trace", "abc\\ndef")
    """,
    """
    from werkzeug.exceptions import abort
    abort(404)
    """,
    """
    from werkzeug.exceptions import abort
    abort(418)
    """,
    """
    from werkzeug.exceptions import abort
    abort(999)
    """,
    """
    from werkzeug.routing import Map, Rule
    urls = Map([Rule("/users/<int:user_id>", endpoint="user")]).bind("example.com")
    urls.build("profile", {"user_id": 3})
    """,
    """
    from werkzeug.routing import Map, Rule
    urls = Map([Rule("/users/<int:user_id>", endpoint="user")]).bind("example.com")
    urls.match("/posts/12")
    """,
    """
    from werkzeug.routing import Map, Rule
    urls = Map([Rule("/users/<int:user_id>", endpoint="user", methods=["GET"])]).bind("example.com")
    urls.match("/users/12", method="DELETE")
    """,
    """
    from werkzeug.routing import Map, Rule
    urls = Map([Rule("/users/", endpoint="users")]).bind("example.com")
    urls.match("/users")
    """,
    """
    from werkzeug.routing import Map, Rule
    Map([Rule("/users/<int:user_id", endpoint="user")])
    """,
    """
    from werkzeug.routing import Map, Rule
    Map([Rule("/files/<filepath:name>", endpoint="file")])
    """,
    """
    from werkzeug.routing import Map, Rule
    Map([Rule("users/<int:user_id>", endpoint="user")])
    """,
    """
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request
    environ = EnvironBuilder(method="POST", data="{'name': 'ada'}",
                             content_type="application/json").get_environ()
    Request(environ).json
    """,
    """
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request
    environ = EnvironBuilder(method="POST", data="name=ada", content_type="text/plain").get_environ()
    Request(environ).json
    """,
    """
    from werkzeug.security import generate_password_hash
    generate_password_hash("hunter2", method="md5crypt")
    """,
    """
    from werkzeug.utils import import_string
    import_string("myapp.settings.Production")
    """,
    """
    from werkzeug.datastructures import Range
    Range("bytes", [(500, 100)])
    """,
    """
    from werkzeug.wrappers import Response
    Response("ok").set_cookie("session", "abc", samesite="Sometimes")
    """,
    """
    from werkzeug.test import EnvironBuilder
    EnvironBuilder(method="POST", data={"name": "ada"}, json={"name": "bob"})
    """,
    """
    import io
    from werkzeug.test import EnvironBuilder
    EnvironBuilder(method="POST", input_stream=io.BytesIO(b"raw"), data="name=ada")
    """,
    """
    from werkzeug.wrappers import Response
    Response(iter([b"chunk"]), direct_passthrough=True).get_data()
    """,
    """
    from werkzeug.formparser import parse_form_data
    from werkzeug.test import EnvironBuilder
    environ = EnvironBuilder(method="POST", data=b"--x--", content_type="multipart/form-data").get_environ()
    parse_form_data(environ, silent=False)
    """,
    """
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request
    environ = EnvironBuilder(method="POST", data={"name": "ada"}).get_environ()
    Request(environ).form["email"]
    """,
]
