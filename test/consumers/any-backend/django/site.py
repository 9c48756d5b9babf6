"""The Django site of the consumer test, in one file: Django's sessions and users on SQLite, a
sign-in for the test, and the token view of views.py. Run: python3 site.py runserver 127.0.0.1:PORT"""
import os
import sys
from pathlib import Path

here = Path(__file__).parent
sys.path[:0] = [str(here), str(here.parent / "python")]

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    SECRET_KEY=os.environ["SITE_SECRET"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions"],
    MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["SITE_DB"]}},
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
)
django.setup()

from django.contrib.auth import login
from django.contrib.auth.models import User
from django.core.management import call_command, execute_from_command_line
from django.http import HttpResponse
from django.urls import path

from views import verify_token


def sign_in(request):
    user, _ = User.objects.get_or_create(username=request.GET["user"])
    login(request, user)
    return HttpResponse(str(user.pk), content_type="text/plain")


urlpatterns = [path("login", sign_in), path("token", verify_token)]

if __name__ == "__main__":
    call_command("migrate", verbosity=0)
    execute_from_command_line(sys.argv)
