"""The fix API (flake8_dllog.fixes): backends, headers, templates, edits, positions."""
from __future__ import annotations

import ast
import re
import textwrap

from flake8_dllog.config import Config
from flake8_dllog.engine import check_source
from flake8_dllog.findings import Finding
from flake8_dllog.fixes import TextEdit, apply_edits, detect_backends, fix_source, fixes_for_finding

LOOP = """\
for epoch in range(epochs):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
"""


def _src(text: str) -> str:
    return textwrap.dedent(text)


def _finding(code: str, source: str, **context) -> Finding:
    found = [f for f in check_source(source, "train.py", Config(), codes=frozenset({code})).findings if f.code == code]
    if found:
        return found[0]
    raise AssertionError(f"{code} not reported:\n{source}")


def _fixed(source: str, **kw) -> str:
    result = fix_source(source, "train.py", Config(), **kw)
    ast.parse(result.source.lstrip("\ufeff"))
    return result.source


# -- backends -------------------------------------------------------------------------------

def test_detect_backends_prefers_the_tracker_then_the_logger():
    assert detect_backends("import wandb\nwandb.init()\nwandb.log({'a': 1})\n")[0] == "wandb"
    assert detect_backends("import mlflow\nmlflow.log_metric('a', 1)\n")[0] == "mlflow"
    assert detect_backends("from torch.utils.tensorboard import SummaryWriter\nw = SummaryWriter()\n")[0] == "tensorboard"
    assert detect_backends("from loguru import logger\n")[0] == "loguru"
    assert detect_backends("import logging\nlog = logging.getLogger(__name__)\n")[0] == "logging"
    assert detect_backends("x = 1\n") == ["logging", "print"]
    assert detect_backends("def broken(:\n") == ["logging", "print"]


def test_preferred_fix_uses_the_files_tracker_and_alternatives_follow():
    source = "import wandb\n\nwandb.init(project='p')\n" + LOOP
    fixes = fixes_for_finding(source, _finding("DLL100", source), Config())
    assert [f.backend for f in fixes] == ["wandb", "logging", "print"]
    assert fixes[0].preferred and not any(f.preferred for f in fixes[1:])
    inserted = fixes[0].edits[-1].new_text
    assert inserted == (
        "        if step % 100 == 0:\n"
        '            wandb.log({"train/loss": loss.item(), "epoch": epoch})\n'
    )


def test_backend_override_and_configured_default():
    source = "import torch\n\n" + LOOP
    finding = _finding("DLL100", source)
    (fix,) = fixes_for_finding(source, finding, Config(), backend="print")
    assert 'print("epoch", epoch, "step", step, "loss", loss.item())' in fix.edits[-1].new_text
    fixes = fixes_for_finding(source, finding, Config(backend="loguru"))
    assert fixes[0].backend == "loguru"
    assert fixes[0].edits[0].new_text == "from loguru import logger\n"
    assert 'logger.info("epoch {} step {} loss {:.4f}", epoch, step, loss.item())' in fixes[0].edits[-1].new_text


def test_tensorboard_uses_the_writer_in_scope_with_a_global_step():
    source = _src("""\
        from torch.utils.tensorboard import SummaryWriter

        def train(model, loader, optimizer, criterion, epochs):
            writer = SummaryWriter()
            for epoch in range(epochs):
                for i, (x, y) in enumerate(loader):
                    loss = criterion(model(x), y)
                    loss.backward()
                    optimizer.step()
                writer.add_histogram("w", model.weight, epoch)
        """)
    fixed = _fixed(source)
    assert 'writer.add_scalar("train/loss", loss.item(), epoch * len(loader) + i)' in fixed


# -- the logger header ----------------------------------------------------------------------

def test_header_goes_after_docstring_future_and_imports_once():
    source = _src('''\
        """Train."""
        from __future__ import annotations

        import os
        import sys

        import torch


        def train(model, loader, optimizer, criterion, epochs):
            for epoch in range(epochs):
                for step, (x, y) in enumerate(loader):
                    loss = criterion(model(x), y)
                    loss.backward()
                    optimizer.step()
            torch.save(model.state_dict(), os.path.join(out_dir, "m.pt"))
        ''')
    fixed = _fixed(source)
    assert fixed.startswith('"""Train."""\nfrom __future__ import annotations\n\nimport logging\nimport os\nimport sys\n\nimport torch\n\nlogger = logging.getLogger(__name__)\n\n\ndef train(')
    assert fixed.count("import logging") == 1 and fixed.count("getLogger") == 1
    # A library module (no entry point) does not configure logging.
    assert "basicConfig" not in fixed
    assert 'logger.info("saved checkpoint to %s", os.path.join(out_dir, "m.pt"))' in fixed


def test_script_without_logging_config_gets_basic_config_in_its_main_guard():
    source = "import torch\n\n\ndef main():\n" + textwrap.indent(LOOP, "    ") + '\n\nif __name__ == "__main__":\n    main()\n'
    fixed = _fixed(source, select={"DLL100"})
    assert 'if __name__ == "__main__":\n    logging.basicConfig(level=logging.INFO)\n    main()\n' in fixed


def test_existing_logger_is_reused_under_its_own_name():
    source = "import logging\n\nlog = logging.getLogger('train')\n\n" + LOOP
    fixed = _fixed(source)
    assert 'log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())' in fixed
    assert fixed.count("getLogger") == 1


def test_stdlib_templates_are_lazy_percent_formatting():
    source = "import argparse\nimport torch\n\nargs = argparse.ArgumentParser().parse_args()\ntorch.manual_seed(args.seed)\n" + LOOP
    fixed = _fixed(source)
    inserted = [l for l in fixed.splitlines() if "logger." in l]
    assert inserted and all(not re.search(r'(?<![\w%.])f"', l) and "%" in l for l in inserted), inserted


def test_placeholder_values_are_text_not_templates():
    source = 'import os\nimport torch\n\ntorch.save(model.state_dict(), os.path.join(out, "{loss}-{step}.pt"))\n'
    fixed = _fixed(source, select={"DLL200"})
    assert 'logger.info("saved checkpoint to %s", os.path.join(out, "{loss}-{step}.pt"))' in fixed


# -- rule by rule -----------------------------------------------------------------------------

def test_dll101_adds_the_loss_to_the_existing_log_call():
    source = _src("""\
        for step, (x, y) in enumerate(loader):
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            if step % 100 == 0:
                logger.info("époque %d", step)  # é
        """)
    finding = _finding("DLL101", source)
    (fix, *_) = fixes_for_finding(source, finding, Config())
    (edit,) = fix.edits
    line = source.splitlines()[5]
    # Code-point columns (the LSP converts them to UTF-16).
    assert (edit.start_line, edit.start_column, edit.end_column) == (5, 8, line.index("  # é"))
    assert edit.new_text == 'logger.info("époque %d loss %.4f", step, loss.item())'
    assert apply_edits(source, fix.edits).splitlines()[5] == '        logger.info("époque %d loss %.4f", step, loss.item())  # é'


def test_dll101_extends_print_fstrings_and_tracker_dicts():
    base = "for x, y in loader:\n    err = criterion(model(x), y)\n    err.backward()\n    optimizer.step()\n"
    assert 'print(f"done {x.shape} loss {err.item():.4f}")' in _fixed(base + '    print(f"done {x.shape}")\n', select={"DLL101"})
    fixed = _fixed("import wandb\nwandb.init()\n" + base + '    wandb.log({"lr": 0.1})\n', select={"DLL101"})
    assert 'wandb.log({"lr": 0.1, "train/loss": err.item()})' in fixed


def test_dll201_wraps_weights_with_the_metadata_in_scope():
    source = _src("""\
        import argparse
        import torch

        args = argparse.ArgumentParser().parse_args()
        for epoch in range(args.epochs):
            for x, y in loader:
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                print(loss.item())
            torch.save(model.state_dict(), args.out)
        """)
    fixed = _fixed(source, select={"DLL201"})
    assert 'torch.save({"model": model.state_dict(), "epoch": epoch, "optimizer": optimizer.state_dict(), "config": vars(args)}, args.out)' in fixed


def test_dll210_logs_path_and_keeps_the_keys_of_a_non_strict_load():
    source = "import torch\n\nmodel.load_state_dict(torch.load(args.ckpt), strict=False)\n"
    fixed = _fixed(source, select={"DLL210"})
    assert "incompatible_keys = model.load_state_dict(torch.load(args.ckpt), strict=False)\n" in fixed
    assert 'logger.info("loaded checkpoint from %s (missing keys: %s, unexpected keys: %s)", args.ckpt, incompatible_keys.missing_keys, incompatible_keys.unexpected_keys)' in fixed


def test_dll400_logs_device_and_gpu_name_once():
    source = "import torch\n\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Net().to(device)\n"
    fixed = _fixed(source, select={"DLL400"})
    assert fixed.endswith(
        'model = Net().to(device)\nlogger.info("using device %s", device)\n'
        'if torch.device(device).type == "cuda":\n    logger.info("GPU: %s", torch.cuda.get_device_name(device))\n'
    )


def test_dll500_seeds_only_imported_libraries_at_the_entry_point():
    source = _src("""\
        import numpy as np
        import torch

        def main():
            for x, y in loader:
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                print(loss.item())

        if __name__ == "__main__":
            main()
        """)
    fixed = _fixed(source, select={"DLL500"})
    assert not re.search(r"^\s*random\.seed", fixed, re.M) and "tf." not in fixed
    assert "    seed = 0\n    np.random.seed(seed)\n    torch.manual_seed(seed)\n    logger.info(\"random seed %s\", seed)\n" in fixed


def test_dll600_omegaconf_is_logged_as_yaml():
    source = "from omegaconf import OmegaConf\n\ncfg = OmegaConf.load('c.yaml')\ntrain(cfg)\n" + LOOP
    fixed = _fixed(source, select={"DLL600"})
    assert 'logger.info("config:\\n%s", OmegaConf.to_yaml(cfg))' in fixed


# -- text and positions -----------------------------------------------------------------------

def test_apply_edits_keeps_order_of_insertions_and_crlf():
    text = "a\r\nb\r\n"
    edits = [TextEdit(1, 0, 1, 0, "x\r\n"), TextEdit(1, 0, 1, 0, "y\r\n")]
    assert apply_edits(text, edits) == "a\r\nx\r\ny\r\nb\r\n"


def test_bom_shifts_first_line_columns_for_editors():
    source = "\ufeffimport torch\ntorch.save(model.state_dict(), path)\n"
    finding = _finding("DLL200", source.lstrip("\ufeff"))
    fixes = fixes_for_finding(source, finding, Config())
    assert fixes and all(e.start_column == 1 for e in fixes[0].edits if e.start_line == 0)
    fixed = _fixed(source, select={"DLL200"})
    assert fixed.startswith("\ufeffimport logging\nimport torch\n")


def test_file_without_final_newline():
    source = "import torch\ntorch.save(model.state_dict(), path)"
    fixed = _fixed(source, select={"DLL200"})
    assert fixed.endswith('torch.save(model.state_dict(), path)\nlogger.info("saved checkpoint to %s", path)')


def test_unparsable_source_is_left_alone():
    result = fix_source("def f(:\n    pass\n", "train.py", Config())
    assert result.source == "def f(:\n    pass\n" and not result.edits
    assert [f.code for f in result.remaining] == ["DLL001"]


def test_no_fix_rather_than_recomputing_an_unnamed_loss():
    source = "for x, y in loader:\n    criterion(model(x), y).backward()\n    optimizer.step()\n"
    findings = [f for f in check_source(source, "train.py", Config()).findings if f.code == "DLL100"]
    for f in findings:
        for fix in fixes_for_finding(source, f, Config()):
            assert "criterion(model(x), y).item()" not in "".join(e.new_text for e in fix.edits)


# -- trackers -----------------------------------------------------------------------------------

def test_config_goes_to_the_tracker_once_its_run_has_started():
    source = _src("""\
        import argparse
        import wandb


        def main():
            wandb.init(project="p")
            args = argparse.ArgumentParser().parse_args()
            for step, (x, y) in enumerate(loader):
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                wandb.log({"step": step})
        """)
    fixed = _fixed(source)
    assert "    wandb.config.update(vars(args))\n" in fixed
    assert 'wandb.log({"step": step, "train/loss": loss.item()})' in fixed
    assert "import logging" not in fixed  # the tracker served everything


def test_config_before_the_run_starts_goes_to_the_logger():
    # mlflow.log_params before start_run would open a second run: use the logger instead.
    source = _src("""\
        import argparse
        import mlflow

        args = argparse.ArgumentParser().parse_args()
        with mlflow.start_run():
            for step, (x, y) in enumerate(loader):
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
        """)
    fixed = _fixed(source, select={"DLL600"})
    assert 'logger.info("config: %s", vars(args))' in fixed and "log_params" not in fixed
    (first, *alternatives) = fixes_for_finding(source, _finding("DLL600", source), Config(), backend="mlflow")
    assert "log_params" not in "".join(e.new_text for e in first.edits)


def test_lightning_module_logs_with_self_log():
    source = _src("""\
        import pytorch_lightning as pl
        import torch.nn.functional as F


        class Lit(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                x, y = batch
                loss = F.cross_entropy(self(x), y)
                return loss
        """)
    fixed = _fixed(source, select={"DLL100"})
    assert '        self.log("train_loss", loss, prog_bar=True)\n        return loss\n' in fixed


def test_a_builder_error_is_no_fix_not_a_crash(monkeypatch):
    from flake8_dllog.fixes import rules

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setitem(rules.BUILDERS, "DLL100", broken)
    source = "import torch\n\n" + LOOP
    assert fixes_for_finding(source, _finding("DLL100", source), Config()) == []
    result = fix_source(source, "train.py", Config(), select={"DLL100"})
    assert result.source == source and [f.code for f in result.remaining] == ["DLL100"]


def test_dll201_is_not_offered_when_the_file_loads_bare_weights_back():
    source = _src("""\
        import torch

        for epoch in range(epochs):
            for x, y in loader:
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
                print(loss.item())
            torch.save(model.state_dict(), args.out)


        def evaluate():
            # (another function reads the file back: a run's restore point it is not)
            model.load_state_dict(torch.load(args.out))
        """)
    finding = _finding("DLL201", source)
    assert fixes_for_finding(source, finding, Config()) == []


def test_insertions_at_one_point_close_the_inner_block_first():
    from flake8_dllog.fixes import _ordered

    header = TextEdit(3, 0, 3, 0, "import logging\n")
    outer = TextEdit(9, 0, 9, 0, "    logger.info('epoch')\n")
    inner = TextEdit(9, 0, 9, 0, "        logger.info('step')\n")
    top = TextEdit(9, 0, 9, 0, "logger.info('done')\n")
    assert _ordered([header, top, outer, inner]) == [header, inner, outer, top]
    source = "\n".join(f"l{i}" for i in range(12)) + "\n"
    source = source.replace("l8", "for a in b:\n    for c in d:\n        f(c)")
    # (applying them keeps each block's code inside its block)
    text = apply_edits(source, _ordered([TextEdit(11, 0, 11, 0, "    g()\n"), TextEdit(11, 0, 11, 0, "        h()\n")]))
    ast.parse(text)
    assert "        f(c)\n        h()\n    g()\n" in text


def test_findings_a_fix_brings_are_fixed_in_the_same_run():
    # Seeding (DLL500) makes the entry point subject to DLL502; one `fix` settles both.
    source = "import torch\n\n\ndef main():\n" + textwrap.indent(LOOP, "    ") + "    print(loss.item())\n" + '\n\nif __name__ == "__main__":\n    main()\n'
    first = [f.code for f in check_source(source, "train.py", Config(), codes=frozenset({"DLL500", "DLL502"})).findings]
    result = fix_source(source, "train.py", Config(), select={"DLL500", "DLL502"})
    assert "torch.manual_seed(seed)" in result.source and "torch.backends.cudnn.deterministic = True" in result.source
    assert not result.remaining, result.remaining
    assert apply_edits(source, result.edits) == result.source
    assert fix_source(result.source, "train.py", Config(), select={"DLL500", "DLL502"}).source == result.source
    assert "DLL500" in first


def test_a_fix_that_does_not_silence_its_finding_is_applied_once(monkeypatch):
    """If a detector keeps reporting a finding its fix should have silenced, the next round
    of `fix_source` must not insert the same statement again (it did, four times)."""
    from flake8_dllog import detectors
    from flake8_dllog.detectors import Report

    def stubborn_seed_rule(facts, config):
        for site in facts.calls:
            if site.name == "torch.manual_seed":
                yield Report(site.node, context={
                    "seed": "args.seed", "seed_origin": "config", "anchor": "after",
                    "anchor_line": site.stmt.lineno, "scope": "<module>", "class_bases": [],
                })

    monkeypatch.setitem(detectors.REGISTRY, "DLL501", stubborn_seed_rule)
    source = "import torch\n\ntorch.manual_seed(args.seed)\nfor x in loader:\n    model(x).sum().backward()\n    optimizer.step()\n"
    result = fix_source(source, "train.py", Config(), select={"DLL501"})
    assert result.source.count("args.seed") == 2, result.source  # the seeding and one log line
    assert [f.code for f in result.remaining] == ["DLL501"]


def test_module_level_seeding_goes_below_the_import_it_uses():
    """A script that sets the environment before `import torch` (CUDA_VISIBLE_DEVICES,
    sys.path) must not get `torch.manual_seed` above that import."""
    source = textwrap.dedent(
        """\
        import os
        os.environ["CUDA_VISIBLE_DEVICES"] = "0"
        import torch
        import torch.nn as nn

        model = nn.Linear(4, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(10):
            loss = model(torch.randn(2, 4)).sum()
            loss.backward()
            opt.step()
            print(step, loss.item())
        torch.save(model.state_dict(), "model.pt")
        """
    )
    fixed = fix_source(source, "train.py", Config(), select={"DLL500"}).source
    lines = fixed.splitlines()
    seeding = next(i for i, line in enumerate(lines) if "manual_seed" in line)
    assert seeding > lines.index("import torch.nn as nn") and seeding < next(
        i for i, line in enumerate(lines) if line.startswith("model = ")
    ), fixed
    ast.parse(fixed)


def test_module_level_code_of_a_file_without_imports_stays_below_its_shebang_and_header():
    """A snippet with a shebang and no imports: the shebang stays line 1 and the device
    log comes after the logging header it uses."""
    source = (
        "#!/usr/bin/env python3\n# a snippet\n\n"
        'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
        "model = Net().to(device)\nfor x, y in loader:\n    loss = criterion(model(x.to(device)), y.to(device))\n"
        "    loss.backward()\n    optimizer.step()\n    print(loss.item())\n"
    )
    fixed = fix_source(source, "train.py", Config(), select={"DLL400"}).source
    lines = fixed.splitlines()
    assert lines[0] == "#!/usr/bin/env python3", fixed
    assert lines.index("logger = logging.getLogger(__name__)") < lines.index('logger.info("using device %s", device)'), fixed
