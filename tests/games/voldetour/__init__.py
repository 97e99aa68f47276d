"""Tests of the Voldetour engine."""
