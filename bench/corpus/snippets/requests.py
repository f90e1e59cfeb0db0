"""Ordinary code that makes requests raise before any connection is opened."""

LIBRARY = "requests"

SNIPPETS = [
    """
    import requests
    requests.get("example.com/api/v1/users")
    """,
    """
    import requests
    requests.get("ftp://files.example.com/report.csv")
    """,
    """
    import requests
    requests.get("http://")
    """,
    """
    import requests
    requests.get("http://[::1/status")
    """,
    """
    import requests
    requests.Request("GET", "http://api.example.com", headers={"X-Retry": 3}).prepare()
    """,
    """
    import requests
    headers = {"X-Token": "abc\\r\\nInjected: 1"}
    requests.Request("GET", "http://api.example.com", headers=headers).prepare()
    """,
    """
    import requests
    response = requests.Response()
    response.status_code = 404
    response.reason = "Not Found"
    response.url = "https://api.example.com/items/7"
    response.raise_for_status()
    """,
    """
    import requests
    response = requests.Response()
    response.status_code = 503
    response.reason = "Service Unavailable"
    response.url = "https://api.example.com/health"
    response.raise_for_status()
    """,
    """
    import requests
    response = requests.Response()
    response.status_code = 200
    response._content = b"<html><body>Maintenance</body></html>"
    response.json()
    """,
    """
    import requests
    requests.get("http://api.example.com", timeout=(1, 2, 3))
    """,
    """
    import requests
    requests.get("https://api.example.com", verify="/nonexistent/ca-bundle.pem")
    """,
    """
    import requests
    requests.get("https://api.example.com", cert="/nonexistent/client.pem")
    """,
    """
    import requests
    requests.Request("POST", "http://api.example.com", data="raw", files={"f": b"1"}).prepare()
    """,
    """
    from requests.cookies import RequestsCookieJar
    jar = RequestsCookieJar()
    jar.set("session", "1", domain="a.example.com")
    jar.set("session", "2", domain="b.example.com")
    jar["session"]
    """,
    """
    from requests.cookies import RequestsCookieJar
    RequestsCookieJar()["csrftoken"]
    """,
    """
    from requests.utils import to_key_val_list
    to_key_val_list(42)
    """,
    """
    import requests
    requests.get("http://api.example.com", proxies={"http": "socks5://proxy.internal:1080"})
    """,
    """
    import requests
    response = requests.Response()
    response._content = False
    response._content_consumed = True
    list(response.iter_content())
    """,
    """
    import requests
    requests.get("http://api.example.com:99999/")
    """,
    """
    import requests
    files = {"upload": ("a.txt", b"data", "text/plain", {}, "extra")}
    requests.Request("POST", "http://api.example.com", files=files).prepare()
    """,
    """
    import requests
    requests.get("http://api.example.com", timeout="soon")
    """,
]
