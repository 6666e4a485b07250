"""Schemathesis hooks for tests/test_openapi_schemathesis.py (loaded through
``SCHEMATHESIS_HOOKS``).

Some operations refuse a request that the OpenAPI document accepts for a
reason no JSON Schema can state: it depends on what is stored (a seat beyond
the match's players, ``at`` beyond its latest seq, a league round not paired
yet, ``first`` > ``second``) or on the game (its option and event JSON Schemas,
its player count: ``GET /api/games/<id>``), or on two fields together (a
player's role names a seat). The run accepts a 400 from those operations
only, and this check holds even there: such a refusal is never
``malformed_request``, the answer the API gives when its own request schema
refuses a value, so a mismatch between the document and the schemas is
still a failure everywhere.
"""

from __future__ import annotations

import json

import schemathesis


@schemathesis.check
def schema_valid_request_is_not_malformed(ctx, response, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    try:
        code = json.loads(response.content)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        raise AssertionError(f"a 400 without Kroniek's JSON error body: {response.content[:200]!r}") from None
    if code == "malformed_request":
        raise AssertionError(f"a request valid by the OpenAPI document was refused by the API's own request "
                             f"schema: {response.content[:300]!r}")
    return None
