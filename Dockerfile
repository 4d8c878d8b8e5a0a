FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, in their own layer, so a code change does not reinstall them. With only
# pyproject.toml present the project builds as an empty package; uninstalling it leaves the deps.
COPY pyproject.toml README.md ./
RUN pip install . && pip uninstall -y unoallwild

COPY . .
# Installed as well, so `celery -A config` finds the project from any working directory.
# /app stays read-only for the image's user; what it writes goes to /data (the embedded SQLite
# database and its generated Web Push key, when DATABASE_URL is unset) and the temp dir (beat's
# schedule).
RUN pip install --no-deps . \
    && useradd --create-home --uid 1000 uno \
    && mkdir -p /app/staticfiles /app/exports /data \
    && chown uno /app/staticfiles /app/exports /data
ENV SQLITE_PATH=/data/db.sqlite3
VOLUME ["/data"]
# The static files WhiteNoise serves, collected once per image: gunicorn (compose's web) starts
# without `manage.py serve`, which would collect them. The build's settings need a key only.
RUN SECRET_KEY=collectstatic-only DEBUG=false SQLITE_PATH=/tmp/build.sqlite3 \
    python manage.py collectstatic --noinput \
    && chown -R uno /app/staticfiles

USER uno
EXPOSE 8000
CMD ["python", "manage.py", "serve", "--host", "0.0.0.0", "--port", "8000"]
