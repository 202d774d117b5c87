# syntax=docker/dockerfile:1.4
# The images of compose.yaml, installed by the project's own scripts/bootstrap and run by scripts/serve.
#
#   production (the default target, what compose.yaml builds): what the site needs to run and no test
#              tool (`scripts/bootstrap --production`: no chromium, poppler, zbar, nor '.[dev]'); it runs
#              as the account "truco" (uid 10001), never root;
#   test:      the same plus the test tools and the suite, which comes as named build contexts (the build
#              context itself leaves tests/, docs/ and benchmarks/ out: .dockerignore):
#                docker build --target test --build-context tests=tests --build-context docs=docs \
#                  --build-context benchmarks=benchmarks -t truco-test . && docker run --rm truco-test
#              runs the suite (the embedded default: SQLite, no services).
#
# No key is ever in an image: .dockerignore leaves out secrets/, .env*, var/, *.key, *.pem; compose gives
# the seal key as a secret and the rest as environment at run time (tests/ops/test_images.py).
# var/ (the SQLite database if no DATABASE_URL, the collected static files and their stamp, beat's
# schedule, gunicorn's control socket) is a volume: it outlives the container, so a recreated container
# restarts in seconds. Not built by CI (no container runtime there); CI runs the same scripts directly, and
# tests/ops/test_compose.py and tests/ops/test_images.py hold this file and compose.yaml to them.
FROM python:3.12-slim-bookworm AS runtime
WORKDIR /app
COPY . /app
RUN scripts/bootstrap --production && rm -rf /var/lib/apt/lists/* /root/.cache/pip
ENV TRUCO_SKIP_BOOTSTRAP=1 TRUCO_VAR_DIR=/app/var PYTHONUNBUFFERED=1

FROM runtime AS test
RUN scripts/bootstrap && rm -rf /var/lib/apt/lists/* /root/.cache/pip
COPY --from=tests . /app/tests
COPY --from=docs . /app/docs
COPY --from=benchmarks . /app/benchmarks
CMD ["scripts/test"]

FROM runtime AS production
# the site's own account; the volumes' folders exist and are its own, so a new named volume is too (an
# older volume made by a root container: `docker compose run --rm -u root web chown -R truco: /app/var
# /app/media` once)
RUN useradd --system --uid 10001 --user-group --home-dir /app/var --no-create-home truco \
    && mkdir -p /app/var /app/media && chown truco:truco /app/var /app/media
USER truco
VOLUME ["/app/var"]
EXPOSE 8000
CMD ["scripts/serve"]
