"""Ordinary code that makes starlette raise."""

LIBRARY = "starlette"

SNIPPETS = [
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, Router

    async def homepage(request):
        return PlainTextResponse("home")

    router = Router(routes=[Route("/", homepage, name="home")])
    router.url_path_for("index")
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, Router

    async def user_detail(request):
        return PlainTextResponse(request.path_params["username"])

    router = Router(routes=[Route("/users/{username}", user_detail, name="user_detail")])
    router.url_path_for("user_detail", user_id=42)
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def about(request):
        return PlainTextResponse("about")

    Route("about", about)
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def item(request):
        return PlainTextResponse("item")

    Route("/items/{item_id:integer}", item)
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def comment(request):
        return PlainTextResponse("comment")

    Route("/posts/{id}/comments/{id}", comment)
    """,
    """
    from starlette.config import Config

    config = Config(environ={})
    DATABASE_URL = config("DATABASE_URL")
    """,
    """
    from starlette.config import Config

    config = Config(environ={"DEBUG": "yes"})
    DEBUG = config("DEBUG", cast=bool)
    """,
    """
    from starlette.config import Config

    config = Config(environ={"PORT": "eighty"})
    PORT = config("PORT", cast=int)
    """,
    """
    from starlette.config import Config, Environ

    environ = Environ({"TESTING": "false"})
    config = Config(environ=environ)
    testing = config("TESTING", cast=bool)
    environ["TESTING"] = "true"
    """,
    """
    from starlette.config import Config, Environ

    environ = Environ({"SECRET_KEY": "dev"})
    config = Config(environ=environ)
    key = config("SECRET_KEY")
    del environ["SECRET_KEY"]
    """,
    """
    from starlette.datastructures import Headers

    headers = Headers(headers={"content-type": "text/html"}, raw=[(b"x-token", b"abc")])
    """,
    """
    from starlette.datastructures import Headers

    headers = Headers(raw=[(b"content-type", b"application/json")])
    auth = headers["authorization"]
    """,
    """
    from starlette.datastructures import URL

    url = URL("https://example.com/search", scope={"type": "http"})
    """,
    """
    from starlette.datastructures import URL

    url = URL("https://example.com", path="/search")
    """,
    """
    from starlette.datastructures import ImmutableMultiDict

    params = ImmutableMultiDict([("a", "1")], [("b", "2")])
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import FileResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def report(request):
        return FileResponse("/srv/reports/2024-q1.pdf")

    app = Starlette(routes=[Route("/report", report)])
    TestClient(app).get("/report")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import FileResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def download(request):
        return FileResponse("/etc")

    app = Starlette(routes=[Route("/download", download)])
    TestClient(app).get("/download")
    """,
    """
    from starlette.responses import Response

    response = Response(content=200, media_type="text/plain")
    """,
    """
    from starlette.applications import Starlette
    from starlette.middleware.cors import CORSMiddleware
    from starlette.testclient import TestClient

    app = Starlette()
    TestClient(app).get("/")
    app.add_middleware(CORSMiddleware, allow_origins=["*"])
    """,
    """
    import asyncio
    from starlette.websockets import WebSocket

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        pass

    async def chat():
        websocket = WebSocket({"type": "websocket", "path": "/ws", "headers": []}, receive, send)
        await websocket.send_text("hello")

    asyncio.run(chat())
    """,
    """
    from starlette.requests import Request

    request = Request({"type": "websocket", "path": "/ws", "headers": []})
    """,
    """
    from starlette.routing import Mount

    Mount("/static")
    """,
    """
    from starlette.routing import Mount, Router

    Mount("api", routes=[])
    """,
    """
    from starlette.templating import Jinja2Templates

    templates = Jinja2Templates()
    """,
    """
    import os
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.templating import Jinja2Templates
    from starlette.testclient import TestClient

    os.makedirs("starlette_templates", exist_ok=True)
    templates = Jinja2Templates(directory="starlette_templates")

    async def home(request):
        return templates.TemplateResponse(request, "index.html", {"title": "Home"})

    app = Starlette(routes=[Route("/", home)])
    TestClient(app).get("/")
    """,
    """
    from starlette.staticfiles import StaticFiles

    static = StaticFiles(directory="starlette_assets")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def profile(request):
        return JSONResponse({"user": request.session.get("user")})

    app = Starlette(routes=[Route("/profile", profile)])
    TestClient(app).get("/profile")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def me(request):
        return JSONResponse({"user": request.user.display_name})

    app = Starlette(routes=[Route("/me", me)])
    TestClient(app).get("/me")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def scopes(request):
        return JSONResponse({"scopes": request.auth.scopes})

    app = Starlette(routes=[Route("/scopes", scopes)])
    TestClient(app).get("/scopes")
    """,
    """
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    app = Starlette(middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=["example.*"]),
    ])
    app.build_middleware_stack()
    """,
    """
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    TrustedHostMiddleware(app=None, allowed_hosts=["*example.com"])
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, Router

    async def page(request):
        return PlainTextResponse("page")

    router = Router(routes=[Route("/pages/{number:int}", page, name="page")])
    router.url_path_for("page", number=-1)
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, Router

    async def price(request):
        return PlainTextResponse("price")

    router = Router(routes=[Route("/price/{amount:float}", price, name="price")])
    router.url_path_for("price", amount=float("nan"))
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, Router

    async def price(request):
        return PlainTextResponse("price")

    router = Router(routes=[Route("/price/{amount:float}", price, name="price")])
    router.url_path_for("price", amount=float("inf"))
    """,
    """
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route, Router

    async def folder(request):
        return PlainTextResponse("folder")

    router = Router(routes=[Route("/folders/{name}", folder, name="folder")])
    router.url_path_for("folder", name="docs/2024")
    """,
    """
    from starlette.responses import Response

    response = Response("ok")
    response.set_cookie("session", "abc", samesite="secure")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def status(request):
        return JSONResponse({"db": request.app.state.db.ping()})

    app = Starlette(routes=[Route("/status", status)])
    TestClient(app).get("/status")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def create(request):
        form = await request.form()
        return JSONResponse(dict(form))

    app = Starlette(routes=[Route("/create", create, methods=["POST"])])
    TestClient(app).post("/create", data={"name": "bob"})
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def create(request):
        data = await request.json()
        return JSONResponse(data)

    app = Starlette(routes=[Route("/create", create, methods=["POST"])])
    TestClient(app).post("/create", content="name=bob",
                         headers={"content-type": "application/json"})
    """,
    """
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    async def app(scope, receive, send):
        if scope["type"] == "http":
            await receive()

    TestClient(app).get("/")
    """,
    """
    from starlette.testclient import TestClient

    async def app(scope, receive, send):
        await send({"type": "http.response.body", "body": b"hello"})

    TestClient(app).get("/")
    """,
    """
    from starlette.testclient import TestClient

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.start", "status": 200, "headers": []})

    TestClient(app).get("/")
    """,
    """
    import asyncio
    from starlette.websockets import WebSocket

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        pass

    async def feed():
        websocket = WebSocket({"type": "websocket", "path": "/feed", "headers": []}, receive, send)
        await websocket.accept()
        payload = await websocket.receive_json(mode="xml")

    asyncio.run(feed())
    """,
    """
    from starlette.applications import Starlette
    from starlette.middleware.cors import CORSMiddleware
    from starlette.testclient import TestClient

    app = Starlette(middleware=[CORSMiddleware])
    TestClient(app).get("/")
    """,
    """
    from starlette.routing import Host, Router

    Host("/api.example.com", app=Router())
    """,
    """
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.sessions import SessionMiddleware
    from starlette.testclient import TestClient

    app = Starlette(middleware=[Middleware(SessionMiddleware)])
    TestClient(app).get("/")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def items(request):
        page = int(request.query_params["page"])
        return JSONResponse({"page": page})

    app = Starlette(routes=[Route("/items", items)])
    TestClient(app).get("/items")
    """,
    """
    from starlette.applications import Starlette
    from starlette.requests import Request

    request = Request({"type": "http", "path": "/", "headers": [], "query_string": b""})
    request.url_for("home")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def read_twice(request):
        async for chunk in request.stream():
            pass
        async for chunk in request.stream():
            pass
        return PlainTextResponse("ok")

    app = Starlette(routes=[Route("/upload", read_twice, methods=["POST"])])
    TestClient(app).post("/upload", content=b"payload")
    """,
    """
    from starlette.datastructures import MutableHeaders

    headers = MutableHeaders({"content-type": "text/plain"})
    headers.update([("x-request-id", "42")])
    """,
    """
    from starlette.datastructures import MutableHeaders

    headers = MutableHeaders({"content-type": "text/plain"})
    headers |= "x-request-id: 42"
    """,
    """
    from starlette import status

    code = status.HTTP_418_TEAPOT
    """,
    """
    import asyncio
    from starlette.endpoints import WebSocketEndpoint

    class Echo(WebSocketEndpoint):
        encoding = "text"

        async def on_receive(self, websocket, data):
            await websocket.send_text(data)

    messages = iter([{"type": "websocket.connect"}, {"type": "websocket.receive", "bytes": b"hi"}])

    async def receive():
        return next(messages)

    async def send(message):
        pass

    async def main():
        await Echo({"type": "websocket", "path": "/echo", "headers": []}, receive, send)

    asyncio.run(main())
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.testclient import TestClient

    async def homepage(request):
        return PlainTextResponse("hello")

    app = Starlette(routes=[homepage])
    TestClient(app).get("/")
    """,
    """
    from starlette.applications import Starlette
    from starlette.endpoints import HTTPEndpoint
    from starlette.routing import Route
    from starlette.testclient import TestClient

    class Items(HTTPEndpoint):
        async def get(self, request):
            items = ["a", "b"]

    app = Starlette(routes=[Route("/items", Items)])
    TestClient(app).get("/items")
    """,
    """
    import os
    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles
    from starlette.testclient import TestClient

    with open("starlette_public", "w") as f:
        f.write("not a directory")
    app = Starlette(routes=[Mount("/static", StaticFiles(directory="starlette_public", check_dir=False))])
    TestClient(app).get("/static/app.css")
    """,
    """
    from starlette.staticfiles import StaticFiles

    StaticFiles(packages=["myapp"])
    """,
    """
    from starlette.applications import Starlette
    from starlette.middleware.base import BaseHTTPMiddleware
    from starlette.testclient import TestClient

    class Timing(BaseHTTPMiddleware):
        async def dispatch(self, request, call_next):
            response = await call_next(request)

    app = Starlette()
    app.add_middleware(Timing)
    TestClient(app).get("/")
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import FileResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    import os
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    os.makedirs("starlette_static", exist_ok=True)
    app = Starlette(routes=[Mount("/static", StaticFiles(directory="starlette_static"), name="static")])
    app.url_path_for("static", filename="css/app.css")
    """,
    """
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException

    app = Starlette()

    async def teapot(request, exc):
        return None

    app.add_exception_handler(HTTPException(status_code=418), teapot)
    app.build_middleware_stack()
    """,
    """
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.testclient import TestClient

    async def chat(websocket):
        await websocket.accept()
        await websocket.accept()

    app = Starlette(routes=[WebSocketRoute("/chat", chat)])
    with TestClient(app).websocket_connect("/chat") as ws:
        ws.receive()
    """,
    """
    import asyncio
    from starlette.websockets import WebSocket

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        pass

    async def chat():
        websocket = WebSocket({"type": "websocket", "path": "/chat", "headers": []}, receive, send)
        name = await websocket.receive_text()

    asyncio.run(chat())
    """,
    """
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.testclient import TestClient

    async def chat(websocket):
        await websocket.accept()
        while True:
            message = await websocket.receive()

    app = Starlette(routes=[WebSocketRoute("/chat", chat)])
    with TestClient(app).websocket_connect("/chat") as ws:
        ws.close()
    """,
    """
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    async def export(request):
        return StreamingResponse(12345, media_type="text/csv")

    app = Starlette(routes=[Route("/export", export)])
    TestClient(app).get("/export")
    """,
    """
    import os
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.templating import Jinja2Templates
    from starlette.testclient import TestClient

    os.makedirs("starlette_legacy_templates", exist_ok=True)
    with open("starlette_legacy_templates/index.html", "w") as f:
        f.write("<h1>{{ title }}</h1>")
    templates = Jinja2Templates(directory="starlette_legacy_templates")

    async def home(request):
        return templates.TemplateResponse("index.html", {"request": request, "title": "Home"})

    app = Starlette(routes=[Route("/", home)])
    TestClient(app).get("/")
    """,
    """
    import datetime
    from starlette.responses import JSONResponse

    JSONResponse({"created": datetime.date(2024, 5, 1)})
    """,
    """
    from starlette.config import Config
    from starlette.datastructures import CommaSeparatedStrings

    config = Config(environ={})
    WORKERS = config("WORKERS", cast=CommaSeparatedStrings, default=4)
    """,
    """
    import datetime
    from starlette.responses import Response

    response = Response("ok")
    response.set_cookie("session", "abc", expires=datetime.datetime(2030, 1, 1))
    """,
    """
    from starlette.datastructures import Headers

    headers = Headers(scope={"type": "http", "path": "/"})
    """,
]
