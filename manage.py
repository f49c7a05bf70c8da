#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mlcourse.settings")
    from django.core.management import execute_from_command_line
    from django.db import OperationalError, connection

    from apps.common.env import ConfigurationError

    try:
        execute_from_command_line(sys.argv)
    except ConfigurationError as exc:
        # A bad environment value: the message names the variable, and a traceback through Django's settings
        # loading would only bury it.
        sys.exit(f"manage.py: {exc}")
    except OperationalError as exc:
        # A server that is down or refuses us: what psycopg says (host, port, reason) is all an operator needs.
        if connection.connection is not None:
            raise  # connected, then failed: a real error, whose traceback matters
        reason = " ".join(str(exc).split())
        sys.exit(f"manage.py: cannot connect to the database ({connection.settings_dict.get('NAME')}): {reason}")


if __name__ == "__main__":
    main()
