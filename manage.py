#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mlcourse.settings")
    from django.core.management import execute_from_command_line

    from apps.common.env import ConfigurationError

    try:
        execute_from_command_line(sys.argv)
    except ConfigurationError as exc:
        # A bad environment value: the message names the variable, and a traceback through Django's settings
        # loading would only bury it.
        sys.exit(f"manage.py: {exc}")


if __name__ == "__main__":
    main()
