"""Annotations (filled in below)."""

from __future__ import annotations


def annotate(game, before, type, seat, data, after):
    return []


def analyse_log(game, events, budget):
    return None
