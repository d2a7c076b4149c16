"""The YAML catalog under rules/ is found the same way in an editable checkout and in an
installed wheel (where it ships as flake8_dllog/_rules).

The wheel test builds the real wheel, installs it into a fresh virtualenv in tmp (its
dependencies come from the package index), and runs `dllog rules`, `dllog check` and
`flake8 --select DLL` from a directory outside the checkout, so nothing can fall back to
the source tree.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from cli_helpers import ROOT, dllog, run
from flake8_dllog import catalog as catalog_module
from flake8_dllog.catalog import load_catalog, rules_dir

RULE_FILES = sorted(p.name for p in (ROOT / "rules").glob("DLL*.yaml"))


def test_editable_checkout_uses_rules_dir_beside_the_package():
    assert Path(catalog_module.__file__).resolve().parent == ROOT / "flake8_dllog", "tests must run on the checkout"
    assert rules_dir() == ROOT / "rules"
    assert sorted(f"{code}.yaml" for code in load_catalog().rules) == RULE_FILES
    assert len(RULE_FILES) == 13


def test_editable_console_script_finds_the_catalog(tmp_path):
    # Run from elsewhere: the catalog is found from the package, not the working directory.
    r = dllog("rules", cwd=tmp_path)
    assert r.returncode == 0 and len(r.lines) == len(RULE_FILES)
    r = dllog("explain", "DLL201", cwd=tmp_path)
    assert r.returncode == 0 and "## Use instead" in r.stdout


def _build_wheel(outdir: Path) -> Path:
    have_hatchling = importlib.util.find_spec("hatchling") is not None
    have_build = importlib.util.find_spec("build") is not None
    if have_build:
        cmd = [sys.executable, "-m", "build", "--wheel", "--outdir", str(outdir)]
        if have_hatchling:
            cmd.append("--no-isolation")
    else:
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(outdir)]
        if have_hatchling:
            cmd.append("--no-build-isolation")
    r = run(cmd + [str(ROOT)], cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    wheels = sorted(outdir.glob("flake8_dllog-*.whl"))
    assert len(wheels) == 1, list(outdir.iterdir())
    return wheels[0]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    base = tmp_path_factory.mktemp("wheel")
    wheel = _build_wheel(base / "dist")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    r = run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)], cwd=base, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return {"wheel": wheel, "bin": bindir, "python": py, "base": base}


@pytest.mark.slow
def test_wheel_contains_the_catalog(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    for rule_file in RULE_FILES + ["vocabulary.yaml"]:
        assert f"flake8_dllog/_rules/{rule_file}" in names, rule_file
    assert not any(n.startswith("rules/") for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(installed["wheel"]).read(entry_points).decode()
    assert "dllog = flake8_dllog.cli:main" in text
    assert "DLL = flake8_dllog.flake8_plugin:DllogChecker" in text


@pytest.mark.slow
def test_installed_wheel_finds_its_catalog(installed, tmp_path):
    py = installed["python"]
    r = run(
        [str(py), "-c", "import flake8_dllog.catalog as c; print(c.__file__); print(c.rules_dir())"],
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    module_file, data_dir = r.stdout.split()
    assert Path(module_file).is_relative_to(installed["base"]), "imported the checkout instead of the wheel"
    assert Path(data_dir) == Path(module_file).parent / "_rules"


@pytest.mark.slow
def test_installed_dllog_rules_and_check(installed, tmp_path):
    bindir = installed["bin"]
    r = run([str(bindir / "dllog"), "rules"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(line.split()[0] for line in r.lines) == [f[:-5] for f in RULE_FILES]
    # The bundled examples, copied out of the checkout, give the same findings with the
    # installed wheel as with the editable checkout.
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    installed_run = run([str(bindir / "dllog"), "check", "examples"], cwd=tmp_path)
    editable_run = dllog("check", "examples", cwd=tmp_path)
    assert "Traceback" not in installed_run.stderr, installed_run.stderr
    assert installed_run.returncode == editable_run.returncode == 1
    assert installed_run.stdout == editable_run.stdout
    flake8_run = run([str(bindir / "flake8"), "--isolated", "--select", "DLL", "examples"], cwd=tmp_path)
    assert sorted(flake8_run.lines) == sorted(installed_run.lines)


@pytest.mark.slow
def test_installed_wheel_does_not_need_the_checkout(installed, tmp_path):
    # PYTHONPATH pointing nowhere near the checkout, cwd elsewhere: still works.
    env = {"PYTHONPATH": "", "PYTHONNOUSERSITE": "1"}
    r = run([str(installed["bin"] / "dllog"), "explain", "DLL100"], cwd=tmp_path, env=env)
    assert r.returncode == 0 and r.stdout.startswith("# DLL100 ")
