"""Detectors for the training rules (see rules/DLL*.yaml for their docs)."""
from __future__ import annotations

from . import Report, rule  # noqa: F401
