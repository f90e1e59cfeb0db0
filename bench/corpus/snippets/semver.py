"""Ordinary code that makes semver raise."""

LIBRARY = "semver"

SNIPPETS = [
    """
    import semver
    semver.Version.parse("1.2")
    """,
    """
    import semver
    semver.Version.parse("2.0.0-rc.1+build..7", optional_minor_and_patch=True)
    """,
    """
    import semver
    semver.Version.parse(None)
    """,
    """
    import semver
    semver.Version.parse(3.1)
    """,
    """
    import semver
    raw = b"1.2.3-beta\\xff"
    semver.Version.parse(raw)
    """,
    """
    import semver
    semver.Version(1, 2, -3)
    """,
    """
    import semver
    current = semver.Version.parse("0.9.1")
    current.replace(major=-1)
    """,
    """
    import semver
    semver.Version("1", "2", "3rc1")
    """,
    """
    import semver
    semver.Version("1.2.3")
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3")
    v.major = 2
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3")
    v.minor += 1
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3")
    v.patch = 4
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3-alpha")
    v.prerelease = "beta"
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3+build.1")
    v.build = "build.2"
    """,
    """
    import semver
    semver.Version.parse("1.2.3").compare(1.5)
    """,
    """
    import semver
    semver.Version.parse("1.2.3").compare(None)
    """,
    """
    import semver
    semver.Version.parse("1.2.3").compare({"major": 1, "minr": 2})
    """,
    """
    import semver
    semver.Version.parse("1.2.3").compare([1, -2, 0])
    """,
    """
    import semver
    semver.Version.parse("1.2.3") < "1.3"
    """,
    """
    import semver
    semver.Version.parse("3.4.5").next_version("build")
    """,
    """
    import semver
    semver.Version.parse("3.4.5").next_version(part="micro")
    """,
    """
    import semver
    semver.Version.parse("1.0.0").bump_prerelease("rc_1")
    """,
    """
    import semver
    semver.Version.parse("1.0.0").bump_build("ci/42")
    """,
    """
    import semver
    semver.Version.parse("2.0.0-rc.1").next_version("prerelease", "beta 2")
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3")
    v[-1]
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3")
    v[3]
    """,
    """
    import semver
    v = semver.Version.parse("1.2.3")
    v["major"]
    """,
    """
    import semver
    semver.Version.parse("2.0.0").match("~2.0.0")
    """,
    """
    import semver
    semver.Version.parse("2.0.0").match("=2.0.0")
    """,
    """
    import semver
    semver.Version.parse("1.2.3").replace(majr=2)
    """,
    """
    import semver
    semver.Version.parse("1.2.3").replace(minor="four")
    """,
    """
    import semver
    semver.Version.parse("1.2.3").is_compatible("1.3.0")
    """,
    """
    import semver
    semver.min_ver("1.0.0", ["2", "0", "0"])
    """,
    """
    import semver
    semver.compare("1.0.0", 2)
    """,
    """
    from semver.cli import createparser, process
    args = createparser().parse_args(["check", "1.2"])
    args.parser = None
    process(args)
    """,
    """
    from semver.cli import createparser, process
    args = createparser().parse_args([])
    process(args)
    """,
    """
    from semver.cli import createparser, process
    args = createparser().parse_args(["nextver", "1.2.3", "revision"])
    process(args)
    """,
]
