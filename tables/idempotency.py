"""Idempotent writes (the ``Idempotency-Key`` header of the IETF draft
draft-ietf-httpapi-idempotency-key-header): a phone whose Wi-Fi dropped the reply sends the
same request again, and the server must do its work once.

:class:`IdempotentAPIView` is the one mechanism, the base of every write endpoint of scoring
and referee. For a POST/PUT/PATCH/DELETE carrying ``Idempotency-Key``:

- the request runs in one transaction: the first request by a credential (a user, a table link,
  or an anonymous player) with that key claims an :class:`~tables.models.IdempotencyRecord` by
  creating it in a savepoint (the unique constraint on (credential, key) refuses a second: never a
  check-then-write), runs, and stores its response, and all of it commits at once (one commit
  per entry). A concurrent repeat's insert waits on PostgreSQL for that commit, then finds the
  stored response and replays it: the work is done once. A 5xx (or a crash) rolls the claim
  back with the work, so the client may retry;
- a repeat with the same method, path and body gets that first response back
  (``Idempotent-Replayed: true``) and writes nothing; a refusal (4xx) is not kept: it wrote nothing,
  and the same key sent again once its cause is gone (the right PIN after a wrong one) is heard;
- the same key with another body (or another endpoint) is refused with 422;
- a claim without a stored answer (only where the database does not wait, or a record left by an
  older version) gets 409 ("retry later"), or is taken over after :data:`STALE`: a hand entry
  carries its expected position, so if the first did write, the retry gets 409, not a second hand.

A view whose work refuses a repeat by itself may claim **after** its work instead
(``claim_after_work``: the hand entry, which carries the position it expects, so a repeat that
waited for the first one's commit is refused as behind): its claim is one insert with the answer
already in it, at the end of the transaction. A claim that finds the key taken rolls the work back
and answers from the stored record (the replay, or 422): the work is still done once, with one
statement fewer on every entry.

No secret can be read back from a stored record: the request's digest is a keyed
HMAC-SHA256 (a key derived from ``SECRET_KEY``) of the method, path and body **with its PIN and
one-time-code fields removed** (:data:`SECRET_FIELDS`), so a backup of the table does not let anyone
brute-force a 4–6 digit PIN; and a view whose answer carries a one-time code stores, instead of that
answer, a refusal (``secret_response_fields``: a replay gets **410** "the code was shown once: ask for
a new one").

Records are kept :data:`KEEP` (24 hours) at least; :func:`purge` removes older ones
(``tables.tasks.purge_idempotency_keys``).
"""
from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from urllib.parse import parse_qsl, urlencode

from django.db import IntegrityError, transaction
from django.http import HttpResponse, RawPostDataException
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import error_body

from .models import IdempotencyRecord

HEADER = "HTTP_IDEMPOTENCY_KEY"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEEP = timedelta(hours=24)
STALE = timedelta(seconds=60)
MAX_KEY = 255
HASH_SALT = "scoring.idempotency.request_hash"  # salted_hmac's key: this and SECRET_KEY (named after the
# module's first home: the keys stored before the move keep their digests)
# Fields of a request body that carry a PIN, a password or a one-time code: left out of the digest.
# ``code`` is the one-time code of a signature or an appeal when it is digits; a claim's ``code`` names
# the infraction ("guidance_word") and stays.
SECRET_FIELDS = frozenset({"pin", "new_pin", "current_pin", "old_pin", "code_once", "one_time_code",
                           "password", "password1", "password2", "new_password", "old_password"})
_SECRET_MARKS = (b"pin", b"code", b"password")


class _Answer(Exception):
    """Stop before the handler and answer this (a replay or a refusal)."""

    def __init__(self, response) -> None:
        super().__init__("idempotency")
        self.response = response


def credential_of(request) -> str:
    return credential_of_actor(request.user)


def credential_of_actor(actor) -> str:
    """Whose key it is: a table link, a user, or "anonymous"."""
    link = getattr(actor, "table_link", None)
    if link is not None:
        return f"table:{link.pk}"
    if actor is not None and actor.is_authenticated:
        return f"user:{actor.pk}"
    return "anonymous"


def request_hash(request) -> str:
    """Which request a key was used for: HMAC-SHA256 (keyed by ``SECRET_KEY``) of the method, the path
    and the body without its secret fields (:func:`without_secrets`); 64 hex digits."""
    message = b"\0".join((request.method.encode(), request.path.encode(),
                          _body_of(getattr(request, "_request", request))))
    return salted_hmac(HASH_SALT, message, algorithm="sha256").hexdigest()


def legacy_request_hash(request) -> str:
    """The digest of records stored before requests were keyed (unkeyed SHA-256 of the method, the path and the
    raw body): compared with a record that differs, never stored, so that a phone's repeat across the
    deploy still gets its answer, not 422. Such records are purged within :data:`KEEP`."""
    raw = getattr(request, "_request", request)
    try:
        body = raw.body or b""
    except RawPostDataException:
        parts = [repr(sorted(raw.POST.lists())).encode()]
        for name, files in sorted(raw.FILES.lists()):
            for upload in files:
                upload.seek(0)
                parts.append(f"{name}:{upload.name}:".encode() + hashlib.sha256(upload.read()).digest())
                upload.seek(0)
        body = b"\0".join(parts)
    return hashlib.sha256(request.method.encode() + b"\0" + request.path.encode() + b"\0" + body).hexdigest()


def _same_request(record: IdempotencyRecord, digest: str, request=None) -> bool:
    """Whether ``record`` was stored for this request: its digest, or the older format's."""
    if record.request_hash == digest:
        return True
    return request is not None and record.request_hash == legacy_request_hash(request)


def is_secret(name: str, value: object) -> bool:
    """A field that carries a PIN, a password or a one-time code (:data:`SECRET_FIELDS`)."""
    return name in SECRET_FIELDS or (name == "code" and isinstance(value, str) and value.strip().isdigit())


def _strip(data: object) -> object:
    if isinstance(data, dict):
        return {k: _strip(v) for k, v in data.items() if not is_secret(k, v)}
    if isinstance(data, list):
        return [_strip(v) for v in data]
    return data


def without_secrets(body: bytes, content_type: str = "") -> bytes:
    """``body`` with its secret fields removed (JSON objects, at any depth, and urlencoded forms); a body
    that names none is returned as it is (a hand's body: no parsing on the hot path)."""
    lowered = body.lower()
    if not body or not any(mark in lowered for mark in _SECRET_MARKS):
        return body
    if "urlencoded" in content_type:
        pairs = parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
        return b"form:" + urlencode([(k, v) for k, v in pairs if not is_secret(k, v)]).encode()
    try:
        data = json.loads(body)
    except ValueError:  # not JSON (the API refuses it): nothing to keep apart, but no secret kept either
        return b"unreadable:" + hashlib.sha256(body).digest()
    return b"json:" + json.dumps(_strip(data), sort_keys=True, separators=(",", ":")).encode()


def _body_of(request) -> bytes:
    """The body without its secret fields; for a form already parsed from its stream (the CSRF check and
    the edge middleware read multipart forms), its fields and its files' contents, in a stable order."""
    try:
        return without_secrets(request.body or b"", request.META.get("CONTENT_TYPE", ""))
    except RawPostDataException:
        fields = [(k, [v for v in values if not is_secret(k, v)]) for k, values in sorted(request.POST.lists())]
        parts = [repr(fields).encode()]
        for name, files in sorted(request.FILES.lists()):
            for upload in files:
                upload.seek(0)
                parts.append(f"{name}:{upload.name}:".encode() + hashlib.sha256(upload.read()).digest())
                upload.seek(0)
        return b"\0".join(parts)


def _error(status: int, message: str) -> Response:
    return Response(error_body("Idempotency-Key", message), status=status)


def _insert(credential: str, key: str, digest: str, status: int | None = None, content_type: str = "",
            body: str = "", savepoint: bool = True) -> int | None:
    """Insert the record (its answer to come, or given); its id, or None when (credential, key) exists
    already: the unique constraint decides, never a check-then-write (on PostgreSQL a concurrent claim
    waits for the first one's commit, then fails). The savepoint keeps the request's transaction usable
    after a refusal; without it (``savepoint=False``) a refusal leaves the transaction to be rolled back,
    as the claim after the work does (:func:`store`)."""
    record = IdempotencyRecord(credential=credential, key=key, request_hash=digest, status=status,
                               content_type=content_type, body=body)
    try:
        if not savepoint:
            record.save(force_insert=True)
            return record.pk
        with transaction.atomic():
            record.save(force_insert=True)
            return record.pk
    except IntegrityError:
        return None


def _replay(record: IdempotencyRecord) -> HttpResponse:
    response = HttpResponse(record.body, status=record.status, content_type=record.content_type or None)
    response["Idempotent-Replayed"] = "true"
    return response


class PendingClaim:
    """The key of a write that claims it after its work (``claim_after_work``). ``answer``, when the
    view sets it, gives the work's answer before the work writes (``answer(result) -> JSON bytes``, a
    201), so that the work's own write claims the key with it (``stored``: the body so stored);
    otherwise the view's answer is stored once it is known (:func:`store`)."""

    def __init__(self, credential: str, key: str, digest: str, request=None) -> None:
        self.credential, self.key, self.digest = credential, key, digest
        self.request = request  # for a record stored in the older digest format (legacy_request_hash)
        self.answer = None
        self.stored: bytes | None = None

    def insert(self, status: int, content_type: str, body: str) -> int | None:
        """The claim with its answer, at the end of the work's transaction: a refusal rolls the work back
        (:class:`KeyTaken`), so no savepoint (:func:`_insert`)."""
        return _insert(self.credential, self.key, self.digest, status, content_type, body, savepoint=False)


def claim_of(request) -> tuple[str, str, str] | None:
    """``(credential, key, request hash)`` of a write carrying ``Idempotency-Key``, None without one;
    raises :class:`_Answer` (400) for a key that is empty or too long."""
    if request.method not in WRITES:
        return None
    key = request.META.get(HEADER)
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY:
        raise _Answer(_error(400, _("An Idempotency-Key is 1 to 255 characters.")))
    return credential_of(request), key, request_hash(request)


def begin(request) -> int | None:
    """Claim the key of ``request``: the record's id to complete, None without a key; raises
    :class:`_Answer` with the replay or the refusal."""
    claim = claim_of(request)
    if claim is None:
        return None
    credential, key, digest = claim
    record_id = _insert(credential, key, digest)
    if record_id is not None:
        return record_id
    record = IdempotencyRecord.objects.filter(credential=credential, key=key).first()
    if record is None:  # purged between the two statements: claim again
        record_id = _insert(credential, key, digest)
        if record_id is not None:
            return record_id
        raise _Answer(_error(409, _("A request with this Idempotency-Key is being processed: retry in a moment.")))
    if record.status is None and _same_request(record, digest, request):
        now = timezone.now()
        if record.created_at < now - STALE and IdempotencyRecord.objects.filter(
                pk=record.pk, status__isnull=True, created_at=record.created_at).update(created_at=now):
            return record.pk  # the first request died without answering: this one takes over
    raise _Answer(_answer_of_record(record, digest, request))


def complete(record_id: int, response, content: tuple[int, str, str] | None = None) -> None:
    """Store the first response, or ``content`` in its place. A refusal (4xx) or a 5xx is forgotten: it
    wrote nothing, and the client may send the same key again once the cause is gone (the right PIN
    after a wrong one)."""
    if response.status_code >= 400:
        IdempotencyRecord.objects.filter(pk=record_id).delete()
        return
    status, content_type, body = content or _content(response)
    IdempotencyRecord.objects.filter(pk=record_id).update(status=status, content_type=content_type, body=body)


def _content(response) -> tuple[int, str, str]:
    if hasattr(response, "render") and not getattr(response, "is_rendered", True):
        response.render()
    return response.status_code, response.get("Content-Type", ""), response.content.decode("utf-8", "replace")


class KeyTaken(Exception):
    """The key was claimed by another request (a repeat that got there first): roll the work back."""

    def __init__(self, claim: PendingClaim) -> None:
        super().__init__("idempotency key taken")
        self.claim = claim


def store(claim: PendingClaim, response, content: tuple[int, str, str] | None = None) -> None:
    """Claim the key with its answer, after the work (one statement); raises :class:`KeyTaken` when
    the key is taken. A 5xx is not stored: the client may retry with the same key. Nor is a refusal
    (4xx), which wrote nothing; but a refusal because another request with the key got there first
    (a repeat refused as behind, after waiting for the first one's commit) answers with that one's
    stored answer."""
    if response.status_code >= 500:
        return
    if response.status_code >= 400:
        if IdempotencyRecord.objects.filter(credential=claim.credential, key=claim.key).exists():
            raise KeyTaken(claim)
        return
    if claim.insert(*(content or _content(response))) is None:
        raise KeyTaken(claim)


def answer_of_taken(claim: PendingClaim):
    """The answer to a request whose key another request holds: its stored answer replayed, 422 for
    another request under the same key, 409 while it has no answer yet."""
    return _answer_of_record(IdempotencyRecord.objects.filter(credential=claim.credential, key=claim.key).first(),
                             claim.digest, claim.request)


def _answer_of_record(record: IdempotencyRecord | None, digest: str, request=None):
    """The answer to a request whose key ``record`` holds: 422 for another request under the same key,
    its stored answer replayed, 409 while it has none yet. A record in the older digest format is
    compared in that format (``request``), so a legitimate repeat across the deploy is replayed."""
    if record is not None and not _same_request(record, digest, request):
        return _error(422, _("This Idempotency-Key was used for another request: use a new key for a new entry."))
    if record is not None and record.status is not None:
        return _replay(record)
    return _error(409, _("A request with this Idempotency-Key is being processed: retry in a moment."))


def shown_once() -> Response:
    """What a repeat of a request that issued a one-time code gets (410): the code is not kept."""
    response = _error(410, _("The one-time code was shown once and is not kept: if you did not see it, ask for "
                             "a new code (use a new Idempotency-Key)."))
    response.accepted_renderer = JSONRenderer()
    response.accepted_media_type = "application/json"
    response.renderer_context = {}
    return response


def purge(now=None) -> int:
    """Forget the keys older than :data:`KEEP`; the number removed."""
    now = now or timezone.now()
    return IdempotencyRecord.objects.filter(created_at__lt=now - KEEP).delete()[0]


class IdempotentAPIView(APIView):
    """An APIView whose writes honour ``Idempotency-Key`` (see the module)."""

    _idempotency_record = None
    pending_claim: PendingClaim | None = None  # with claim_after_work: the key the work may claim itself
    honours_idempotency_key = True  # the schema documents the header and the 422 (config/schema.py)
    claim_after_work = False  # see the module: only for work that refuses a repeat by itself
    # fields of a successful answer that carry a secret shown once (a one-time code): such an answer is
    # not stored; a replay gets :func:`shown_once` instead
    secret_response_fields: tuple[str, ...] = ()

    def stored_content(self, response) -> tuple[int, str, str] | None:
        """What to store for ``response`` in its place, None to store it as it is."""
        data = getattr(response, "data", None)
        if (self.secret_response_fields and response.status_code < 300 and isinstance(data, dict)
                and any(data.get(name) for name in self.secret_response_fields)):
            return _content(shown_once())
        return None

    def dispatch(self, request, *args, **kwargs):
        if request.method in WRITES and request.META.get(HEADER) is not None:
            try:
                with transaction.atomic():  # the claim, the work and the stored answer commit together
                    return super().dispatch(request, *args, **kwargs)
            except KeyTaken as taken:  # claimed after the work, by a repeat that got there first: rolled back
                return super().finalize_response(request, answer_of_taken(taken.claim), *args, **kwargs)
        return super().dispatch(request, *args, **kwargs)

    def initial(self, request, *args, **kwargs):
        self._idempotency_record = self.pending_claim = None
        super().initial(request, *args, **kwargs)  # authentication and permissions first
        if not hasattr(self, request.method.lower()):  # a method the view has not: its 405, no key claimed
            return
        if self.claim_after_work:
            claim = claim_of(request)
            self.pending_claim = PendingClaim(*claim, request=request) if claim is not None else None
        else:
            self._idempotency_record = begin(request)

    def handle_exception(self, exc):
        if isinstance(exc, _Answer):
            return exc.response
        if isinstance(exc, KeyTaken):
            raise exc  # the work is rolled back; dispatch answers from the stored record
        try:
            return super().handle_exception(exc)
        except Exception:  # a server error: forget the claim so that the client may retry
            if self._idempotency_record is not None:
                IdempotencyRecord.objects.filter(pk=self._idempotency_record).delete()
                self._idempotency_record = None
            raise

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if self._idempotency_record is not None or self.pending_claim is not None:
            if transaction.get_rollback():  # the work failed inside (a 404 from an inner block): nothing is kept
                self._idempotency_record = self.pending_claim = None
                return response
        record_id, self._idempotency_record = self._idempotency_record, None
        if record_id is not None:
            complete(record_id, response, self.stored_content(response))
        claim, self.pending_claim = self.pending_claim, None
        if claim is not None and claim.stored is None:
            store(claim, response, self.stored_content(response))  # KeyTaken rolls the work back (dispatch answers)
        return response
