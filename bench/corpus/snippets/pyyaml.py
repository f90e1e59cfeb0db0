"""Ordinary code that makes PyYAML raise (its pure-Python loader and dumper)."""

LIBRARY = "pyyaml"

SNIPPETS = [
    """
    import yaml
    yaml.safe_load("ports: [80, 443")
    """,
    """
    import yaml
    yaml.safe_load("name: app: web")
    """,
    """
    import yaml
    yaml.safe_load("title: 'unterminated")
    """,
    """
    import yaml
    yaml.safe_load("- first\\nname: second")
    """,
    """
    import yaml
    yaml.safe_load("!!python/object:os.system ls")
    """,
    """
    import yaml
    yaml.safe_load("defaults: *base")
    """,
    """
    import yaml
    yaml.safe_load("\\tkey: value")
    """,
    """
    import yaml
    yaml.safe_load("%YAML 2.0\\n---\\nkey: value")
    """,
    """
    import yaml
    yaml.safe_load("a: 1\\n---\\nb: 2")
    """,
    """
    import yaml

    class Settings:
        pass

    yaml.safe_dump(Settings)
    """,
    """
    import yaml
    yaml.safe_load("{host: localhost, port: 80")
    """,
    """
    import yaml
    yaml.safe_load("!!binary 'not base64!'")
    """,
    """
    import yaml
    yaml.safe_load("!!map [1, 2]")
    """,
    """
    import yaml
    yaml.safe_load("script: |\\n  echo hi\\n stray")
    """,
    """
    import yaml
    yaml.safe_load('path: "C:\\\\qdata"')
    """,
    """
    import yaml
    yaml.safe_load("user: @admin")
    """,
    """
    import yaml
    yaml.safe_load("region: !aws_region us-east-1")
    """,
    """
    import yaml
    yaml.safe_load("--- !!str\\n- a\\n- b")
    """,
    """
    import yaml
    yaml.safe_load("[a, b]]")
    """,
    """
    import yaml
    yaml.safe_load(b"name: caf\\x80")
    """,
    """
    import yaml
    yaml.safe_load("bell: \\x07")
    """,
    """
    import yaml
    yaml.safe_load("!!omap [a, b]")
    """,
    """
    import yaml
    yaml.safe_load("!!pairs {a: 1}")
    """,
    """
    import yaml
    yaml.safe_load("{? [a, b]: c}")
    """,
    """
    import yaml
    yaml.emit([yaml.StreamStartEvent(), yaml.ScalarEvent(None, None, (True, False), "x")])
    """,
]
