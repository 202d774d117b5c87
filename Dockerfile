# The image of compose.yaml: the project installed by its own scripts/bootstrap (Debian
# packages, .venv, translations), run by scripts/serve. Not built by CI (no container
# runtime there); CI runs the same scripts directly.
FROM python:3.12-slim-bookworm
WORKDIR /app
COPY . /app
RUN scripts/bootstrap && rm -rf /var/lib/apt/lists/*
ENV TRUCO_SKIP_BOOTSTRAP=1 TRUCO_VAR_DIR=/app/var PYTHONUNBUFFERED=1
EXPOSE 8000
CMD ["scripts/serve"]
