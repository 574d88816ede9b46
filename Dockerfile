# Rummy for Discord: the image (docs/deploy.md). Two stages: the first installs the project into a
# virtualenv (where a compiler would go, were a wheel missing); the second is a slim Python with that
# virtualenv only, run as a non-root user. tests/test_ops_files.py lints this file with hadolint and
# runs the build stage's install steps in a fresh virtualenv; keep them plain `RUN a && b` lines.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY renderers ./renderers
COPY activity ./activity
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir .

FROM python:3.11-slim
# The fonts the renderers draw with are package data (renderers/fonts), inside the virtualenv.
COPY --from=build /opt/venv /opt/venv
RUN groupadd --gid 10001 rummy && useradd --create-home --uid 10001 --gid 10001 rummy \
    && mkdir -p /app/data && chown 10001:10001 /app/data
WORKDIR /app
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    RUMMY_DB=/app/data/rummy.sqlite3 \
    RUMMY_METRICS_HOST=0.0.0.0 \
    RUMMY_METRICS_PORT=9108 \
    RUMMY_ON_SETUP_ERROR=wait
USER 10001:10001
# The SQLite database (and its backups, if you write them there).
VOLUME ["/app/data"]
EXPOSE 9108
# /healthz: the process is alive and its database answers (python's urllib: no curl in the image).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('RUMMY_METRICS_PORT', '9108') + '/healthz', timeout=4)"]
# Exec form: the bot is PID 1 and gets the SIGTERM itself, so a stop is graceful (docs/deploy.md).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
