#!/usr/bin/env python3
"""The seed scenario from Python: an app asks to read steps, learns how far back it may read, queries
"the last 90 days" (which the broker clamps to what it may read) and prints daily totals.

    PYTHONPATH=clients/python python3 clients/python/examples/steps.py --app-id demo.steps --token TOKEN

The token comes from ``healthctl apps add`` (or ``--token-env`` names a variable holding it); the
socket defaults to the broker's (``--socket`` to override). Someone (a consent agent, or a policy
such as docs/examples/demo-policy.json) must answer the authorization prompt.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from healthbroker import STEP_COUNT, BrokerError, DomainCode, HealthStore, Interval, StatusCode  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app-id", default="demo.steps")
    parser.add_argument("--token", help="the app token (default: $HEALTHBROKER_APP_TOKEN)")
    parser.add_argument("--socket", help="the app socket (default: the broker's default)")
    parser.add_argument("--days", type=int, default=90, help="how far back to ask for (default 90)")
    args = parser.parse_args()
    token = args.token or os.environ.get("HEALTHBROKER_APP_TOKEN")
    if not token:
        parser.error("--token or $HEALTHBROKER_APP_TOKEN is required")

    with HealthStore.connect(args.app_id, token, args.socket) as store:
        store.request_authorization(read=[STEP_COUNT], timeout=timedelta(minutes=5))

        now = datetime.now(timezone.utc)
        today = now.replace(hour=0, minute=0, second=0, microsecond=0)
        intended = today - timedelta(days=args.days - 1)
        # A limited grant shows here (and only here); asking from before it would be clamped anyway.
        limited_from = store.earliest_authorized_sample_date([STEP_COUNT]).get(STEP_COUNT)
        start = max(intended, limited_from) if limited_from else intended

        with store.query(STEP_COUNT, start, now) as samples:
            count = sum(1 for _ in samples)
        print(f"{count} step samples from {start:%Y-%m-%d %H:%M} UTC to now")

        try:
            daily = store.statistics(STEP_COUNT, start, now, interval=Interval.DAY, anchor=today)
        except BrokerError as error:
            if (error.code, error.domain) != (StatusCode.NOT_FOUND, DomainCode.NO_DATA):
                raise
            print("no step data in that range")
        else:
            for bucket in daily.buckets:
                total = f"{bucket.sum:,.0f}" if bucket.sum is not None else "-"
                print(f"  {bucket.start:%Y-%m-%d}  {total:>9} {daily.unit}")
        if limited_from is not None and limited_from > intended:
            print(f"Before {limited_from:%Y-%m-%d %H:%M} UTC this app may not read steps: "
                  "that data is unknown to it, not absent.")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokerError as error:
        print(f"steps.py: {error}", file=sys.stderr)
        sys.exit(1)
