"""Ordinary code that makes click raise."""

LIBRARY = "click"

SNIPPETS = [
    """
    import click

    @click.command()
    @click.option("--count", type=int)
    def run(count):
        pass

    run.main(["--count", "several"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--name", required=True)
    def greet(name):
        pass

    greet.main([], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--color")
    def paint(color):
        pass

    paint.main(["--colour", "red"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.argument("src")
    def copy(src):
        pass

    copy.main(["a.txt", "b.txt", "c.txt"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--output")
    def build(output):
        pass

    build.main(["--output"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--color", type=click.Choice(["red", "green", "blue"]))
    def paint(color):
        pass

    paint.main(["--color", "purple"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--level", type=click.IntRange(0, 5))
    def log(level):
        pass

    log.main(["--level", "10"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.argument("config", type=click.Path(exists=True))
    def load(config):
        pass

    load.main(["/nonexistent/settings.ini"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--since", type=click.DateTime(formats=["%Y-%m-%d"]))
    def report(since):
        pass

    report.main(["--since", "last tuesday"], standalone_mode=False)
    """,
    """
    import click

    @click.group()
    def cli():
        pass

    @cli.command()
    def deploy():
        pass

    cli.main(["destroy"], standalone_mode=False)
    """,
    """
    import click
    click.Option([])
    """,
    """
    import click
    click.get_current_context()
    """,
    """
    import click

    @click.command()
    @click.option("--ratio", type=click.FloatRange(0, 1, max_open=True))
    def mix(ratio):
        pass

    mix.main(["--ratio", "1"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--id", "ident", type=click.UUID)
    def show(ident):
        pass

    show.main(["--id", "1234"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.argument("a")
    @click.argument("b")
    def pair(a, b):
        pass

    pair.main(["only-one"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--point", type=(int, int))
    def plot(point):
        pass

    plot.main(["--point", "1", "y"], standalone_mode=False)
    """,
    """
    import click
    click.Argument(["src", "dest"])
    """,
    """
    import click

    @click.command()
    @click.option("--ratio", type=float)
    def scale(ratio):
        pass

    scale.main(["--ratio", "half"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--debug/--no-debug")
    def run(debug):
        pass

    run.main(["--debug=yes"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--enabled", type=bool)
    def toggle(enabled):
        pass

    toggle.main(["--enabled", "maybe"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.argument("src", type=click.File("r"))
    def cat(src):
        pass

    cat.main(["/nonexistent/notes.txt"], standalone_mode=False)
    """,
    """
    import click
    click.Option(["--shout/--no-shout"], type=int)
    """,
    """
    import click
    click.Option(["--input", "-i", "source", "src"])
    """,
    """
    import click
    click.Option(["--password"], is_flag=True, prompt=True, hide_input=True)
    """,
    """
    import click
    click.Option(["--verbose", "-v"], count=True, multiple=True)
    """,
    """
    import click
    click.Option(["output"])
    """,
    """
    import click

    pass_settings = click.make_pass_decorator(dict)

    @click.command()
    @pass_settings
    def show(settings):
        pass

    show.main([], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.option("--size", nargs=2, type=int)
    def resize(size):
        pass

    resize.main(["--size", "640"], standalone_mode=False)
    """,
    """
    import click

    @click.command()
    @click.argument("target", type=click.Path(file_okay=False))
    def sync(target):
        pass

    sync.main(["/etc/passwd"], standalone_mode=False)
    """,
]
