"""The engine's text gate: files that never mention deep learning are not analysed.

Every rule is about DL code. A data-prep or scikit-learn script, or a plain module, names no
DL library and makes no DL-only call; the engine returns no findings for it without building
the module facts. The gate errs only towards checking: a project's own vocabulary keeps it
open, and a parse error is still reported."""
from __future__ import annotations

import textwrap

from flake8_dllog.config import Config
from flake8_dllog.engine import check_source, mentions_deep_learning

ALL_CODES = frozenset(Config().catalog.rules)

DATA_SPLIT_SCRIPT = textwrap.dedent(
    """
    import argparse
    import random

    import numpy as np

    from utils import Splitter

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--seed", type=int, default=42)
        parser.add_argument("--data-dir", default="./data/")
        args = parser.parse_args()
        np.random.seed(args.seed)
        random.seed(args.seed)
        Splitter(args.data_dir, args.seed).save()
    """
)


def codes(source: str, config: Config | None = None) -> list[str]:
    result = check_source(source, "split.py", config or Config(), codes=ALL_CODES)
    return sorted(f.code for f in result.findings)


def test_a_script_without_deep_learning_gets_no_findings():
    assert codes(DATA_SPLIT_SCRIPT) == []


def test_the_same_script_seeding_torch_is_checked():
    source = DATA_SPLIT_SCRIPT.replace("import random\n", "import random\n\nimport torch\n").replace(
        "random.seed(args.seed)\n", "random.seed(args.seed)\n    torch.manual_seed(args.seed)\n"
    )
    assert "DLL501" in codes(source)


def test_a_parse_error_is_reported_whatever_the_file_mentions():
    assert codes("def broken(:\n    pass\n") == ["DLL001"]


def test_dl_library_words_and_dl_only_calls_open_the_gate():
    config = Config()
    for text in (
        "import torch\n",
        "from tensorflow import keras\n",
        "loss.backward()\n",
        "net.cuda()\n",
        "sd = model.state_dict()\n",
        "opt = SGD(model.parameters(), lr=0.1)\n",
        "class Net(nn.Module): pass\n",
        "cfg = compose(config_name='train'); trainer.fit(model)\n",
    ):
        assert mentions_deep_learning(text, config), text
    for text in ("import json\nprint(json.load(f))\n", '"""The parameters of the request."""\n'):
        assert not mentions_deep_learning(text, config), text


def test_a_project_vocabulary_entry_opens_the_gate_case_insensitively():
    config = Config(vocabulary_extra=(("training_update", ("**.Run_Batch",)),))
    assert mentions_deep_learning("runner.run_batch(b)\n", config)
    assert not mentions_deep_learning("runner.other(b)\n", config)


def test_extra_logging_vocabulary_cannot_open_the_gate():
    # More logging evidence can only silence a rule.
    config = Config(vocabulary_extra=(("logging_general", ("push_stats",)),))
    assert not mentions_deep_learning("push_stats(x)\n", config)


def test_a_pattern_with_no_literal_word_opens_the_gate_for_every_file():
    config = Config(vocabulary_extra=(("save", ("**.*",)),))
    assert mentions_deep_learning("x = 1\n", config)
