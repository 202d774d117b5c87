# The images of compose.yaml, installed by the project's own scripts/bootstrap and run by scripts/serve.
#
#   production (the default target, what compose.yaml builds): what the site needs to run and no test
#              tool (`scripts/bootstrap --production`: no chromium, poppler, zbar, nor '.[dev]');
#   test:      the same plus the test tools: `docker build --target test -t truco-test . &&
#              docker run --rm truco-test` runs the suite (the embedded default: SQLite, no services).
#
# var/ (the SQLite database if no DATABASE_URL, the collected static files and their stamp, a seal key
# file if SUMULA_SIGNING_KEY is not set, beat's schedule) is a volume: it outlives the container, so a
# recreated container restarts in seconds and keeps its key. Not built by CI (no container runtime there);
# CI runs the same scripts directly, and tests/ops/test_compose.py holds this file and compose.yaml to them.
FROM python:3.12-slim-bookworm AS runtime
WORKDIR /app
COPY . /app
RUN scripts/bootstrap --production && rm -rf /var/lib/apt/lists/* /root/.cache/pip
ENV TRUCO_SKIP_BOOTSTRAP=1 TRUCO_VAR_DIR=/app/var PYTHONUNBUFFERED=1

FROM runtime AS test
RUN scripts/bootstrap && rm -rf /var/lib/apt/lists/* /root/.cache/pip
CMD ["scripts/test"]

FROM runtime AS production
VOLUME ["/app/var"]
EXPOSE 8000
CMD ["scripts/serve"]
