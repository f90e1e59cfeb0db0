"""Ordinary code that makes HTTPX raise before any connection is opened."""

LIBRARY = "httpx"

SNIPPETS = [
    """
    import httpx
    httpx.get("example.com/api/v1/users")
    """,
    """
    import httpx
    httpx.get("ftp://files.example.com/report.csv")
    """,
    """
    import httpx
    httpx.URL("http://[::1/status")
    """,
    """
    import httpx
    request = httpx.Request("GET", "https://api.example.com/items/7")
    httpx.Response(404, request=request).raise_for_status()
    """,
    """
    import httpx
    request = httpx.Request("POST", "https://api.example.com/orders")
    httpx.Response(503, request=request).raise_for_status()
    """,
    """
    import httpx
    httpx.Response(200, content=b"<html>Maintenance</html>").json()
    """,
    """
    import httpx
    httpx.Response(200).request
    """,
    """
    import httpx
    httpx.Headers({"X-Retry": 3})
    """,
    """
    import httpx
    httpx.Timeout()
    """,
    """
    import httpx
    httpx.Client(proxy="socks5://proxy.internal:1080")
    """,
    """
    import httpx
    httpx.Client(proxy="gopher://proxy.internal:70")
    """,
    """
    import httpx
    httpx.Client(http2=True)
    """,
    """
    import httpx
    httpx.Request("POST", "https://api.example.com/upload", content=12345)
    """,
    """
    import httpx
    cookies = httpx.Cookies()
    cookies.set("session", "1", domain="a.example.com")
    cookies.set("session", "2", domain="b.example.com")
    cookies["session"]
    """,
    """
    import httpx
    httpx.Cookies()["csrftoken"]
    """,
    """
    import httpx
    httpx.URL("https://api.example.com").copy_with(port="8443")
    """,
    """
    import httpx
    httpx.URL("https://api.example.com", fragmen="top")
    """,
    """
    import httpx
    httpx.get("https://api.example.com", auth=12345)
    """,
    """
    import httpx
    httpx.URL("https://api.example.com/" + "a" * 70000)
    """,
    """
    import httpx
    httpx.URL("https://api.example.com").join(404)
    """,
    """
    import httpx

    def chunks():
        yield b"data"

    request = httpx.Request("POST", "https://api.example.com/upload", content=chunks())
    list(request.stream)
    list(request.stream)
    """,
    """
    import httpx
    client = httpx.Client()
    client.close()
    client.get("https://api.example.com/health")
    """,
    """
    import httpx
    httpx.Response(500).raise_for_status()
    """,
]
