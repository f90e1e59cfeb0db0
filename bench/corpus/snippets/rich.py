"""Ordinary code that makes rich raise."""

LIBRARY = "rich"

SNIPPETS = [
    """
    from rich.console import Console

    Console().print("[bold]Deploy finished[/italic]")
    """,
    """
    from rich import print

    print("Status: [green]OK[/green] [/]")
    """,
    """
    from rich.text import Text

    Text.from_markup("[red]error:[/red] file [/bold]config.yaml[/]")
    """,
    """
    from rich.console import Console

    Console().print("[@click=open_file(]open[/]")
    """,
    """
    import sys
    from rich.console import Console
    from rich.live import Live

    with Live("Working...", console=Console(force_terminal=True)):
        sys.stdout.write(b"raw bytes from subprocess")
    """,
    """
    from rich.style import Style

    Style.parse("bold on")
    """,
    """
    from rich.style import Style

    Style.parse("white on grey100x")
    """,
    """
    from rich.style import Style

    Style.parse("not bright")
    """,
    """
    from rich.style import Style

    Style.parse("underline link")
    """,
    """
    from rich.style import Style

    Style.parse("bolder red")
    """,
    """
    from rich.color import Color

    Color.parse("#12345")
    """,
    """
    from rich.color import Color

    Color.parse("color(300)")
    """,
    """
    from rich.color import Color

    Color.parse("rgb(10,20)")
    """,
    """
    from rich.color import Color

    Color.parse("rgb(255,128,300)")
    """,
    """
    from rich.style import Style

    Style(color="blurple")
    """,
    """
    from rich.console import Console

    Console().print("Warning!", style="warnng")
    """,
    """
    from rich.console import Console

    console = Console()
    with console.capture() as capture:
        console.print("hello")
        text = capture.get()
    """,
    """
    from rich.console import Console

    Console().print_json({"name": "Ann", "age": 30})
    """,
    """
    from rich.console import Console
    from rich.text import Text

    Console().update_screen(Text("frame"))
    """,
    """
    from rich.emoji import Emoji

    Emoji("thumbs_upp")
    """,
    """
    from rich.layout import Layout

    layout = Layout()
    layout.split_column(Layout(name="header"), Layout(name="body"))
    layout["footer"].update("bye")
    """,
    """
    from rich.layout import Layout

    layout = Layout()
    layout.split(Layout(), Layout(), splitter="grid")
    """,
    """
    from rich.padding import Padding

    Padding("content", (1, 2, 3))
    """,
    """
    from rich.console import Console
    from rich.panel import Panel

    Console().print(Panel("content", padding=(1, 2, 3, 4, 5)))
    """,
    """
    import io
    from rich.progress import Progress

    with Progress() as progress:
        data = io.BytesIO(b"x" * 100)
        progress.wrap_file(data)
    """,
    """
    import rich.progress

    rich.progress.open("rich_log.txt", mode="w")
    """,
    """
    import rich.progress

    with open("rich_data.txt", "w") as f:
        f.write("abc")
    rich.progress.open("rich_data.txt", mode="r", buffering=0)
    """,
    """
    import rich.progress

    with open("rich_data.bin", "wb") as f:
        f.write(b"abc")
    with rich.progress.open("rich_data.bin", "rb") as reader:
        reader.write(b"more")
    """,
    """
    import rich.repr
    from rich.console import Console

    @rich.repr.auto
    class Point:
        def __init__(self, x, y):
            self.x = x

    Console().print(Point(1, 2))
    """,
    """
    from rich.rule import Rule

    Rule("Section", characters="")
    """,
    """
    from rich.rule import Rule

    Rule("Section", align="middle")
    """,
    """
    from rich.spinner import Spinner

    Spinner("spinning")
    """,
    """
    from rich.style import Style

    Style.pick_first(None, None)
    """,
    """
    from rich.table import Table

    table = Table("Name", "Age")
    table.add_row("Ann", 30)
    """,
    """
    from rich.text import Text

    Text("abcdef")[::2]
    """,
    """
    from rich.text import Text

    Text("Total: ").append(42)
    """,
    """
    from rich.text import Text

    Text("Total: ").append(Text("42"), style="bold")
    """,
    """
    from rich.console import Console

    Console().pop_theme()
    """,
    """
    from rich.traceback import Traceback

    Traceback()
    """,
    """
    from rich.align import Align

    Align("title", align="middle")
    """,
    """
    from rich.align import Align

    Align("title", align="center", vertical="center")
    """,
    """
    from rich import box

    box.ROUNDED.get_row([10, 20], level="header")
    """,
    """
    from rich.highlighter import ReprHighlighter

    ReprHighlighter()(404)
    """,
    """
    from rich.console import Console

    Console().measure(3.14)
    """,
    """
    from rich.console import Console
    from rich.panel import Panel

    Console().print(Panel(1234))
    """,
    """
    from rich.console import Console

    console = Console()
    console.print("report")
    console.export_html()
    """,
    """
    from rich.console import Console

    console = Console()
    console.print("report")
    print(console.export_text())
    """,
    """
    from rich.live import Live

    Live("loading", refresh_per_second=0)
    """,
    """
    from rich.progress import Progress

    Progress(refresh_per_second=0)
    """,
    """
    from rich.progress import Progress

    progress = Progress()
    progress.update(5, advance=1)
    """,
    """
    from rich.syntax import Syntax

    Syntax.from_path("missing_script.py")
    """,
    """
    from rich.console import Console

    Console(color_system="fancy")
    """,
    """
    from rich.console import Console
    from rich.table import Table

    table = Table("a", box="rounded")
    table.add_row("1")
    Console().print(table)
    """,
    """
    from rich import print_json

    print_json("{'name': 'Ann'}")
    """,
    """
    from rich.console import Console

    Console().update_screen_lines([])
    """,
    """
    from rich.console import Console

    Console().line(-1)
    """,
    """
    from rich.console import Console
    from rich.columns import Columns

    Console().print(Columns(["a", None, "c"]))
    """,
    """
    from rich.tree import Tree
    from rich.console import Console

    tree = Tree("root")
    tree.add(42)
    Console().print(tree)
    """,
    """
    from rich.markdown import Markdown
    from rich.console import Console

    Console().print(Markdown(b"# Title"))
    """,
    """
    from rich.text import Text

    Text("hello world").stylize("bold", "hello", 5)
    """,
    """
    from rich.console import Console

    class Report:
        def __rich_console__(self, console, options):
            console.print("report")

    Console().print(Report())
    """,
    """
    import rich.progress

    with open("rich_chunks.bin", "wb") as f:
        f.write(b"abc")
    with rich.progress.open("rich_chunks.bin", "rb") as reader:
        reader.writelines([b"more"])
    """,
    """
    from rich.progress import Progress

    with Progress() as progress:
        task = progress.add_task("download", total=10)
        progress.advance(task + 1)
    """,
    """
    from rich.progress import Progress

    progress = Progress()
    progress.remove_task(3)
    """,
    """
    from rich.progress import track

    for step in track(5, description="Working"):
        pass
    """,
    """
    from rich.console import Console

    Console(theme={"info": "cyan", "danger": "bold red"})
    """,
    """
    from rich.theme import Theme

    Theme.read("missing_theme.ini")
    """,
    """
    from rich.console import Console

    Console().push_theme("monokai")
    """,
    """
    from rich.console import Console
    from rich.table import Table

    table = Table("Item")
    table.add_row("apple", style="boldd")
    Console().print(table)
    """,
    """
    from rich.console import Console

    Console(width="80").print("hello")
    """,
    """
    from rich.console import Console

    Console().print("hello", width="40")
    """,
    """
    from rich.pretty import pprint

    pprint(list(range(100)), max_length=-1)
    """,
    """
    from rich.console import Console
    from rich.table import Table

    table = Table("Name")
    table.add_column("Score", width="10")
    table.add_row("Ann", "9")
    Console().print(table)
    """,
    """
    from rich.text import Text

    Text("hello world").highlight_regex(r"(\\d+", "bold")
    """,
    """
    from rich.console import Console

    Console().print("a", "b", sep=None)
    """,
    """
    from rich.theme import Theme

    Theme({"info": "dim cyan", "warning": "bold blurple"})
    """,
]
