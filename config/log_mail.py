"""The error mail to ``ADMINS`` without secrets (the ``mail_admins`` handler of ``config.logs.logging_config``
and ``DEFAULT_EXCEPTION_REPORTER_FILTER``): the keys in its paths cut, as every log line's are
(:func:`config.logs.redact`), and the form fields that hold a PIN, a password, a code or a key cleansed."""
from __future__ import annotations

import re

from django.utils.log import AdminEmailHandler as _DjangoAdminEmailHandler
from django.views.debug import SafeExceptionReporterFilter

from .logs import redact

#: form fields whose value is a secret: cut from an error mail's request (a PIN, a password, a code, a key)
_SECRET_FIELD = re.compile(r"pin|password|code|token|secret|key|current|new|endpoint|p256dh|auth", re.IGNORECASE)


class ReporterFilter(SafeExceptionReporterFilter):
    """Django's error report (the mail to ``ADMINS``) without secrets: the form fields named like a PIN, a
    password, a code or a key cleansed, and every value of the request's environment (``PATH_INFO``,
    ``REQUEST_URI``...) with the keys in its paths cut (:func:`redact`). ``DEFAULT_EXCEPTION_REPORTER_FILTER``."""

    hidden_settings = re.compile("API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|PIN|ENDPOINT", re.IGNORECASE)

    def get_post_parameters(self, request):
        parameters = super().get_post_parameters(request)
        if not parameters:
            return parameters
        cleansed = parameters.copy()
        for name in cleansed:
            if _SECRET_FIELD.search(name):
                cleansed[name] = self.cleansed_substitute
        return cleansed

    def get_safe_request_meta(self, request):
        return {name: redact(value) if isinstance(value, str) else value
                for name, value in super().get_safe_request_meta(request).items()}


class AdminEmailHandler(_DjangoAdminEmailHandler):
    """Django's error mail, its subject and its text with the keys in their paths cut (:func:`redact`): the
    report also names the request's address, which no filter of the report reaches."""

    def send_mail(self, subject, message, *args, **kwargs):
        if kwargs.get("html_message"):
            kwargs["html_message"] = redact(kwargs["html_message"])
        super().send_mail(redact(subject), redact(message), *args, **kwargs)
