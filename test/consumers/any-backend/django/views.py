"""A Django site's view for the widgets' session token: the signed-in user and this browser's
session, from Django's own, with session_token from verify.py."""
from django.http import HttpResponse

from verify import session_token


def verify_token(request):
    if not request.session.session_key:
        request.session.save()  # a session from the first visit on, as the widgets need one
    user = str(request.user.pk) if request.user.is_authenticated else None
    return HttpResponse(session_token(user, request.session.session_key), content_type="text/plain", headers={"Cache-Control": "no-store"})
