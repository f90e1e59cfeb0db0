"""Ordinary code that makes typer raise."""

LIBRARY = "typer"

SNIPPETS = [
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def repeat(times: int):
        pass

    get_command(app).main(["three"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def greet(name: str):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def build(output: str = "dist"):
        pass

    get_command(app).main(["--ouput", "build"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def build(output: str = "dist"):
        pass

    get_command(app).main(["--output"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def copy(src: str):
        pass

    get_command(app).main(["a.txt", "b.txt"], standalone_mode=False)
    """,
    """
    from enum import Enum
    import typer
    from typer.main import get_command

    class Color(str, Enum):
        red = "red"
        green = "green"

    app = typer.Typer()

    @app.command()
    def paint(color: Color = Color.red):
        pass

    get_command(app).main(["--color", "blue"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def publish(tags: list[str] = typer.Option([])):
        pass

    get_command(app).main([], standalone_mode=False, default_map={"tags": "python,cli"})
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def run(verbose: bool = False):
        pass

    get_command(app).main(["--verbose=yes"], standalone_mode=False)
    """,
    """
    from pathlib import Path
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def load(config: Path = typer.Option(..., exists=True)):
        pass

    get_command(app).main(["--config", "typer_settings.toml"], standalone_mode=False)
    """,
    """
    import os
    from pathlib import Path
    import typer
    from typer.main import get_command

    os.makedirs("typer_reports", exist_ok=True)
    app = typer.Typer()

    @app.command()
    def read(path: Path = typer.Argument(..., dir_okay=False)):
        pass

    get_command(app).main(["typer_reports"], standalone_mode=False)
    """,
    """
    from pathlib import Path
    import typer
    from typer.main import get_command

    with open("typer_notes.txt", "w") as f:
        f.write("hello")
    app = typer.Typer()

    @app.command()
    def scan(folder: Path = typer.Argument(..., file_okay=False)):
        pass

    get_command(app).main(["typer_notes.txt"], standalone_mode=False)
    """,
    """
    from datetime import datetime
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def schedule(when: datetime):
        pass

    get_command(app).main(["next tuesday"], standalone_mode=False)
    """,
    """
    import typer

    typer.echo(typer.style("Deployment finished", fg="purple", bold=True))
    """,
    """
    import typer

    typer.secho("Warning: disk almost full", bg="grey")
    """,
    """
    import typer

    with typer.progressbar(label="Uploading") as progress:
        for chunk in range(10):
            progress.update(1)
    """,
    """
    import typer

    progress = typer.progressbar(range(100), label="Processing")
    for item in progress:
        pass
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()
    get_command(app)
    """,
    """
    from typing import Annotated
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def hello(name: Annotated[str, typer.Option(), typer.Option("--nom")]):
        pass

    get_command(app).main(["--name", "Ada"], standalone_mode=False)
    """,
    """
    from typing import Annotated
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def hello(name: Annotated[str, typer.Option()] = typer.Option("World")):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    from typing import Annotated
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def hello(name: Annotated[str, typer.Argument("World")]):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def hello(name: str = typer.Option("World", default_factory=lambda: "Ada")):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def ident(value: int | str):
        pass

    get_command(app).main(["42"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def matrix(rows: list[list[int]] = typer.Option([])):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def create():
        pass

    @app.command()
    def delete():
        pass

    get_command(app).main(["remove"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer(no_args_is_help=True)

    @app.command()
    def create():
        pass

    @app.command()
    def delete():
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    def check_name(ctx, param, value, extra):
        return value

    app = typer.Typer()

    @app.command()
    def hello(name: str = typer.Option("World", callback=check_name)):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    def complete_name(ctx, args, incomplete, prefix):
        return ["Ada", "Alan"]

    app = typer.Typer()

    @app.command()
    def hello(name: str = typer.Option("World", autocompletion=complete_name)):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.core import TyperCommand
    from typer.main import get_command

    app = typer.Typer(cls=TyperCommand)

    @app.command()
    def start():
        pass

    @app.command()
    def stop():
        pass

    get_command(app)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def login(user: str = typer.Option(..., prompt=True)):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer

    log = typer.get_text_stream("stdlog")
    typer.echo("starting", file=log)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def show(config: typer.FileText = typer.Argument(...)):
        pass

    get_command(app).main(["typer-missing-config.ini"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def clean(force: bool = typer.Option(False, "--force/--no-force")):
        pass

    get_command(app).main(["--no-forc"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def clean(force: bool = typer.Option(False, "--force/--force")):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()
    users = typer.Typer()
    app.add_typer(users)

    @users.command()
    def create():
        pass

    get_command(app).main(["users", "create"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def add(a: int, b: int):
        pass

    get_command(app).main(["1"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def rm(force: bool = typer.Option(False, "-f")):
        pass

    get_command(app).main(["-x"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def tag(names: list[str]):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def delete(name: str):
        typer.confirm(f"Delete {name}?", abort=True)

    get_command(app).main(["prod-db"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def move(point: tuple[int, int] = typer.Argument(...)):
        pass

    get_command(app).main(["10"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def copy(sources: list[str], destinations: list[str]):
        pass

    get_command(app).main(["a.txt", "b.txt", "backup/"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def export(out: typer.FileTextWrite = typer.Option(...)):
        out.write("id,name")

    get_command(app).main(["--out", "/nonexistent/exports/users.csv"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def config(pair: list[str, int] = typer.Option([])):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    class Point:
        pass

    app = typer.Typer()

    @app.command()
    def plot(origin: Point):
        pass

    get_command(app).main(["0,0"], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.command()
    def plot(series: tuple[list[float], str] = typer.Option(([], "line"))):
        pass

    get_command(app).main([], standalone_mode=False)
    """,
    """
    import typer
    from typer.main import get_command

    app = typer.Typer()

    @app.callback()
    def main(ctx: typer.Context, debug: bool = False):
        pass

    @app.command()
    def sync():
        pass

    get_command(app).main(["sync", "--debug"], standalone_mode=False)
    """,
]
