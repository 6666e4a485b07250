"""The canonical encoding that every hash is computed over."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replays.hashing import canonical

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.text(st.characters(exclude_categories=["Cs"])),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_canonical_is_exactly_the_standard_library_encoding(value):
    assert canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_text_without_a_utf8_encoding_is_refused():
    with pytest.raises(ValueError):
        canonical({"name": "\ud800"})
