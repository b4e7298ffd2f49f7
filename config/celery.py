"""The Celery application.

Without REDIS_URL the settings make every task run eagerly in-process, so the embedded default needs no
broker; with REDIS_URL tasks go through Redis to a worker (see README, Production).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("red_captain")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
