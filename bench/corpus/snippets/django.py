"""Ordinary code that makes django raise."""

LIBRARY = "django"

SNIPPETS = [
    """
    from django.conf import settings

    if settings.DEBUG:
        print("debug mode")
    """,
    """
    from django.conf import settings

    settings.configure(DEBUG=True)
    settings.configure(DEBUG=False)
    """,
    """
    from django.conf import settings
    from django.db import models

    settings.configure()

    class Book(models.Model):
        title = models.CharField(max_length=100)
    """,
    """
    import django
    from django.conf import settings

    settings.configure(INSTALLED_APPS=[])
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
    """,
    """
    from django.template import Engine

    Engine().from_string("{% if user.is_staff admin %}yes{% endif %}")
    """,
    """
    from django.template import Engine

    Engine().from_string("<ul>{% for item in items %}<li>{{ item }}</li></ul>")
    """,
    """
    from django.template import Engine

    Engine().from_string("{% static 'css/site.css' %}")
    """,
    """
    from django.template import Engine

    Engine().from_string("{{ title|titlecase }}")
    """,
    """
    from django.template import Engine

    Engine().from_string("{% load humanize %}{{ count|intcomma }}")
    """,
    """
    from django.template import Engine

    Engine(dirs=["django_templates"]).get_template("home.html")
    """,
    """
    from django.template import Engine

    Engine().from_string("{{ user._secret }}")
    """,
    """
    from django.template import Engine

    Engine().from_string("{{ price|add }}")
    """,
    """
    from django.template import Engine

    Engine().from_string("<a href='{% url %}'>home</a>")
    """,
    """
    from django.template import Engine

    Engine().from_string("{% block content %}{% endblock %}{% extends 'base.html' %}")
    """,
    """
    from django.template import Engine

    Engine().from_string("{% block title %}A{% endblock %}{% block title %}B{% endblock %}")
    """,
    """
    from django.template import Engine

    Engine().from_string("{% with %}{{ total }}{% endwith %}")
    """,
    """
    from django.template import Engine

    Engine().from_string("<tr class='{% cycle 'odd' %}'></tr>")
    """,
    """
    from django.template import Engine

    Engine().from_string("{% if user and %}hi{% endif %}")
    """,
    """
    from django.template import Context, Engine

    template = Engine().from_string("{% include 'sidebar.html' %}")
    template.render(Context({}))
    """,
    """
    from django.template import Engine

    template = Engine().from_string("Hello {{ name }}")
    template.render({"name": "Ada"})
    """,
    """
    from django.conf import settings
    from django.core.validators import validate_email

    settings.configure(USE_I18N=False)
    validate_email("ada.lovelace@")
    """,
    """
    from django.conf import settings
    from django.core.validators import URLValidator

    settings.configure(USE_I18N=False)
    URLValidator()("htp://example.com")
    """,
    """
    from django.conf import settings
    from django.core.validators import validate_ipv4_address

    settings.configure(USE_I18N=False)
    validate_ipv4_address("192.168.1.300")
    """,
    """
    from django.conf import settings
    from django.core.validators import MaxValueValidator

    settings.configure(USE_I18N=False)
    MaxValueValidator(100)(150)
    """,
    """
    from django.conf import settings
    from django.core.validators import MinLengthValidator

    settings.configure(USE_I18N=False)
    MinLengthValidator(8)("hunter2")
    """,
    """
    from django.conf import settings
    from django.core.validators import validate_slug

    settings.configure(USE_I18N=False)
    validate_slug("my first post")
    """,
    """
    from decimal import Decimal
    from django.conf import settings
    from django.core.validators import DecimalValidator

    settings.configure(USE_I18N=False)
    DecimalValidator(max_digits=5, decimal_places=2)(Decimal("1234.567"))
    """,
    """
    import django
    from django.conf import settings
    from django import forms

    settings.configure()
    django.setup()
    forms.IntegerField().clean("twelve")
    """,
    """
    import django
    from django.conf import settings
    from django import forms

    settings.configure()
    django.setup()
    forms.EmailField().clean("")
    """,
    """
    import django
    from django.conf import settings
    from django import forms

    settings.configure()
    django.setup()
    forms.ChoiceField(choices=[("s", "Small"), ("m", "Medium")]).clean("xl")
    """,
    """
    import django
    from django.conf import settings
    from django import forms

    settings.configure()
    django.setup()
    forms.DateField().clean("31/02/2024")
    """,
    """
    import django
    from django.conf import settings
    from django import forms

    settings.configure()
    django.setup()

    class ContactForm(forms.Form):
        name = forms.CharField()

    form = ContactForm({"name": "Ada"})
    form.is_valid()
    form.add_error("email", "Invalid email")
    """,
    """
    import django
    from django.conf import settings
    from django import forms

    settings.configure()
    django.setup()

    class ContactForm(forms.Form):
        name = forms.CharField()
        email = forms.EmailField()

    ContactForm()["phone"]
    """,
    """
    import sys, types
    import django
    from django.conf import settings
    from django.urls import path, reverse

    settings.configure(ROOT_URLCONF="mysite.urls")
    django.setup()
    urls = types.ModuleType("mysite.urls")
    urls.urlpatterns = [path("blog/", lambda request: None, name="blog-index")]
    sys.modules["mysite.urls"] = urls
    reverse("blog-detail")
    """,
    """
    import sys, types
    import django
    from django.conf import settings
    from django.urls import path, reverse

    settings.configure(ROOT_URLCONF="mysite.urls")
    django.setup()
    urls = types.ModuleType("mysite.urls")
    urls.urlpatterns = [path("posts/<int:pk>/", lambda request, pk: None, name="post")]
    sys.modules["mysite.urls"] = urls
    reverse("post")
    """,
    """
    import sys, types
    import django
    from django.conf import settings
    from django.urls import path, reverse

    settings.configure(ROOT_URLCONF="mysite.urls")
    django.setup()
    urls = types.ModuleType("mysite.urls")
    urls.urlpatterns = [path("posts/<int:pk>/", lambda request, pk: None, name="post")]
    sys.modules["mysite.urls"] = urls
    reverse("post", args=[1], kwargs={"pk": 1})
    """,
    """
    import sys, types
    import django
    from django.conf import settings
    from django.urls import path, reverse

    settings.configure(ROOT_URLCONF="mysite.urls")
    django.setup()
    urls = types.ModuleType("mysite.urls")
    urls.urlpatterns = [path("posts/", lambda request: None, name="post-list")]
    sys.modules["mysite.urls"] = urls
    reverse("blog:post-list")
    """,
    """
    import sys, types
    import django
    from django.conf import settings
    from django.urls import path, resolve

    settings.configure(ROOT_URLCONF="mysite.urls")
    django.setup()
    urls = types.ModuleType("mysite.urls")
    urls.urlpatterns = [path("about/", lambda request: None, name="about")]
    sys.modules["mysite.urls"] = urls
    resolve("/contact/")
    """,
    """
    from django.urls import path

    def profile(request, user_id):
        pass

    urlpatterns = [path("users/<uid:user_id>/", profile)]
    """,
    """
    from django.urls import path

    urlpatterns = [path("", "views.index", name="index")]
    """,
    """
    from django.urls import include, path

    urlpatterns = [path("blog/", include(("blog.urls", "blog", "blog-ns")))]
    """,
    """
    from django.urls import include, path

    urlpatterns = [path("shop/", include([], namespace="shop"))]
    """,
    """
    from django.conf import settings
    from django.core import signing

    settings.configure(SECRET_KEY="s3cr3t")
    signing.loads("eyJ1c2VyIjoxfQ")
    """,
    """
    from django.conf import settings
    from django.core.signing import Signer

    settings.configure(SECRET_KEY="s3cr3t")
    Signer().unsign("user-42:forgedsignature")
    """,
    """
    from django.conf import settings
    from django.core.signing import Signer

    settings.configure(SECRET_KEY="s3cr3t")
    Signer(sep="a")
    """,
    """
    from django.conf import settings
    from django.core.signing import Signer

    settings.configure(SECRET_KEY="")
    Signer().sign("user-42")
    """,
    """
    from django.utils.dateparse import parse_date

    parse_date("2024-02-30")
    """,
    """
    from django.utils.dateparse import parse_datetime

    parse_datetime("2024-13-01T10:00:00")
    """,
    """
    from django.utils.text import get_valid_filename

    get_valid_filename("..")
    """,
    """
    from django.utils.http import urlsafe_base64_decode

    urlsafe_base64_decode("MQ=x")
    """,
    """
    from django.utils.http import int_to_base36

    int_to_base36(-5)
    """,
    """
    from django.utils.http import base36_to_int

    base36_to_int("z" * 20)
    """,
    """
    import datetime
    from django.conf import settings
    from django.utils import timezone

    settings.configure(USE_TZ=True, TIME_ZONE="UTC")
    timezone.make_aware(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    """,
    """
    import datetime
    from django.conf import settings
    from django.utils import timezone

    settings.configure(USE_TZ=True, TIME_ZONE="UTC")
    timezone.make_naive(datetime.datetime(2024, 1, 1, 12, 0))
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import connection, models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    with connection.schema_editor() as editor:
        editor.create_model(Book)
    Book.objects.get(pk=1)
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import connection, models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    with connection.schema_editor() as editor:
        editor.create_model(Book)
    Book.objects.create(title="Dune"); Book.objects.create(title="Dune")
    Book.objects.get(title="Dune")
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    Book.objects.count()
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        author = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    list(Book.objects.filter(titel="Dune"))
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    list(Book.objects.order_by("-published"))
    """,
    """
    import django
    from django.conf import settings
    settings.configure()
    django.setup()
    from django.db import models

    class Book(models.Model):
        author = models.ForeignKey(123, on_delete=models.CASCADE)
        class Meta:
            app_label = "library"
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    Book.objects.in_bulk(["Dune", "Emma"], field_name="title")
    """,
    """
    import django
    from django.conf import settings
    settings.configure()
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    Book(titel="Dune")
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import connection, models

    class Book(models.Model):
        pages = models.IntegerField()
        class Meta:
            app_label = "library"

    with connection.schema_editor() as editor:
        editor.create_model(Book)
    Book(pages="many").save()
    """,
    """
    import django
    from django.conf import settings
    settings.configure()
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        isbn = models.CharField(max_length=13)
        class Meta:
            app_label = "library"

    Book(title="", isbn="978-0441013593").full_clean()
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    last = Book.objects.all()[-1]
    """,
    """
    import django
    from django.conf import settings
    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}})
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    Book.objects.all()[:10].filter(title__startswith="D")
    """,
    """
    import django
    from django.conf import settings
    settings.configure()
    django.setup()
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    Book(title="Dune").objects.all()
    """,
    """
    import django
    from django.conf import settings
    settings.configure()
    django.setup()
    from django.db.models import Q

    Q(title="Dune") | "author=Herbert"
    """,
    """
    from django.conf import settings
    from django.core.paginator import Paginator

    settings.configure(USE_I18N=False)
    Paginator(list(range(30)), 10).page(5)
    """,
    """
    from django.conf import settings
    from django.core.paginator import Paginator

    settings.configure(USE_I18N=False)
    Paginator(list(range(30)), 10).page("last")
    """,
    """
    from django.conf import settings
    from django.core.paginator import Paginator

    settings.configure(USE_I18N=False)
    Paginator(list(range(30)), 10).page(0)
    """,
    """
    import django
    from django.conf import settings
    from django.core import serializers

    settings.configure()
    django.setup()
    serializers.serialize("csv", [])
    """,
    """
    import django
    from django.conf import settings
    from django.core.management import call_command

    settings.configure()
    django.setup()
    call_command("runserverr")
    """,
    """
    import django
    from django.conf import settings
    from django.core.management import call_command

    settings.configure()
    django.setup()
    call_command("check", "--verbose")
    """,
    """
    import django
    from django.conf import settings
    from django.core.cache import caches

    settings.configure(CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCachee"}})
    django.setup()
    caches["default"]
    """,
    """
    import django
    from django.conf import settings
    from django.db import connections

    settings.configure()
    django.setup()
    connections["replica"]
    """,
    """
    import django
    from django.apps import apps
    from django.conf import settings

    settings.configure(INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth"])
    django.setup()
    apps.get_model("auth.Profile")
    """,
    """
    import django
    from django.apps import apps
    from django.conf import settings

    settings.configure(INSTALLED_APPS=["django.contrib.contenttypes"])
    django.setup()
    apps.get_app_config("blog")
    """,
    """
    import django
    from django.conf import settings
    from django.http import JsonResponse

    settings.configure()
    django.setup()
    JsonResponse([1, 2, 3])
    """,
    """
    import django
    from django.conf import settings
    from django.http import HttpResponse

    settings.configure()
    django.setup()
    HttpResponse("created", status=2010)
    """,
    """
    import django
    from django.conf import settings
    from django.http import HttpResponse

    settings.configure()
    django.setup()
    HttpResponse("ok", status="200 OK")
    """,
    """
    import django
    from django.conf import settings
    from django.http import HttpResponse

    settings.configure()
    django.setup()
    response = HttpResponse("ok")
    response["X-Note"] = "first line\\nsecond line"
    """,
    """
    import django
    from django.conf import settings
    from django.http import QueryDict

    settings.configure()
    django.setup()
    params = QueryDict("page=1")
    params["page"] = "2"
    """,
    """
    from django.utils.datastructures import MultiValueDict

    data = MultiValueDict({"name": ["Ada"]})
    data["email"]
    """,
    """
    from django.utils.module_loading import import_string

    import_string("django.core.mail.backends.smtp.SmtpBackend")
    """,
    """
    from django.utils.module_loading import import_string

    import_string("EmailBackend")
    """,
    """
    import django
    from django.conf import settings
    settings.configure()
    django.setup()
    from django import forms
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    class BookForm(forms.ModelForm):
        class Meta:
            model = Book
    """,
    """
    import django
    from django.conf import settings
    settings.configure()
    django.setup()
    from django import forms
    from django.db import models

    class Book(models.Model):
        title = models.CharField(max_length=100)
        class Meta:
            app_label = "library"

    class BookForm(forms.ModelForm):
        class Meta:
            model = Book
            fields = ["title", "subtitle"]
    """,
    """
    import datetime
    from django.conf import settings
    from django.utils import dateformat

    settings.configure()
    dateformat.format(datetime.date(2024, 5, 1), "Y-m-d H:i")
    """,
    """
    from django.template import Context

    context = Context({"user": "ada"})
    context.push({"item": 1})
    context.pop()
    context.pop()
    context.pop()
    """,
    """
    import django
    from django.conf import settings

    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.sqlite"}})
    django.setup()
    from django.db import connection
    connection.cursor()
    """,
    """
    import django
    from django.conf import settings

    settings.configure(DATABASES={"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "shop"}})
    django.setup()
    from django.db import connection
    connection.cursor()
    """,
    """
    import django
    from django.conf import settings

    settings.configure()
    django.setup()
    from django.db import connection
    connection.cursor()
    """,
]
