"""Tests of XoBo / Kholodnaya Voyna."""
