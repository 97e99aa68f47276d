"""Every server setting comes from a ``TABLIER_…`` variable and from a ``tablier serve`` flag."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tablier.cli import main as cli
from tablier.server.ratelimit import DEFAULT_RATE_LIMITS
from tablier.server.settings import Settings

#: A value for each setting, as an environment variable and as a flag, and what it reads as.
VALUES = {
    "host": ("0.0.0.0", "0.0.0.0"),
    "port": ("8123", 8123),
    "database_url": ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
    "ai_workers": ("3", 3),
    "ai_progress_interval": ("0.5", 0.5),
    "ai_queue_limit": ("7", 7),
    "max_body": ("2048", 2048),
    "max_record_plies": ("77", 77),
    "history_page": ("50", 50),
    "public_url": ("https://play.example", "https://play.example"),
    "web_dir": ("/tmp/tablier-web", Path("/tmp/tablier-web")),
    "hello_timeout": ("2.5", 2.5),
    "cache_size": ("55", 55),
    "session_days": ("7.5", 7.5),
    "process_id": ("web-2", "web-2"),
    "ai_claim_timeout": ("12.5", 12.5),
    "challenge_expiry": ("120", 120.0),
    "challenge_expiry_long": ("7200", 7200.0),
    "game_expiry": ("3600", 3600.0),
    "sweep_interval": ("5", 5.0),
    "clock_sweep": ("0.25", 0.25),
}
SWITCHES = ["migrate", "sqlite_inline_writes", "access_log", "secure_cookies"]


def test_every_setting_is_covered_here():
    assert set(Settings.model_fields) == {*VALUES, *SWITCHES, "ai_specs", "rate_limits"}


@pytest.fixture
def clean_env(monkeypatch):
    for name in Settings.model_fields:
        monkeypatch.delenv(f"TABLIER_{name.upper()}", raising=False)
    return monkeypatch


def test_settings_from_the_environment(clean_env):
    for name, (text, _) in VALUES.items():
        clean_env.setenv(f"TABLIER_{name.upper()}", text)
    for name in SWITCHES:
        clean_env.setenv(f"TABLIER_{name.upper()}", "false")
    clean_env.setenv("TABLIER_AI_SPECS", '{"easy": "random"}')
    clean_env.setenv("TABLIER_RATE_LIMITS", '{"chat": "3/minute", "signup": "off"}')
    settings = Settings()
    for name, (_, value) in VALUES.items():
        assert getattr(settings, name) == value, name
    for name in SWITCHES:
        assert getattr(settings, name) is False, name
    assert settings.ai_specs == {"easy": "random"}
    assert settings.rate_limits["chat"] == "3/minute" and settings.rate_limits["signup"] == "off"
    assert settings.rate_limits["create_game"] == DEFAULT_RATE_LIMITS["create_game"]
    # Keyword arguments (the flags) win over the environment.
    assert Settings(port=9000).port == 9000


def test_defaults_and_bad_values(clean_env):
    settings = Settings()
    assert settings.port == 8000 and settings.ai_workers == 1 and settings.migrate is True
    assert settings.database_url.startswith("sqlite:///")
    clean_env.setenv("TABLIER_AI_WORKERS", "many")
    with pytest.raises(ValueError):
        Settings()


def _serve_with(monkeypatch, args: list[str]):
    """Run ``tablier serve ARGS`` with the server replaced; return the settings it got."""
    seen = []
    monkeypatch.setattr("tablier.server.app.serve", seen.append)
    result = CliRunner().invoke(cli.main, ["serve", *args])
    return result, seen


def test_settings_from_flags(clean_env):
    args = []
    for name, (text, _) in VALUES.items():
        args += [f"--{name.replace('_', '-')}", text]
    for name in SWITCHES:
        args.append(f"--no-{name.replace('_', '-')}")
    args += ["--ai-spec", "easy=random", "--ai-spec", "hard=greedy"]
    args += ["--rate-limit", "chat=2/second", "--rate-limit", "login=off"]
    result, seen = _serve_with(clean_env, args)
    assert result.exit_code == 0, result.output
    (settings,) = seen
    for name, (_, value) in VALUES.items():
        assert getattr(settings, name) == value, name
    for name in SWITCHES:
        assert getattr(settings, name) is False, name
    assert settings.ai_specs == {"easy": "random", "hard": "greedy"}
    assert (settings.rate_limits["chat"], settings.rate_limits["login"]) == ("2/second", "off")
    assert "http://0.0.0.0:8123/" in result.output


def test_flags_win_over_the_environment_and_bad_ones_are_one_line(clean_env):
    clean_env.setenv("TABLIER_PORT", "8200")
    clean_env.setenv("TABLIER_AI_WORKERS", "2")
    result, seen = _serve_with(clean_env, ["--port", "8300"])
    assert result.exit_code == 0, result.output
    assert (seen[0].port, seen[0].ai_workers) == (8300, 2)
    for bad in (
        ["--max-body", "1"],
        ["--ai-spec", "easy"],
        ["--hello-timeout", "-1"],
        ["--rate-limit", "chat"],
        ["--rate-limit", "chat=often"],
        ["--rate-limit", "lunch=1/second"],
    ):
        result, seen = _serve_with(clean_env, bad)
        assert result.exit_code == 2 and not seen, result.output
        assert "Traceback" not in result.output
