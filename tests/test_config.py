"""Configuration: `[tool.dllog]` in pyproject.toml and `.dllog.yaml`.

Broken or unknown configuration stops `dllog check` with exit 2 and exactly one line on
stderr that names the file, the key and what was expected; no traceback. The settings
themselves change what is reported.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cli_helpers import assert_no_traceback, dllog, flake8
from flake8_dllog.config import ConfigError, config_for_path, parse_config

TRAIN = textwrap.dedent(
    """\
    import torch


    def fit(model, loader, optimizer):
        for x, y in loader:
            loss = model(x, y)
            loss.backward()
            optimizer.step()
    """
)

DEVICE_PRINT = textwrap.dedent(
    """\
    import torch


    def setup():
        model = Net()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        print("device", device)
        model.to(device)
        return model
    """
)

DEVICE_HELPER = DEVICE_PRINT.replace('print("device", device)', "push_stats(device)")


def project(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
    return tmp_path


def config_error(tmp_path: Path, name: str, text: str | bytes) -> str:
    project(tmp_path, {name: text, "train.py": TRAIN})
    r = dllog("check", "train.py", cwd=tmp_path)
    assert_no_traceback(r)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    line = lines[0]
    assert line.startswith(f"dllog: {tmp_path.resolve() / name}: "), line
    return line


# -- errors: one line naming file, key and what was expected ----------------------------

TOML_ERRORS = [
    ('selct = ["DLL1"]', "unknown [tool.dllog] key 'selct'", "known: backend"),
    ('window = "three"', "key 'window'", "expected a whole number >= 0, got 'three'"),
    ("window = -1", "key 'window'", "expected a whole number >= 0, got -1"),
    ("window = true", "key 'window'", "expected a whole number >= 0"),
    ("select = 5", "key 'select'", "expected list of rule codes or prefixes, got 5"),
    ('select = ["E501"]', "key 'select'", "expected rule codes like DLL200 or prefixes like DLL2, got 'E501'"),
    ('ignore = ["DLL100", 3]', "key 'ignore'", "expected list of rule codes or prefixes"),
    ('print-is-logging = "yes"', "key 'print-is-logging'", "expected true or false, got 'yes'"),
    ('check-tests = 1', "key 'check-tests'", "expected true or false, got 1"),
    ('backend = "stdout"', "key 'backend'", "expected one of logging, loguru, print"),
    ('exclude = "build"', "key 'exclude'", "expected list of glob patterns, got 'build'"),
    ('per-file-ignores = {"a.py" = "XYZ"}', "key 'per-file-ignores.a.py'", "expected rule codes like DLL200"),
    ("per-file-ignores = 3", "key 'per-file-ignores'", "expected table of glob = list of rule codes"),
    ('severity = {DLL100 = "fatal"}', "key 'severity.DLL100'", "expected error|warning|information|hint"),
    ('vocabulary = {logger = ["x"]}', "key 'vocabulary.logger'", "expected a category of rules/vocabulary.yaml"),
    ("vocabulary = {save = [1]}", "key 'vocabulary.save'", "expected list of call patterns, got [1]"),
]


@pytest.mark.parametrize("body,key,expected", TOML_ERRORS, ids=[e[1] for e in TOML_ERRORS])
def test_pyproject_errors(tmp_path, body, key, expected):
    line = config_error(tmp_path, "pyproject.toml", f"[tool.dllog]\n{body}\n")
    assert key in line and expected in line, line


YAML_ERRORS = [
    ("selct: 1\n", "unknown [tool.dllog] key 'selct'", "known:"),
    ("window: 2.5\n", "key 'window'", "expected a whole number >= 0, got 2.5"),
    ("extend-select: [DLL102, 7]\n", "key 'extend-select'", "expected list of rule codes or prefixes"),
    ("backend: [logging]\n", "key 'backend'", "expected one of logging"),
]


@pytest.mark.parametrize("body,key,expected", YAML_ERRORS, ids=[e[1] for e in YAML_ERRORS])
def test_yaml_errors(tmp_path, body, key, expected):
    line = config_error(tmp_path, ".dllog.yaml", body)
    assert key in line and expected in line, line


def test_bad_toml(tmp_path):
    line = config_error(tmp_path, "pyproject.toml", "[tool.dllog\nselect = 1\n")
    assert "not valid TOML" in line and "line 1" in line


def test_tool_dllog_not_a_table(tmp_path):
    line = config_error(tmp_path, "pyproject.toml", "[tool]\ndllog = 3\n")
    assert "[tool.dllog] must be a table" in line


def test_bad_yaml(tmp_path):
    line = config_error(tmp_path, ".dllog.yaml", "select: [DLL1\n")
    assert "not valid YAML" in line and "(line 2, column 1)" in line


def test_yaml_not_a_mapping(tmp_path):
    line = config_error(tmp_path, ".dllog.yaml", "- DLL100\n- DLL200\n")
    assert "expected a mapping of dllog settings, got list" in line


def test_yaml_is_loaded_safely(tmp_path):
    line = config_error(tmp_path, ".dllog.yaml", "select: !!python/object/apply:os.system ['touch pwned']\n")
    assert "not valid YAML" in line
    assert not (tmp_path / "pwned").exists()


def test_yaml_not_utf8(tmp_path):
    line = config_error(tmp_path, ".dllog.yaml", b"select: ['\xff']\n")
    assert "cannot read" in line


def test_explicit_config_file_errors(tmp_path):
    project(tmp_path, {"train.py": TRAIN, "conf/dllog.yaml": "window: many\n"})
    r = dllog("check", "--config", "conf/dllog.yaml", "train.py", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "key 'window'" in r.stderr and "conf/dllog.yaml" in r.stderr


def test_error_in_a_subdirectory_config_is_reported(tmp_path):
    project(tmp_path, {"train.py": TRAIN, "sub/pyproject.toml": "[tool.dllog]\nnope = 1\n", "sub/x.py": "x = 1\n"})
    r = dllog("check", ".", cwd=tmp_path)
    assert_no_traceback(r)
    assert r.returncode == 2 and "unknown [tool.dllog] key 'nope'" in r.stderr
    assert str(Path("sub") / "pyproject.toml") in r.stderr


def test_flake8_face_reports_config_error_as_one_finding(tmp_path):
    project(tmp_path, {"pyproject.toml": "[tool.dllog]\nwindow = 'x'\n", "train.py": TRAIN})
    r = flake8("--select", "DLL", "train.py", cwd=tmp_path)
    assert_no_traceback(r)
    assert len(r.lines) == 1 and " DLL002 " in r.lines[0] and "key 'window'" in r.lines[0], r.stdout + r.stderr


def test_parse_config_api_raises_config_error():
    with pytest.raises(ConfigError, match="key 'window'"):
        parse_config({"window": "x"}, "client settings")
    with pytest.raises(ConfigError, match="unknown"):
        parse_config({"nope": 1}, "client settings")
    cfg = parse_config({"print_is_logging": False, "extend-select": ["DLL102"]}, "client settings")
    assert cfg.print_is_logging is False and "DLL102" in cfg.enabled_codes()


# -- settings take effect -------------------------------------------------------------


def codes_in(r) -> list[str]:
    return sorted(line.split()[1] for line in r.lines)


def test_select_ignore_and_extend_select(tmp_path):
    project(tmp_path, {"train.py": TRAIN})
    base = codes_in(dllog("check", "train.py", cwd=tmp_path))
    assert "DLL100" in base and "DLL102" not in base  # DLL102 is off by default
    project(tmp_path, {"pyproject.toml": "[tool.dllog]\nignore = [\"DLL1\"]\n"})
    assert "DLL100" not in codes_in(dllog("check", "train.py", cwd=tmp_path))
    project(tmp_path, {"pyproject.toml": "[tool.dllog]\nselect = [\"DLL5\"]\n"})
    assert all(c.startswith("DLL5") for c in codes_in(dllog("check", "train.py", cwd=tmp_path)))
    # The command line adds to / overrides the file.
    r = dllog("check", "--select", "DLL100", "train.py", cwd=tmp_path)
    assert codes_in(r) == ["DLL100"]
    r = dllog("check", "--select", "DLL100", "--extend-select", "DLL102", "train.py", cwd=tmp_path)
    assert "DLL100" in codes_in(r)


def test_extend_select_enables_an_off_rule_from_yaml(tmp_path):
    project(tmp_path, {".dllog.yaml": "extend-select: [DLL102]\n", "train.py": TRAIN.replace("for x, y", "model.cuda()\n    for x, y")})
    r = dllog("check", "--select", "DLL102", "train.py", cwd=tmp_path)
    assert r.returncode in (0, 1)
    cfg = config_for_path(tmp_path / "train.py")
    assert "DLL102" in cfg.enabled_codes(str(tmp_path / "train.py"))


def test_per_file_ignores(tmp_path):
    project(
        tmp_path,
        {
            "pyproject.toml": '[tool.dllog.per-file-ignores]\n"scripts/*.py" = ["DLL100"]\n"legacy.py" = ["DLL1"]\n',
            "scripts/a.py": TRAIN,
            "legacy.py": TRAIN,
            "train.py": TRAIN,
        },
    )
    r = dllog("check", "--select", "DLL100", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in r.lines] == ["train.py"], r.stdout


def test_exclude(tmp_path):
    project(tmp_path, {"pyproject.toml": '[tool.dllog]\nextend-exclude = ["generated"]\n', "generated/a.py": TRAIN, "train.py": TRAIN})
    r = dllog("check", "--select", "DLL100", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in r.lines] == ["train.py"], r.stdout


def test_default_excludes_skip_virtualenvs_and_vcs(tmp_path):
    files = {f"{d}/a.py": TRAIN for d in (".git", ".venv", "venv", "node_modules", "build", "__pycache__", "pkg.egg-info")}
    files["train.py"] = TRAIN
    project(tmp_path, files)
    r = dllog("check", "--select", "DLL100", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in r.lines] == ["train.py"], r.stdout


def test_print_is_logging_false(tmp_path):
    project(tmp_path, {"setup.py": DEVICE_PRINT})
    assert dllog("check", "--select", "DLL400", "setup.py", cwd=tmp_path).returncode == 0
    project(tmp_path, {"pyproject.toml": "[tool.dllog]\nprint-is-logging = false\n"})
    r = dllog("check", "--select", "DLL400", "setup.py", cwd=tmp_path)
    assert codes_in(r) == ["DLL400"], r.stdout


def test_vocabulary_extension_counts_a_project_helper_as_logging(tmp_path):
    project(tmp_path, {"setup.py": DEVICE_HELPER})
    assert codes_in(dllog("check", "--select", "DLL400", "setup.py", cwd=tmp_path)) == ["DLL400"]
    project(tmp_path, {".dllog.yaml": "vocabulary:\n  logging: [push_stats]\n"})
    r = dllog("check", "--select", "DLL400", "setup.py", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, ""), r.stdout


def test_nearest_config_wins_and_yaml_beats_pyproject(tmp_path):
    project(
        tmp_path,
        {
            "pyproject.toml": '[tool.dllog]\nignore = ["DLL100"]\n',
            "train.py": TRAIN,
            "sub/.dllog.yaml": "select: [DLL100]\n",
            "sub/pyproject.toml": '[tool.dllog]\nignore = ["DLL1"]\n',
            "sub/train.py": TRAIN,
        },
    )
    r = dllog("check", ".", cwd=tmp_path)
    assert [line.split(":")[0] for line in r.lines if " DLL100 " in line] == [str(Path("sub/train.py"))], r.stdout


def test_pyproject_without_tool_dllog_is_skipped(tmp_path):
    project(
        tmp_path,
        {
            ".dllog.yaml": "ignore: [DLL100]\n",
            "pkg/pyproject.toml": "[project]\nname = 'x'\n",
            "pkg/train.py": TRAIN,
        },
    )
    r = dllog("check", "pkg", cwd=tmp_path)
    assert " DLL100 " not in r.stdout


def test_severity_reaches_json(tmp_path):
    project(tmp_path, {"pyproject.toml": '[tool.dllog.severity]\nDLL1 = "error"\n', "train.py": TRAIN})
    r = dllog("check", "--format", "json", "--select", "DLL100", "train.py", cwd=tmp_path)
    assert [f["severity"] for f in r.json] == ["error"]
