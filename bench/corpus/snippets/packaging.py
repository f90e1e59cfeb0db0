"""Ordinary code that makes packaging raise."""

LIBRARY = "packaging"

SNIPPETS = [
    """
    from packaging.version import Version
    Version("1.0-final!")
    """,
    """
    from packaging.specifiers import SpecifierSet
    SpecifierSet(">=1.0,<<2")
    """,
    """
    from packaging.requirements import Requirement
    Requirement("requests[security")
    """,
    """
    from packaging.markers import Marker
    Marker("python_version >> '3.8'")
    """,
    """
    from packaging.markers import Marker
    Marker("platform_python == 'cpython'")
    """,
    """
    from packaging.utils import parse_wheel_filename
    parse_wheel_filename("requests.whl")
    """,
    """
    from packaging.utils import parse_wheel_filename
    parse_wheel_filename("requests-latest-py3-none-any.whl")
    """,
    """
    from packaging.utils import parse_wheel_filename
    parse_wheel_filename("requests-2.31.0-py3-none-any.zip")
    """,
    """
    from packaging.utils import parse_wheel_filename
    parse_wheel_filename("requests-2.31.0-nightly-py3-none-any.whl")
    """,
    """
    from packaging.utils import parse_sdist_filename
    parse_sdist_filename("requests-2.31.0.tar.bz2")
    """,
    """
    from packaging.utils import parse_sdist_filename
    parse_sdist_filename("requests.tar.gz")
    """,
    """
    from packaging.specifiers import Specifier
    Specifier("~=2")
    """,
    """
    from packaging.metadata import Metadata
    Metadata.from_raw({"metadata_version": "9.9", "name": "demo"})
    """,
    """
    from packaging.metadata import Metadata
    Metadata.from_email("Metadata-Version: 2.1\\nName: demo\\nVersion: one point oh\\n")
    """,
    """
    from packaging.licenses import canonicalize_license_expression
    canonicalize_license_expression("MIT and")
    """,
    """
    from packaging.licenses import canonicalize_license_expression
    canonicalize_license_expression("Apache-2.0 OR Totally-Free-License")
    """,
    """
    from packaging.requirements import Requirement
    Requirement("flask>=2.0; python_version >= '3.8' and")
    """,
    """
    from packaging.requirements import Requirement
    Requirement("django ==4.2 ; os_name == 'nt' extra")
    """,
    """
    from packaging.utils import canonicalize_name
    canonicalize_name("-my-package-", validate=True)
    """,
    """
    from packaging.version import Version
    Version("2024.01.15+local..build")
    """,
]
